"""Shared fixtures: the dhm binary (DHM, else build/dhm), the repository and ../shared."""
import os
import pathlib
import socket
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
BLAUX5 = SHARED / "data" / "blaux5.kifu"


@pytest.fixture(scope="session")
def dhm_bin():
    path = os.environ.get("DHM") or str(REPO / "build" / "dhm")
    if not os.access(path, os.X_OK):
        pytest.fail("no dhm binary at %s (make, or set DHM)" % path)
    return path


def run(args, timeout=120, ok=True, **kw):
    """Runs a command, waits for it, and returns (status, stdout, stderr)."""
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kw)
    if ok and p.returncode != 0:
        raise AssertionError("%s exited %d:\n%s%s" % (" ".join(map(str, args)), p.returncode, p.stdout[-2000:],
                                                      p.stderr[-2000:]))
    return p.returncode, p.stdout, p.stderr


def python_env():
    """The environment for a child python3 that imports this dhm package."""
    env = dict(os.environ)
    import dhm

    pkg = str(pathlib.Path(dhm.__file__).resolve().parents[1])
    env["PYTHONPATH"] = pkg + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


PYTHON = sys.executable
