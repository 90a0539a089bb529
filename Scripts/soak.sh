#!/usr/bin/env bash
# The randomized soak (issue 28): closurekit-soak drives every source at once from 8 threads with a
# seeded random mix and checks a model after every step (Tests/Support/Soak/main.swift says what).
# Runs it for SECONDS plain, then for SECONDS under ThreadSanitizer. A failure prints its seed;
# replay it with `SOAK_SEED=<seed> Scripts/soak.sh SECONDS`.
# Usage: Scripts/soak.sh [SECONDS]   (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
seed=(); [ -z "${SOAK_SEED:-}" ] || seed=(--seed "$SOAK_SEED")

echo "==> closurekit-soak, ${seconds} s, plain"
swift build --product closurekit-soak -Xswiftc -warnings-as-errors
"$(swift build --show-bin-path)/closurekit-soak" --seconds "$seconds" --threads 8 "${seed[@]}"

echo "==> closurekit-soak, ${seconds} s, under ThreadSanitizer"
swift build --product closurekit-soak --sanitize=thread --scratch-path .build/tsan -Xswiftc -warnings-as-errors
TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}" \
  "$(swift build --sanitize=thread --scratch-path .build/tsan --show-bin-path)/closurekit-soak" \
  --seconds "$seconds" --threads 8 "${seed[@]}"
