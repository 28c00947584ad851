#!/bin/sh
# train_estimation.sh — makes the built-in estimation model (players/est.weights) from dhm's own
# games: the records of 4,000 games of self-play of the Monte Carlo player with simple playouts
# (the same store as tools/train_policy.sh's generation 0: same command, same seed, so a work
# directory shared with it is reused), then dhm train estimation on them. blaux5 is a test set
# only: its accuracy is printed, nothing is fitted on it.
# Usage: tools/train_estimation.sh [DHM] [WORKDIR] [OUT]   (defaults: build/dhm, train/, players/est.weights)
# About 20 minutes on the 2-core development VM (most of it the self-play); SCALE=small for a check.
set -eu
DHM=${1:-build/dhm}
W=${2:-train}
OUT=${3:-players/est.weights}
SETS=40
GAMES=100
EPOCHS=300
if [ "${SCALE:-full}" = small ]; then
  SETS=2
  GAMES=20
  EPOCHS=20
fi
mkdir -p "$W"
run() { echo "== $*" >&2; "$@"; }
for i in 1 2 3 4 5; do echo "t$i mc:sims=1000:playout=simple"; done > "$W/gen0.pool"
[ -f "$W/gen0.sqlite" ] || run "$DHM" tournament --pool "$W/gen0.pool" --pairing fixed --sets $SETS --games $GAMES \
  --seed 100 --records --jobs 2 --db "$W/gen0.sqlite" --quiet
TEST=
[ -f ../shared/data/blaux5.kifu ] && TEST="--test-kifu ../shared/data/blaux5.kifu"
# shellcheck disable=SC2086
run "$DHM" train estimation --db "$W/gen0.sqlite" --epochs $EPOCHS --seed 1 -o "$OUT" --quiet $TEST
echo "wrote $OUT" >&2
