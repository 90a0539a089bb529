#!/usr/bin/env bash
# The public API of the modules built on Linux (ClosureKit, ClosureKitFoundation, ClosureKitTesting,
# and the plain-Swift part of ClosureKitSwiftUI)
# does not change unnoticed. swift-api-digester (it ships with the toolchain) dumps each module's
# API from the debug build; Scripts/api/normalize.py turns the dump into one line per public
# declaration; the result is compared with the baseline kept in api/<Module>.txt. Fails
#   - when the API differs from the baseline (the diff is printed: `-` removed, `+` added), and
#   - when the baseline changed without CHANGELOG.md changing with it: in the work tree against
#     HEAD, and in the last commit (merges aside) that changed a baseline file.
# So a public declaration added, removed or changed passes only once its baseline and its CHANGELOG
# entry are committed together. The baseline records the Swift version that made it; with another
# version the comparison is skipped with a message (the dump's spelling changes between compilers).
#
# Usage: Scripts/check-api.sh            check (CI runs it after the build)
#        Scripts/check-api.sh --update   rewrite api/*.txt from the current build, then write the
#                                        CHANGELOG entry and commit both
set -euo pipefail
cd "$(dirname "$0")/.."

update=0
case "${1:-}" in
  --update) update=1 ;;
  "") ;;
  *) echo "usage: Scripts/check-api.sh [--update]" >&2; exit 2 ;;
esac

modules=(ClosureKit ClosureKitFoundation ClosureKitTesting ClosureKitSwiftUI)
for module in "${modules[@]}"; do swift build --target "$module" >/dev/null; done
bin=$(swift build --show-bin-path)
version=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -n 1)

# The package's system-library targets (ClosureKitFoundation's libxml2 on Linux): their module maps
# and pkg-config's header directories, which the digester's Clang needs to load the module.
includes=(-I "$bin/Modules")
for map in Sources/*/module.modulemap; do includes+=(-I "$(dirname "$map")"); done
for package in $(sed -n 's/.*pkgConfig: *"\([^"]*\)".*/\1/p' Package.swift); do
  if command -v pkg-config >/dev/null && pkg-config --exists "$package"; then
    for flag in $(pkg-config --cflags-only-I "$package"); do includes+=(-I "${flag#-I}"); done
  fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
header="// The public API of MODULE as swift-api-digester of Swift $version dumps it; Scripts/check-api.sh --update rewrites this file"
for module in "${modules[@]}"; do
  swift-api-digester -dump-sdk -abort-on-module-fail -swift-only -avoid-location -avoid-tool-args \
    -module "$module" "${includes[@]}" -o "$work/$module.json"
  { echo "${header/MODULE/$module}"; python3 Scripts/api/normalize.py "$work/$module.json"; } >"$work/$module.txt"
done

if [ "$update" = 1 ]; then
  mkdir -p api
  for module in "${modules[@]}"; do cp "$work/$module.txt" "api/$module.txt"; done
  git diff --stat -- api 2>/dev/null || true
  echo "api/ updated from the current build: add the CHANGELOG.md entry and commit both together."
  exit 0
fi

failed=0
for module in "${modules[@]}"; do
  baseline="api/$module.txt"
  if [ ! -f "$baseline" ]; then
    echo "error: no baseline $baseline: run Scripts/check-api.sh --update" >&2
    failed=1
    continue
  fi
  made_with=$(sed -n '1s/.* of Swift \([0-9.]*\) dumps it.*/\1/p' "$baseline")
  if [ "$made_with" != "$version" ]; then
    echo "skipped $module: its baseline was made with Swift $made_with, this is Swift $version"
    continue
  fi
  if ! diff -u --label "$baseline (baseline)" --label "$module (this build)" "$baseline" "$work/$module.txt"; then
    echo "error: the public API of $module differs from $baseline (above)." >&2
    failed=1
  fi
done
if [ "$failed" = 1 ]; then
  cat >&2 <<'EOF'
If the change is meant: run Scripts/check-api.sh --update, say in CHANGELOG.md what changed for users'
code (and the replacement of anything removed or deprecated), and commit api/ with CHANGELOG.md.
EOF
  exit 1
fi

# The baseline and the CHANGELOG change together.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  if ! git diff --quiet HEAD -- api && git diff --quiet HEAD -- CHANGELOG.md; then
    echo "error: api/ differs from HEAD but CHANGELOG.md does not: add the entry for the API change." >&2
    exit 1
  fi
  last=$(git rev-list --no-merges -n 1 HEAD -- api)
  # A commit without a parent here (the first one, or the edge of a shallow clone) has nothing to compare.
  if [ -n "$last" ] && [ "$(git rev-list --parents -n 1 "$last" | wc -w)" -gt 1 ]; then
    # The file list first, then the search: `git diff-tree | grep -q` under `pipefail` failed when
    # grep stopped reading at its match and git, still writing, died of SIGPIPE.
    changed=$(git diff-tree --no-commit-id --name-only -r "$last")
    if ! grep -qx CHANGELOG.md <<<"$changed"; then
      echo "error: commit $(git log -1 --format='%h "%s"' "$last") changed api/ without CHANGELOG.md." >&2
      echo "Amend it with its CHANGELOG.md entry; once shared, see api/README.md." >&2
      exit 1
    fi
  fi
fi
echo "public API: ${modules[*]} match api/ (Swift $version)"
