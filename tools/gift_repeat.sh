#!/bin/sh
# gift_repeat.sh — KleinBlauw's gifts on the same hands, again and again: R runs of 5 x KleinBlauw
# on dhm serve --independent with one seed (every game dealt alike, every game with the
# exchange), then tools/gift_repeat.py: how often KleinBlauw repeats its own gift, the best
# agreement any fixed choice can reach, and the agreement of the gift model (players/gift.weights
# or -w FILE) and of the rich policy's exchange weights with KleinBlauw's gifts and with its most
# frequent gift (docs/strength.md, "The gift model"). About 15 s a run on 2 cores.
# Usage: tools/gift_repeat.sh --kleinblauw PATH [--runs R (20)] [--games G (300)] [--seed S (77)]
#        [--work DIR (gift-repeat)] [-w WEIGHTS]
set -eu
DHM=${DHM:-build/dhm}
KB=
RUNS=20
GAMES=300
SEED=77
WORK=gift-repeat
W=players/gift.weights
die() { echo "gift_repeat.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
  --kleinblauw) [ $# -ge 2 ] || die "--kleinblauw needs a path"; KB=$2; shift ;;
  --runs) [ $# -ge 2 ] || die "--runs needs a number"; RUNS=$2; shift ;;
  --games) [ $# -ge 2 ] || die "--games needs a number"; GAMES=$2; shift ;;
  --seed) [ $# -ge 2 ] || die "--seed needs a number"; SEED=$2; shift ;;
  --work) [ $# -ge 2 ] || die "--work needs a directory"; WORK=$2; shift ;;
  -w) [ $# -ge 2 ] || die "-w needs a weights file"; W=$2; shift ;;
  -h | --help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) die "unknown option '$1' (try --help)" ;;
  esac
  shift
done
[ -n "$KB" ] || die "--kleinblauw is required (docs/ladder.md says how to build it)"
[ -x "$DHM" ] || die "$DHM not built (make)"
HERE=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$WORK"
cp "$DHM" "$WORK/dhm"
r=1
while [ $r -le "$RUNS" ]; do
  if [ ! -d "$WORK/r$r" ]; then # existing runs are kept: a stopped run continues
    rm -rf "$WORK/r$r.part"
    DHM="$WORK/dhm" DHM_LADDER_KLEINBLAUW="$KB" sh "$HERE/bench/ladder.sh" -p kleinblauw -f kleinblauw --independent \
      -g "$GAMES" -s "$SEED" --keep "$WORK/r$r.part" >"$WORK/r$r.log" 2>&1 || die "run $r failed (see $WORK/r$r.log)"
    mv "$WORK/r$r.part" "$WORK/r$r"
  fi
  r=$((r + 1))
done
cc -std=c11 -D_DEFAULT_SOURCE -O2 -I"$HERE" "$HERE/tools/gift_pick.c" "$HERE/build/libdhm.a" -lpthread -lm \
  -o "$WORK/gift_pick"
python3 "$HERE/tools/gift_repeat.py" "$WORK" "$WORK/gift_pick" "$W"
