#!/bin/sh
# train_estseq.sh — makes the built-in sequence model (players/estseq.weights): the records of
# tools/estnet_data.sh (made if absent; NAME.seq beside each NAME.bin), then tools/train_estseq.py
# with Debian's python3-torch on one thread, seeded. Prints the log-loss, top-1 accuracy and
# calibration on the held-out games (1 in 20 of the training games, the B-* teacher matches,
# blaux5). `make check` never needs this (training is a tool, not a test dependency).
# Usage: tools/train_estseq.sh [DHM] [WORKDIR] [OUT]  (build/dhm, train-estnet/, players/estseq.weights)
# About 15 minutes of training on one core here (3 epochs; --minutes 32 caps it), after the data.
# The shipped model: KLEINBLAUW=PATH DEVKIT=PATH THREADS=2 MINUTES=45 tools/train_estseq.sh build/dhm train-estseq
# (a work directory of its own: the data script then adds the third-party fields C and D, 2.3
# million decisions; 12 minutes of recording, 6 of self-play, 32 of training on
# two threads). THREADS (1), EPOCHS (3) and MINUTES (32) pass through.
set -eu
DHM=${1:-build/dhm}
W=${2:-train-estnet}
OUT=${3:-players/estseq.weights}
PY=${PYTHON:-/usr/bin/python3}
[ -f "$W/train.seq" ] || sh "$(dirname "$0")/estnet_data.sh" "$DHM" "$W"
exec nice "$PY" "$(dirname "$0")/train_estseq.py" --train "$W/train.bin" --test "teacher-B=$W/test.bin" \
  --test "blaux5=$W/blaux5.bin" --out "$OUT" --seed 1 --epochs ${EPOCHS:-3} --minutes ${MINUTES:-32} --threads ${THREADS:-1}
