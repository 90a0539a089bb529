#!/usr/bin/env bash
# Fuzzes ClosureKit's XML parser (ClosureXMLParser over libxml2 on Linux) with libFuzzer for a
# bounded time (Scripts/fuzz.sh does the work), on the seed corpus in Fuzz/Corpus.
#
# The target (Fuzz/Sources/fuzz-xml) traps when an invariant breaks: an event after the end or
# after an error, not exactly one outcome (finished, stopped, or one XMLParsingError), or a failure
# on a document libxml2's own tree parser calls well-formed. A crash or a violated invariant leaves
# the input in .build/fuzz-work/fuzz-xml/crash-* and fails this script.
#
# Usage: Scripts/fuzz-xml.sh [seconds]   (default 60; prints executions and executions per second)
set -euo pipefail
exec "$(dirname "$0")/fuzz.sh" fuzz-xml Fuzz/Corpus 8192 "${1:-60}"
