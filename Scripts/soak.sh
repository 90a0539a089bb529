#!/usr/bin/env bash
# The randomized soaks (issue 28), for a bounded time, each with a seeded random mix checked against
# a model after every step; a failure prints its seed.
#   1. closurekit-soak (Tests/Support/Soak): every source at once from 8 threads (events with plain,
#      owner-bound, bagged, once and queued handlers; a two-way Observed binding; delayed work on a
#      ManualClock and on the real clock; dialogs on the scripted presenter), for SECONDS. Replay:
#      SOAK_SEED=<seed> Scripts/soak.sh SECONDS MODE.
#   2. SoakTests (Tests/ClosureKitTests/SoakTests.swift): events, owners, bags, bound Observed boxes
#      and timers on a ManualClock, alone in its process, for SECONDS / 2. Replay:
#      CLOSUREKIT_SOAK_SEED=<seed>.
# Both also check that the process's descriptors and threads do not grow.
#
# Usage: Scripts/soak.sh [seconds] [plain|thread]   (defaults: 60, plain)
#   plain   the debug build (.build)
#   thread  under ThreadSanitizer (--scratch-path .build/tsan, as .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
mode="${2:-plain}"
case "$mode" in
  plain) flags=() ;;
  thread) flags=(--sanitize=thread --scratch-path .build/tsan) ;;
  *) echo "usage: Scripts/soak.sh [seconds] [plain|thread]" >&2; exit 2 ;;
esac
seed=()
[ -z "${SOAK_SEED:-}" ] || seed=(--seed "$SOAK_SEED")

echo "==> closurekit-soak, ${seconds} s, ${mode}"
swift build "${flags[@]}" --product closurekit-soak -Xswiftc -warnings-as-errors
# The soak's own watchdog stops it 60 s after its end; this one stops a hung process.
TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}" timeout "$((seconds + 300))" \
  "$(swift build "${flags[@]}" --show-bin-path)/closurekit-soak" --seconds "$seconds" --threads 8 "${seed[@]}"

echo "==> SoakTests, $((seconds / 2)) s, ${mode}"
# The watchdog inside the test fails it 30 s after the soak's end; this one stops a hung process.
export CLOSUREKIT_SOAK_SECONDS="$((seconds / 2))"
timeout "$((seconds + 600))" swift test "${flags[@]}" --filter 'SoakTests' 2>&1 | tee .build/soak-"$mode".txt
grep -q 'Test run with 1 test .* passed' .build/soak-"$mode".txt
