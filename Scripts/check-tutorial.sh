#!/usr/bin/env bash
# The Getting Started article shows the feedwatch program, not a copy that can drift from it: every
# ```swift block of Sources/ClosureKit/Documentation.docc/GettingStarted.md must appear, line for
# line (indentation and blank lines aside), in the program's sources under Examples/FeedWatch.
# Scripts/check-examples.sh compiles the blocks; .ci/run builds and runs the program.
# Usage: Scripts/check-tutorial.sh (names each block that is not in the program; exits non-zero then)
set -euo pipefail
cd "$(dirname "$0")/.."

exec python3 - Sources/ClosureKit/Documentation.docc/GettingStarted.md Examples/FeedWatch <<'PY'
import glob, os, re, sys

article, folder = sys.argv[1], sys.argv[2]

def normalized(lines):
    return [l.strip() for l in lines if l.strip()]

program = []
for path in sorted(glob.glob(os.path.join(folder, "**", "*.swift"), recursive=True)):
    program += normalized(open(path, encoding="utf-8").read().splitlines())

blocks, current, start = [], None, 0
for number, line in enumerate(open(article, encoding="utf-8").read().splitlines(), 1):
    if current is None and re.match(r"^\s*```swift\s*$", line):
        current, start = [], number + 1
    elif current is not None and re.match(r"^\s*```\s*$", line):
        blocks.append((start, normalized(current)))
        current = None
    elif current is not None:
        current.append(line)

def contains(haystack, needle):
    return any(haystack[i : i + len(needle)] == needle for i in range(len(haystack) - len(needle) + 1))

missing = [start for start, block in blocks if block and not contains(program, block)]
for start in missing:
    print(f"{article}:{start}: this block is not in the program under {folder}", file=sys.stderr)
if not blocks:
    print(f"{article}: no swift blocks found", file=sys.stderr)
    sys.exit(1)
if missing:
    sys.exit(1)
print(f"ok: the {len(blocks)} swift blocks of {article} are the program's code")
PY
