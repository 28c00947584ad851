#!/bin/sh
# train_rich.sh — makes the built-in rich policy weights (players/rich.weights): imitation of the
# recorded play decisions of KleinBlauw (the 2017 champion's policy, an external program built
# outside the repository; docs/ladder.md) in three fields on dhm serve, fitted by
# `dhm train policy --model rich --policy-decisions` (the decisions where no certain win exists;
# docs/strength.md). The weights are dhm's own fit to records of play, not the program's
# parameters. KleinBlauw seeds itself from the clock, so a new run records other games and
# makes statistically equal, not identical, weights.
#   record  tools/teacher_corpus.sh: 200 matches of 5 x KleinBlauw, 100 of 3 x KleinBlauw +
#           2 x the sample client, 50 of 2 x KleinBlauw + dhm policy + dhm mc + the sample
#           client (100 games each: 35,000 games, about 1.2 M decisions; a few minutes)
#   fit     2,000 full-batch Adam steps (lr 0.1, L2 1e-7) on 90% of the games (seed 1), the other
#           10% held out; about 25 minutes and 0.9 GB on 2 cores
#   test    with ../shared/data/teacher present: agreement on KleinBlauw's decisions in the
#           teacher corpus's field B (Blauweregen x 2, KleinBlauw, the sample client, dhm mc),
#           which nothing is fitted on
# Usage: tools/train_rich.sh --kleinblauw PATH --devkit PATH [--work DIR] [-o FILE] [--matches-scale F]
set -eu
DHM=${DHM:-build/dhm}
WORK=train-rich
OUT=players/rich.weights
KB=
DEVKIT=
SCALE=1
die() { echo "train_rich.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
  --kleinblauw) [ $# -ge 2 ] || die "--kleinblauw needs a path"; KB=$2; shift ;;
  --devkit) [ $# -ge 2 ] || die "--devkit needs a path"; DEVKIT=$2; shift ;;
  --work) [ $# -ge 2 ] || die "--work needs a directory"; WORK=$2; shift ;;
  -o | --out) [ $# -ge 2 ] || die "-o needs a file"; OUT=$2; shift ;;
  --matches-scale) [ $# -ge 2 ] || die "--matches-scale needs a number"; SCALE=$2; shift ;;
  -h | --help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) die "unknown option '$1' (try --help)" ;;
  esac
  shift
done
[ -n "$KB" ] && [ -n "$DEVKIT" ] || die "--kleinblauw and --devkit are required (docs/ladder.md says how to build them)"
HERE=$(cd "$(dirname "$0")/.." && pwd)
matches() { awk -v n="$1" -v s="$SCALE" 'BEGIN { m = int(n * s + 0.5); print (m > 0 ? m : 1) }'; }
record() { # NAME FIELD MATCHES SEED
  DHM="$DHM" sh "$HERE/tools/teacher_corpus.sh" --kleinblauw "$KB" --devkit "$DEVKIT" --field "$2" --name "$1" \
    --matches "$(matches "$3")" --seed "$4" --out "$WORK/corpus" --quiet
}
mkdir -p "$WORK/corpus" "$WORK/kifu"
echo "== recording KleinBlauw's games into $WORK/corpus" >&2
record kb5 kleinblauw+kleinblauw+kleinblauw+kleinblauw+kleinblauw 200 10000
record kb3dk2 kleinblauw+kleinblauw+kleinblauw+devkit+devkit 100 20000
record kbmix kleinblauw+kleinblauw+policy+mc+devkit 50 30000
. "$HERE/tools/corpus_files.sh"
FITS=$(field_kifus "$WORK" kb5 kb3dk2 kbmix) || exit 1
TESTS=$(teacher_tests "$WORK") || exit 1
set --
for k in $FITS; do set -- "$@" --kifu "$k"; done
for k in $TESTS; do set -- "$@" --test-kifu "$k"; done
echo "== fitting the rich policy to KleinBlauw's decisions" >&2
"$DHM" train policy --model rich --policy-decisions --players KleinBlau --epochs 2000 --lr 0.1 --l2 1e-7 \
  --seed 1 -o "$OUT" "$@"
echo "wrote $OUT" >&2
