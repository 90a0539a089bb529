#!/usr/bin/env python3
"""Compares a stub module's synthesized Swift interface with the real SDK's, declaration by
declaration. Used by Scripts/compare-stubs.sh; see there.

Usage: compare-stubs.py MODULE STUB_INTERFACE [STUB_CONTEXT...] -- SDK_INTERFACE...

STUB_CONTEXT: interfaces of the stub modules MODULE imports, read for their typealiases only.
SDK_INTERFACE: the SDK's interfaces of MODULE and of the modules it re-exports (a declaration a
stub puts in Foundation may live in CoreGraphics in the SDK); a stub declaration matches a
declaration of the same container and name in any of them.

Every declaration of the stub (top-level, and members of its types and extensions) must exist in
the SDK's interface with the same Swift signature. Declarations are matched by their container,
kind, name and argument labels; overloads match when any SDK overload has the same signature.
Before comparing, both sides are normalized: whitespace, `@available` attributes and C type
annotations (`@convention(c, cType: ...)`) are dropped, and typealias chains are resolved, so two
chains that end in the same type are equal. A type's own declaration matches when its attributes
match and the stub's superclass and conformances are among the SDK's (a stub may omit some).
Prints one line per difference and exits 1 if there is any.
"""
import re
import sys

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
DECL = re.compile(
    r"^(?P<mods>(?:(?:public|open|final|static|class|mutating|nonmutating|convenience|required|"
    r"optional|dynamic|override|nonisolated|indirect|unowned\(unsafe\)|weak|lazy)\s+)*)"
    r"(?P<kind>func|init\??|var|let|typealias|struct|class|enum|protocol|extension|case|subscript)\b"
    r"\s*(?P<rest>.*)$"
)
TYPE_KINDS = {"struct", "class", "enum", "protocol", "extension"}
GEOMETRY = {"CGPoint", "CGSize", "CGRect", "CGVector"}


def strip_ctype(text):
    # `@convention(c, cType: "void (*)(int)")` -> `@convention(c)`
    return re.sub(r'@convention\((\w+), cType: "(?:[^"\\]|\\.)*"\)', r"@convention(\1)", text)


MODULES = r"(?:Swift|ObjectiveC|Foundation|Darwin|UIKit|CoreGraphics|CoreFoundation|Dispatch|MessageUI|WebKit)"


def normalize(text):
    text = strip_ctype(text)
    text = re.sub(r"@available\([^)]*\)\s*", "", text)
    # Module qualifiers (`Foundation.NSKeyValueObservedChange`) name the same type.
    text = re.sub(r"\b" + MODULES + r"\.(?=[A-Z_])", "", text)
    # Internal parameter names (`_ name: String`, `_ str: String`) are invisible to callers.
    text = re.sub(r"([(,]\s*)([A-Za-z_`][A-Za-z0-9_`]*) [A-Za-z_`][A-Za-z0-9_`]*:", r"\1\2:", text)
    return re.sub(r"\s+", " ", text).strip()


def param_labels(params):
    """Argument labels of a parameter list's text (without the parentheses)."""
    labels, depth, current = [], 0, ""
    for ch in params:
        if ch in "([<{":
            depth += 1
        elif ch in ")]>}":
            depth -= 1
        if ch == "," and depth == 0:
            labels.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        labels.append(current)
    result = []
    for parameter in labels:
        head = parameter.split(":", 1)[0].strip().split()
        result.append((head[0] if head else "_") + ":")
    return "".join(result)


def matching_paren(text, start):
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return len(text) - 1


def declaration_key(kind, rest):
    if kind.startswith("init") or kind == "subscript":
        open_paren = rest.find("(")
        params = rest[open_paren + 1 : matching_paren(rest, open_paren)] if open_paren >= 0 else ""
        return f"{kind.rstrip('?')}({param_labels(params)})"
    name = IDENT.match(rest.lstrip("`"))
    name = name.group(0) if name else rest.split()[0]
    if kind == "func":
        open_paren = rest.find("(")
        generic = rest.find("<")
        params = rest[open_paren + 1 : matching_paren(rest, open_paren)] if open_paren >= 0 else ""
        if 0 <= generic < open_paren:
            name = rest[:generic].strip()
        else:
            name = rest[:open_paren].strip() if open_paren >= 0 else name
        return f"func {name}({param_labels(params)})"
    if kind == "case":
        return f"case {name}"
    return f"{kind} {name}"


