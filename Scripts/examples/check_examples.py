#!/usr/bin/env python3
"""Compiles every Swift code example of ClosureKit's documentation; see Scripts/check-examples.sh.

Usage: check_examples.py BIN_PATH   (BIN_PATH: `swift build --show-bin-path`, with the modules built)

Where examples come from: every ```swift block of README.md, CONTRIBUTING.md and of the DocC articles
(Sources/*/Documentation.docc/*.md), and every ```swift block of a `///` doc comment in Sources/.

How a block is checked, by its kind:
- snippet (the default): the body of a `throws` method of `ExampleSelf` (`async` when it uses `await`), a stand-in for the
  `self` of the examples, in one module with Scripts/examples/Context.swift (every ClosureKit module
  and Foundation imported; the stand-ins the examples use, like `widget` or `store`). All snippets
  are type-checked together, by one swiftc invocation. The stand-ins a source file's examples share
  (`let event = Event<String>()` for Event.swift) are in Scripts/examples/Preambles.swift, under
  `// MARK: <path>` (or `// MARK: <path>:<line>` for one block, instead of its file's); each snippet runs in a `do {}`
  inside them, so it may redeclare a name. A preamble line `@MainActor` makes the function
  main-actor isolated, for examples that run on the main actor.
- file: a whole main.swift of its own module, with Context.swift's stand-ins (less those the block
  declares itself) in a second file. A block that starts with `import` gets only the imports it
  writes, so a missing import fails; other blocks with a declaration that cannot be local
  (`extension`, `protocol`, `@Observable`, `@main`) get Context.swift's imports.
- run: a file that is also linked, run, and whose standard output must be exactly the lines its
  `// prints "…"` comments quote, in order (`// prints "a", then "b"` is two lines).
- member (the default for a block of `static` declarations): declarations that belong in a type (`static let title = AssociatedKey<String>()`), put in
  an enum of their own in the snippets' module.
- manifest: the argument list of `Package(name:…)`, type-checked against PackageDescription.
- fails: a mistake the documentation shows on purpose; it must NOT compile, and the compiler's
  error must contain the text the marker quotes: `<!-- example: fails "can not be mutated" -->`.
  Type-checked as a file, with Context.swift.
- skip: not compiled; the marker says why.

A marker is an HTML comment on the lines right before the opening fence (in a doc comment, on `///`
lines), which DocC and GitHub do not render:

    <!-- example: run -->
    <!-- example: skip the output of a terminal session, not Swift -->
    <!-- example: snippet
    let downloadView = DownloadView()      (hidden preamble: code the reader does not see)
    -->

UIKit blocks (UIKit.md, Sources/ClosureKitUIKit) are skipped without a marker: there is no UIKit
here; Scripts/typecheck-uikit.sh type-checks that layer against the stub SDK. So are the SwiftUI and
Combine blocks (SwiftUIAndCombine.md, Sources/ClosureKitSwiftUI): Scripts/typecheck-apple-sdk.sh
type-checks them against Apple's own SDK.

Scripts/examples/NegativeControls.md holds blocks that must be reported (a type error, a wrong
`// prints` comment, a `fails` block that compiles, a missing Linux import): the check fails if one
of them is not, so a checker that silently stopped checking cannot pass.

Diagnostics point at the block's own file and line (through #sourceLocation). Warnings are errors,
except unused or never-mutated variables, which a short example often has.
"""

import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from glob import glob

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CONTEXT = os.path.join(ROOT, "Scripts", "examples", "Context.swift")
PREAMBLES = os.path.join(ROOT, "Scripts", "examples", "Preambles.swift")
MODULES = ["ClosureKit", "ClosureKitFoundation", "ClosureKitTesting"]
ALLOWED_WARNINGS = re.compile(
    r"was never used|was never mutated|never used; consider|was written to, but never read"
)
FENCE_OPEN = re.compile(r"^\s*```swift\s*$")
FENCE_CLOSE = re.compile(r"^\s*```\s*$")
MARKER = re.compile(r"<!--\s*example:\s*(\w+)\s*(.*?)\s*(-->)?\s*$")
NON_LOCAL = re.compile(r"^(@\w+(\([^)]*\))?\s+)*(extension|protocol|@Observable|@main)\b|^@Observable", re.M)


