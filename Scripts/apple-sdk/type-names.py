#!/usr/bin/env python3
"""Fails when a public type of ClosureKit's modules shares its name with a public type of SwiftUI,
Combine, UIKit, Foundation, Observation or the standard library: a file that imports both could not
write the name ("'Subscription' is ambiguous for type lookup in this context"). Run by
Scripts/typecheck-apple-sdk.sh after it emitted ClosureKit's modules into WORK/modules.

Names are read, not guessed: swift-api-digester dumps the Swift modules (ours, SwiftUI, Combine, the
standard library, Foundation's and UIKit's overlays; Observation, newer than the SDK, from
Scripts/apple-sdk/Observation.swift, our transcription of the toolchain's); swift-synthesize-interface
prints what Swift imports from Foundation's and UIKit's Objective-C headers, submodules included.
Negative control: a module declaring `public struct Binding {}` must be reported.

Usage: type-names.py --sdk SDK --work WORK -- COMPILER_FLAGS...   (the flags the check compiles with)
"""
import json
import os
import re
import subprocess
import sys

OURS = ["ClosureKit", "ClosureKitFoundation", "ClosureKitTesting", "ClosureKitUIKit", "ClosureKitSwiftUI"]
APPLE_SWIFT = ["SwiftUI", "Combine", "Swift", "Foundation", "UIKit", "Observation"]
APPLE_CLANG = ["Foundation", "UIKit"]
DIGESTER_FLAGS = {"-sdk", "-target", "-resource-dir", "-module-cache-path", "-I"}


def digester_flags(flags):
    out, i = [], 0
    while i < len(flags):
        if flags[i] in DIGESTER_FLAGS and i + 1 < len(flags):
            out += flags[i:i + 2]
            i += 2
        else:
            i += 1
    return out


def swift_type_names(module, flags, work):
    path = os.path.join(work, "type-names", f"{module}.json")
    subprocess.run(["swift-api-digester", "-dump-sdk", "-module", module, "-o", path] + flags, check=True,
                   stdout=subprocess.DEVNULL)
    children = json.load(open(path))["ABIRoot"].get("children", [])
    return {c["name"] for c in children
            if c["kind"] in ("TypeDecl", "TypeAlias") and not c.get("isExternal")
            and c.get("moduleName", module) == module and not c["name"].startswith("_")}


def clang_type_names(module, flags, work):
    path = os.path.join(work, "type-names", f"{module}-clang.swift")
    subprocess.run(["swift-synthesize-interface", "-include-submodules", "-module-name", module, "-o", path] + flags,
                   check=True)
    decl = re.compile(r"^(?:@\S+(?:\([^)]*\))? )*(?:open |public )?(?:final )?(?:class|struct|enum|protocol|typealias) (\w+)")
    return {m.group(1) for line in open(path, encoding="utf-8") if (m := decl.match(line))
            and not m.group(1).startswith("_")}


def collisions(ours, theirs):
    found = []
    for module, names in ours.items():
        for name in sorted(names):
            owners = sorted(m for m, n in theirs.items() if name in n)
            if owners:
                found.append(f"{module}.{name} collides with {', '.join(owners)}")
    return found


def main():
    args = sys.argv[1:]
    sdk = args[args.index("--sdk") + 1]
    work = args[args.index("--work") + 1]
    flags = digester_flags(args[args.index("--") + 1:])
    flags += ["-I", os.path.join(work, "modules")]
    os.makedirs(os.path.join(work, "type-names"), exist_ok=True)

    theirs = {}
    for module in APPLE_SWIFT:
        theirs.setdefault(module, set()).update(swift_type_names(module, flags, work))
    for module in APPLE_CLANG:
        theirs[module] |= clang_type_names(module, flags, work)
    for name in ["Binding", "Alert", "ActionSheet", "View", "Subscription", "Publisher", "URLSession", "UIButton"]:
        if not any(name in n for n in theirs.values()):
            sys.exit(f"FAIL: {name} not found among Apple's type names: the name reader reads nothing")
    ours = {m: swift_type_names(m, flags, work) for m in OURS}
    total = sum(len(n) for n in ours.values())
    print(f"    read {sum(len(n) for n in theirs.values())} Apple and standard-library type names "
          f"({', '.join(f'{m} {len(n)}' for m, n in theirs.items())}) and {total} of ours")

    control = os.path.join(work, "type-names", "CollisionControl.swift")
    with open(control, "w") as f:
        f.write("public struct Binding {}\n")
    subprocess.run(["swiftc", "-frontend", "-emit-module", "-parse-as-library", "-module-name", "CollisionControl",
                    "-emit-module-path", os.path.join(work, "modules", "CollisionControl.swiftmodule"), control]
                   + args[args.index("--") + 1:], check=True)
    found = collisions({"CollisionControl": swift_type_names("CollisionControl", flags, work)}, theirs)
    if not any("CollisionControl.Binding collides with SwiftUI" in f for f in found):
        sys.exit("FAIL: the negative control's Binding was not reported as a collision")
    print(f"    ok: negative control: {found[0]}")

    found = collisions(ours, theirs)
    if found:
        print("FAIL: public type names of ClosureKit's modules that Apple's modules also declare:", file=sys.stderr)
        for line in found:
            print(f"    {line}", file=sys.stderr)
        sys.exit(1)
    print(f"    ok: none of the {total} public type names of {', '.join(OURS)} collides")


main()
