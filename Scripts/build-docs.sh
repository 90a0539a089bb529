#!/usr/bin/env bash
# Builds the DocC documentation of ClosureKit, ClosureKitFoundation and ClosureKitTesting with the
# toolchain's own swift-symbolgraph-extract and docc (no plugin needed).
# Output: .build/docs/<Module>/ (a static site; open index.html through any static file server).
set -euo pipefail
cd "$(dirname "$0")/.."

swift build >/dev/null
bin=$(swift build --show-bin-path)
triple=$(swiftc -print-target-info | sed -n 's/.*"unversionedTriple": "\(.*\)".*/\1/p' | head -n 1)

# The package's system-library targets (ClosureKitFoundation's libxml2 on Linux): their module maps
# under Sources/ and the C flags pkg-config gives for the manifest's `pkgConfig:` names, as SwiftPM
# passes them to the compiler.
systemLibraries=()
for map in Sources/*/module.modulemap; do systemLibraries+=(-I "$(dirname "$map")"); done
for package in $(sed -n 's/.*pkgConfig: *"\([^"]*\)".*/\1/p' Package.swift); do
  if command -v pkg-config >/dev/null && pkg-config --exists "$package"; then
    for flag in $(pkg-config --cflags "$package"); do systemLibraries+=(-Xcc "$flag"); done
  fi
done
for module in ClosureKit ClosureKitFoundation ClosureKitTesting; do
  graphs=".build/symbol-graphs/$module"
  rm -rf "$graphs" ".build/docs/$module" && mkdir -p "$graphs" .build/docs
  swift-symbolgraph-extract -module-name "$module" -target "$triple" -I "$bin/Modules" "${systemLibraries[@]}" \
    -minimum-access-level public -output-dir "$graphs" -skip-synthesized-members
  catalog="Sources/$module/Documentation.docc"
  args=()
  if [ -d "$catalog" ]; then args+=("$catalog"); fi
  log=".build/docs/$module.log"
  if ! docc convert "${args[@]}" \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.closurekit.$module" \
    --output-path ".build/docs/$module" \
    --warnings-as-errors \
    >"$log" 2>&1; then
    grep -E "warning|error" "$log" >&2 || cat "$log" >&2
    exit 1
  fi
  echo "docs: .build/docs/$module"
done
