#!/usr/bin/env bash
# Builds the DocC documentation of ClosureKit, ClosureKitFoundation and ClosureKitTesting with the
# toolchain's own swift-symbolgraph-extract and docc (no plugin needed), one archive per module,
# then merges them with `docc merge` into ONE static site whose root page links the three modules.
# Output: .build/docs/site (open it with Scripts/preview-docs.sh, which serves it on localhost:
# DocC's pages load their content with fetch(), which browsers refuse for file:// URLs).
# The per-module archives are in .build/docs/archives, the docc logs in .build/docs/*.log.
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
modules=(ClosureKit ClosureKitFoundation ClosureKitTesting)
archives=()
mkdir -p .build/docs/archives
for module in "${modules[@]}"; do
  graphs=".build/symbol-graphs/$module"
  archive=".build/docs/archives/$module.doccarchive"
  rm -rf "$graphs" "$archive" ".build/docs/$module" && mkdir -p "$graphs"
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
    --enable-experimental-external-link-support \
    --output-path "$archive" \
    --warnings-as-errors \
    >"$log" 2>&1; then
    grep -E "warning|error" "$log" >&2 || cat "$log" >&2
    exit 1
  fi
  archives+=("$archive")
done

site=.build/docs/site
rm -rf "$site"
if ! docc merge "${archives[@]}" \
  --synthesized-landing-page-name "ClosureKit" \
  --synthesized-landing-page-kind "Package" \
  --output-path "$site" >.build/docs/merge.log 2>&1; then
  cat .build/docs/merge.log >&2
  exit 1
fi
# The site's root: a plain page (no script needed) that links the modules. DocC's own pages live
# under /documentation/ (the merged landing page) and load the same way from any static server.
cat >"$site/index.html" <<'HTML'
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>ClosureKit documentation</title>
<style>
  body { font: 17px/1.5 -apple-system, "Helvetica Neue", Arial, sans-serif; max-width: 42em; margin: 3em auto; padding: 0 1em; }
  a { color: #0066cc; } li { margin: .4em 0; } code { font-size: 90%; }
</style>
</head>
<body>
<h1>ClosureKit documentation</h1>
<p>Every kind of callback as a Swift closure: events and control actions, observation, timers,
delegates and dialogs, on Linux and Apple platforms.</p>
<ul>
  <li><a href="documentation/closurekit">ClosureKit</a>: events, observation, timers, delegates, dialogs, associated values</li>
  <li><a href="documentation/closurekitfoundation">ClosureKitFoundation</a>: closure and async adapters for Foundation (URLSession, XML, notifications, files)</li>
  <li><a href="documentation/closurekittesting">ClosureKitTesting</a>: <code>ManualClock</code>, <code>ScriptedPresenter</code>, <code>Expectation</code>, handler diagnostics</li>
</ul>
<p><a href="documentation">All three modules</a> in DocC's own landing page.</p>
</body>
</html>
HTML
echo "docs: $site (one site: ${modules[*]}); open it with Scripts/preview-docs.sh"
