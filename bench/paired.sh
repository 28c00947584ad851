#!/bin/sh
# paired.sh — two players compared in-process on the same games: A, then B, in seat 0 of
# `dhm play --independent` with one seed against four copies of an opponent, so that game i
# starts alike for both (the same hands, seats and classes; every game has the exchange, or none
# with --no-exchange). Prints each one's points per game ± SE over games, the paired difference
# A − B with its SE (the standard deviation of the per-game differences over √games) and 95%
# interval, the correlation of the pairs, and each one's CPU per game (mc players report it).
#
#   bench/paired.sh [-g GAMES] [-s SEED] [-o OPPONENT] [-j JOBS] [--no-exchange | --match | --class C] [--keep DIR] [--csv] A B
#   e.g. bench/paired.sh -g 2000 -o policy mc:pmates=all mc
# A and B run at once (one process each; -j 1: one after the other), each split into JOBS/2
# pieces (-j 4: two pieces each, four processes). --keep DIR writes each run's points, one game
# a line, to DIR/SPEC.points (SPEC with / and : as _): runs with the same -g, -s, -o and -j
# play the same games, so any two such files pair up line by line. --match plays the match
# format instead (classes carry over, reset every 100 games): game i is dealt alike for both,
# but the classes, and so the exchange, follow each run's own results, so the pairing is
# looser, and every SE is over blocks of 10 games (batch means). --class C: A and B start every
# game in class C (0-4 or daifugo .. daihinmin; dhm play --class0), still paired. Uses $DHM
# (default build/dhm). Exit 0, 1 when a run failed, 2 for bad options.
set -eu
G=1000
S=1
O=policy
J=2
NX=""
CLS=""
CSV=0
KEEP=
MODE=--independent
BLK=1
usage() { echo "usage: $0 [-g GAMES] [-s SEED] [-o OPPONENT] [-j JOBS] [--no-exchange | --match | --class C] [--keep DIR] [--csv] A B" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
  -g) [ $# -ge 2 ] || usage; G=$2; shift 2 ;;
  -s) [ $# -ge 2 ] || usage; S=$2; shift 2 ;;
  -o) [ $# -ge 2 ] || usage; O=$2; shift 2 ;;
  -j) [ $# -ge 2 ] || usage; J=$2; shift 2 ;;
  --no-exchange) NX="--class-reset 1"; shift ;;
  --match) MODE=; BLK=10; shift ;;
  --class) [ $# -ge 2 ] || usage; CLS=$2; shift 2 ;;
  --csv) CSV=1; shift ;;
  --keep) [ $# -ge 2 ] || usage; KEEP=$2; shift 2 ;;
  -h | --help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  -*) usage ;;
  *) break ;;
  esac
done
[ $# -eq 2 ] || usage
case $G$J$S in *[!0-9]*) echo "paired.sh: -g, -j and -s take whole numbers" >&2; exit 2 ;; esac
[ "$G" -ge 2 ] && [ "$J" -ge 1 ] || { echo "paired.sh: -g needs at least 2 games and -j at least 1" >&2; exit 2; }
A=$1
B=$2
DHM=${DHM:-build/dhm}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
# pieces per player: J/2 (at least 1); piece k plays its share of the games with its own seed
# (dhm play --independent draws game i from (seed, i)); A and B play the same pieces with the
# same seeds, so that their games pair up one to one.
P=$(( J / 2 )); [ "$P" -ge 1 ] || P=1
run() { # LABEL SPEC PIECE
  n=$(( G / P )); [ "$3" -lt $(( G % P )) ] && n=$(( n + 1 ))
  "$DHM" play --players "$2,$O,$O,$O,$O" --games "$n" --seed $(( S + 1000003 * $3 )) $MODE $NX ${CLS:+--class0 "$CLS"} \
    --record "$T/$1.$3.kifu" --json --quiet > "$T/$1.$3.json" 2> "$T/$1.$3.err" || echo "$1 piece $3" >> "$T/failed"
}
k=0
while [ "$k" -lt "$P" ]; do
  if [ "$J" -ge 2 ]; then
    run A "$A" "$k" &
    run B "$B" "$k" &
  else
    run A "$A" "$k"
    run B "$B" "$k"
  fi
  k=$(( k + 1 ))
