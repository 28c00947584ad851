#!/bin/sh
# pick_python.sh — the interpreter `make python` builds the dhm package for: the python3 on PATH
# when it has numpy and the Python headers (a venv or pyenv interpreter set up for it), else
# Debian's /usr/bin/python3 (python3-numpy, python3-dev; tools/deps.sh installs them).
#   sh tools/pick_python.sh          prints the interpreter's path (sys.executable)
#   sh tools/pick_python.sh --why    prints one line saying which and why
set -u
usable() {
  "$1" -c 'import os, sysconfig, numpy
assert os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))' >/dev/null 2>&1
}
real() { "$1" -c 'import sys; print(sys.executable)' 2>/dev/null || echo "$1"; }
path_py=$(command -v python3 2>/dev/null || true)
if [ -n "$path_py" ] && usable "$path_py"; then
  pick=$(real "$path_py")
  why="the python3 on PATH, which has numpy and the Python headers"
else
  pick=/usr/bin/python3
  if [ -z "$path_py" ]; then
    why="Debian's (no python3 on PATH)"
  else
    shown=$path_py
    [ "$(real "$path_py")" != "$path_py" ] && shown="$path_py = $(real "$path_py")"
    if ! "$path_py" -c 'import numpy' >/dev/null 2>&1; then
      why="Debian's: the python3 on PATH ($shown) has no numpy; run the package with /usr/bin/python3"
    else
      why="Debian's: the python3 on PATH ($shown) has no Python headers; run the package with /usr/bin/python3"
    fi
  fi
fi
if [ "${1:-}" = --why ]; then
  ver=$("$pick" -c 'import sys, numpy; print("Python %d.%d.%d, numpy %s" % (sys.version_info[:3] + (numpy.__version__,)))' 2>/dev/null || echo "not usable yet")
  echo "make python: for $pick ($ver): $why"
else
  echo "$pick"
fi
