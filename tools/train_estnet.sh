#!/bin/sh
# train_estnet.sh — makes the built-in learned hand estimator (players/estnet.weights): the
# records of tools/estnet_data.sh with MORE=1 (made if absent: more.bin, train.bin's games and
# 43,000 more of dhm self-play), then tools/train_estnet.py with Debian's python3-torch on one
# thread, seeded. Prints the log-loss and top-1 accuracy on the held-out games (1 in 20 of the
# training games, the B-* teacher matches, blaux5) and the calibration tables. `make check`
# never needs this (training is a tool, not a test dependency).
# Usage: tools/train_estnet.sh [DHM] [WORKDIR] [OUT]  (build/dhm, train-estnet/, players/estnet.weights)
# The shipped model: KLEINBLAUW=PATH DEVKIT=PATH BLAUWEREGEN=PATH tools/train_estnet.sh build/dhm WORK
# (the third-party fields C, D and E of tools/estnet_data.sh: about an hour of recording, 3 of
# self-play, 23 of training with another job on the other core; 5.2 GB of records, about 7 GB
# of memory while training). THREADS (1), EPOCHS (2) and MINUTES (50) pass through.
set -eu
DHM=${1:-build/dhm}
W=${2:-train-estnet}
OUT=${3:-players/estnet.weights}
PY=${PYTHON:-/usr/bin/python3}
[ -f "$W/more.bin" ] || MORE=1 sh "$(dirname "$0")/estnet_data.sh" "$DHM" "$W"
exec nice "$PY" "$(dirname "$0")/train_estnet.py" --train "$W/more.bin" --test "teacher-B=$W/test.bin" \
  --test "blaux5=$W/blaux5.bin" --out "$OUT" --seed 1 --epochs ${EPOCHS:-2} --minutes ${MINUTES:-50} --threads ${THREADS:-1}
