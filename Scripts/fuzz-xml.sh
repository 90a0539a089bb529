#!/usr/bin/env bash
# Fuzzes ClosureKit's XML parser (ClosureXMLParser over libxml2 on Linux) with libFuzzer for a
# bounded time: builds the Fuzz/ package (its own manifest, so the sanitizer flags never reach
# ClosureKit's) with -sanitize=fuzzer,address, then runs it on the seed corpus in Fuzz/Corpus plus a
# working corpus in .build/fuzz-work/corpus that grows across runs.
#
# The target (Fuzz/Sources/fuzz-xml) traps when an invariant breaks: an event after the end or
# after an error, not exactly one outcome (finished, stopped, or one XMLParsingError), or a failure
# on a document libxml2's own tree parser calls well-formed. A crash or a violated invariant leaves
# the input in .build/fuzz-work/crash-* and fails this script.
#
# Usage: Scripts/fuzz-xml.sh [seconds]   (default 60; prints executions and executions per second)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
work=.build/fuzz-work
mkdir -p "$work/corpus"

echo "==> building Fuzz/ (release, -sanitize=fuzzer,address)"
swift build -c release --package-path Fuzz --scratch-path .build/fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
binary="$(swift build -c release --package-path Fuzz --scratch-path .build/fuzz --show-bin-path)/fuzz-xml"

echo "==> fuzzing for ${seconds} s"
rm -f "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*
# Swift's own crash backtracer and ASan's report fight over a crashing process: ASan reports.
status=0
SWIFT_BACKTRACE=enable=no "$binary" -max_total_time="$seconds" -max_len=8192 -timeout=30 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$work/" "$work/corpus" Fuzz/Corpus >"$work/last-run.log" 2>&1 || status=$?
grep -E '^(#[0-9]+.*DONE|Done|stat::number_of_executed_units|stat::average_exec_per_sec|==[0-9]+==ERROR|SUMMARY)' \
  "$work/last-run.log" || true
if compgen -G "$work/crash-*" >/dev/null || compgen -G "$work/timeout-*" >/dev/null || [ "$status" -ne 0 ]; then
  echo "FAIL: the fuzzer found an input (exit $status); see $work/last-run.log and $work/crash-*" >&2
  exit 1
fi
echo "fuzz-xml: clean for ${seconds} s"
