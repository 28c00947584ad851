#!/bin/sh
# train_rich_rl.sh — makes the `policy` player's built-in weights (players/rich_rl.weights): the
# rich policy's imitation of KleinBlauw (players/rich.weights, tools/train_rich.sh) improved by
# REINFORCE in stages (`dhm train policy --model rich --rl-games`), each stage starting from the
# last one's weights with its own seed. In every game one learner, sampling at temperature 0.5,
# sits among four others: half the games against four copies of the imitation (its first
# choice, a stand-in for KleinBlauw), half against four of the organisers' sample client
# (`devkit`, --rl-rule devkit); Adam at 0.0005, 512 games an update, reward: the game's points.
# Stage k plays GAMES_k games with seed k: 10 M, then 20 M (about 45 minutes on 2 cores). The
# weights are the same for a seed whatever the threads, so the shipped file is reproduced
# exactly, up to its "# made by" comment. docs/strength.md has the measurements.
# Usage: tools/train_rich_rl.sh [DHM] [WORKDIR] [OUT]   (build/dhm, train-rich-rl/, players/rich_rl.weights)
set -eu
DHM=${1:-build/dhm}
W=${2:-train-rich-rl}
OUT=${3:-players/rich_rl.weights}
GAMES=${GAMES:-"10000000 20000000"}
HERE=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$W"
init="$HERE/players/rich.weights"
k=0
for n in $GAMES; do
  k=$((k + 1))
  echo "== stage $k: $n games from $init" >&2
  "$DHM" train policy --model rich --init "$init" --rl-games "$n" --rl-vs-simple 0.5 --rl-rule devkit \
    --rl-league "$HERE/players/rich.weights" --rl-vs-league 0.5 --rl-temp 0.5 --rl-lr 0.0005 --seed "$k" \
    --jobs "${JOBS:-2}" -o "$W/stage$k.weights"
  init="$W/stage$k.weights"
done
sed "s|^# made by: .*|# made by: tools/train_rich_rl.sh (stages of $GAMES games, seeds 1 to $k)|" "$init" > "$OUT"
echo "wrote $OUT" >&2
