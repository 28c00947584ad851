#!/bin/sh
# demo.sh — the README's main job: a small tournament among the built-in players, rated with
# every set-wise method and Bradley-Terry, then the HTML report of the run.
# One line a step (on a terminal the tournament's counts the sets stored while it runs); the
# steps' tables go to files in the output directory, named on the lines.
# V=1 prints each command and its whole output as well. Errors always print in full: a step's
# standard error reaches the terminal, and a step that fails shows its output and stops the demo.
# Usage: [V=1] tools/demo.sh path/to/dhm [output directory]
# DHM_DEMO_DIR, DHM_DEMO_SETS and DHM_DEMO_GAMES change the output directory (default demo) and
# the tournament's size (60 sets of 300 games): the tests run a small demo.
set -eu
DHM=${1:-build/dhm}
OUT=${2:-${DHM_DEMO_DIR:-demo}}
SETS=${DHM_DEMO_SETS:-60}
GAMES=${DHM_DEMO_GAMES:-300}
V=${V:-0}
QUIET=--quiet
[ "$V" = 1 ] && QUIET=

# step LOG COMMAND...: runs COMMAND with its standard output into LOG.
step() {
  log=$1
  shift
  if [ "$V" = 1 ]; then echo "+ $*"; fi
  rc=0
  "$@" >"$log" || rc=$?
  if [ "$rc" != 0 ]; then progress_stop; fi
  if [ "$V" = 1 ] || [ "$rc" != 0 ]; then cat "$log"; fi
  if [ "$rc" != 0 ]; then
    echo "make demo: this step failed (exit $rc): $*" >&2
    exit "$rc"
  fi
}

# On a terminal, the tournament's line counts the sets stored so far, with an ETA, redrawn in
# place once a second by a reader of the store beside the run (the store never blocks readers).
# progress TOTAL DB, in the background; progress_stop ends it.
progress() {
  trap 'kill $! 2>/dev/null; exit 0' TERM
  t0=$(date +%s)
  while :; do
    sleep 1 &
    wait $!
    n=$("$DHM" records sets --db "$2" 2>/dev/null | grep -c '^ *[0-9]') || n=0
    el=$(($(date +%s) - t0))
    eta="?"
    if [ "$n" -gt 0 ]; then eta="$((el * ($1 - n) / n))s"; fi
    printf '\r== tournament: %s/%s sets stored, elapsed %ss, ETA %s\033[K' "$n" "$1" "$el" "$eta"
  done
}
poller=
progress_stop() {
  if [ -n "$poller" ]; then
    kill "$poller" 2>/dev/null || true
    wait "$poller" 2>/dev/null || true
    poller=
    printf '\n'
  fi
}
trap progress_stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$OUT"
rm -f "$OUT/demo.sqlite" "$OUT/demo.sqlite-wal" "$OUT/demo.sqlite-shm"
cat > "$OUT/pool.txt" <<'POOL'
# name   player
mc100    mc:sims=100
mc30s    mc:bandit=ucb-root:sims=30:playout=simple
policy   policy
simple1  simple
simple2  simple
random1  random
random2  random
POOL
line="== tournament: $SETS sets of $GAMES games (5 of 7 players a set): $OUT/demo.sqlite, $OUT/tournament.txt"
if [ -t 1 ] && [ "$V" != 1 ]; then
  printf '== tournament: 0/%s sets stored' "$SETS"
  progress "$SETS" "$OUT/demo.sqlite" &
  poller=$!
else
  echo "$line"
fi
step "$OUT/tournament.txt" "$DHM" tournament --pool "$OUT/pool.txt" --sets "$SETS" --games "$GAMES" --seed 1 --jobs 2 \
  --db "$OUT/demo.sqlite" $QUIET
if [ -n "$poller" ]; then
  kill "$poller" 2>/dev/null || true
  wait "$poller" 2>/dev/null || true
  poller=
  printf '\r%s\033[K\n' "$line"
fi
# every set-wise method (Elo, Glicko, Glicko-2 and TrueSkill inside) and Bradley-Terry: the
# tables for people, the ratings for programs (whose TrueSkill rows give the step's line)
step "$OUT/ratings.txt" "$DHM" rate --db "$OUT/demo.sqlite" --method se,sg,sg2,sts,bt --mse --transitivity --top 3
step "$OUT/ratings.csv" "$DHM" rate --db "$OUT/demo.sqlite" --method se,sg,sg2,sts,bt --csv
order=$(awk -F, '$1 == "sts" { gsub(/"/, "", $3); printf "%s%s", (n++ ? ", " : ""), $3 }' "$OUT/ratings.csv")
echo "== ratings: $OUT/ratings.txt (set-wise TrueSkill, best first: $order)"
step /dev/null "$DHM" report --db "$OUT/demo.sqlite" --method sts,sg2,bt -o "$OUT/report.html"
echo "== report: $OUT/report.html (open it in a browser)"
