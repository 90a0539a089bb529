#!/usr/bin/env python3
"""Extracts the ```swift blocks of SwiftUIAndCombine.md and of ClosureKitSwiftUI's doc comments for
Scripts/typecheck-apple-sdk.sh: each block becomes the body of a `@MainActor` function of its own
file (a view or a model the block declares is a local type there), `import` lines dropped (every
file imports the modules an app screen would), `_ = name` after each top-level `let name`.

Usage: extract-swiftui-examples.py OUT_DIR SOURCE...   (prints how many blocks it wrote)
"""
import os
import re
import sys

IMPORTS = ["ClosureKit", "ClosureKitSwiftUI", "Combine", "Foundation", "SwiftUI"]


def blocks(path):
    in_block, start, body = False, 0, []
    for number, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        if path.endswith(".swift"):
            match = re.match(r"^\s*/// ?", line)
            if not match:
                if in_block:
                    sys.exit(f"FAIL: {path}:{number}: a doc comment ends inside a code block")
                continue
            line = line[match.end():]
        if not in_block and re.match(r"^\s*```swift\s*$", line):
            in_block, start, body = True, number, []
        elif in_block and re.match(r"^\s*```\s*$", line):
            in_block = False
            yield start, body
        elif in_block:
            body.append(line)
    if in_block:
        sys.exit(f"FAIL: unterminated code block in {path}")


def main():
    out, sources = sys.argv[1], sys.argv[2:]
    count = 0
    for source in sources:
        for start, body in blocks(source):
            count += 1
            code = [l for l in body if not re.match(r"^\s*import \w+", l)]
            names = [m.group(1) for l in code if (m := re.match(r"^let ([A-Za-z_]\w*)", l))]
            effects = (" async" if re.search(r"(^|[^\w])await ", "\n".join(code)) else "") + (
                " throws" if re.search(r"(^|[^\w])try[ ?!]", "\n".join(code)) else "")
            lines = [f"// Generated from {source}:{start} by Scripts/apple-sdk/extract-swiftui-examples.py"]
            lines += [f"import {m}" for m in IMPORTS]
            lines += ["", "@MainActor", f"func swiftUIExample{count}(){effects} {{", f'#sourceLocation(file: "{source}", line: {start + 1})']
            lines += ["  " + l for l in code]
            lines += ["#sourceLocation()"] + [f"  _ = {n}" for n in names] + ["}", ""]
            with open(os.path.join(out, f"example{count}.swift"), "w", encoding="utf-8") as f:
                f.write("\n".join(lines))
    print(f"    {count} blocks")


main()
