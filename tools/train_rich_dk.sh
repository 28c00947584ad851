#!/bin/sh
# train_rich_dk.sh — makes the weights the `policy` player plays against a table of four of the
# organisers' sample clients (policy:devkit=auto, players/rich_dk.weights): its own weights
# (players/rich_rl.weights, tools/train_rich_rl.sh) improved by REINFORCE (`dhm train policy
# --model rich --rl-games`) in games of one learner (temperature 0.5) among four `devkit`
# players only (--rl-vs-simple 1 --rl-rule devkit), in stages, each starting from the last one's
# weights: 10 M games with the learner's class drawn at random (Adam at 0.0005, seed 11), then
# 10 M with the learner the daifugo in every game with the exchange (--rl-class 0, where it
# mostly is in a match against them; Adam at 0.001, seed 12): the linear weights "dk2". Then a
# hidden layer of 64 units (--hidden 64, drawn from seed 13, its outputs zero) and two more
# stages of 10 M games as the daifugo (Adam at 0.003, seeds 13 and 14). About 40 minutes on 2
# cores. The weights are the same for a seed whatever the threads, so the shipped file is
# reproduced exactly, up to its "# made by" comment. docs/strength.md §8 and §9 have the
# measurements.
# Usage: tools/train_rich_dk.sh [DHM] [WORKDIR] [OUT]   (build/dhm, train-rich-dk/, players/rich_dk.weights)
set -eu
DHM=${1:-build/dhm}
W=${2:-train-rich-dk}
OUT=${3:-players/rich_dk.weights}
HERE=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$W"
common="train policy --model rich --rl-games 10000000 --rl-vs-simple 1 --rl-rule devkit --rl-temp 0.5 --jobs ${JOBS:-2}"
echo "== stage 1: 10 M games from players/rich_rl.weights, any class" >&2
"$DHM" $common --init "$HERE/players/rich_rl.weights" --rl-lr 0.0005 --seed 11 -o "$W/stage1.weights"
echo "== stage 2: 10 M games, the learner the daifugo (dk2)" >&2
"$DHM" $common --init "$W/stage1.weights" --rl-class 0 --rl-lr 0.001 --seed 12 -o "$W/stage2.weights"
echo "== stage 3: a hidden layer of 64 units, 10 M games as the daifugo" >&2
"$DHM" $common --init "$W/stage2.weights" --hidden 64 --rl-class 0 --rl-lr 0.003 --seed 13 -o "$W/stage3.weights"
echo "== stage 4: 10 M games more" >&2
"$DHM" $common --init "$W/stage3.weights" --rl-class 0 --rl-lr 0.003 --seed 14 -o "$W/stage4.weights"
sed "s|^# made by: .*|# made by: tools/train_rich_dk.sh (two stages of 10 M games against four devkits, seeds 11 and 12; a hidden layer of 64 units, two stages more, seeds 13 and 14)|" \
  "$W/stage4.weights" > "$OUT"
echo "wrote $OUT" >&2
