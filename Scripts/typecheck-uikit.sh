#!/usr/bin/env bash
# Type-checks ClosureKitUIKit on a machine without Apple's SDK, against the Objective-C stub SDK in
# Tests/StubSDK (headers + module maps for ObjectiveC, Foundation and UIKit, and two tiny Swift
# overlays): the layer's sources, then client files that use its public API (Tests/StubSDK/Usage),
# then negative controls (Tests/StubSDK/NegativeControl) that must each fail with the error they
# name. This is Swift's own type checker on hand-written headers, not Apple's SDK or compiler.
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

echo "==> building ClosureKit (the module the layer imports)"
swift build --target ClosureKit -Xswiftc -warnings-as-errors >/dev/null
modules="$(swift build --show-bin-path)/Modules"
[ -d "$modules" ] || modules="$(swift build --show-bin-path)"

echo "==> compiling the stub overlays (ObjectiveC, Foundation)"
swiftc -emit-module -module-name ObjectiveC -parse-as-library "${flags[@]}" \
  -emit-module-path "$work/overlays/ObjectiveC.swiftmodule" "$stub/Overlays/ObjectiveC.swift"
swiftc -emit-module -module-name Foundation -parse-as-library "${flags[@]}" \
  -emit-module-path "$work/overlays/Foundation.swiftmodule" "$stub/Overlays/Foundation.swift"

echo "    with $(swiftc --version 2>/dev/null | head -n 1)"

shopt -s nullglob globstar
fail() { echo "FAIL: $*" >&2; exit 1; }
sources=(Sources/ClosureKitUIKit/**/*.swift)
[ ${#sources[@]} -gt 0 ] || fail "no sources in Sources/ClosureKitUIKit"
canary="$stub/RequireStubUIKit.swift"
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
echo "==> type-checking ${#usage[@]} client files that use the public API as an app would:"
printf '    %s\n' "${usage[@]}"
swiftc -typecheck -module-name StubSDKUsage -parse-as-library "${flags[@]}" -warnings-as-errors \
  -I "$work/layer" -I "$modules" "$canary" "${usage[@]}"
echo "    ok"

echo "==> negative controls (a wrong selector, a nonisolated UIKit call, an ignored optional): each must fail"
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