class Block:
    def __init__(self, path, line, code, marker_lines):
        self.path, self.line, self.code = path, line, code  # line: of the first code line
        self.kind, self.reason, self.preamble = None, "", []
        self.parse_marker(marker_lines)
        self.imports = [l for l in code if re.match(r"^\s*(@\w+ )?import \w+", l)]
        if self.kind is None:
            if self.is_uikit():
                self.kind, self.reason = "skip", "UIKit (Scripts/typecheck-uikit.sh)"
            elif self.is_swiftui():
                self.kind, self.reason = "skip", "SwiftUI and Combine (Scripts/typecheck-apple-sdk.sh)"
            elif all(re.match(r"^(static |//|\s*$)", l) for l in code):
                self.kind = "member"
            elif self.imports or NON_LOCAL.search("\n".join(code)):
                self.kind = "file"
            else:
                self.kind = "snippet"

    def is_uikit(self):
        return self.path.endswith("UIKit.md") or self.path.startswith("Sources/ClosureKitUIKit/")

    def is_swiftui(self):
        return self.path.endswith("SwiftUIAndCombine.md") or self.path.startswith("Sources/ClosureKitSwiftUI/")

    def parse_marker(self, lines):
        # `lines`: the non-blank lines right above the fence; the marker is the last one there.
        for start in range(len(lines) - 1, -1, -1):
            match = MARKER.search(lines[start])
            if not match:
                continue
            self.kind, self.reason = match.group(1), match.group(2)
            if not match.group(3):  # a multi-line marker: its hidden preamble runs to `-->`
                self.reason = ""
                for line in lines[start + 1 :]:
                    if line.strip() == "-->":
                        break
                    self.preamble.append(line)
            break
        if self.kind not in (None, "snippet", "member", "file", "run", "manifest", "fails", "skip"):
            raise SystemExit(f"{self.where()}: unknown example kind {self.kind!r}")

    def where(self):
        return f"{self.path}:{self.line}"

    def expected_output(self):
        lines = []
        for code in self.code:
            match = re.search(r"//\s*prints\b(.*)$", code)
            if match:
                lines += re.findall(r'"((?:[^"\\]|\\.)*)"', match.group(1))
        return lines


def markdown_blocks(path):
    lines = open(os.path.join(ROOT, path)).read().split("\n")
    return fenced(path, lines)


def doc_comment_blocks(path):
    lines = open(os.path.join(ROOT, path)).read().split("\n")
    stripped = []
    for line in lines:
        match = re.match(r"^\s*/// ?(.*)$", line)
        stripped.append(match.group(1) if match else None)
    return fenced(path, stripped)


def fenced(path, lines):
    """The ```swift blocks of `lines` (None: a line outside any doc comment)."""
    blocks, i = [], 0
    while i < len(lines):
        line = lines[i]
        if line is not None and FENCE_OPEN.match(line):
            indent = len(line) - len(line.lstrip())
            j = i + 1
            while lines[j] is None or not FENCE_CLOSE.match(lines[j]):
                j += 1
            code = [l[indent:] if l is not None else "" for l in lines[i + 1 : j]]
            above, k = [], i - 1
            while k >= 0 and lines[k] is not None and lines[k].strip() != "":
                above.insert(0, lines[k])
                k -= 1
            blocks.append(Block(path, i + 2, code, above))
            i = j + 1
        else:
            i += 1
    return blocks


def collect():
    os.chdir(ROOT)
    blocks = markdown_blocks("README.md") + markdown_blocks("CONTRIBUTING.md")
    for path in sorted(glob("Sources/*/Documentation.docc/*.md")):
        blocks += markdown_blocks(path)
    for path in sorted(glob("Sources/**/*.swift", recursive=True)):
        blocks += doc_comment_blocks(path)
    return blocks


def located(block, lines=None):
    code = block.code if lines is None else lines
    return [f'#sourceLocation(file: "{block.path}", line: {block.line})', *code, "#sourceLocation()"]


def header_imports():
    text = open(CONTEXT).read()
    return [l for l in text.split("\n") if re.match(r"^\s*((#if|#endif|#else|#elseif)\b|(@preconcurrency )?import )", l)]


