#!/usr/bin/env bash
# Compares every stub module with the module Apple's SDK really has, mechanically: a stub is a
# transcription and can be wrong (one was: pthread_create's start routine), and the always-on
# checks (Scripts/typecheck-apple.sh, Scripts/typecheck-uikit.sh) are only as right as the stubs.
#
# For each stub module, `swift-synthesize-interface` prints what Swift imports from it (the stub
# headers and, where there is one, the stub Swift overlay); it prints the same for the SDK's module
# (`-include-submodules`); Scripts/compare-stubs.py then fails on every stubbed declaration whose
# Swift signature differs from the SDK's (members of types included; typealias chains that end in
# the same type are equal). Compared:
#   Tests/AppleStubs/Darwin (+ Overlays/Darwin.swift)       with the SDK's Darwin
#   Tests/AppleStubs/ObjectiveC                              with the SDK's ObjectiveC
#   Tests/StubSDK/Headers ObjectiveC, CoreGraphics, Foundation, UIKit, MessageUI, WebKit
#   (+ Tests/StubSDK/Overlays)                               with the SDK's ObjectiveC, CoreGraphics
#                                                            and CoreFoundation (where the SDK puts
#                                                            the geometry types), Foundation, UIKit,
#                                                            MessageUI, WebKit (with its overlay)
# Both sides are synthesized for the SDK's target (arm64-apple-ios18.0). The stubs are read
# against the SDK's standard library alone (a directory holding only its Swift modules), so that no
# SDK module can stand in for a stub one.
#
# Usage: Scripts/compare-stubs.sh SDK_DIR (see Scripts/typecheck-apple-sdk.sh for getting an SDK)
set -euo pipefail
cd "$(dirname "$0")/.."

source Scripts/lib.sh
require_sdk Scripts/compare-stubs.sh "${1:-}"
target=arm64-apple-ios18.0
work=.build/compare-stubs
rm -rf "$work/stdlib-sdk" "$work/overlays" "$work/interfaces"
mkdir -p "$work/stdlib-sdk/usr/lib/swift" "$work/overlays/darwin" "$work/overlays/objc" "$work/interfaces" \
  "$work/resources/apinotes" "$work/module-cache"

toolchain="$(dirname "$(readlink -f "$(command -v swiftc)")")/.."
for folder in clang shims host; do
  ln -sfn "$toolchain/lib/swift/$folder" "$work/resources/$folder"
done
cp Scripts/apple-sdk/Dispatch.apinotes "$work/resources/apinotes/"
cp "$sdk"/SDKSettings.* "$work/stdlib-sdk/"
for module in Swift _Concurrency _StringProcessing SwiftOnoneSupport; do
  ln -sfn "$sdk/usr/lib/swift/$module.swiftmodule" "$work/stdlib-sdk/usr/lib/swift/$module.swiftmodule"
done

stubSide=(-sdk "$work/stdlib-sdk" -target "$target" -resource-dir "$work/resources" -module-cache-path "$work/module-cache/stubs")
sdkSide=(-sdk "$sdk" -target "$target" -resource-dir "$work/resources" -module-cache-path "$work/module-cache/sdk")

echo "==> $(swiftc --version 2>/dev/null | head -n 1); SDK $(basename "$sdk"), target $target"
echo "==> the stub overlays, for the stub side"
swiftc -frontend -emit-module -parse-as-library -module-name Darwin "${stubSide[@]}" -I Tests/AppleStubs/Darwin \
  -emit-module-path "$work/overlays/darwin/Darwin.swiftmodule" Tests/AppleStubs/Overlays/Darwin.swift
for module in ObjectiveC CoreGraphics Foundation; do
  swiftc -frontend -emit-module -parse-as-library -module-name "$module" "${stubSide[@]}" -I "$work/overlays/objc" \
    -I Tests/StubSDK/Headers -emit-module-path "$work/overlays/objc/$module.swiftmodule" "Tests/StubSDK/Overlays/$module.swift"
done

echo "==> synthesizing the stub interfaces"
synthesize() {
  local out=$1
  shift
  swift-synthesize-interface "$@" -o "$work/interfaces/$out.swift" || fail "could not synthesize $out"
}
synthesize stub-Darwin -module-name Darwin "${stubSide[@]}" -I "$work/overlays/darwin" -I Tests/AppleStubs/Darwin
synthesize stub-AppleObjectiveC -module-name ObjectiveC "${stubSide[@]}" -I Tests/AppleStubs/ObjectiveC
for module in ObjectiveC CoreGraphics Foundation UIKit MessageUI WebKit; do
  synthesize "stub-$module" -module-name "$module" "${stubSide[@]}" -I "$work/overlays/objc" -I Tests/StubSDK/Headers
done

