"""Builds the dhm package with setuptools (pip install ./python): the extension module
dhm._dhm from python/src/*.c and the library's C sources (core/ game/ players/ record/ net/
rating/ arena/ analysis/ report/ of the repository, the directory above this one), with the
flags of the Makefile's `make python`, and dhm/_build.py recording the interpreter it is built
for. Nothing is downloaded: setuptools and numpy come from the environment."""

import os
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LIB_DIRS = ["core", "game", "players", "record", "net", "rating", "arena", "analysis", "report"]


def git_version():
    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True,
                             timeout=10)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


VERSION = git_version()


def pep440(v):
    """0.1.0, with the git description as a local version (0.1.0+g93e5bdd.dirty)."""
    local = "".join(c if c.isalnum() else "." for c in v).strip(".")
    return "0.1.0" + ("+g" + local if local and v != "unknown" else "")


def sources():
    if not os.path.isfile(os.path.join(ROOT, "core", "state.h")):
        sys.exit("dhm: setup.py builds from the dhm repository's C sources (%s has no core/): run pip install ./python "
                 "from a checkout of the repository" % ROOT)
    out = sorted(os.path.join("src", f) for f in os.listdir(os.path.join(HERE, "src")) if f.endswith(".c"))
    for d in LIB_DIRS:
        out += sorted(os.path.relpath(os.path.join(ROOT, d, f), HERE)
                      for f in os.listdir(os.path.join(ROOT, d)) if f.endswith(".c"))
    return out


class BuildPy(build_py):
    """Also writes dhm/_build.py: the interpreter this build is for (so that an import from
    another one names it)."""

    def run(self):
        super().run()
        path = os.path.join(self.build_lib, "dhm", "_build.py")
        with open(path, "w") as f:
            f.write('"""Written by setup.py: what this build of the dhm package is for."""\n'
                    "PYTHON = %r\nPYTHON_VERSION = %r\nVERSION = %r\n"
                    % (sys.executable, sys.version.split()[0], VERSION))


def extension():
    try:
        import numpy
    except ImportError:  # one line that says what to do, not a traceback from inside setuptools
        sys.exit("dhm: building the package needs numpy for %s (Python %s), which has none: use an interpreter "
                 "that has it (Debian's /usr/bin/python3 with python3-numpy; for a venv: /usr/bin/python3 -m venv "
                 "--system-site-packages DIR), or install numpy for this one" % (sys.executable, sys.version.split()[0]))

    return Extension(
        "dhm._dhm",
        sources=sources(),
        include_dirs=[ROOT, os.path.join(HERE, "src"), numpy.get_include()],
        define_macros=[("_DEFAULT_SOURCE", None), ("_POSIX_C_SOURCE", "200809L"),
                       ("DHM_VERSION", '"%s"' % VERSION.replace('"', ""))],
        extra_compile_args=["-std=c11", "-O2", "-fvisibility=hidden", "-Wno-unused-parameter",
                            "-Wa,-I" + ROOT],  # .incbin of players/*.weights
        libraries=["sqlite3", "pthread", "m"],
    )


setup(
    version=pep440(VERSION),
    packages=["dhm"],
    ext_modules=[extension()],
    cmdclass={"build_py": BuildPy},
)
