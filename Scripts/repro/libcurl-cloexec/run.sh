#!/usr/bin/env bash
# Builds and runs main.swift (no ClosureKit); exits 1 when a socket URLSession opened is not
# close-on-exec. Usage: Scripts/repro/libcurl-cloexec/run.sh
set -uo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swiftc main.swift -o "$work/repro" || exit 2
"$work/repro"
