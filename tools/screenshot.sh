#!/bin/sh
# screenshot.sh — the README's pictures, rendered by headless Chromium:
#   tools/screenshot.sh [report.html] [out.png]   the demo's report (made by `make demo`), docs/report.png
#   tools/screenshot.sh --watch [out.png]         the live view of a served match in progress,
#                                                 docs/watch.png (dhm serve --watch, five dhm connect
#                                                 clients, 40 ms a move; the page as it is 8 s in)
set -eu
if [ "${1:-}" = "--watch" ]; then
  OUT=${2:-docs/watch.png}
  DHM=${DHM:-build/dhm}
  [ -x "$DHM" ] || { echo "screenshot.sh: $DHM does not exist (run make first)" >&2; exit 1; }
  TMP=$(mktemp -d)
  # --record: the match is timed, so the page shows thinking times
  "$DHM" serve --port 0 --games 20 --seed 2 --watch 0 --watch-delay 40 --record "$TMP/match.kifu" --quiet 2> "$TMP/err" > /dev/null &
  SRV=$!
  PORT="" WPORT=""
  for _ in $(seq 100); do
    PORT=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$TMP/err")
    WPORT=$(sed -n 's|.*watch live at http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$TMP/err")
    [ -n "$PORT" ] && [ -n "$WPORT" ] && break
    sleep 0.1
  done
  PIDS=""
  for n in alice bob carol dave erin; do
    "$DHM" connect --port "$PORT" --player simple --name "$n" --quiet > /dev/null 2>&1 &
    PIDS="$PIDS $!"
    sleep 0.1
  done
  sleep 8
  # ?for=3000: the page's stream ends after 3 s, so that the browser's virtual time moves on
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,1500 \
    --virtual-time-budget=2000 --screenshot="$(pwd)/$OUT" "http://127.0.0.1:$WPORT/?for=3000" 2>/dev/null
  kill $SRV $PIDS 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$TMP"
  echo "wrote $OUT"
  exit 0
fi
IN=${1:-demo/report.html}
OUT=${2:-docs/report.png}
[ -f "$IN" ] || { echo "screenshot.sh: $IN does not exist (run make demo first)" >&2; exit 1; }
DIR=$(cd "$(dirname "$IN")" && pwd)
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,2600 \
  --screenshot="$(pwd)/$OUT" "file://$DIR/$(basename "$IN")" 2>/dev/null
echo "wrote $OUT"
