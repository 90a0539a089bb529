#!/usr/bin/env bash
# Type-checks every module that builds for Apple platforms against a real Apple SDK: Apple's own
# Objective-C headers and Swift overlays, not our stubs. Target arm64-apple-ios18.0, Swift 6 mode,
# warnings as errors.
#
# Checked:
#   ClosureKit            every file as a primary file (function bodies included)
#   ClosureKitTesting     every file, against that ClosureKit
#   ClosureKitFoundation  every file, against the SDK's Foundation (URLSession, XMLParser, NSCache...)
#   ClosureKitUIKit       every file, against the SDK's UIKit
#   ClosureKitSwiftUI     every file, against the SDK's SwiftUI and Combine
#   the client files      Tests/StubSDK/Usage and Tests/AppleStubs/Usage, as an app would use the API
#   the examples          every ```swift block of UIKit.md and of ClosureKitUIKit's doc comments;
#                         every ```swift block of SwiftUIAndCombine.md and of ClosureKitSwiftUI's
# then the negative controls in Tests/AppleSDK/NegativeControl, which must each fail with the error
# they name (a wrong Darwin signature, a wrong UIKit selector, a wrong SwiftUI label), and the type
# names: no public type of ClosureKit's modules may share its name with one of SwiftUI, Combine,
# UIKit, Foundation, Observation or the standard library (Scripts/apple-sdk/type-names.py, with a
# collision added as its negative control).
#
# SwiftUI needs two things this toolchain lacks. API notes for the `os` module
# (Scripts/apple-sdk/os.apinotes, as for Dispatch). And one line of SwiftUI's interface: the
# inlinable getter of `Environment.wrappedValue` logs `os_log(.fault, log:, "...\(Value.self)...")`,
# an interpolation Swift 5.8 sent to os_log's OSLogMessage overload and Swift 6.3 resolves to the
# `StaticString` one, where interpolation is an error, so the module does not load. The script
# copies the interface (never committed: Apple's file) with only that interpolation removed from
# the message, and puts the copy on `-I` before the SDK's; nothing else in it changes (the script
# checks that exactly one line differs).
#
# The SDK is not part of the repository (Apple's licence): pass its directory. In a session,
# `fetch` github:theos/sdks and run ../shared/tools/extract-apple-sdk.sh on the mirror; the
# newest there is iPhoneOS16.5.sdk. Its standard library is Swift 5.8's, so what is newer
# (Synchronization, Observation, `Optional.take()`, `MainActor.assumeIsolated`,
# `AsyncStream.makeStream`, `#isolation`, `Duration.attoseconds`, `Int128`, iOS 17's `Sendable`
# conformances of Dispatch types) comes from the small modules in Scripts/apple-sdk, our
# transcriptions of the toolchain's own interfaces; nothing there is a UIKit, Foundation, Darwin
# or Objective-C declaration. This toolchain has no Dispatch API notes for Apple's libdispatch
# headers (Apple's toolchains ship them), so Scripts/apple-sdk/Dispatch.apinotes gives its object
# classes their Swift names; the resource directory links the toolchain's clang, shims and host
# folders but not Linux's dispatch module map. If the compiler crashes on a file's bodies with
# that older standard library (it did on `consume` of a copyable parameter, whose check looks up a
# `Copyable` protocol Swift 5.8's standard library lacks; none crashes today), the script says so
# and checks that file's declarations only. See CONTRIBUTING.md's "Platforms" section for what this
# proves.
#
# Usage: Scripts/typecheck-apple-sdk.sh SDK_DIR (prints what it checked; exits non-zero on failure)
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob globstar

source Scripts/lib.sh
require_sdk Scripts/typecheck-apple-sdk.sh "${1:-}"
target=${APPLE_SDK_TARGET:-arm64-apple-ios18.0}
work=.build/apple-sdk
rm -rf "$work/modules" "$work/doc-examples" "$work/resources"
mkdir -p "$work/modules" "$work/doc-examples" "$work/resources/apinotes" "$work/module-cache"

toolchain="$(dirname "$(readlink -f "$(command -v swiftc)")")/.."
for folder in clang shims host; do
  ln -sfn "$toolchain/lib/swift/$folder" "$work/resources/$folder"
done
cp Scripts/apple-sdk/Dispatch.apinotes Scripts/apple-sdk/os.apinotes "$work/resources/apinotes/"

# SwiftUI's interface with the one message that Swift 6.3 cannot type-check changed (see above).
swiftuiInterface="$sdk/System/Library/Frameworks/SwiftUI.framework/Modules/SwiftUI.swiftmodule/arm64-apple-ios.swiftinterface"
rm -rf "$work/swiftui"
mkdir -p "$work/swiftui/SwiftUI.swiftmodule"
sed 's/Accessing Environment<\\(Value\.self)>'"'"'s value outside of/Accessing Environment'"'"'s value outside of/' \
  "$swiftuiInterface" >"$work/swiftui/SwiftUI.swiftmodule/arm64-apple-ios.swiftinterface"
