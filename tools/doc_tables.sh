#!/bin/sh
# doc_tables.sh — regenerates every results table in docs/ from the commands that make it.
# Each job is one documented command; its output goes to OUT/NAME.txt under a header that
# states the commit, the dhm version, the command, its seeds and its wall time, and OUT/README.md
# lists every job. The docs' tables are transcribed from these files (docs/results/ holds the
# full-mode outputs committed beside the docs).
#
#   tools/doc_tables.sh [--quick] [--out DIR] [--list] [NAME...]
#
#   (no option)  the full documented runs into docs/results/ (hours: see --list for each one's
#                CPU time on the 2-core VM); NAME... runs only those jobs
#   --quick      every job at a tiny scale, into a temporary directory unless --out: a few
#                minutes on 2 cores; proves that every command still runs end to end (the
#                numbers mean nothing); tests call it for a few jobs
#   --out DIR    write the outputs here instead
#   --list       print the jobs (name, doc, seeds, CPU estimate, full command) and exit
#
# Uses the dhm binary in $DHM (default build/dhm); the jobs that read ../shared/data are
# skipped (and say so) when it is absent. Exit status: 0 if every job that ran succeeded, 1 if
# any failed (its output file holds its error), 2 for bad usage.
set -eu
DHM=${DHM:-build/dhm}
QUICK=0
OUT=
LIST=0
ONLY=
usage() {
  echo "usage: tools/doc_tables.sh [--quick] [--out DIR] [--list] [NAME...]" >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case $1 in
  --quick) QUICK=1 ;;
  --out) [ $# -ge 2 ] || usage; OUT=$2; shift ;;
  --list) LIST=1 ;;
  -h | --help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  -*) usage ;;
  *) ONLY="$ONLY $1" ;;
  esac
  shift
done

# The jobs, one a line: NAME|DOC|SEEDS|CPU (full, 2-core VM)|FULL COMMAND|QUICK COMMAND.
# Commands are run by sh with $DHM set (hence single quotes); "#" lines are comments. Seeds are
# the full mode's; the quick commands use the same first seed.
# shellcheck disable=SC2016
JOBS='
errorrate|docs/analysis.md|1-5|about 1.6 CPU-h|$DHM experiment errorrate --seeds 5|$DHM experiment errorrate --seeds 2 --judge-games 5 --games-per-player 40 --set-games 5 --worlds 5 --margin-matches 2 --margin-games 4
errorrate-narrow|docs/analysis.md|1-5|about 1 CPU-h|$DHM experiment errorrate --seeds 5 --narrow|$DHM experiment errorrate --narrow --seeds 2 --judge-games 5 --games-per-player 40 --set-games 5 --worlds 5 --margin-matches 0
morita|docs/analysis.md|1|about 25 CPU-min|$DHM experiment morita|$DHM experiment morita --sets 20 --set-games 10 --playouts 100
dealing-order|docs/estimation.md|1|about 1.6 CPU-h|$DHM experiment dealing-order --matches 100 --games 1000|$DHM experiment dealing-order --matches 2 --games 10 --sims 10
oracle|docs/estimation.md|1|about 2 CPU-h|$DHM experiment oracle --base mc --sims 300 --step 25 --matches 12 --games 1000|$DHM experiment oracle --base mc --sims 10 --step 50 --matches 2 --games 5
estimate-blaux5|docs/estimation.md|1|about 10 CPU-min|$DHM estimate --kifu ../shared/data/blaux5.kifu --est uniform --est weights:order=suit-a --est weights:order=suit-d --est weights:order=rank-a --est weights:order=rank-d --est weights:order=random --est policy|$DHM estimate --kifu ../shared/data/blaux5.kifu --worlds 2 --est uniform --est weights
ninja|docs/players.md|1|about 1.5 CPU-h|$DHM experiment ninja --matches 40 --checkpoints 1000,2000,3000 --sims 300|$DHM experiment ninja --matches 2 --checkpoints 4,8 --sims 5
bandits|docs/players.md|1-3|about 6 CPU-min|for s in 1 2 3; do $DHM experiment bandits --seed $s; done|$DHM experiment bandits --matches 1 --games 5 --sims 5
choice|docs/players.md|1-3|about 5 CPU-min|for s in 1 2 3; do $DHM experiment choice --seed $s; done|$DHM experiment choice --matches 1 --checkpoints 5,10 --sims 5
desa|docs/players.md|1|about 25 CPU-min|for w in 0.1 0.01 0; do $DHM experiment desa --matches 40 --games 300 --mc-opts desa-w=$w; done|$DHM experiment desa --matches 2 --games 5 --sims 5
virtual-game|docs/rating.md|1|under 1 CPU-min|$DHM experiment virtual-game|$DHM experiment virtual-game --sets 20 --games 100
rating-study|docs/report.md|1|about 10 CPU-min|$DHM experiment rating-study|$DHM experiment rating-study --sets 6 --set-games 5
strength-mc|docs/players.md|1-40|about 45 CPU-min|DHM=$DHM bench/strength.sh -m 40 -g 100 mc mc:sims=1000:playout=simple|DHM=$DHM bench/strength.sh -m 2 -g 3 mc:sims=10 mc:sims=10:playout=simple
strength-policy|docs/players.md|1-100|about 2 CPU-min|DHM=$DHM bench/strength.sh -m 100 -g 500 policy simple|DHM=$DHM bench/strength.sh -m 2 -g 10 policy simple
strength-samplers|docs/estimation.md|1-20|about 40 CPU-min|for e in weights policy policy:est-k=1024:est-beta=0.1:est-point=1; do DHM=$DHM bench/strength.sh -m 20 -g 100 mc:est=$e mc; done|DHM=$DHM bench/strength.sh -m 2 -g 2 mc:sims=10:est=weights mc:sims=10
'

