#!/usr/bin/env bash
# Runs one libFuzzer target of the Fuzz/ package for a bounded time: builds the package (its own
# manifest, so the sanitizer flags never reach ClosureKit's) with -sanitize=fuzzer,address, then
# runs the target on its seed corpus plus a working corpus in .build/fuzz-work/<target>/corpus that
# grows across runs. A crash, a violated invariant (the targets trap) or a time-out leaves the input
# in .build/fuzz-work/<target>/ and fails this script.
#
# Usage: Scripts/fuzz.sh <target> <seed corpus> <max input length> [seconds]   (default 60)
# The targets have scripts of their own: Scripts/fuzz-xml.sh and Scripts/fuzz-terminal.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
target="$1"
seeds="$2"
max_len="$3"
seconds="${4:-60}"
work=".build/fuzz-work/$target"
mkdir -p "$work/corpus"

echo "==> building Fuzz/ (release, -sanitize=fuzzer,address)"
swift build -c release --package-path Fuzz --scratch-path .build/fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
binary="$(swift build -c release --package-path Fuzz --scratch-path .build/fuzz --show-bin-path)/$target"

echo "==> fuzzing $target for ${seconds} s"
rm -f "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*
# Swift's own crash backtracer and ASan's report fight over a crashing process: ASan reports.
status=0
SWIFT_BACKTRACE=enable=no "$binary" -max_total_time="$seconds" -max_len="$max_len" -timeout=30 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$work/" "$work/corpus" "$seeds" >"$work/last-run.log" 2>&1 || status=$?
grep -E '^(#[0-9]+.*DONE|Done|stat::number_of_executed_units|stat::average_exec_per_sec|==[0-9]+==ERROR|SUMMARY)' \
  "$work/last-run.log" || true
if compgen -G "$work/crash-*" >/dev/null || compgen -G "$work/timeout-*" >/dev/null || [ "$status" -ne 0 ]; then
  echo "FAIL: the fuzzer found an input (exit $status); see $work/last-run.log and $work/crash-*" >&2
  exit 1
fi
echo "$target: clean for ${seconds} s"
