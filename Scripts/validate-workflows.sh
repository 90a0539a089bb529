#!/usr/bin/env bash
# Validates every GitHub Actions workflow in .github/workflows against GitHub's workflow JSON schema,
# which check-jsonschema (PyPI) ships built in, so the validation itself needs no network. When the
# tool is not installed, installs it once into a virtual environment under .build/ (pip needs PyPI).
# Usage: Scripts/validate-workflows.sh
set -euo pipefail
cd "$(dirname "$0")/.."

shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
[ ${#workflows[@]} -gt 0 ] || { echo "FAIL: no workflow in .github/workflows" >&2; exit 1; }

tool="$(command -v check-jsonschema || true)"
if [ -z "$tool" ]; then
  venv=.build/check-jsonschema
  tool="$venv/bin/check-jsonschema"
  if [ ! -x "$tool" ]; then
    command -v python3 >/dev/null || { echo "FAIL: check-jsonschema needs python3" >&2; exit 1; }
    echo "==> installing check-jsonschema from PyPI into $venv"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check check-jsonschema
  fi
fi
echo "==> $("$tool" --version)"
"$tool" --builtin-schema vendor.github-workflows "${workflows[@]}"
