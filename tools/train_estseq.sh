#!/bin/sh
# train_estseq.sh — makes the built-in sequence model (players/estseq.weights): the records of
# tools/estnet_data.sh with MORE=1 (made if absent: more.bin and more.seq, the feature model's
# 5.7 million decisions), then tools/train_estseq.py with Debian's python3-torch on one thread,
# seeded. Prints the log-loss, top-1 accuracy and calibration on the held-out games (1 in 20 of
# the training games, the B-* teacher matches, blaux5). `make check` never needs this (training
# is a tool, not a test dependency).
# Usage: tools/train_estseq.sh [DHM] [WORKDIR] [OUT]  (build/dhm, train-estnet/, players/estseq.weights)
# The shipped model: KLEINBLAUW=PATH DEVKIT=PATH BLAUWEREGEN=PATH tools/train_estseq.sh build/dhm WORK
# (the same work directory as tools/train_estnet.sh's serves both; 2 epochs, 56 minutes of
# training on one core, about 8 GB of memory). THREADS (1), EPOCHS (2) and MINUTES (70) pass through.
set -eu
DHM=${1:-build/dhm}
W=${2:-train-estnet}
OUT=${3:-players/estseq.weights}
PY=${PYTHON:-/usr/bin/python3}
[ -f "$W/more.seq" ] || MORE=1 sh "$(dirname "$0")/estnet_data.sh" "$DHM" "$W"
exec nice "$PY" "$(dirname "$0")/train_estseq.py" --train "$W/more.bin" --test "teacher-B=$W/test.bin" \
  --test "blaux5=$W/blaux5.bin" --out "$OUT" --seed 1 --epochs ${EPOCHS:-2} --minutes ${MINUTES:-70} --threads ${THREADS:-1}