done
wait
if [ -f "$T/failed" ]; then
  echo "paired.sh: a run failed ($(tr '\n' ' ' < "$T/failed")):" >&2
  cat "$T"/*.err >&2
  exit 1
fi
cpu() { # LABEL: mean of the pieces' cpu_ms_per_game for player 0, or -
  for f in "$T/$1".*.json; do grep -o '"cpu_ms_per_game": [0-9.]*' "$f" | head -n 1 | cut -d' ' -f2; done |
    awk '{ s += $1; n++ } END { if (n) printf "%.1f", s / n; else printf "-" }'
}
CA=$(cpu A)
CB=$(cpu B)
k=0
while [ "$k" -lt "$P" ]; do
  awk '/^result/ { print 5 - $2 }' "$T/A.$k.kifu" >> "$T/a.txt"
  awk '/^result/ { print 5 - $2 }' "$T/B.$k.kifu" >> "$T/b.txt"
  k=$(( k + 1 ))
done
if [ -n "$KEEP" ]; then
  mkdir -p "$KEEP" || exit 1
  cp "$T/a.txt" "$KEEP/$(printf '%s' "$A" | tr '/:' '__').points"
  cp "$T/b.txt" "$KEEP/$(printf '%s' "$B" | tr '/:' '__').points"
fi
paste "$T/a.txt" "$T/b.txt" | awk -v a="$A" -v b="$B" -v o="$O" -v csv="$CSV" -v ca="$CA" -v cb="$CB" -v nx="${NX:+ (no exchange)}${CLS:+ (player 0 always $CLS)}" -v blk="$BLK" '
  # SEs over blocks of blk consecutive games (1: independent games; 10: batch means in a match)
  function flush() { if (k == 0) return; x = bx / k; y = by / k; d = x - y; m++; sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y; sd += d; sdd += d * d; bx = by = k = 0 }
  { bx += $1; by += $2; k++; n++; if (k == blk) flush() }
  END {
    if (k == blk) flush(); else bx = by = k = 0  # a last partial block is left out of the SEs
    mx = sx / m; my = sy / m; md = sd / m
    vx = (sxx - m * mx * mx) / (m - 1); vy = (syy - m * my * my) / (m - 1); vd = (sdd - m * md * md) / (m - 1)
    if (vx < 0) vx = 0; if (vy < 0) vy = 0; if (vd < 0) vd = 0
    r = vx > 0 && vy > 0 ? (sxy - m * mx * my) / (m - 1) / sqrt(vx * vy) : 0
    se = sqrt(vd / m); sea = sqrt(vx / m); seb = sqrt(vy / m)
    kind = blk > 1 ? sprintf("SE over %d blocks of %d games (batch means)", m, blk) : "SE over games"
    if (csv) {
      print "a,b,opponent,format,games,a_mean,a_se,b_mean,b_se,diff,diff_se,corr,a_cpu_ms,b_cpu_ms"
      printf "\"%s\",\"%s\",\"%s\",%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.3f,%s,%s\n", a, b, o, (blk > 1 ? "match" : "independent"), m * blk, mx, sea, my, seb, md, se, r, ca, cb
      exit
    }
    printf "paired in-process: %d %s%s, seat 0 against 4 x %s; points per game +- %s\n", m * blk, (blk > 1 ? "games in matches (classes carry over)" : "independent games"), nx, o, kind
    printf "  A %-50s %.3f +- %.3f   cpu %s ms/game\n", a, mx, sea, ca
    printf "  B %-50s %.3f +- %.3f   cpu %s ms/game\n", b, my, seb, cb
    printf "  A - B = %+.3f +- %.3f (paired SE; 95%% interval %+.3f to %+.3f); correlation of the pairs %.2f\n", md, se, md - 1.96 * se, md + 1.96 * se, r
  }'
