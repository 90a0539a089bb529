#!/usr/bin/env bash
# Fuzzes TerminalPresenter's reading of what the user types with libFuzzer for a bounded time
# (Scripts/fuzz.sh does the work), on the seed corpus in Fuzz/CorpusTerminal: keystrokes on a
# pseudo-terminal in raw mode (arrow keys, escape sequences, line editing) and lines from a pipe,
# for dialogs of every shape.
#
# The target (Fuzz/Sources/fuzz-terminal) traps when the answer breaks the presenter's contract (a
# button out of range or disabled for the values returned, a value missing for a text field) or
# when no answer comes once the input has ended. A crash or a violated invariant leaves the input
# in .build/fuzz-work/fuzz-terminal/crash-* and fails this script.
#
# Usage: Scripts/fuzz-terminal.sh [seconds]   (default 60)
set -euo pipefail
exec "$(dirname "$0")/fuzz.sh" fuzz-terminal Fuzz/CorpusTerminal 1025 "${1:-60}"
