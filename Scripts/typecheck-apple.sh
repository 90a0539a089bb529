#!/usr/bin/env bash
# Type-checks the Apple branches of every module on Linux: the `#if canImport(Darwin)` and
# `#if canImport(ObjectiveC)` code that Linux builds never compile.
#
# A stub `Darwin` module on `-I` (Tests/AppleStubs/Darwin, declarations transcribed from Apple's
# libpthread, xnu and Libc headers) makes `canImport(Darwin)` true, so every Darwin-first
# conditional selects its Apple branch; a stub `ObjectiveC` (Tests/AppleStubs/ObjectiveC, from
# objc4) does the same for `canImport(ObjectiveC)`. Glibc stays importable (Synchronization and
# Observation need it), which is why every conditional must test Darwin first.
#
# Checked, each with warnings as errors:
#   ClosureKit            every file with Darwin; the files with Objective-C branches (AssociationStorage
#                         on the runtime, `extension NSObject: Configurable, DismissRequesting`)
#                         also against the stub ObjectiveC
#   ClosureKitTesting     every file, against that ClosureKit
#   ClosureKitFoundation, ClosureKitTestServer, closurekit-demo
#                         their Platform/ files against the stub Darwin; their other files with
#                         `canImport(Darwin)` true against Linux's Foundation (not Apple's)
#   ClosureKitUIKit       every file, against Tests/StubSDK's UIKit and a ClosureKit whose Apple
#                         branches (and NSObject conformances) are selected; then the client files
#                         in Tests/AppleStubs/Usage (the NSObject conformances used from UIKit code)
# then the negative controls in Tests/AppleStubs/NegativeControl, which must each fail with the
# error they name. Files under a Platform/ folder must not import Foundation: on Linux it
# re-exports Glibc, which would hide a declaration missing from the stub.
#
# This is Swift's type checker against transcribed headers, not Apple's SDK or compiler: see
# CONTRIBUTING.md's "Platforms" section for what it does not prove.
# Usage: Scripts/typecheck-apple.sh (prints what it checked; exits non-zero on any failure)
set -euo pipefail
cd "$(dirname "$0")/.."

stubs=Tests/AppleStubs
work=.build/apple-stubs
rm -rf "$work"
mkdir -p "$work/overlays" "$work/module-cache" "$work/plain" "$work/linux" "$work/linux-above" "$work/uikit-overlays" "$work/uikit"
shopt -s nullglob globstar
source Scripts/lib.sh

# The stub overlays are compiled with `base`; ClosureKit's modules with `common` (one package).
base=(
  -swift-version 6
  -enable-upcoming-feature ExistentialAny
  -enable-upcoming-feature InternalImportsByDefault
  -enable-upcoming-feature MemberImportVisibility
  -module-cache-path "$work/module-cache"
)
common=("${base[@]}" -package-name closurekit)
darwin=(-I "$work/overlays" -I "$stubs/Darwin")
# `swiftc -frontend` (used to type-check chosen files only) needs the macro plugins the driver
# would pass (Observation's @Observable).
toolchain="$(dirname "$(readlink -f "$(command -v swiftc)")")/.."
frontend=(-plugin-path "$toolchain/lib/swift/host/plugins" -plugin-path "$toolchain/local/lib/swift/host/plugins")
if [ -f "$toolchain/lib/swift/host/libSwiftInProcPluginServer.so" ]; then
  frontend+=(-in-process-plugin-server-path "$toolchain/lib/swift/host/libSwiftInProcPluginServer.so")
fi
canary="$stubs/RequireAppleStubs.swift"
objcCanary="$stubs/RequireObjectiveCStub.swift"

echo "==> $(swiftc --version 2>/dev/null | head -n 1)"
echo "==> the stub Darwin overlay (errno, fcntl, ioctl, TIOCGWINSZ as Apple's overlay declares them)"
swiftc -emit-module -module-name Darwin -parse-as-library "${base[@]}" -I "$stubs/Darwin" \
  -emit-module-path "$work/overlays/Darwin.swiftmodule" "$stubs/Overlays/Darwin.swift"

