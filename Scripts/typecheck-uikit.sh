#!/usr/bin/env bash
# Type-checks ClosureKitUIKit on a machine without Apple's SDK, against the Objective-C stub SDK in
# Tests/StubSDK (headers + module maps for ObjectiveC, Foundation and UIKit, and two tiny Swift
# overlays): ClosureKit as an Apple build sees it (its `canImport(ObjectiveC)` code, the NSObject
# conformances included, against the stub ObjectiveC), the layer's sources, then client files that
# use its public API (Tests/StubSDK/Usage) together with every ```swift block of
# Sources/ClosureKit/Documentation.docc/UIKit.md and of the layer's doc comments (extracted into
# methods of Tests/StubSDK/DocExamples/DocExampleContext.swift), then negative controls
# (Tests/StubSDK/NegativeControl) that must each fail with the error they name. This is Swift's
# own type checker on hand-written headers, not Apple's SDK or compiler.
# Usage: Scripts/typecheck-uikit.sh (prints what it checked; exits non-zero on any failure)
set -euo pipefail
cd "$(dirname "$0")/.."

stub=Tests/StubSDK
work=.build/stub-sdk
mkdir -p "$work/overlays" "$work/module-cache"
flags=(
  -swift-version 6
  -Xfrontend -enable-objc-interop
  -Xcc -fblocks
  -enable-upcoming-feature ExistentialAny
  -enable-upcoming-feature InternalImportsByDefault
  -enable-upcoming-feature MemberImportVisibility
  -module-cache-path "$work/module-cache"
  -I "$work/overlays"
  -I "$stub/Headers"
)

echo "==> compiling the stub overlays (ObjectiveC, CoreGraphics, Foundation)"
swiftc -emit-module -module-name ObjectiveC -parse-as-library "${flags[@]}" \
  -emit-module-path "$work/overlays/ObjectiveC.swiftmodule" "$stub/Overlays/ObjectiveC.swift"
swiftc -emit-module -module-name CoreGraphics -parse-as-library "${flags[@]}" \
  -emit-module-path "$work/overlays/CoreGraphics.swiftmodule" "$stub/Overlays/CoreGraphics.swift"
swiftc -emit-module -module-name Foundation -parse-as-library "${flags[@]}" \
  -emit-module-path "$work/overlays/Foundation.swiftmodule" "$stub/Overlays/Foundation.swift"

echo "    with $(swiftc --version 2>/dev/null | head -n 1)"

shopt -s nullglob globstar
source Scripts/lib.sh
canary="$stub/RequireStubUIKit.swift"

# ClosureKit as an app on Apple platforms links it: with Objective-C interop and the stub
# ObjectiveC, so that its `canImport(ObjectiveC)` code is compiled (AssociatedKey on the runtime,
# `extension NSObject: Configurable, DismissRequesting`) and the layer and the client files see
# those conformances. A Linux build of ClosureKit has none of them.
echo "==> ClosureKit with the stub ObjectiveC: the files with Objective-C branches, then the interface"
# `swiftc -frontend` (to type-check chosen files only) needs the macro plugins the driver would
# pass (Observation's @Observable).
toolchain="$(dirname "$(readlink -f "$(command -v swiftc)")")/.."
frontend=(-plugin-path "$toolchain/lib/swift/host/plugins" -plugin-path "$toolchain/local/lib/swift/host/plugins")
if [ -f "$toolchain/lib/swift/host/libSwiftInProcPluginServer.so" ]; then
  frontend+=(-in-process-plugin-server-path "$toolchain/lib/swift/host/libSwiftInProcPluginServer.so")
fi
kitFlags=(
  -swift-version 6 -package-name closurekit
  -enable-upcoming-feature ExistentialAny
  -enable-upcoming-feature InternalImportsByDefault
  -enable-upcoming-feature MemberImportVisibility
  -module-cache-path "$work/module-cache" -I "$work/overlays" -I "$stub/Headers"
)
split_objc_files
printf '    %s\n' "${objcFiles[@]/-primary-file/}" | grep -v '^ *$'
swiftc -frontend -typecheck "${frontend[@]}" -module-name ClosureKit -parse-as-library "${kitFlags[@]}" \
  -enable-objc-interop -Xcc -fblocks -warnings-as-errors -primary-file "$canary" \
  "${objcFiles[@]}" "${otherFiles[@]}"
