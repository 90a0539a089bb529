#!/usr/bin/env bash
# Prints the number of documented registration entry points, counted as CONTRIBUTING.md's
# "Registration entry points" section says: the non-deprecated `public` functions and
# initialisers of the four library modules (ClosureKit, ClosureKitFoundation, ClosureKitUIKit,
# ClosureKitTesting) that take an `@escaping` closure and return a `HandlerSubscription` or a
# `ClosureTimer` (an initialiser of `ClosureTimer` returns one; `HandlerSubscription`'s own initialiser
# is not a registration), one per declaration. The
# `register(once:on:file:line:_:)` primitives, which take a `SourceHandler`, are not counted.
#
# CONTRIBUTING.md's "before" (66) is this count on e7182e9, the tree before issue 27's HandlerSource.
#
# Usage: Scripts/count-entry-points.sh [--list]
#   --list   also prints each counted declaration as `file:line: name` (to stderr).
set -euo pipefail
cd "$(dirname "$0")/.."
LIST=0
[[ "${1:-}" == "--list" ]] && LIST=1
exec python3 - "$LIST" <<'PY'
import os, re, sys

list_them = sys.argv[1] == "1"
modules = ["Sources/ClosureKit", "Sources/ClosureKitFoundation",
           "Sources/ClosureKitUIKit", "Sources/ClosureKitTesting"]
decl_start = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*'
                        r'(?:(?:nonisolated|static|class|final|override|convenience|mutating)\s+)*'
                        r'public\s+(?:(?:nonisolated|static|class|final|override|convenience|mutating)\s+)*'
                        r'(func\s+[^\s(<]+|init[?!]?)')
count = 0
for module in modules:
    for root, _, files in sorted(os.walk(module)):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(root, name)
            lines = open(path, encoding="utf-8").read().split("\n")
            # The type an extension or declaration is in, for initialisers.
            enclosing = []  # stack of (depth, type name)
            depth = 0
            i = 0
            while i < len(lines):
                line = lines[i]
                code = re.sub(r'//.*', '', line)
                m = decl_start.match(code)
                if m:
                    # Gather the declaration up to its body's `{` (or its end, for requirements).
                    text, j, parens = "", i, 0
                    while j < len(lines):
                        part = re.sub(r'//.*', '', lines[j])
                        stop = False
                        for ch in part:
                            if ch in "([<":
                                parens += 1
                            elif ch in ")]>":
                                parens -= 1
                            elif ch == "{" and parens <= 0:
                                stop = True
                                break
                            text += ch
                        text += " "
                        if stop:
                            break
                        j += 1
                    # Attributes above the declaration (up to its doc comment, a blank line or code).
                    k, attrs = i - 1, ""
                    while k >= 0:
                        above = lines[k].strip()
                        if not above or above.startswith("//") or above.endswith(("{", "}")):
                            break
                        attrs = above + " " + attrs
                        k -= 1
                    attrs += code
                    deprecated = re.search(r'@available\(\s*\*\s*,\s*deprecated', attrs) is not None
                    kind = m.group(1)
                    returns = re.search(r'->\s*(?:sending\s+)?([A-Za-z_.]+)\s*(?:where\b.*)?$', text.strip())
                    ret = returns.group(1) if returns else ""
                    if kind.startswith("init"):
                        owner = enclosing[-1][1] if enclosing else ""
                        ret = owner
                    counted = ("@escaping" in text and not deprecated
                               and (ret.split(".")[-1] == "ClosureTimer"
                                    or (ret.split(".")[-1] == "HandlerSubscription" and not kind.startswith("init")))
                               and not kind.startswith("func register"))
                    if counted:
                        count += 1
                        if list_them:
                            label = kind if not kind.startswith("init") else ret + "." + kind
                            print(f"{path}:{i + 1}: {label}", file=sys.stderr)
                # Track the enclosing type by brace depth.
                t = re.match(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public\s+|internal\s+|private\s+|fileprivate\s+)?'
                             r'(?:final\s+)?(?:extension|class|struct|enum|actor)\s+([A-Za-z_.]+)', code)
                for ch in re.sub(r'"[^"]*"', '', code):
                    if ch == "{":
                        depth += 1
                        if t and not any(d == depth for d, _ in enclosing):
                            enclosing.append((depth, t.group(1)))
                            t = None
                    elif ch == "}":
                        while enclosing and enclosing[-1][0] >= depth:
                            enclosing.pop()
                        depth -= 1
                i += 1
print(count)
PY
