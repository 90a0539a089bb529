#!/usr/bin/env bash
# Runs main.swift (no ClosureKit) RUNS times under ThreadSanitizer, each with a deadline; prints how
# many runs hung. Usage: Scripts/repro/tsan-swift-once/run.sh [RUNS] [CHURN] [RACERS] [SANITIZER]
set -uo pipefail
cd "$(dirname "$0")"
runs=${1:-20} churn=${2:-2000} racers=${3:-200} sanitizer=${4:-thread}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swiftc -O -sanitize="$sanitizer" main.swift -o "$work/repro" || exit 2
hung=0
for run in $(seq 1 "$runs"); do
  if ! timeout 60 "$work/repro" "$churn" "$racers" >"$work/out" 2>&1; then
    hung=$((hung + 1))
    echo "run $run: did not finish in 60 s ($(tail -1 "$work/out"))"
  fi
done
echo "$hung of $runs runs hung (sanitizer: $sanitizer, $churn churned threads, $racers racers)"
