#!/bin/sh
# estnet_data.sh — regenerates the learned estimator's training and test records
# (players/estnet.h; `dhm estimate --dump`) in WORKDIR:
#   train.bin  dhm self-play (fields of policy, mc and simple players, recorded with
#              dhm play --record) and the A-* matches of ../shared/data/teacher (Blauweregen and
#              KleinBlauw, read from there, never copied);
#   test.bin   the B-* teacher matches (third-party programs and dhm mc): held out;
#   blaux5.bin blaux5.kifu (test only);
# and beside each, NAME.seq: the sequence model's rows (players/estseq.h; tools/train_estseq.sh).
# Games are never split: a game's decisions go to one file. Seeded (the self-play seeds are
# fixed), so the same dhm makes the same records.
# With KLEINBLAUW=PATH and DEVKIT=PATH (KleinBlauw and the organisers' sample client, built
# outside the repository as docs/ladder.md says), train.bin also holds two fields of them
# recorded on dhm serve by tools/teacher_corpus.sh into WORKDIR/corpus: C, 100 matches of
# KleinBlauw x 3 + sample client x 2 (seeds 7000+), and D, 60 matches of KleinBlauw x 2 + sample
# client + dhm policy + dhm mc (seeds 8000+); about 12 minutes, 1.3 million more decisions. The
# programs seed themselves, so these records are kept, not remade alike. With BLAUWEREGEN=PATH as
# well (the 2017 champion built with 250 simulations a decision), also E: 25 matches of it x 3 +
# KleinBlauw + the sample client (seeds 9000+; about 40 minutes, 0.2 million more decisions).
# Usage: tools/estnet_data.sh [DHM] [WORKDIR]   (build/dhm, train-estnet/); SCALE=small for a check.
# About 6 minutes on one core (most of it the mc fields); about 1.05 million train decisions.
set -eu
DHM=${1:-build/dhm}
W=${2:-train-estnet}
DATA=${DATA:-../shared/data}
[ -d "$DATA/teacher" ] || DATA=/work/shared/data
N_POLICY=9000 N_MIXED=2000 N_MC=500
if [ "${SCALE:-full}" = small ]; then N_POLICY=100 N_MIXED=20 N_MC=10; fi
mkdir -p "$W"
run() { echo "== $*" >&2; "$@"; }
# self-play, one kifu per field (whole games; the seeds fix them)
[ -f "$W/sp-policy.kifu" ] || run "$DHM" play --quiet --players policy,policy,policy,policy,policy \
  --games $N_POLICY --seed 11 --record "$W/sp-policy.kifu" >/dev/null
[ -f "$W/sp-mixed.kifu" ] || run "$DHM" play --quiet --players policy,mc,simple,mc:est=weights,policy \
  --games $N_MIXED --seed 12 --record "$W/sp-mixed.kifu" >/dev/null
[ -f "$W/sp-mc.kifu" ] || run "$DHM" play --quiet --players mc,mc,mc,mc,mc \
  --games $N_MC --seed 13 --record "$W/sp-mc.kifu" >/dev/null
# unpack DIR FILE.kifu.xz...: each decompressed into DIR (unless there already); prints their names
unpack() {
  d=$1
  shift
  for f; do
    n=$d/$(basename "$f" .xz)
    [ -f "$n" ] || xz -dc "$f" > "$n"
    printf ' %s' "$n"
  done
}
# the teacher matches: A-* for training, B-* held out
A=$(unpack "$W" "$DATA"/teacher/A-*.kifu.xz)
B=$(unpack "$W" "$DATA"/teacher/B-*.kifu.xz)
# the third-party fields (optional)
X=
if [ -n "${KLEINBLAUW:-}" ] && [ -n "${DEVKIT:-}" ]; then
  NC=100 ND=60
  if [ "${SCALE:-full}" = small ]; then NC=2 ND=1; fi
  corpus() {
    DHM=$DHM sh "$(dirname "$0")/teacher_corpus.sh" --kleinblauw "$KLEINBLAUW" --devkit "$DEVKIT" \
      --out "$W/corpus" --quiet "$@"
  }
  corpus --field kleinblauw+kleinblauw+kleinblauw+devkit+devkit --name C --matches $NC --seed 7000
  corpus --field kleinblauw+kleinblauw+devkit+policy+mc --name D --matches $ND --seed 8000
  X=$(unpack "$W/corpus" "$W"/corpus/C-*.kifu.xz "$W"/corpus/D-*.kifu.xz)
  # with BLAUWEREGEN=PATH too (the champion built with 250 simulations a decision,
  # FIXED_N_PLAYOUTS, docs/ladder.md): E, 25 matches of it x 3 + KleinBlauw + the sample client
  if [ -n "${BLAUWEREGEN:-}" ]; then
    NE=25
    if [ "${SCALE:-full}" = small ]; then NE=1; fi
    corpus --blauweregen "$BLAUWEREGEN" --field blauweregen+blauweregen+blauweregen+kleinblauw+devkit \
      --name E --matches $NE --seed 9000
    X="$X$(unpack "$W/corpus" "$W"/corpus/E-*.kifu.xz)"
  fi
fi
# the training games, in this order (more.bin below starts with them)
T="$W/sp-policy.kifu $W/sp-mixed.kifu $W/sp-mc.kifu $A $X"
# shellcheck disable=SC2086
run "$DHM" estimate --dump "$W/train.bin" --dump-seq "$W/train.seq" $T
# shellcheck disable=SC2086
run "$DHM" estimate --dump "$W/test.bin" --dump-seq "$W/test.seq" --game-base 1000000 $B
run "$DHM" estimate --dump "$W/blaux5.bin" --dump-seq "$W/blaux5.seq" --game-base 2000000 "$DATA/blaux5.kifu"
# MORE=1: also more.bin, the feature model's larger set (tools/train_estnet.sh): train.bin's games,
# then 43,000 more of self-play (30,000 of five policy; 10,000 of policy, policy:temp=1,
# policy:temp=0.5, simple and the fast policy; 3,000 of mc:sims=300, mc, policy, mc:sims=300,
# policy; seeds 14-16; about 3 minutes); 5.95 million decisions, 5.2 GB (and more.seq, 1 GB,
# the sequence model's rows of the same games)
if [ "${MORE:-0}" = 1 ]; then
  N_P2=30000 N_V=10000 N_M2=3000
  if [ "${SCALE:-full}" = small ]; then N_P2=100 N_V=40 N_M2=10; fi
  [ -f "$W/sp-policy2.kifu" ] || run "$DHM" play --quiet --players policy,policy,policy,policy,policy \
    --games $N_P2 --seed 14 --record "$W/sp-policy2.kifu" >/dev/null
  [ -f "$W/sp-varied.kifu" ] || run "$DHM" play --quiet --players policy,policy:temp=1,policy:temp=0.5,simple,policy:model=fast \
    --games $N_V --seed 15 --record "$W/sp-varied.kifu" >/dev/null
  [ -f "$W/sp-mc2.kifu" ] || run "$DHM" play --quiet --players mc:sims=300,mc,policy,mc:sims=300,policy \
    --games $N_M2 --seed 16 --record "$W/sp-mc2.kifu" >/dev/null
  # shellcheck disable=SC2086
  run "$DHM" estimate --dump "$W/more.bin" --dump-seq "$W/more.seq" $T \
    "$W/sp-policy2.kifu" "$W/sp-varied.kifu" "$W/sp-mc2.kifu"
fi
