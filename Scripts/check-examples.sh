#!/usr/bin/env bash
# Examples are tests: compiles every Swift code block of README.md, CONTRIBUTING.md, of the DocC articles and of the
# doc comments in Sources/ against the built modules, runs the README's example and compares its
# output with what its comments say. How blocks are wrapped and marked: Scripts/examples/check_examples.py.
# Usage: Scripts/check-examples.sh (prints each failing block's file:line and the compiler's error)
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --target ClosureKitFoundation >/dev/null
swift build --target ClosureKitTesting >/dev/null
# The loopback server the Getting Started article's program starts.
swift build --target ClosureKitTestServer >/dev/null
exec python3 Scripts/examples/check_examples.py "$(swift build --show-bin-path)"
