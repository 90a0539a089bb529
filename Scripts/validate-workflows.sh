#!/usr/bin/env bash
# Validates every GitHub Actions workflow in .github/workflows against GitHub's workflow JSON schema,
# which check-jsonschema (PyPI) ships built in, so the validation itself needs no network. When the
# tool is not installed, installs it once under .build/ (pip needs PyPI): into a virtual
# environment, or, where Python has no venv module, into a plain directory.
# Usage: Scripts/validate-workflows.sh
set -euo pipefail
cd "$(dirname "$0")/.."

shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
[ ${#workflows[@]} -gt 0 ] || {
  echo "FAIL: no workflow in .github/workflows" >&2
  exit 1
}

venv=.build/check-jsonschema
site=.build/check-jsonschema-site
pipFlags=(--quiet --disable-pip-version-check --no-warn-script-location)
if command -v check-jsonschema >/dev/null; then
  tool=(check-jsonschema)
elif [ -x "$venv/bin/check-jsonschema" ]; then
  tool=("$venv/bin/check-jsonschema")
elif [ -d "$site/check_jsonschema" ]; then
  tool=(env PYTHONPATH="$site" python3 -m check_jsonschema)
else
  command -v python3 >/dev/null || {
    echo "FAIL: check-jsonschema needs python3" >&2
    exit 1
  }
  echo "==> installing check-jsonschema from PyPI under .build/"
  rm -rf "$venv" "$site"
  if python3 -m venv "$venv" >/dev/null 2>&1 && "$venv/bin/python" -m pip install "${pipFlags[@]}" check-jsonschema; then
    tool=("$venv/bin/check-jsonschema")
  else
    rm -rf "$venv"
    # No venv module (Debian without python3-venv): a directory of its own, never the system's
    # packages; newer pips want --break-system-packages even for that on an externally managed Python.
    python3 -m pip install "${pipFlags[@]}" --target "$site" check-jsonschema 2>/dev/null \
      || python3 -m pip install "${pipFlags[@]}" --break-system-packages --target "$site" check-jsonschema
    tool=(env PYTHONPATH="$site" python3 -m check_jsonschema)
  fi
fi
echo "==> $("${tool[@]}" --version)"
"${tool[@]}" --builtin-schema vendor.github-workflows "${workflows[@]}"
