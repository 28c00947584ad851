#!/bin/sh
# train_estnet.sh — makes the built-in learned hand estimator (players/estnet.weights): the
# records of tools/estnet_data.sh (made if absent), then tools/train_estnet.py with Debian's
# python3-torch on one thread, seeded. Prints the log-loss and top-1 accuracy on the held-out
# games (1 in 20 of the training games, the B-* teacher matches, blaux5) and the calibration
# tables. `make check` never needs this (training is a tool, not a test dependency).
# Usage: tools/train_estnet.sh [DHM] [WORKDIR] [OUT]  (build/dhm, train-estnet/, players/estnet.weights)
# About 20 minutes of training on one core here (--minutes 18 caps it), after the data.
set -eu
DHM=${1:-build/dhm}
W=${2:-train-estnet}
OUT=${3:-players/estnet.weights}
PY=${PYTHON:-/usr/bin/python3}
[ -f "$W/train.bin" ] || sh "$(dirname "$0")/estnet_data.sh" "$DHM" "$W"
exec nice "$PY" "$(dirname "$0")/train_estnet.py" --train "$W/train.bin" --test "teacher-B=$W/test.bin" \
  --test "blaux5=$W/blaux5.bin" --out "$OUT" --seed 1 --epochs ${EPOCHS:-3} --minutes ${MINUTES:-18}