def parse(path):
    """Returns {key: [signature, ...]} and {alias: target} for one synthesized interface."""
    decls, aliases = {}, {}
    stack, attributes = [], []
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    in_comment = False
    for raw in lines:
        line = raw.strip()
        if in_comment:
            in_comment = "*/" not in line
            continue
        if line.startswith("/*"):
            in_comment = "*/" not in line
            continue
        if not line or line.startswith("//"):
            continue
        if line == "}":
            if stack:
                stack.pop()
            continue
        if line.startswith("@") and not DECL.match(re.sub(r"^(@\w+(\([^)]*\))?\s*)+", "", line)):
            attributes.append(line)
            continue
        attrs = " ".join(a for a in attributes if not a.startswith("@available"))
        attributes = []
        inline_attrs = re.match(r"^((?:@\w+(?:\([^)]*\))?\s+)*)(.*)$", line)
        attrs = normalize(attrs + " " + inline_attrs.group(1))
        body = inline_attrs.group(2)
        match = DECL.match(body)
        opens = body.endswith("{") and not re.search(r"\{\s*(get|set|_read|_modify)", body)
        if not match:
            if opens:
                stack.append("?")
            continue
        kind, rest = match.group("kind"), match.group("rest")
        if opens:
            rest = rest[:-1].rstrip()
        key = declaration_key(kind, rest)
        container = ".".join(stack)
        signature = normalize(f"{attrs} {match.group('mods')}{kind} {rest}").replace(f"{kind} (", f"{kind}(")
        if kind == "typealias" and not stack:
            name, _, target = rest.partition("=")
            aliases[name.strip()] = target.strip()
        decls.setdefault(f"{container}::{key}", []).append((kind, signature))
        if opens:
            stack.append(key.split(" ", 1)[-1] if kind in TYPE_KINDS else key)
    return decls, aliases


def resolver(aliases):
    cache = {}

    def resolve(text, depth=0):
        if depth > 12:
            return text

        def substitute(match):
            word = match.group(0)
            if word in aliases and aliases[word] != word:
                if word not in cache:
                    cache[word] = resolve(aliases[word], depth + 1)
                return cache[word]
            return word

        return IDENT.sub(substitute, text)

    return resolve


def conformances(decls):
    """{type name: set of protocols} from every `extension T : P, Q` of an interface."""
    found = {}
    for key, signatures in decls.items():
        container, _, decl = key.partition("::")
        if container or not decl.startswith("extension "):
            continue
        for _, signature in signatures:
            _, _, inherits = signature.partition(" : ")
            names = [n.strip() for n in inherits.split(" where ")[0].split(",") if n.strip()]
            found.setdefault(decl.split(" ", 1)[1], set()).update(
                n.replace("@unchecked ", "") for n in names
            )
    return found


def type_header_ok(stub_sig, sdk_sig, extra=frozenset()):
    def split(signature):
        head, _, inherits = signature.partition(" : ")
        inherits = inherits.split(" where ")[0]
        return head.strip(), [name.strip() for name in inherits.split(",") if name.strip()]

    stub_head, stub_inherits = split(stub_sig)
    sdk_head, sdk_inherits = split(sdk_sig)
    if stub_head != sdk_head:
        return False
    available = {name.replace("@unchecked ", "") for name in sdk_inherits} | set(extra)
    return all(name.replace("@unchecked ", "") in available for name in stub_inherits)


def main():
    arguments = sys.argv[1:]
    split = arguments.index("--")
    module, stub_path, stub_context = arguments[0], arguments[1], arguments[2:split]
    stub, stub_aliases = parse(stub_path)
    for path in stub_context:
        stub_aliases = {**parse(path)[1], **stub_aliases}
    sdk, sdk_aliases = {}, {}
    for path in arguments[split + 1 :]:
        decls, aliases = parse(path)
        for key, signatures in decls.items():
            if path.endswith("sdk-CoreFoundation.swift") and key.split("::")[0] in GEOMETRY:
                # Printing CoreFoundation itself, the synthesizer cannot map the C typedef `CGFloat`
                # to the overlay's Swift `CGFloat` (the overlay is not loaded yet) and prints
                # `Double`; every other module's interface shows `CGFloat` (`UIView.alpha`).
                signatures = [(k, re.sub(r"\bDouble\b", "CGFloat", s)) for k, s in signatures]
            sdk.setdefault(key, []).extend(signatures)
        sdk_aliases.update(aliases)
    resolve_stub, resolve_sdk = resolver(stub_aliases), resolver(sdk_aliases)
    sdk_conformances = conformances(sdk)
    differences = 0
    compared = 0
    for key, stub_sigs in sorted(stub.items()):
        container, _, decl = key.partition("::")
        where = f"{module}: {container + '.' if container else ''}{decl}"
        if key not in sdk:
            print(f"MISSING {where}: the SDK has no such declaration")
            for _, signature in stub_sigs:
                print(f"    stub: {signature}")
            differences += 1
            continue
        sdk_sigs = sdk[key]
        for kind, signature in stub_sigs:
            compared += 1
            if kind in TYPE_KINDS:
                extra = sdk_conformances.get(decl.split(" ", 1)[1], set())
                if kind == "extension" or any(type_header_ok(signature, s, extra) for _, s in sdk_sigs):
                    continue
            else:
                if kind == "typealias":
                    mine = resolve_stub(signature.partition("=")[2])
                    theirs = [resolve_sdk(s.partition("=")[2]) for _, s in sdk_sigs]
                else:
                    mine = resolve_stub(signature)
                    theirs = [resolve_sdk(s) for _, s in sdk_sigs]
                if mine in theirs:
                    continue
            print(f"DIFFERS {where}")
            print(f"    stub: {signature}")
            for _, sdk_signature in sdk_sigs[:3]:
                print(f"    SDK:  {sdk_signature}")
            differences += 1
    print(f"{module}: {compared} stub declarations compared, {differences} differ from the SDK")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
