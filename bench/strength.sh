#!/bin/sh
# strength.sh — how strong a player is: M independent matches of G games (seeds 1..M), the
# tested player in seat 0 against four opponents, run J at a time. Prints the tested player's
# mean points per game with the standard error across matches (games inside a match are not
# independent: classes carry over), its CPU per game (mc players report it) and the total.
#
#   bench/strength.sh [-m MATCHES] [-g GAMES] [-j JOBS] PLAYER OPPONENT [LABEL]
#   e.g. bench/strength.sh -m 10 -g 100 policy simple
#        bench/strength.sh mc mc:sims=1000:playout=simple
# Uses the dhm binary in $DHM (default build/dhm). Output: one line
#   LABEL  games N  mean X +- SE (standard error over M matches)  cpu_ms_per_game C
set -eu
M=10
G=100
J=2
while getopts m:g:j: o; do
  case $o in
  m) M=$OPTARG ;;
  g) G=$OPTARG ;;
  j) J=$OPTARG ;;
  *) echo "usage: $0 [-m MATCHES] [-g GAMES] [-j JOBS] PLAYER OPPONENT [LABEL]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { echo "usage: $0 [-m MATCHES] [-g GAMES] [-j JOBS] PLAYER OPPONENT [LABEL]" >&2; exit 2; }
P=$1
O=$2
L=${3:-"$P vs 4 x $O"}
DHM=${DHM:-build/dhm}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
seq 1 "$M" | xargs -P "$J" -I{} sh -c "\"$DHM\" play --players '$P,$O,$O,$O,$O' --games $G --seed {} --json --quiet > \"$T/{}.json\" || echo FAILED > \"$T/{}.failed\""
if ls "$T"/*.failed >/dev/null 2>&1; then
  echo "strength.sh: a match failed" >&2
  exit 1
fi
# player 0 is the first "mean" and the first "cpu_ms_per_game" of each file
for f in "$T"/*.json; do
  mean=$(grep -o '"mean": [0-9.]*' "$f" | head -n 1 | cut -d' ' -f2)
  cpu=$(grep -o '"cpu_ms_per_game": [0-9.]*' "$f" | head -n 1 | cut -d' ' -f2)
  echo "$mean ${cpu:-nan}"
done | awk -v label="$L" -v m="$M" -v g="$G" '
  { s += $1; s2 += $1 * $1; n++; if ($2 != "nan") { c += $2; nc++ } }
  END {
    mean = s / n; var = n > 1 ? (s2 - n * mean * mean) / (n - 1) : 0; if (var < 0) var = 0;
    printf "%-48s games %6d  mean %.3f +- %.3f (standard error over %d matches)  cpu_ms_per_game %s\n",
           label, n * g, mean, sqrt(var / n), n, nc ? sprintf("%.1f", c / nc) : "-"
  }'
