#!/bin/sh
# deps.sh — installs the Debian packages dhm needs, only when something is missing.
# Needed: a C compiler and make, libsqlite3-dev (the results store), libmicrohttpd-dev (the web
# server of the live view, --watch: docs/watch.md), libcmocka-dev (tests),
# chromium (the tests render dhm report's page in a real browser), and for the Python package
# (make python; its tests run in make check) Debian's python3 with python3-dev, python3-numpy and
# python3-pytest. Optional: python3-pandas (DataFrames; the tests that need it skip without it).
# With --mpi also MPICH (mpich, libmpich-dev) for `make MPI=1` (.ci/run asks for it; the
# default build and the README's commands need no MPI). With --torch also python3-torch (the
# PyTorch example of docs/python.md; its tests are skipped without it). Optional: clang for
# `make fuzz`.
set -eu
missing=""
if [ "${1:-}" = "--mpi" ]; then
  command -v mpiexec >/dev/null 2>&1 || missing="$missing mpich"
  command -v mpicc >/dev/null 2>&1 || missing="$missing libmpich-dev"
fi
if [ "${1:-}" = "--torch" ]; then
  /usr/bin/python3 -c 'import torch' >/dev/null 2>&1 || missing="$missing python3-torch"
fi
have_header() { [ -f "/usr/include/$1" ] || [ -f "/usr/local/include/$1" ]; }
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
command -v make >/dev/null 2>&1 || missing="$missing make"
have_header sqlite3.h || missing="$missing libsqlite3-dev"
have_header cmocka.h || missing="$missing libcmocka-dev"
have_header microhttpd.h || missing="$missing libmicrohttpd-dev"
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
py=/usr/bin/python3
ls /usr/include/python3*/Python.h >/dev/null 2>&1 || missing="$missing python3-dev"
{ [ -x $py ] && $py -c 'import numpy' >/dev/null 2>&1; } || missing="$missing python3-numpy"
{ [ -x $py ] && $py -c 'import pytest' >/dev/null 2>&1; } || missing="$missing python3-pytest"
[ -z "$missing" ] && exit 0
echo "dhm: installing Debian packages:$missing" >&2
if [ "$(id -u)" = 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "dhm: please install as root: apt-get install -y$missing" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
$SUDO apt-get install -y --no-install-recommends $missing >/dev/null 2>&1 ||
  { $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y --no-install-recommends $missing; }
