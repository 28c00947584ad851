#!/bin/sh
# train_policy.sh — makes the built-in policy weights (players/policy.weights) from nothing but
# dhm's own games. Every step is a dhm command with a fixed seed, so the same dhm makes the
# same weights:
#   gen 0   teacher data: self-play of today's Monte Carlo player with the simple playout
#           (mc:sims=1000:playout=simple), 4,000 games with records
#   fit 0   the policy imitates those decisions (dhm train policy, conditional logit)
#   gen 1   teacher data: self-play of the Monte Carlo player whose playouts follow fit 0
#   fit 1   imitation of gen 0 and gen 1 together
#   rl      policy gradient (REINFORCE) from fit 1: 40 M games, half against four simple
#           players, half self-play, then 60 M more at a lower temperature, 80% against simple
# Usage: tools/train_policy.sh [DHM] [WORKDIR] [OUT]   (defaults: build/dhm, train/, players/policy.weights)
# About 45 minutes on the 2-core development VM. SCALE=small runs a quick version (for a check).
set -eu
DHM=${1:-build/dhm}
W=${2:-train}
OUT=${3:-players/policy.weights}
SETS=40
GAMES=100
RL1=40000000
RL2=60000000
if [ "${SCALE:-full}" = small ]; then
  SETS=2
  GAMES=20
  RL1=20000
  RL2=20000
fi
mkdir -p "$W"
teacher() { # NAME SPEC: a pool of five copies
  for i in 1 2 3 4 5; do echo "t$i $2"; done > "$W/$1.pool"
}
run() { echo "== $*" >&2; "$@"; }

teacher gen0 "mc:sims=1000:playout=simple"
[ -f "$W/gen0.sqlite" ] || run "$DHM" tournament --pool "$W/gen0.pool" --pairing fixed --sets $SETS --games $GAMES \
  --seed 100 --records --jobs 2 --db "$W/gen0.sqlite" --quiet
run "$DHM" train policy --db "$W/gen0.sqlite" -o "$W/fit0.weights" --seed 1 --quiet

teacher gen1 "mc:sims=1000:weights=$W/fit0.weights"
[ -f "$W/gen1.sqlite" ] || run "$DHM" tournament --pool "$W/gen1.pool" --pairing fixed --sets $SETS --games $GAMES \
  --seed 200 --records --jobs 2 --db "$W/gen1.sqlite" --quiet
run "$DHM" train policy --db "$W/gen0.sqlite" --db "$W/gen1.sqlite" -o "$W/fit1.weights" --seed 1 --quiet

run "$DHM" train policy --init "$W/fit1.weights" --rl-games $RL1 --rl-temp 0.5 --seed 2 -o "$W/rl1.weights" --quiet
run "$DHM" train policy --init "$W/rl1.weights" --rl-games $RL2 --rl-temp 0.3 --rl-vs-simple 0.8 --seed 3 \
  -o "$OUT" --quiet
echo "wrote $OUT" >&2
