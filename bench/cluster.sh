#!/bin/sh
# cluster.sh — tournaments across MPI ranks on this machine (docs/cluster.md): sets per hour
# for K playing ranks (mpiexec -n K+1: rank 0 schedules and stores, ranks 1..K play) against
# one process with K worker threads, for a pool of `simple` players (long cheap sets) and one
# of `mc` players (short expensive sets). Rank 0's store throughput is bench_store's
# store_commits_per_second_100_game_sets (make bench).
#
#   bench/cluster.sh [-k "1 2"] [-s SIMPLE_SETS] [-m MC_SETS]
# Needs build/dhm-mpi (make MPI=1) and mpiexec; uses $DHM (build/dhm) and $DHM_MPI
# (build/dhm-mpi). Output: name value unit lines, as make bench.
set -eu
KS="1 2"
SS=400
MS=40
while getopts k:s:m: o; do
  case $o in
  k) KS=$OPTARG ;;
  s) SS=$OPTARG ;;
  m) MS=$OPTARG ;;
  *) echo "usage: $0 [-k \"1 2\"] [-s SIMPLE_SETS] [-m MC_SETS]" >&2; exit 2 ;;
  esac
done
DHM=${DHM:-build/dhm}
DHM_MPI=${DHM_MPI:-build/dhm-mpi}
command -v mpiexec >/dev/null 2>&1 || { echo "cluster.sh: mpiexec not found (make deps-mpi)" >&2; exit 1; }
[ -x "$DHM_MPI" ] || { echo "cluster.sh: $DHM_MPI not built (make MPI=1)" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
i=1
while [ $i -le 6 ]; do
  echo "s$i simple" >>"$T/simple.txt"
  echo "m$i mc:sims=100" >>"$T/mc.txt"
  i=$((i + 1))
done

now() { date +%s.%N; }
# run NAME SETS GAMES POOL K: one process with K threads, then K playing ranks
run() {
  name=$1 sets=$2 games=$3 pool=$4 k=$5
  t0=$(now)
  "$DHM" tournament --pool "$pool" --sets "$sets" --games "$games" --seed 1 --jobs "$k" --db "$T/t$name$k.sqlite" --quiet >/dev/null
  t1=$(now)
  mpiexec -n $((k + 1)) "$DHM_MPI" tournament --pool "$pool" --sets "$sets" --games "$games" --seed 1 \
    --db "$T/m$name$k.sqlite" --quiet >/dev/null
  t2=$(now)
  "$DHM" records sets --db "$T/t$name$k.sqlite" --csv >"$T/a.csv"
  "$DHM" records sets --db "$T/m$name$k.sqlite" --csv >"$T/b.csv"
  cmp -s "$T/a.csv" "$T/b.csv" || { echo "cluster.sh: the MPI run's sets differ from the threaded run's" >&2; exit 1; }
  awk -v n="$name" -v k="$k" -v s="$sets" -v g="$games" -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
    printf "%-50s %10.0f sets/h\n", "threads_" k "_" n "_" g "_game_sets_per_hour", s * 3600 / (b - a);
    printf "%-50s %10.0f sets/h\n", "mpi_ranks_" k "_" n "_" g "_game_sets_per_hour", s * 3600 / (c - b);
  }'
}
for k in $KS; do
  run simple "$SS" 2000 "$T/simple.txt" "$k"
  run mc "$MS" 20 "$T/mc.txt" "$k"
done