jobs() { printf '%s\n' "$JOBS" | grep -v '^#' | grep '|'; }
field() { printf '%s\n' "$1" | cut -d'|' -f"$2"; }

if [ "$LIST" = 1 ]; then
  jobs | while IFS= read -r j; do
    printf '%-18s %-20s seeds %-6s %-18s %s\n' "$(field "$j" 1)" "$(field "$j" 2)" "$(field "$j" 3)" \
      "$(field "$j" 4)" "$(field "$j" 5)"
  done
  exit 0
fi
for n in $ONLY; do
  jobs | cut -d'|' -f1 | grep -qx -- "$n" || { echo "tools/doc_tables.sh: no job named '$n' (--list names them)" >&2; exit 2; }
done
[ -x "$DHM" ] || { echo "tools/doc_tables.sh: no dhm binary at $DHM (make, or set DHM)" >&2; exit 2; }
DHM=$(cd "$(dirname "$DHM")" && pwd)/$(basename "$DHM")
if [ -z "$OUT" ]; then
  if [ "$QUICK" = 1 ]; then OUT=$(mktemp -d /tmp/dhm-doc-tables-XXXXXX); else OUT=docs/results; fi
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
cd "$(dirname "$0")/.." # the jobs run from the repository's root (bench/, ../shared/data)
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ "$COMMIT" != unknown ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  COMMIT="$COMMIT (with uncommitted changes)"
fi
VERSION=$("$DHM" --version 2>/dev/null | head -n 1)
[ -n "$VERSION" ] || VERSION="dhm version unknown"
MODE=full
[ "$QUICK" = 1 ] && MODE=quick
INDEX="$OUT/README.md"
failed=0
jobs | while IFS= read -r j; do
  name=$(field "$j" 1)
  case " $ONLY " in *" $name "*) ;; *) [ -z "$ONLY" ] || continue ;; esac
  doc=$(field "$j" 2)
  seeds=$(field "$j" 3)
  if [ "$QUICK" = 1 ]; then cmd=$(field "$j" 6); else cmd=$(field "$j" 5); fi
  file="$OUT/$name.txt"
  case $cmd in
  *../shared/data*)
    if [ ! -d ../shared/data ]; then
      echo "doc_tables: $name skipped (../shared/data is absent)" >&2
      continue
    fi ;;
  esac
  echo "doc_tables: $name ($doc): $cmd" >&2
  t0=$(date +%s)
  rc=0
  {
    echo "# $name — the table in $doc"
    echo "# commit $COMMIT, $VERSION, $(date -u '+%Y-%m-%d %H:%M UTC'), $MODE mode"
    echo "# command: $cmd"
    echo "# seeds: $seeds"
  } >"$file"
  DHM=$DHM sh -c "$cmd" >"$file.out" 2>"$file.err" </dev/null || rc=$?
  t1=$(date +%s)
  echo "# wall time: $((t1 - t0)) s; exit status $rc" >>"$file"
  cat "$file.out" >>"$file"
  if [ "$rc" != 0 ]; then
    { echo "# standard error:"; cat "$file.err"; } >>"$file"
    echo "doc_tables: $name FAILED (exit $rc); see $file" >&2
    echo "$name" >>"$OUT/.failed"
  fi
  rm -f "$file.out" "$file.err"
done
# The index: every output in OUT, this run's and earlier ones' (a run of some jobs keeps the rest).
{
  echo "# Results behind the tables in docs/"
  echo
  echo "Made by \`tools/doc_tables.sh\`; each row is one output file, with the commit it was made at."
  echo "Quick-mode outputs prove only that a command runs; their numbers mean nothing."
  echo
  echo "| job | doc | seeds | status | wall time | made at | command |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  for f in "$OUT"/*.txt; do
    [ -f "$f" ] || continue
    name=$(basename "$f" .txt)
    doc=$(sed -n '1s/^# .* — the table in //p' "$f")
    made=$(sed -n '2s/^# //p' "$f")
    cmd=$(sed -n '3s/^# command: //p' "$f")
    seeds=$(sed -n '4s/^# seeds: //p' "$f")
    wall=$(sed -n '5s/^# wall time: \([0-9]*\) s.*/\1 s/p' "$f")
    rc=$(sed -n '5s/.*exit status //p' "$f")
    if [ "$rc" = 0 ]; then status=ok; else status="FAILED (exit $rc)"; fi
    echo "| $name | $doc | $seeds | $status | $wall | $made | \`$cmd\` |"
  done
} >"$INDEX"
if [ -f "$OUT/.failed" ]; then failed=1; rm -f "$OUT/.failed"; fi
echo "doc_tables: outputs in $OUT (index: $INDEX)" >&2
exit $failed