# The SDK's interfaces take minutes and depend only on the SDK and the toolchain: kept per both,
# one file per module, moved into the cache only once synthesized whole.
sdkKey="$(printf '%s\n' "$sdk" "$(swiftc --version 2>&1 | head -n 1)" | cksum | cut -d ' ' -f 1)"
sdkInterfaces="$work/sdk-interfaces/$sdkKey"
mkdir -p "$sdkInterfaces"
sdkModules=(Darwin ObjectiveC CoreFoundation CoreGraphics Foundation UIKit MessageUI WebKit)
missing=()
for module in "${sdkModules[@]}"; do
  [ -f "$sdkInterfaces/sdk-$module.swift" ] || missing+=("$module")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "==> the SDK's interfaces, synthesized before for this SDK and toolchain ($sdkInterfaces)"
else
  echo "==> synthesizing the SDK's interfaces of ${missing[*]} (the others are kept in $sdkInterfaces)"
  for module in "${missing[@]}"; do
    synthesize "sdk-$module" -module-name "$module" -include-submodules "${sdkSide[@]}"
    mv "$work/interfaces/sdk-$module.swift" "$sdkInterfaces/"
  done
fi
for module in "${sdkModules[@]}"; do
  cp "$sdkInterfaces/sdk-$module.swift" "$work/interfaces/"
done

echo "==> comparing"
i="$work/interfaces"
status=0
compare() { python3 Scripts/compare-stubs.py "$@" || status=1; }
compare Darwin "$i/stub-Darwin.swift" -- "$i/sdk-Darwin.swift"
compare ObjectiveC "$i/stub-AppleObjectiveC.swift" "$i/stub-Darwin.swift" -- "$i/sdk-ObjectiveC.swift" "$i/sdk-Darwin.swift"
compare ObjectiveC "$i/stub-ObjectiveC.swift" -- "$i/sdk-ObjectiveC.swift" "$i/sdk-Darwin.swift"
geometry=("$i/sdk-CoreGraphics.swift" "$i/sdk-CoreFoundation.swift")
compare CoreGraphics "$i/stub-CoreGraphics.swift" -- "${geometry[@]}" "$i/sdk-Darwin.swift"
compare Foundation "$i/stub-Foundation.swift" "$i/stub-ObjectiveC.swift" "$i/stub-CoreGraphics.swift" -- \
  "$i/sdk-Foundation.swift" "${geometry[@]}" "$i/sdk-ObjectiveC.swift" "$i/sdk-Darwin.swift"
compare UIKit "$i/stub-UIKit.swift" "$i/stub-Foundation.swift" "$i/stub-ObjectiveC.swift" "$i/stub-CoreGraphics.swift" -- \
  "$i/sdk-UIKit.swift" "$i/sdk-Foundation.swift" "${geometry[@]}" "$i/sdk-ObjectiveC.swift" "$i/sdk-Darwin.swift"
uikitContext=("$i/stub-UIKit.swift" "$i/stub-Foundation.swift" "$i/stub-ObjectiveC.swift" "$i/stub-CoreGraphics.swift")
uikitSDK=("$i/sdk-UIKit.swift" "$i/sdk-Foundation.swift" "${geometry[@]}" "$i/sdk-ObjectiveC.swift" "$i/sdk-Darwin.swift")
compare MessageUI "$i/stub-MessageUI.swift" "${uikitContext[@]}" -- "$i/sdk-MessageUI.swift" "${uikitSDK[@]}"
compare WebKit "$i/stub-WebKit.swift" "${uikitContext[@]}" -- "$i/sdk-WebKit.swift" "${uikitSDK[@]}"
[ "$status" = 0 ] || fail "a stub declaration differs from Apple's SDK (above): fix the stub, citing the SDK header"

echo "==> negative control: the stub's pthread_create as it was before issue 26 must be found"
sed 's/(UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?, _: UnsafeMutableRawPointer?) -> Int32/(UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?, _: UnsafeMutableRawPointer?) -> Int32/' \
  "$i/stub-Darwin.swift" >"$i/control-Darwin.swift"
! cmp -s "$i/stub-Darwin.swift" "$i/control-Darwin.swift" || fail "the control found no pthread_create to change"
if python3 Scripts/compare-stubs.py Darwin "$i/control-Darwin.swift" -- "$i/sdk-Darwin.swift" >"$work/control.log"; then
  fail "the comparison accepted the wrong pthread_create, so it checks nothing"
fi
grep -q 'DIFFERS Darwin: func pthread_create' "$work/control.log" || fail "the control failed for another reason"
echo "    ok: DIFFERS Darwin: func pthread_create(_:_:_:_:)"
echo "Stub comparison passed: every stubbed declaration matches $(basename "$sdk")."
