#!/bin/sh
# demo.sh — the README's main job: a small tournament among the built-in players, rated with
# every set-wise method and Bradley-Terry, then the HTML report of the run.
# Usage: tools/demo.sh path/to/dhm [output directory]
set -eu
DHM=${1:-build/dhm}
OUT=${2:-demo}
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
echo "== dhm tournament: 60 sets of 300 games, 5 of the 7 players per set, 2 jobs"
"$DHM" tournament --pool "$OUT/pool.txt" --sets 60 --games 300 --seed 1 --jobs 2 --db "$OUT/demo.sqlite"
echo
echo "== dhm rate: the set-wise method with Elo, Glicko, Glicko-2 and TrueSkill inside, and Bradley-Terry"
"$DHM" rate --db "$OUT/demo.sqlite" --method se,sg,sg2,sts,bt --mse --transitivity --top 3
echo
echo "== dhm report"
"$DHM" report --db "$OUT/demo.sqlite" --method sts,sg2,bt -o "$OUT/report.html" >/dev/null
echo "report: $OUT/report.html (open it in a browser; results: $OUT/demo.sqlite)"
