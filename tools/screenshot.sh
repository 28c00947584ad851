#!/bin/sh
# screenshot.sh — the README's picture of the demo's report: headless Chromium renders
# demo/report.html (made by `make demo`) to docs/report.png.
# Usage: tools/screenshot.sh [report.html] [out.png]
set -eu
IN=${1:-demo/report.html}
OUT=${2:-docs/report.png}
[ -f "$IN" ] || { echo "screenshot.sh: $IN does not exist (run make demo first)" >&2; exit 1; }
DIR=$(cd "$(dirname "$IN")" && pwd)
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,2600 \
  --screenshot="$(pwd)/$OUT" "file://$DIR/$(basename "$IN")" 2>/dev/null
echo "wrote $OUT"