changed="$(diff "$swiftuiInterface" "$work/swiftui/SwiftUI.swiftmodule/arm64-apple-ios.swiftinterface" | grep -c '^<' || true)"
[ "$changed" = 1 ] || fail "expected to change exactly one line of SwiftUI's interface, changed $changed"

plugins=(-plugin-path "$toolchain/lib/swift/host/plugins" -plugin-path "$toolchain/local/lib/swift/host/plugins")
if [ -f "$toolchain/lib/swift/host/libSwiftInProcPluginServer.so" ]; then
  plugins+=(-in-process-plugin-server-path "$toolchain/lib/swift/host/libSwiftInProcPluginServer.so")
fi
base=(
  -sdk "$sdk" -target "$target" -resource-dir "$work/resources"
  -module-cache-path "$work/module-cache" -swift-version 6 "${plugins[@]}" -I "$work/swiftui"
)
# As Package.swift builds every target.
package=(
  "${base[@]}" -package-name closurekit -parse-as-library
  -enable-upcoming-feature ExistentialAny
  -enable-upcoming-feature InternalImportsByDefault
  -enable-upcoming-feature MemberImportVisibility
  -I "$work/modules" -import-module NewerStandardLibrary
)

echo "==> $(swiftc --version 2>/dev/null | head -n 1)"
echo "==> SDK $(sed -n 's/.*"DisplayName" *: *"\([^"]*\)".*/\1/p' "$sdk/SDKSettings.json" | head -n 1) at $sdk, target $target"
echo "==> the declarations newer than the SDK (Scripts/apple-sdk): Synchronization, Observation, NewerStandardLibrary, NewerFoundation"
for module in Synchronization Observation NewerStandardLibrary NewerFoundation; do
  swiftc -frontend -emit-module "${base[@]}" -parse-as-library -module-name "$module" -enable-library-evolution \
    -enable-builtin-module -emit-module-path "$work/modules/$module.swiftmodule" "Scripts/apple-sdk/$module.swift"
done

# The modules that import Foundation also see the conformances Apple's later Foundation declares.
withFoundation=(-import-module NewerFoundation)

# typecheck MODULE FILE...: type-checks every file of MODULE as a primary file (bodies included),
# warnings as errors. A file the compiler crashes on is named, then checked for its declarations
# only (it stays in the module, not a primary file).
declarationsOnly=()
typecheck() {
  local module=$1
  shift
  local extra=()
  if [ "$module" != ClosureKit ] && [ "$module" != ClosureKitTesting ]; then extra=("${withFoundation[@]}"); fi
  local files=("$@") demoted=() primaries=() others=() file
  while :; do
    primaries=()
    others=()
    for file in "${files[@]}"; do
      if [[ " ${demoted[*]} " == *" $file "* ]]; then others+=("$file"); else primaries+=(-primary-file "$file"); fi
    done
    if swiftc -frontend -typecheck "${package[@]}" "${extra[@]}" -module-name "$module" -warnings-as-errors \
      "${primaries[@]}" "${others[@]}" >"$work/$module.log" 2>&1; then
      break
    fi
    if grep -q 'Stack dump:' "$work/$module.log"; then
      file="$(sed -n 's/.*TypeCheckPrimaryFileRequest(source_file "\([^"]*\)").*/\1/p' "$work/$module.log" | head -n 1)"
      if [ -n "$file" ] && [[ " ${demoted[*]} " != *" $file "* ]]; then
        echo "    the compiler crashes type-checking the bodies of $file against this SDK's standard library:"
        grep -m1 -A1 "While evaluating request TypeCheckFunctionBodyRequest" "$work/$module.log" | sed 's/^/      /' || true
        echo "    so that file is checked for its declarations only"
        demoted+=("$file")
        declarationsOnly+=("$file")
        continue
      fi
    fi
    grep -v '^ *[0-9]* *|' "$work/$module.log" | grep -E 'error|warning' | head -n 40 >&2 || true
    fail "$module does not type-check against $sdk (full log: $work/$module.log)"
  done
  echo "    ok: $module, ${#files[@]} files ($((${#primaries[@]} / 2)) with their bodies)"
}

# emit MODULE FILE...: the module's interface (declarations only), for the modules that import it.
emit() {
  local module=$1
  shift
  swiftc -frontend -emit-module "${package[@]}" -module-name "$module" \
    -experimental-skip-all-function-bodies -emit-module-path "$work/modules/$module.swiftmodule" "$@"
}

echo "==> ClosureKit"
kit=(Sources/ClosureKit/**/*.swift)
typecheck ClosureKit "${kit[@]}"
emit ClosureKit "${kit[@]}"

echo "==> ClosureKitTesting"
testing=(Sources/ClosureKitTesting/**/*.swift)
typecheck ClosureKitTesting "${testing[@]}"
emit ClosureKitTesting "${testing[@]}"

echo "==> ClosureKitFoundation (Apple's Foundation: URLSession, XMLParser, NSCache, NotificationCenter)"
foundation=(Sources/ClosureKitFoundation/**/*.swift)
typecheck ClosureKitFoundation "${foundation[@]}"

echo "==> ClosureKitUIKit (Apple's UIKit)"
uikit=(Sources/ClosureKitUIKit/**/*.swift)
typecheck ClosureKitUIKit "${uikit[@]}"
emit ClosureKitUIKit "${uikit[@]}"

echo "==> ClosureKitSwiftUI (Apple's SwiftUI and Combine)"
swiftui=(Sources/ClosureKitSwiftUI/**/*.swift)
typecheck ClosureKitSwiftUI "${swiftui[@]}"
emit ClosureKitSwiftUI "${swiftui[@]}"
swiftc -frontend -emit-module "${package[@]}" -import-module NewerFoundation -module-name ClosureKitFoundation \
  -experimental-skip-all-function-bodies -emit-module-path "$work/modules/ClosureKitFoundation.swiftmodule" "${foundation[@]}"

echo "==> the client files, as an app uses the API"
usage=(Tests/StubSDK/Usage/*.swift Tests/AppleStubs/Usage/*.swift Tests/AppleSDK/Usage/*.swift)
[ ${#usage[@]} -gt 0 ] || fail "no client files"
printf '    %s\n' "${usage[@]}"
typecheck AppleSDKUsage "${usage[@]}"

echo "==> the Swift blocks of UIKit.md and of ClosureKitUIKit's doc comments"
extract_uikit_doc_blocks Tests/StubSDK/DocExamples/extract-swift-blocks.awk "$work/doc-examples"
[ "$blocks" -gt 0 ] || fail "no Swift code blocks found"
echo "    $blocks blocks"
typecheck AppleSDKDocExamples Tests/StubSDK/DocExamples/DocExampleContext.swift "$work"/doc-examples/*.swift

echo "==> the Swift blocks of SwiftUIAndCombine.md and of ClosureKitSwiftUI's doc comments"
rm -rf "$work/swiftui-examples"
mkdir -p "$work/swiftui-examples"
python3 Scripts/apple-sdk/extract-swiftui-examples.py "$work/swiftui-examples" \
  Sources/ClosureKit/Documentation.docc/SwiftUIAndCombine.md Sources/ClosureKitSwiftUI/**/*.swift
swiftuiExamples=("$work"/swiftui-examples/*.swift)
[ ${#swiftuiExamples[@]} -gt 0 ] || fail "no SwiftUI examples found"
typecheck AppleSDKSwiftUIExamples "${swiftuiExamples[@]}"

echo "==> negative controls: each must fail with the error it names"
# The stub check's pthread control states what the SDK says, so it must fail here too.
controls=(Tests/AppleSDK/NegativeControl/*.swift Tests/AppleStubs/NegativeControl/PthreadStartContextIsNotOptional.swift)
[ ${#controls[@]} -gt 1 ] || fail "no negative controls in Tests/AppleSDK/NegativeControl"
for control in "${controls[@]}"; do
  expected="$(sed -n 's|^// expected-error: ||p' "$control")"
  [ -n "$expected" ] || fail "$control names no '// expected-error: '"
  if swiftc -frontend -typecheck "${package[@]}" -module-name NegativeControl -warnings-as-errors \
    -primary-file "$control" >"$work/negative.log" 2>&1; then
    fail "$control type-checked against the SDK, so this check checks nothing"
  fi
  expect_named_error "$control" "$work/negative.log"
done

echo "==> mutation control: ClosureKit's Darwin thread start with \`fromOpaque(context!)\` injected must fail"
mkdir -p "$work/mutated"
seam=Sources/ClosureKit/Platform/PThreads.swift
sed 's/fromOpaque((context as UnsafeMutableRawPointer?)!)/fromOpaque(context!)/' "$seam" >"$work/mutated/PThreads.swift"
! cmp -s "$seam" "$work/mutated/PThreads.swift" || fail "the mutation found nothing to change in $seam"
mutated=()
for file in "${kit[@]}"; do
  if [ "$file" = "$seam" ]; then mutated+=(-primary-file "$work/mutated/PThreads.swift"); else mutated+=("$file"); fi
done
expected="cannot force unwrap value of non-optional type 'UnsafeMutableRawPointer'"
if swiftc -frontend -typecheck "${package[@]}" -module-name ClosureKit -warnings-as-errors "${mutated[@]}" \
  >"$work/negative.log" 2>&1; then
  fail "ClosureKit with fromOpaque(context!) type-checked against the SDK"
fi
grep -qF -- "error: $expected" "$work/negative.log" || {
  cat "$work/negative.log" >&2
  fail "the mutated ClosureKit failed, but not with 'error: $expected'"
}
echo "    ok: error: $expected"

echo "==> type names: none of ClosureKit's public types may share a name with Apple's or the standard library's"
python3 Scripts/apple-sdk/type-names.py --sdk "$sdk" --work "$work" -- "${base[@]}"

if [ ${#declarationsOnly[@]} -gt 0 ]; then
  echo "note: declarations only (the compiler crashes on their bodies with this SDK's standard library):"
  printf '    %s\n' "${declarationsOnly[@]}"
fi
echo "Apple SDK type-check passed: every module against $(basename "$sdk"), target $target."