def system_library_flags(link):
    """The package's system-library targets (libxml2 on Linux): their module maps under Sources/ and
    pkg-config's flags for the manifest's `pkgConfig:` names, as SwiftPM passes them."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    flags = []
    for modulemap in sorted(glob(os.path.join(root, "Sources", "*", "module.modulemap"))):
        flags += ["-I", os.path.dirname(modulemap)]
    manifest = open(os.path.join(root, "Package.swift")).read()
    for package in re.findall(r'pkgConfig:\s*"([^"]+)"', manifest):
        if shutil_which("pkg-config") is None:
            continue
        cflags = subprocess.run(["pkg-config", "--cflags", package], capture_output=True, text=True)
        if cflags.returncode != 0:
            continue
        for flag in cflags.stdout.split():
            flags += ["-Xcc", flag]
        if link:
            flags += subprocess.run(["pkg-config", "--libs", package], capture_output=True, text=True).stdout.split()
    return flags


def swiftc(bin_path, args):
    command = ["swiftc", "-swift-version", "6", "-diagnostic-style", "llvm", "-I", os.path.join(bin_path, "Modules")]
    command += system_library_flags(link="-o" in args)
    result = subprocess.run(command + args, capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


def diagnostics(output):
    """The errors and disallowed warnings of a compiler output, each with its source lines."""
    found, current = [], None
    for line in output.split("\n"):
        match = re.match(r"^(.*?):(\d+):(\d+): (error|warning): (.*)$", line)
        if match:
            current = None
            if match.group(4) == "warning" and ALLOWED_WARNINGS.search(match.group(5)):
                continue
            current = [line]
            found.append(current)
        elif current is not None and re.match(r"^.*?:\d+:\d+: note:", line):
            current.append(line)
        elif current is not None and line.strip() and not re.match(r"^\S+:\d+:\d+:", line):
            current.append(line)
        else:
            current = None
    return found


def preambles():
    """Scripts/examples/Preambles.swift: hidden preambles by `// MARK: path` or `// MARK: path:line`."""
    sections, current, previous_was_mark = {}, None, False
    for line in open(PREAMBLES).read().split("\n"):
        match = re.match(r"^// MARK: (\S+)\s*$", line)
        if match:
            # A `// MARK:` right under another one shares its preamble (one block, several files).
            if not previous_was_mark:
                current = []
            sections[match.group(1)] = current
        elif current is not None:
            current.append(line)
        previous_was_mark = bool(match)
    return sections


def uses_await(lines):
    return any(re.search(r"\bawait\b", l) for l in lines)


def check_snippets(bin_path, blocks, work):
    files = [CONTEXT]
    shared = preambles()
    imports = header_imports()
    for index, block in enumerate(blocks):
        body = [l for l in block.code if not re.match(r"^import \w+", l)]
        if block.kind == "member":
            source = imports + [f"enum ExampleMembers{index} {{", *block.preamble, *located(block, body), "}"]
            path = os.path.join(work, f"Snippet{index}.swift")
            open(path, "w").write("\n".join(source) + "\n")
            files.append(path)
            continue
        hidden = shared.get(block.where(), shared.get(block.path, [])) + block.preamble
        isolation = ""
        if any(l.strip() == "@MainActor" for l in hidden):
            isolation = "@MainActor "
            hidden = [l for l in hidden if l.strip() != "@MainActor"]
        source = imports + [
            "extension ExampleSelf {",
            f"  {isolation}func example{index}() {'async ' if uses_await(body + hidden) else ''}throws {{",
            *hidden,
            "do {",
            *located(block, body),
            "}",
            "  }",
            "}",
        ]
        path = os.path.join(work, f"Snippet{index}.swift")
        open(path, "w").write("\n".join(source) + "\n")
        files.append(path)
    status, output = swiftc(bin_path, ["-typecheck", "-wmo", "-module-name", "Snippets", "-parse-as-library", *files])
    found = diagnostics(output)
    if status != 0 and not found:
        found = [[output]]
    return found


DECLARATION = re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+|final\s+|private\s+)*(?:class|struct|enum|actor|protocol|let|var|func|typealias)\s+(\w+)")


def context_without(names, folder):
    """Context.swift without its top-level declarations of `names` (the block declares its own)."""
    chunks, current = [], []
    for line in open(CONTEXT).read().split("\n"):
        if line and not line[0].isspace() and line[0] not in "}#)" and not line.startswith("//"):
            chunks.append(current)
            current = []
        current.append(line)
    chunks.append(current)
    kept = []
    for chunk in chunks:
        first = next((l for l in chunk if l and not l.startswith("//") and not l.startswith("///")), "")
        match = DECLARATION.match(first)
        if not (match and match.group(1) in names):
            kept += chunk
    path = os.path.join(folder, "Context.swift")
    open(path, "w").write("\n".join(kept) + "\n")
    return path


def file_source(block, folder):
    if block.kind == "run":
        return block.preamble + located(block), []
    names = {m.group(1) for m in (DECLARATION.match(l) for l in block.code) if m}
    imports = [] if block.imports else header_imports()
    return imports + block.preamble + located(block), [context_without(names, folder)]


def check_file(bin_path, block, work, index):
    folder = os.path.join(work, f"file{index}")
    os.makedirs(folder)
    lines, extra = file_source(block, folder)
    main = os.path.join(folder, "main.swift")
    open(main, "w").write("\n".join(lines) + "\n")
    if block.kind == "fails":
        status, output = swiftc(bin_path, ["-typecheck", "-module-name", f"Example{index}", main, *extra])
        expected = re.fullmatch(r'"(.*)"', block.reason.strip())
        if not expected:
            return [[f'{block.where()}: error: a `fails` example names the error it expects: fails "…"']]
        errors = [d[0] for d in diagnostics(output) if ": error: " in d[0]]
        if status == 0 or not any(expected.group(1) in e for e in errors):
            return [[f"{block.where()}: error: this example must fail with {expected.group(0)}", *errors]]
        return []
    if block.kind != "run":
        status, output = swiftc(bin_path, ["-typecheck", "-module-name", f"Example{index}", main, *extra])
        found = diagnostics(output)
        return found or ([[output]] if status != 0 else [])
    objects = []
    for module in MODULES:
        if any(re.match(rf"^import {module}\s*$", l) for l in block.code + block.preamble):
            objects += glob(os.path.join(bin_path, f"{module}.build", "*.o"))
            if module != "ClosureKit":
                objects += glob(os.path.join(bin_path, "ClosureKit.build", "*.o"))
    executable = os.path.join(folder, "example")
    status, output = swiftc(bin_path, [main, *extra, *sorted(set(objects)), "-o", executable])
    found = diagnostics(output)
    if found or status != 0:
        return found or [[output]]
    try:
        run = subprocess.run([executable], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return [[f"{block.where()}: error: the example did not finish within 60 s"]]
    actual = run.stdout.rstrip("\n").split("\n") if run.stdout else []
    expected = block.expected_output()
    problems = []
    if run.returncode != 0:
        problems.append([f"{block.where()}: error: the example exited with status {run.returncode}", run.stderr])
    if actual != expected:
        problems.append(
            [
                f"{block.where()}: error: the output is not what the `// prints` comments say",
                "    expected: " + repr(expected),
                "    printed:  " + repr(actual),
            ]
        )
    return problems


def check_manifest(block, work, index):
    manifest_api = os.path.join(os.path.dirname(os.path.dirname(shutil_which("swiftc"))), "lib", "swift", "pm", "ManifestAPI")
    folder = os.path.join(work, f"manifest{index}")
    os.makedirs(folder)
    body = [l for l in block.code if not l.lstrip().startswith("// Package.swift")]
    lines = [
        "import PackageDescription",
        "let package = Package(",
        '  name: "App",',
        *block.preamble,
        *body,
        ")",
    ]
    path = os.path.join(folder, "Package.swift")
    first = 4 + len(block.preamble)  # the line of the block's first kept line in Package.swift
    skipped = len(block.code) - len(body)
    open(path, "w").write("\n".join(lines) + "\n")
    result = subprocess.run(
        ["swiftc", "-typecheck", "-swift-version", "6", "-diagnostic-style", "llvm", "-I", manifest_api,
         "-Xfrontend", "-package-description-version", "-Xfrontend", "6.2", path],
        capture_output=True,
        text=True,
    )
    output = re.sub(
        re.escape(path) + r":(\d+):",
        lambda m: f"{block.path}:{block.line + skipped + int(m.group(1)) - first}:",
        result.stdout + result.stderr,
    )
    found = diagnostics(output)
    return found or ([[output]] if result.returncode != 0 else [])


def shutil_which(name):
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        candidate = os.path.join(folder, name)
        if os.access(candidate, os.X_OK):
            return os.path.realpath(candidate)
    raise SystemExit(f"{name} not found")


KINDS = ("snippet", "member", "file", "run", "manifest", "fails", "skip")
NEGATIVE_CONTROLS = "Scripts/examples/NegativeControls.md"


def check(bin_path, blocks, work):
    """The problems of `blocks`: all snippets in one module, every other block on its own."""
    by_kind = {kind: [b for b in blocks if b.kind == kind] for kind in KINDS}
    failures = []
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        snippets = by_kind["snippet"] + by_kind["member"]
        snippet_result = pool.submit(check_snippets, bin_path, snippets, work) if snippets else None
        files = [
            pool.submit(check_file, bin_path, b, work, i)
            for i, b in enumerate(by_kind["file"] + by_kind["run"] + by_kind["fails"])
        ]
        manifests = [pool.submit(check_manifest, b, work, i) for i, b in enumerate(by_kind["manifest"])]
        if snippet_result:
            failures += snippet_result.result()
        for future in files + manifests:
            failures += future.result()
    return by_kind, failures


def check_negative_controls(bin_path, work):
    """Each block of NegativeControls.md must be reported, with the text its `<!-- expect: -->` names."""
    problems = []
    text = open(os.path.join(ROOT, NEGATIVE_CONTROLS)).read().split("\n")
    blocks = markdown_blocks(NEGATIVE_CONTROLS)
    for index, block in enumerate(blocks):
        above = text[: block.line - 2]
        expected = next(
            (m.group(1) for m in (re.search(r'<!--\s*expect:\s*"(.*)"\s*-->', l) for l in reversed(above)) if m), None
        )
        if expected is None:
            problems.append([f"{block.where()}: error: a negative control names the problem it expects"])
            continue
        folder = os.path.join(work, f"negative{index}")
        os.makedirs(folder)
        _, found = check(bin_path, [block], folder)
        if not any(expected in line for diagnostic in found for line in diagnostic):
            problems.append(
                [f"{block.where()}: error: negative control not caught: expected a problem with {expected!r}"]
                + [line for diagnostic in found for line in diagnostic]
            )
    return len(blocks), problems


def main():
    bin_path = sys.argv[1]
    blocks = collect()
    with tempfile.TemporaryDirectory(prefix="closurekit-examples-") as work:
        by_kind, failures = check(bin_path, blocks, work)
        controls, control_problems = check_negative_controls(bin_path, work)
    uikit = sum(1 for b in by_kind["skip"] if b.is_uikit() and b.reason.startswith("UIKit"))
    print(
        f"examples: {len(blocks)} blocks: {len(by_kind['snippet']) + len(by_kind['member'])} snippets (one module), "
        f"{len(by_kind['file'])} files, {len(by_kind['run'])} run and output-checked, "
        f"{len(by_kind['manifest'])} manifest, {len(by_kind['fails'])} that must fail to compile; skipped {uikit} "
        f"UIKit blocks (type-checked by Scripts/typecheck-uikit.sh) and {len(by_kind['skip']) - uikit} marked skip"
    )
    for block in by_kind["skip"]:
        if not block.is_uikit():
            print(f"  skipped {block.where()}: {block.reason}")
    print(f"examples: {controls - len(control_problems)} of {controls} negative controls caught ({NEGATIVE_CONTROLS})")
    failures += control_problems
    if failures:
        print(f"\n{len(failures)} problems:", file=sys.stderr)
        for diagnostic in failures:
            print("\n".join(diagnostic), file=sys.stderr)
        sys.exit(1)
    print("examples: ok")


if __name__ == "__main__":
    main()
