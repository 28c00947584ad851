#!/bin/sh
# train_gift.sh — makes the built-in gift model weights (players/gift.weights): imitation of the
# recorded gifts of KleinBlauw (the 2017 champion's policy-only build, an external program built
# outside the repository; docs/ladder.md) on dhm serve, fitted by `dhm train policy --model gift`
# (docs/strength.md, "The gift model"). The weights are dhm's own fit to records of play, not the
# program's parameters. KleinBlauw seeds itself from the clock (and draws its gift from a
# softmax), so a new run records other games and makes statistically equal, not identical, weights.
#   record  tools/teacher_corpus.sh: 120 matches of 5 x KleinBlauw and 20 of 3 x KleinBlauw +
#           dhm policy + dhm mc (100 games each: 14,000 games, 26,000 gifts with a choice);
#           10-25 minutes on 2 cores (3-10 s a match, depending on what else runs)
#   fit     500 full-batch Adam steps (lr 0.05, L2 1e-4) on 90% of the games (seed 1), the other
#           10% held out; about a minute on 2 cores
#   test    with ../shared/data/teacher present: agreement on KleinBlauw's gifts in the teacher
#           corpus's field B (Blauweregen x 2, KleinBlauw, the sample client, dhm mc), which nothing
#           is fitted on, next to the rich policy's exchange weights (the gifts before)
# Usage: tools/train_gift.sh --kleinblauw PATH [--work DIR] [-o FILE] [--matches-scale F]
set -eu
DHM=${DHM:-build/dhm}
WORK=train-gift
OUT=players/gift.weights
KB=
SCALE=1
die() { echo "train_gift.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
  --kleinblauw) [ $# -ge 2 ] || die "--kleinblauw needs a path"; KB=$2; shift ;;
  --work) [ $# -ge 2 ] || die "--work needs a directory"; WORK=$2; shift ;;
  -o | --out) [ $# -ge 2 ] || die "-o needs a file"; OUT=$2; shift ;;
  --matches-scale) [ $# -ge 2 ] || die "--matches-scale needs a number"; SCALE=$2; shift ;;
  -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) die "unknown option '$1' (try --help)" ;;
  esac
  shift
done
[ -n "$KB" ] || die "--kleinblauw is required (docs/ladder.md says how to build it)"
[ -x "$DHM" ] || die "$DHM not built (make)"
HERE=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$WORK/corpus" "$WORK/kifu"
# the recording runs a copy of dhm, so that a rebuild meanwhile cannot stop it
cp "$DHM" "$WORK/dhm"
matches() { awk -v n="$1" -v s="$SCALE" 'BEGIN { m = int(n * s + 0.5); print (m > 0 ? m : 1) }'; }
record() { # NAME FIELD MATCHES SEED
  DHM="$WORK/dhm" sh "$HERE/tools/teacher_corpus.sh" --kleinblauw "$KB" --field "$2" --name "$1" \
    --matches "$(matches "$3")" --seed "$4" --out "$WORK/corpus" --quiet
}
echo "== recording KleinBlauw's gifts into $WORK/corpus" >&2
record gkb5 kleinblauw+kleinblauw+kleinblauw+kleinblauw+kleinblauw 120 40000
record gkbmix kleinblauw+kleinblauw+kleinblauw+policy+mc 20 50000
. "$HERE/tools/corpus_files.sh"
FITS=$(field_kifus "$WORK" gkb5 gkbmix) || exit 1
TESTS=$(teacher_tests "$WORK") || exit 1
set --
for k in $FITS; do set -- "$@" --kifu "$k"; done
for k in $TESTS; do set -- "$@" --test-kifu "$k"; done
[ -n "$TESTS" ] || echo "train_gift.sh: no ${DHM_SHARED:-../shared}/data/teacher: no test on the teacher corpus's field B" >&2
echo "== fitting the gift model to KleinBlauw's gifts" >&2
"$DHM" train policy --model gift --players KleinBlau --epochs 500 --lr 0.05 --l2 1e-4 --seed 1 -o "$OUT" "$@"
echo "wrote $OUT" >&2
