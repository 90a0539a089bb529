#!/usr/bin/env bash
# Benchmark regression guard (issue 17): builds Benchmarks/ in release mode, runs its `guard` suite
# (the core event rows and the Observed write, each ratio against a baseline of the same run,
# measured in interleaved rounds and taking the fastest round) and fails when a row exceeds its
# limit.
#
# A limit is the row's target plus 10 %, the noise measured on the 2-core CI machine while loaded;
# the registration rows, noisier (NotificationCenter, their baseline, varies by process), have
# 20 %: with a fuzzer and a profiler running beside it, a CI run measured add + cancel at 0.274,
# queue 0.312 and owner 0.491, against 0.248, 0.284 and 0.448 on the idle machine.
# A row whose target is not met yet is guarded at the level reached plus 15 %, and printed as such,
# so that it cannot get much worse unnoticed (re-levelled on 2026-12-02 after the sixth pass:
# owner 0.322, bag-of-10 0.265; add-cancel-queue 0.245, control-add-remove 0.235 and
# observed-observe-cancel 0.247 meet their target and have the registration rows' 20 % over it). The memory rows do not vary between runs (±0.1 byte): they are guarded at the level
# reached plus about 6 %.
# Every row's timed loop is the code under test and its baseline, nothing else (issue 36): each
# loop is written out in its closure, which the harness calls once per round (TimedLoop in
# Benchmarks/Sources/closurekit-bench/Harness.swift). Until 2026-12-05 the harness called a closure
# per iteration and the Observed write stepped a captured, heap-boxed counter: that added the same
# few nanoseconds to a row and its baseline and hid the ratio (observed-write measured 1.96 that
# way and 3.2 to 3.5 as a tight loop). The limits below were re-set on 2026-12-05 against the
# tight loops (two guard runs and three guard-send processes, load average 14 to 35 on 2 cores):
# send-1 2.42 to 2.52, send-10 1.31, send-100 1.11 (targets 2.30, 1.25, 1.10, not met: limits the
# level reached plus about 10 %); observed-write 3.24 to 3.35 (target 3.00, not met; limit 3.90,
# the 3.55 measured on another run plus 10 %).
# Second pass of 2026-12-05 (issue 38, idle machine): send-1 2.23 to 2.28 and observed-write 2.48
# to 2.59 meet their targets, so their limits are the target plus 10 % (2.53, 3.30); send-10 and
# send-100 (1.22 to 1.27, 1.02 to 1.07) keep their limits.
# send-N-mutex (Event.send against the multicast a user writes instead, a Mutex<[closure]> whose
# send copies the array under the lock and calls it outside): 0.99 to 1.19 / 1.02 to 1.07 / 0.89
# to 0.91 for 1 / 10 / 100 handlers, target 1.10, limit that plus 10 %.
# send-10-work (issue 29: ten handlers that each do an atomic add on a captured counter, against
# the same closures in an array) measured 1.22 to 1.26 as tight loops, under its 1.40 target,
# which is its limit.
# The async rows (issue 29): xml-events-10mb and xml-bytes-events-10mb (the byte-sequence form,
# 0.88 to 1.02 in three runs) are guarded at their target plus 10 %; values-drain,
# measured at 0.01 (AsyncStream suspends once per element, Event.values takes every waiting value
# in one lock round), at 0.10, so that losing the batch path (back to about 1.0) or a lock round per
# element (about 0.05 to 0.1 at most) fails; values-ping-pong, whose median ratio moved between
# 0.63 and 1.14 from run to run on the loaded 2-core machine (the code before issue 29: 0.88 to
# 1.17), at 1.45, so that only a real regression fails it.
# See Benchmarks/README.md for the numbers behind each limit.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --package-path Benchmarks >/dev/null
bin="$(swift build -c release --package-path Benchmarks --show-bin-path)/closurekit-bench"
# NotificationCenter's add + remove, the registration rows' baseline, costs 540 to 1,170 ns from
# one process to the next (Swift's per-process random hashing seed is part of it: with a fixed seed
# it varied less, 540 to 870 ns), and a ClosureKit row can be 20 % slower in one process than in
# the others (ControlActions measured 182 ns in one of three, 151 ns in the other two). So the
# registration rows are measured in three more processes of their own, and each row counts at its
# fastest against NotificationCenter at its fastest (`guard-ns` lines): a baseline slow by chance
# flatters no ratio, and a row slow by chance in one process fails no run.
# The async forms (issue 29) in one process of their own, about ten seconds: a 10 MB document's
# events against the callback form (wall time, fastest of 15 interleaved rounds; the byte form 5), Event.values
# drained against AsyncStream, and a ping-pong whose guard value is the median of 31 rounds' own
# ratios (a round trip is two thread wake-ups, which load delays at random).
# The XML events row (`guard-best xml-events-10mb`) is measured in 15 rounds in the `guard-async`
# process and in two more of their own (`guard-xml`, about 5 seconds each), and counts at its best:
# with 5 rounds in one process, a CI run measured 1.80 where the idle machine measures 1.05 to 1.38
# (the XMLParser row of the same pipeline, interleaved with it, measured 1.10 in that run).
# The send rows (`guard-best` lines) are measured in the `guard` process and in two more of their
# own, and each counts at its best: one process in two or three measured send-10 10 % above the
# others on the idle machine (1.19, 1.26 and 1.31 in runs of one binary).
output=$(
  SWIFT_DETERMINISTIC_HASHING=1 "$bin" guard
  for _ in 1 2; do SWIFT_DETERMINISTIC_HASHING=1 "$bin" guard-send; done
  for _ in 1 2 3; do SWIFT_DETERMINISTIC_HASHING=1 "$bin" guard-registration; done
  SWIFT_DETERMINISTIC_HASHING=1 "$bin" guard-async
  for _ in 1 2; do SWIFT_DETERMINISTIC_HASHING=1 "$bin" guard-xml; done
)
printf '%s\n' "$output" | grep -v '^guard'
printf '%s\n' "$output" | grep '^guard-best' | sed 's/^/  /'

