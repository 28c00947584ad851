#!/bin/sh
# tools/class_values.sh [GAMES] [SEED] — the class transitions behind mc:reward=match
# (players/mc.c, CLASS_TRANSITION): GAMES games of `policy` self-play (default 20000, seed 1),
# and P[c][c'], the share of players finishing class c (0 = daifugo) in one game who finish
# c' in the next game of the same class period (a game that resets the classes, every 100th,
# starts no transition). Prints the matrix as C rows and the number of transitions from each
# class. DHM=path picks the binary (default build/dhm).
set -eu
GAMES=${1:-20000}
SEED=${2:-1}
DHM=${DHM:-build/dhm}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$DHM" play --players policy,policy,policy,policy,policy --games "$GAMES" --seed "$SEED" \
    --record "$tmp" --quiet >/dev/null
awk '
$1 == "game" { g = $2 }
$1 == "result" {
    for (p = 0; p < 5; p++) {
        c = $(p + 2)
        if (have && g % 100 != 0) { n[prev[p], c]++; rows[prev[p]]++ }
        prev[p] = c
    }
    have = 1
}
END {
    for (c = 0; c < 5; c++) {
        line = "    {"
        for (d = 0; d < 5; d++)
            line = line sprintf("%.3f%s", rows[c] ? n[c, d] / rows[c] : 0, d < 4 ? ", " : "")
        printf "%s},  /* class %d: %d transitions */\n", line, c, rows[c]
    }
}' "$tmp"