echo "==> every platform conditional tests Darwin first"
# An `#if` whose first condition is a Linux platform and that has an `#elseif` or `#else` (a
# Linux-only `#if os(Linux) ... #endif` is fine).
linuxFirst="$(find . -name .build -prune -o -name .swiftpm -prune -o -name '*.swift' -print0 | xargs -0 awk '
  FNR == 1 { depth = 0 }
  /^[ \t]*#if[ \t]/ { depth++; first[depth] = ($0 ~ /canImport\((Glibc|Musl|Android)\)|os\(Linux\)/) ? FNR : 0; next }
  /^[ \t]*#(elseif|else)([ \t]|$)/ { if (first[depth]) { print FILENAME ":" first[depth]; first[depth] = 0 }; next }
  /^[ \t]*#endif/ { depth-- }
')"
[ -z "$linuxFirst" ] || fail "these conditionals test a Linux platform before Darwin: $linuxFirst"
echo "    ok"

echo "==> platform seams import no Foundation (it re-exports Glibc on Linux)"
platformFiles=(Sources/*/Platform/**/*.swift Tests/Support/*/Platform/**/*.swift)
[ ${#platformFiles[@]} -gt 0 ] || fail "no Platform/ files"
if grep -nE '^\s*(@[A-Za-z_]+ )*(public |package |internal )?import Foundation' "${platformFiles[@]}"; then
  fail "a Platform/ file imports Foundation"
fi
printf '    ok: %s\n' "${platformFiles[@]}"

# check MODULE FLAGS OUT FILES...: type-checks MODULE (every function body) with the flags in the
# array named FLAGS; if OUT is not empty, then emits its interface into $work/OUT for the modules
# that import it (declarations only: no SIL, which for Objective-C interop needs Apple's runtime).
check() {
  local module=$1 out=$3
  local -n moduleFlags=$2
  shift 3
  [ $# -gt 0 ] || fail "no sources for $module"
  echo "==> $module: type-checking $# files with the Apple branches selected"
  swiftc -typecheck -module-name "$module" -parse-as-library "${common[@]}" "${moduleFlags[@]}" \
    -warnings-as-errors "$@"
  if [ -n "$out" ]; then
    swiftc -emit-module -module-name "$module" -parse-as-library "${common[@]}" "${moduleFlags[@]}" \
      -Xfrontend -experimental-skip-all-function-bodies \
      -emit-module-path "$work/$out/$module.swiftmodule" "$@"
  fi
  echo "    ok"
}

# ClosureKit with Darwin: every function body.
kitFlags=("${darwin[@]}")
check ClosureKit kitFlags plain "$canary" Sources/ClosureKit/**/*.swift

# ClosureKit with Darwin and ObjectiveC, the module an iOS or macOS app links: the bodies of the
# files with `canImport(ObjectiveC)` code, the rest for their declarations. (With Objective-C
# interop, Linux's standard library lacks the intrinsics of `&value` pointer arguments, so the
# files that use them are checked above, where they do not differ.)
split_objc_files
echo "==> ClosureKit: type-checking the $((${#objcFiles[@]} / 2)) files with Objective-C branches against the stub ObjectiveC:"
printf '    %s\n' "${objcFiles[@]/-primary-file/}" | grep -v '^ *$'
swiftc -frontend -typecheck "${frontend[@]}" -module-name ClosureKit -parse-as-library "${common[@]}" "${darwin[@]}" \
  -enable-objc-interop -Xcc -fblocks -I "$stubs/ObjectiveC" -warnings-as-errors \
  "${objcFiles[@]}" -primary-file "$objcCanary" "$canary" "${otherFiles[@]}"
echo "    ok"

# ClosureKitTesting imports no Foundation: every body, against that ClosureKit.
aboveFlags=("${darwin[@]}" -I "$work/plain")
check ClosureKitTesting aboveFlags "" "$canary" Sources/ClosureKitTesting/**/*.swift

# The modules that import Foundation: Linux's Foundation re-exports Glibc, whose C structs clash
# with the stub's in one Clang instance, so each is checked in two parts.
# 1. Its Platform/ files (every OS call), every body, against the stub Darwin, without Foundation.
# 2. Every other file, every body, with `canImport(Darwin)` true (an empty Darwin module) so their
#    Darwin conditionals select the Apple branch, against corelibs Foundation (not Apple's) and a
#    ClosureKit built for Linux (same public API but the NSObject conformances); Platform/ files
#    only for their declarations.
selector=(-I "$stubs/DarwinSelector")
echo "==> ClosureKit and ClosureKitTesting: the interfaces built for Linux, for part 2"
mkdir -p "$work/linux"
swiftc -emit-module -module-name ClosureKit -parse-as-library "${common[@]}" \
  -Xfrontend -experimental-skip-all-function-bodies -emit-module-path "$work/linux/ClosureKit.swiftmodule" \
  Sources/ClosureKit/**/*.swift
swiftc -emit-module -module-name ClosureKitTesting -parse-as-library "${common[@]}" -I "$work/linux" \
  -Xfrontend -experimental-skip-all-function-bodies -emit-module-path "$work/linux/ClosureKitTesting.swiftmodule" \
  Sources/ClosureKitTesting/**/*.swift
# Linux builds also see the package's system-library targets (a module map under Sources/, with
# the C flags pkg-config gives for the manifest's `pkgConfig:` names, as SwiftPM passes them).
linuxKit=(-I "$work/linux")
for map in Sources/*/module.modulemap; do linuxKit+=(-I "$(dirname "$map")"); done
for package in $(sed -n 's/.*pkgConfig: *"\([^"]*\)".*/\1/p' Package.swift); do
  if command -v pkg-config >/dev/null && pkg-config --exists "$package"; then
    for flag in $(pkg-config --cflags "$package"); do linuxKit+=(-Xcc "$flag"); done
  fi
done
checkWithFoundation() {
  local module=$1 directory=$2 parse=$3 emit=$4
  local seam=() primaries=() platformDecls=()
  for file in "$directory"/**/*.swift; do
    if [[ "$file" == */Platform/* ]]; then
      seam+=("$file")
      platformDecls+=("$file")
    else
      primaries+=(-primary-file "$file")
    fi
  done
  [ ${#seam[@]} -gt 0 ] || fail "$module has no Platform/ files"
  echo "==> $module, part 1: type-checking its ${#seam[@]} Platform/ files against the stub Darwin"
  swiftc -typecheck -module-name "$module" -parse-as-library "${common[@]}" "${darwin[@]}" -I "$work/plain" \
    -warnings-as-errors "$canary" "${seam[@]}"
  echo "    ok"
  echo "==> $module, part 2: type-checking its $((${#primaries[@]} / 2)) other files with canImport(Darwin) true"
  # Apple's Foundation has XMLParser and URLSession itself; on Linux they are in FoundationXML and
  # FoundationNetworking, imported here into every file so that Apple-only `import Foundation`
  # branches see them.
  swiftc -frontend -typecheck "${frontend[@]}" -module-name "$module" $parse "${common[@]}" "${selector[@]}" \
    -import-module FoundationXML -import-module FoundationNetworking "${linuxKit[@]}" \
    -I "$work/linux-above" -warnings-as-errors -primary-file "$canary" "${primaries[@]}" "${platformDecls[@]}"
  if [ -n "$emit" ]; then
    mkdir -p "$work/linux-above"
    swiftc -emit-module -module-name "$module" -parse-as-library "${common[@]}" "${linuxKit[@]}" \
      -Xfrontend -experimental-skip-all-function-bodies -emit-module-path "$work/linux-above/$module.swiftmodule" \
      "$directory"/**/*.swift
  fi
  echo "    ok"
}
checkWithFoundation ClosureKitFoundation Sources/ClosureKitFoundation -parse-as-library emit
checkWithFoundation ClosureKitTestServer Tests/Support/ClosureKitTestServer -parse-as-library emit
checkWithFoundation closurekit_demo Sources/closurekit-demo "" ""

# ClosureKitUIKit: Tests/StubSDK's UIKit, Foundation and ObjectiveC (owned by the UIKit check,
# Scripts/typecheck-uikit.sh), with a ClosureKit whose Apple branches, NSObject conformances
# included, are selected against the same ObjectiveC.
uikitSDK=Tests/StubSDK
uikitBase=(-Xfrontend -enable-objc-interop -Xcc -fblocks -I "$work/uikit-overlays" -I "$uikitSDK/Headers")
# Its Swift overlays, each named after its module: ObjectiveC, CoreGraphics, Foundation, then any
# others.
uikitOverlays=("$uikitSDK/Overlays/ObjectiveC.swift" "$uikitSDK/Overlays/CoreGraphics.swift" "$uikitSDK/Overlays/Foundation.swift")
for overlay in "$uikitSDK"/Overlays/*.swift; do
  case "$overlay" in */ObjectiveC.swift | */CoreGraphics.swift | */Foundation.swift) ;; *) uikitOverlays+=("$overlay") ;; esac
done
for overlay in "${uikitOverlays[@]}"; do
  [ -f "$overlay" ] || continue
  module="$(basename "$overlay" .swift)"
  swiftc -emit-module -module-name "$module" -parse-as-library "${base[@]}" "${uikitBase[@]}" \
    -emit-module-path "$work/uikit-overlays/$module.swiftmodule" "$overlay"
done
kitUIKit=("${darwin[@]}" "${uikitBase[@]}")
echo "==> ClosureKit: the interface with Darwin and Tests/StubSDK's ObjectiveC, for ClosureKitUIKit"
swiftc -emit-module -module-name ClosureKit -parse-as-library "${common[@]}" "${kitUIKit[@]}" \
  -Xfrontend -experimental-skip-all-function-bodies -emit-module-path "$work/uikit/ClosureKit.swiftmodule" \
  "$canary" "$objcCanary" Sources/ClosureKit/**/*.swift
uikitFlags=("${kitUIKit[@]}" -I "$work/uikit")
check ClosureKitUIKit uikitFlags "" "$canary" "$objcCanary" "$stubs/RequireUIKitStub.swift" \
  Sources/ClosureKitUIKit/**/*.swift
check AppleStubsUsage uikitFlags "" "$canary" "$objcCanary" "$stubs/RequireUIKitStub.swift" \
  "$stubs"/Usage/*.swift

echo "==> negative controls: each must fail with the error it names"
controls=("$stubs"/NegativeControl/*.swift)
[ ${#controls[@]} -gt 0 ] || fail "no negative controls in $stubs/NegativeControl"
for control in "${controls[@]}"; do
  expected="$(sed -n 's|^// expected-error: ||p' "$control")"
  [ -n "$expected" ] || fail "$control names no '// expected-error: '"
  controlFlags=("${darwin[@]}")
  if grep -q 'canImport(ObjectiveC)' "$control"; then
    controlFlags+=(-Xfrontend -enable-objc-interop -Xcc -fblocks -I "$stubs/ObjectiveC")
  fi
  if swiftc -typecheck -module-name NegativeControl -parse-as-library "${common[@]}" "${controlFlags[@]}" \
    -warnings-as-errors "$canary" "$control" >"$work/negative.log" 2>&1; then
    fail "$control type-checked, so the Apple-branch check checks nothing"
  fi
  expect_named_error "$control" "$work/negative.log"
done
echo "Apple-branch type-check passed."
