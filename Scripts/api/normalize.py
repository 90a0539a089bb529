#!/usr/bin/env python3
"""Turns a `swift-api-digester -dump-sdk` JSON dump into the text form of api/<Module>.txt.

Usage: normalize.py DUMP.json   (prints the text to standard output)

One line per public declaration, sorted, so a diff of two baselines reads as the API that changed:

    Event.send(_:) | Func | (Payload) -> () | <Payload where Payload : Swift.Sendable> | Final Inlinable

what is on it: the declaration's path and printed name, its kind, its signature (the parameter and
result types, with `= default` and `consuming` on parameters that have them), its generic signature,
its attributes, `static`, `throws`, `deprecated`, a type's conformances and superclass, a
property's accessors. Left out, because they say nothing about the source API or change with the
platform and the build: `package` declarations (the dump marks them isInternal), implicit ones,
imports, USRs, mangled names, file locations.
"""

import json
import sys

DECLS = {"TypeDecl", "Function", "Constructor", "Var", "TypeAlias", "AssociatedType", "Subscript", "OperatorDecl", "Macro"}


def type_text(node):
    text = node.get("printedName", "")
    if node.get("paramValueOwnership"):
        text = node["paramValueOwnership"].lower() + " " + text
    if node.get("hasDefaultArg"):
        text += " = default"
    return text


def signature(node):
    types = [c for c in node.get("children", []) if c.get("kind", "").startswith("Type")]
    kind = node["kind"]
    if kind in ("Function", "Constructor", "Subscript") and types:
        return "(" + ", ".join(type_text(t) for t in types[1:]) + ") -> " + type_text(types[0])
    if types:
        return type_text(types[0])
    return ""


def details(node):
    parts = []
    if node.get("genericSig"):
        parts.append(node["genericSig"])
    flags = []
    for key in ("static", "throwing", "deprecated", "isLet", "isEnumExhaustive", "protocolReq"):
        if node.get(key):
            flags.append(key)
    if node.get("funcSelfKind") and node["funcSelfKind"] != "NonMutating":
        flags.append(node["funcSelfKind"])
    if node.get("init_kind") and node["init_kind"] != "Designated":
        flags.append(node["init_kind"])
    flags += node.get("declAttributes", [])
    flags += node.get("typeAttributes", [])
    if flags:
        parts.append(" ".join(flags))
    if node.get("conformances"):
        parts.append(": " + ", ".join(sorted(c.get("printedName", c.get("name", "")) for c in node["conformances"])))
    if node.get("superclassNames"):
        parts.append("superclass " + node["superclassNames"][0])
    accessors = [a.get("accessorKind", a.get("name", "")) for a in node.get("accessors", []) if not a.get("isInternal")]
    if accessors:
        parts.append("{ " + " ".join(accessors) + " }")
    return parts


def walk(node, path, lines):
    for child in node.get("children", []):
        kind = child.get("kind")
        if kind not in DECLS or child.get("isInternal") or child.get("implicit"):
            continue
        name = ".".join(path + [child.get("printedName", child.get("name", ""))])
        fields = [name, child.get("declKind", kind), signature(child)] + details(child)
        lines.append(" | ".join(fields))
        if kind == "TypeDecl":
            walk(child, path + [child.get("name", "")], lines)


def main():
    dump = json.load(open(sys.argv[1]))
    lines = []
    walk(dump["ABIRoot"], [], lines)
    sys.stdout.write("\n".join(sorted(set(lines))) + "\n")


if __name__ == "__main__":
    main()