# key                 limit   target  (ratios, or bytes per handler for memory-*)
limits='
send-1                  2.53    2.30
send-10                 1.45    1.25
send-100                1.22    1.10
send-1-mutex            1.21    1.10
send-10-mutex           1.21    1.10
send-100-mutex          1.21    1.10
send-10-work            1.40    1.40
add-cancel              0.33    0.30
add-cancel-owner        0.44    0.40
add-cancel-queue        0.33    0.30
control-add-remove      0.40    0.36
bag-of-10               0.40    0.36
observed-observe-cancel 0.30    0.25
observed-write          3.30    3.00
memory-dropped          77      75
memory-kept             88      100
xml-events-10mb         1.65    1.50
xml-bytes-events-10mb   1.65    1.50
values-drain            0.10    0.25
values-ping-pong        1.45    1.10
'

printf '%s\n' "$output" | awk -v limits="$limits" '
  BEGIN {
    n = split(limits, lines, "\n")
    for (i = 1; i <= n; i++) {
      if (split(lines[i], f, " ") == 3) { limit[f[1]] = f[2]; target[f[1]] = f[3]; order[++count] = f[1] }
    }
  }
  $1 == "guard" { if (!($2 in value) || $3 + 0 > value[$2] + 0) value[$2] = $3 }
  $1 == "guard-best" { if (!($2 in value) || $3 + 0 < value[$2] + 0) value[$2] = $3 }
  $1 == "guard-ns" { if (!($2 in fastest) || $3 + 0 < fastest[$2] + 0) fastest[$2] = $3 }
  END {
    for (key in fastest) if (key != "baseline" && fastest["baseline"] > 0) value[key] = fastest[key] / fastest["baseline"]
    failed = 0
    printf "\n%-23s %10s %8s %8s  %s\n", "guard row", "measured", "limit", "target", "verdict"
    for (i = 1; i <= count; i++) {
      key = order[i]
      if (!(key in value)) { printf "%-23s %10s %8s %8s  MISSING\n", key, "-", limit[key], target[key]; failed = 1; continue }
      verdict = value[key] + 0 <= limit[key] + 0 ? "ok" : "REGRESSION"
      if (verdict == "ok" && value[key] + 0 > target[key] + 0) verdict = "ok (target not met yet)"
      if (verdict == "REGRESSION") failed = 1
      printf "%-23s %10.3f %8s %8s  %s\n", key, value[key], limit[key], target[key], verdict
    }
    exit failed
  }'
