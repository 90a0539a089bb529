#!/usr/bin/env bash
# The randomized soak (Tests/ClosureKitTests/SoakTests.swift), alone, for a bounded time: eight
# threads drive events, owners, bags, bound Observed boxes and timers on a ManualClock at once,
# checking a model after every step; alone, it also checks that the process's descriptors and
# threads do not grow. A failure prints its seed; CLOSUREKIT_SOAK_SEED=<seed> replays each thread's
# sequence of operations.
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

# The watchdog inside the test fails it 30 s after the soak's end; this one stops a hung process.
export CLOSUREKIT_SOAK_SECONDS="$seconds"
timeout "$((seconds + 600))" swift test "${flags[@]}" --filter 'SoakTests' 2>&1 | tee .build/soak-"$mode".txt
grep -q 'Test run with 1 test .* passed' .build/soak-"$mode".txt
