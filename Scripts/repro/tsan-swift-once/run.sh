#!/usr/bin/env bash
# Runs main.swift (no ClosureKit) RUNS times under SANITIZER (default thread; "none" for a plain
# build), each with a 60 s deadline, and prints how long each took. Measured on Swift 6.3.1, Linux,
# 2 cores, 60 threads: 0.35 to 0.39 s plain, 28 to 59 s under ThreadSanitizer (7 runs).
# Usage: Scripts/repro/tsan-swift-once/run.sh [RUNS] [RACERS] [SANITIZER]
set -uo pipefail
cd "$(dirname "$0")"
runs=${1:-10} racers=${2:-60} sanitizer=${3:-thread}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=()
[ "$sanitizer" = none ] || flags=(-sanitize="$sanitizer")
swiftc "${flags[@]}" main.swift -o "$work/repro" || exit 2
hung=0
for run in $(seq 1 "$runs"); do
  if ! timeout 60 "$work/repro" "$racers" 2>&1 | tail -1; then
    hung=$((hung + 1))
    echo "run $run: did not finish in 60 s"
  fi
done
echo "$hung of $runs runs hung (sanitizer: $sanitizer, $racers racing threads)"