mkdir -p "$work/kit"
swiftc -emit-module -module-name ClosureKit -parse-as-library "${kitFlags[@]}" -Xfrontend -enable-objc-interop \
  -Xcc -fblocks -Xfrontend -experimental-skip-all-function-bodies \
  -emit-module-path "$work/kit/ClosureKit.swiftmodule" "$canary" Sources/ClosureKit/**/*.swift
modules="$work/kit"
echo "    ok"
sources=(Sources/ClosureKitUIKit/**/*.swift)
[ ${#sources[@]} -gt 0 ] || fail "no sources in Sources/ClosureKitUIKit"
echo "==> type-checking the ${#sources[@]} files of ClosureKitUIKit against the stub SDK:"
printf '    %s\n' "${sources[@]}"
swiftc -typecheck -module-name ClosureKitUIKit -parse-as-library "${flags[@]}" -warnings-as-errors \
  -I "$modules" "$canary" "${sources[@]}"
# The interface only (no SIL: this stdlib has no Objective-C bridging runtime), for the client files.
mkdir -p "$work/layer"
swiftc -emit-module -module-name ClosureKitUIKit -parse-as-library "${flags[@]}" \
  -Xfrontend -experimental-skip-all-function-bodies \
  -I "$modules" -emit-module-path "$work/layer/ClosureKitUIKit.swiftmodule" "${sources[@]}"
echo "    ok: @objc representability, selectors, labels, optionality, main-actor isolation, Sendable"

usage=("$stub"/Usage/*.swift)
[ ${#usage[@]} -gt 0 ] || fail "no client files in $stub/Usage"
# Every ```swift block of UIKit.md and of the layer's doc comments, one generated file per source.
rm -rf "$work/doc-examples"
mkdir -p "$work/doc-examples"
extract_uikit_doc_blocks "$stub/DocExamples/extract-swift-blocks.awk" "$work/doc-examples"
markdownBlocks="$(grep -c '^ *```swift' Sources/ClosureKit/Documentation.docc/UIKit.md)"
[ "$markdownBlocks" -gt 0 ] || fail "no Swift code blocks found in UIKit.md"
examples=("$work"/doc-examples/*.swift)
echo "==> type-checking ${#usage[@]} client files that use the public API as an app would:"
printf '    %s\n' "${usage[@]}"
swiftc -typecheck -module-name StubSDKUsage -parse-as-library "${flags[@]}" -warnings-as-errors \
  -I "$work/layer" -I "$modules" "$canary" "${usage[@]}"
echo "    ok"
echo "==> type-checking the $blocks code blocks of UIKit.md ($markdownBlocks) and of ClosureKitUIKit's doc comments,"
echo "    each a method of $stub/DocExamples/DocExampleContext.swift (generated into $work/doc-examples):"
printf '    %s\n' "${docSources[@]}"
swiftc -typecheck -module-name DocExamples -parse-as-library "${flags[@]}" -warnings-as-errors \
  -I "$work/layer" -I "$modules" "$canary" "$stub/DocExamples/DocExampleContext.swift" "${examples[@]}"
echo "    ok"

echo "==> negative controls (a wrong selector, a nonisolated UIKit call, an ignored optional, a dialog closure"
echo "    moved to the main actor, a main-actor witness of MessageUI's nonisolated requirement): each must fail"
controls=("$stub"/NegativeControl/*.swift)
[ ${#controls[@]} -gt 0 ] || fail "no negative controls in $stub/NegativeControl"
for control in "${controls[@]}"; do
  if swiftc -typecheck -module-name NegativeControl -parse-as-library "${flags[@]}" -warnings-as-errors \
    -I "$modules" "$control" >"$work/negative.log" 2>&1; then
    fail "$control type-checked, so the stub SDK checks nothing"
  fi
  expected="$(sed -n 's|^// expected-error: ||p' "$control")"
  if [ -z "$expected" ] || ! grep -q -- "error: .*$expected" "$work/negative.log"; then
    echo "FAIL: $control failed, but not with the expected error '$expected':" >&2
    cat "$work/negative.log" >&2
    exit 1
  fi
  echo "    ok: $control was rejected: $(grep -m1 -o 'error: .*' "$work/negative.log")"
done
echo "UIKit layer type-check passed."
