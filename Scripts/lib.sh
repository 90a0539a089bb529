# Helpers shared by the type-check scripts (typecheck-apple.sh, typecheck-uikit.sh,
# typecheck-apple-sdk.sh, compare-stubs.sh). Source it after `cd` to the package root:
#   source Scripts/lib.sh

# Prints a failure and stops the script.
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# Sets `sdk` to the absolute path of the Apple SDK directory given as $2, or fails with the usage
# of the script $1.
require_sdk() {
  sdk=${2:-}
  [ -n "$sdk" ] || fail "usage: $1 SDK_DIR"
  [ -f "$sdk/SDKSettings.json" ] || fail "$sdk is not an Apple SDK directory (no SDKSettings.json)"
  sdk="$(cd "$sdk" && pwd)"
}

# Sets `objcFiles` (each after -primary-file) to ClosureKit's files with `canImport(ObjectiveC)`
# code and `otherFiles` to the rest; fails if there is no such file.
split_objc_files() {
  objcFiles=()
  otherFiles=()
  local file
  for file in Sources/ClosureKit/**/*.swift; do
    if grep -q 'canImport(ObjectiveC)' "$file"; then objcFiles+=(-primary-file "$file"); else otherFiles+=("$file"); fi
  done
  [ ${#objcFiles[@]} -gt 0 ] || fail "no canImport(ObjectiveC) code in Sources/ClosureKit"
}

# Extracts every ```swift block of UIKit.md and of ClosureKitUIKit's doc comments with the awk
# script $1, one generated file per source in $2; sets `docSources` and `blocks` (how many).
extract_uikit_doc_blocks() {
  docSources=(Sources/ClosureKit/Documentation.docc/UIKit.md Sources/ClosureKitUIKit/**/*.swift)
  blocks=0
  local source mode name generated count
  for source in "${docSources[@]}"; do
    mode=doc
    [[ "$source" == *.md ]] && mode=md
    name="$(echo "$source" | tr '/+.' '___')"
    generated="$2/$name.swift"
    awk -v MODE="$mode" -v SOURCE="$source" -v PREFIX="${name}_" -f "$1" "$source" >"$generated"
    count="$(sed -n 's|^// \([0-9]*\) blocks$|\1|p' "$generated")"
    if [ "$count" = 0 ]; then rm "$generated"; else blocks=$((blocks + count)); fi
  done
}

# Fails unless the compiler log $2 of the negative control $1 holds the error the control names
# after `// expected-error: `; prints the match.
expect_named_error() {
  local expected
  expected="$(sed -n 's|^// expected-error: ||p' "$1")"
  if ! grep -qF -- "error: $expected" "$2"; then
    echo "FAIL: $1 failed, but not with the expected error 'error: $expected':" >&2
    cat "$2" >&2
    exit 1
  fi
  echo "    ok: $1: error: $expected"
}
