#!/bin/sh
# teacher_corpus.sh — records a teacher corpus: matches of external UECda programs (the 2017
# champion Blauweregen, its policy KleinBlauw, the organisers' sample client) and dhm's players on
# `dhm serve`, each match one xz-compressed kifu file NAME-NNN.kifu.xz (100 games by default),
# as ../shared/data/teacher/ was made. The programs themselves stay outside the repository: their
# paths are arguments (docs/ladder.md says how to build them). Each match is played by
# bench/ladder.sh (seats, client start-up, time-outs, the clean-run checks) and its record is
# replayed by `dhm replay` before it is kept. Existing files are skipped, so a stopped run
# continues where it stopped, and a new NAME adds matches beside an existing corpus.
#
#   tools/teacher_corpus.sh --blauweregen PATH --kleinblauw PATH --devkit PATH \
#       --field blauweregen+blauweregen+blauweregen+kleinblauw+kleinblauw --name A --matches 17 \
#       --seed 1000 --out corpus/
#
# Blauweregen thinks on a wall-clock budget: give it a quiet core (one match at a time, nothing
# else running), or it plays weaker than its usual self. Exit status: 0 every match recorded,
# 1 a match could not be played or its record does not replay, 2 bad options.
set -eu

DHM=${DHM:-build/dhm}
FIELD=
NAME=
MATCHES=1
GAMES=100
SEED=1000
OUT=
QUIET=0

usage() {
  cat <<'EOF'
usage: tools/teacher_corpus.sh [options]
Records matches of external UECda programs and dhm players on dhm serve, one xz-compressed kifu
file a match (OUT/NAME-NNN.kifu.xz, match k with seed SEED+k), skipping files that exist.

  --blauweregen PATH   Blauweregen's client (1 thread; docs/ladder.md)
  --kleinblauw PATH    KleinBlauw (Blauweregen's policy_client)
  --devkit PATH        the organisers' sample client
  --other PATH         one more client (a seat named other)
  --field A+B+C+D+E    the five seats: blauweregen, kleinblauw, devkit, other, or a dhm player
                       spec (mc, policy, ...) (required)
  --name NAME          the files' prefix (required), e.g. A
  --matches N          matches to record (1)
  --games G            games a match (100)
  --seed S             match k plays with seed S + k (1000); the external programs seed
                       themselves, so a match is replayable from its record, not from the seed
  --out DIR            where the files go (required)
  --quiet              no progress lines
  -h, --help           this text
Environment: DHM (the dhm binary, build/dhm).
EOF
}
die() { echo "teacher_corpus.sh: $*" >&2; exit 2; }
need() { [ $# -ge 2 ] || die "$1 needs a value (try --help)"; }
posint() { case $2 in '' | *[!0-9]*) die "$1 must be a positive integer, got '$2'" ;; esac; [ "$2" -gt 0 ] || die "$1 must be a positive integer, got '$2'"; }
exe() { [ -f "$2" ] && [ -x "$2" ] || die "$1: '$2' is not an executable file"; }

while [ $# -gt 0 ]; do
  case $1 in
  --blauweregen) need "$@"; exe "$1" "$2"; export DHM_LADDER_BLAUWEREGEN="$2"; shift ;;
  --kleinblauw) need "$@"; exe "$1" "$2"; export DHM_LADDER_KLEINBLAUW="$2"; shift ;;
  --devkit) need "$@"; exe "$1" "$2"; export DHM_LADDER_DEVKIT="$2"; shift ;;
  --other) need "$@"; exe "$1" "$2"; export DHM_LADDER_OTHER="$2"; shift ;;
  --field) need "$@"; FIELD=$2; shift ;;
  --name) need "$@"; NAME=$2; shift ;;
  --matches) need "$@"; posint --matches "$2"; MATCHES=$2; shift ;;
  --games) need "$@"; posint --games "$2"; GAMES=$2; shift ;;
  --seed) need "$@"; case $2 in '' | *[!0-9]*) die "--seed must be a non-negative integer, got '$2'" ;; esac; SEED=$2; shift ;;
  --out) need "$@"; OUT=$2; shift ;;
  --quiet) QUIET=1 ;;
  -h | --help) usage; exit 0 ;;
  *) die "unknown option '$1' (try --help)" ;;
  esac
  shift
done
[ -n "$FIELD" ] || die "--field is required (try --help)"
[ -n "$NAME" ] || die "--name is required (try --help)"
[ -n "$OUT" ] || die "--out is required (try --help)"
case $NAME in *[!A-Za-z0-9_.-]* | '') die "--name: letters, digits, '.', '_' and '-' only, got '$NAME'" ;; esac
case $FIELD in *+*+*+*+*) ;; *) die "--field needs five seats joined by +, got '$FIELD'" ;; esac
[ -x "$DHM" ] || { echo "teacher_corpus.sh: $DHM not built (make)" >&2; exit 1; }
command -v xz >/dev/null 2>&1 || { echo "teacher_corpus.sh: xz not found (apt-get install xz-utils)" >&2; exit 1; }
HERE=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT" || die "--out: cannot create '$OUT'"
T=$(mktemp -d /tmp/dhm-teacher-XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

t0=$(date +%s)
done_now=0
k=0
while [ $k -lt "$MATCHES" ]; do
  f=$(printf '%s/%s-%03d.kifu.xz' "$OUT" "$NAME" "$k")
  if [ -e "$f" ]; then
    k=$((k + 1))
    continue
  fi
  s=$((SEED + k))
  rm -rf "$T/run"
  # the ladder plays the match and checks that it was clean (every process exited 0, no
  # time-outs or drops, every game played); its table goes to a log
  if ! DHM="$DHM" sh "$HERE/bench/ladder.sh" -p mc -f "$FIELD" -g "$GAMES" -s "$s" --keep "$T/run" \
    >"$T/ladder.log" 2>&1; then
    echo "teacher_corpus.sh: match $k (seed $s) was not played cleanly:" >&2
    grep -E 'NOT CLEAN|ladder.sh:' "$T/ladder.log" | tail -n 5 >&2
    exit 1
  fi
  kifu=$(ls "$T"/run/*/games.kifu)
  if ! "$DHM" replay "$kifu" >"$T/replay.log" 2>&1; then
    echo "teacher_corpus.sh: match $k (seed $s): the record does not replay:" >&2
    tail -n 3 "$T/replay.log" >&2
    exit 1
  fi
  xz -9 -c "$kifu" >"$f.part" && mv "$f.part" "$f"
  done_now=$((done_now + 1))
  k=$((k + 1))
  if [ "$QUIET" = 0 ]; then
    el=$(($(date +%s) - t0))
    left=0
    j=$k
    while [ $j -lt "$MATCHES" ]; do
      [ -e "$(printf '%s/%s-%03d.kifu.xz' "$OUT" "$NAME" "$j")" ] || left=$((left + 1))
      j=$((j + 1))
    done
    echo "teacher_corpus.sh: $f ($done_now recorded in ${el} s; $left to go, ETA $((el * left / done_now)) s)" >&2
  fi
done
echo "teacher_corpus.sh: $MATCHES matches of $FIELD in $OUT ($done_now new)" >&2
