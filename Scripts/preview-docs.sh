#!/usr/bin/env bash
# Builds the documentation site (Scripts/build-docs.sh), serves it on http://127.0.0.1:<port>/ and prints
# the URL to open (DocC's pages load their content with fetch(), so they need a server, not file://).
# Usage: Scripts/preview-docs.sh [port]        build, then serve until Ctrl-C (default port 8000, or $PORT)
#        Scripts/preview-docs.sh --check       build nothing; serve on a free port, load the landing
#                                              page and a symbol page in headless Chromium (installed
#                                              with apt-get when absent) and fail unless both render
#                                              their titles; then stop the server. CHROMIUM=path
#                                              picks another Chromium or Chrome.
set -euo pipefail
cd "$(dirname "$0")/.."

site=.build/docs/site
[ "${1:-}" = "--check" ] || Scripts/build-docs.sh
[ -f "$site/index.html" ] || { echo "no site in $site: run Scripts/build-docs.sh first" >&2; exit 1; }

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

if [ "${1:-}" != "--check" ]; then
  port=${1:-${PORT:-8000}}
  echo "ClosureKit documentation: http://127.0.0.1:$port/ (Ctrl-C stops the server)"
  exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site"
fi

browser=${CHROMIUM:-$(command -v chromium || true)}
if [ -z "$browser" ]; then
  if ! grep -qx 'ID=debian' /etc/os-release 2>/dev/null; then
    echo "no Chromium: install it (on Debian: apt-get install chromium) or set CHROMIUM=/path/to/it" >&2
    echo "(Ubuntu's chromium package is a snap, which does not run in a container)" >&2
    exit 1
  fi
  echo "==> installing Chromium from Debian's packages"
  apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >/dev/null
  browser=$(command -v chromium)
fi

port=$(free_port)
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site" >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  curl -fs -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null && break
  python3 -c 'import time; time.sleep(0.1)'
done

profile=$(mktemp -d)
render() {  # the DOM of a page after its scripts ran (a virtual-time budget, not a sleep)
  "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --user-data-dir="$profile" --virtual-time-budget=15000 --dump-dom "http://127.0.0.1:$port/$1" 2>/dev/null
}
expect_title() {  # page, the title its <h1> must show (DocC draws it from JSON: not in the HTML file)
  local dom
  dom=$(render "$1")
  if ! TITLE="$2" python3 -c '
import os, re, sys
headings = [re.sub(r"<[^>]*>", "", h).strip() for h in re.findall(r"<h1[^>]*>(.*?)</h1>", sys.stdin.read(), re.S)]
sys.exit(0 if os.environ["TITLE"] in headings else 1)
' <<<"$dom"; then
    echo "FAIL: http://127.0.0.1:$port/$1 does not render the title \"$2\" (a blank app shell?)" >&2
    grep -o '<h1[^>]*>.\{0,80\}' <<<"$dom" >&2 || true
    exit 1
  fi
  echo "    ok: /$1 renders \"$2\""
}
echo "==> rendering the docs in $("$browser" --version 2>/dev/null | head -n 1)"
expect_title "" "ClosureKit documentation"
expect_title "documentation" "ClosureKit"
expect_title "documentation/closurekit" "ClosureKit"
expect_title "documentation/closurekit/event" "Event"
expect_title "documentation/closurekitfoundation/closureurlsession" "ClosureURLSession"
rm -rf "$profile"
