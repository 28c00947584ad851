"""No traps for a newcomer: which interpreter make python builds for, and says so; an import from
another interpreter names the one the build is for; {python} in pool lines; make python builds
build/dhm too. (pip install ./python in a venv, offline, is run as docs/python.md gives it by
test_docs_commands.py.)"""
import os
import shutil
import subprocess
import sys

import pytest

import dhm
from conftest import REPO, run

PICK = str(REPO / "tools" / "pick_python.sh")


def built_for():
    from dhm import _build

    return _build.PYTHON


def fake_python(tmp_path, name, script):
    d = tmp_path / name
    d.mkdir()
    p = d / "python3"
    p.write_text("#!/bin/sh\n" + script)
    p.chmod(0o755)
    return str(d)


def pick(path_dir, *args):
    env = dict(os.environ, PATH=path_dir + os.pathsep + "/usr/bin:/bin")
    _, out, _ = run(["sh", PICK, *args], env=env)
    return out.strip()


@pytest.mark.skipif(not os.access("/usr/bin/python3", os.X_OK), reason="no /usr/bin/python3")
def test_make_python_picks_an_interpreter_and_says_which(tmp_path):
    # a python3 on PATH without numpy (site-packages off): Debian's is used, and the line says why
    nonumpy = fake_python(tmp_path, "nonumpy", 'exec /usr/bin/python3 -S "$@"\n')
    assert pick(nonumpy) == "/usr/bin/python3"
    why = pick(nonumpy, "--why")
    assert why.startswith("make python: for /usr/bin/python3 (Python 3.")
    assert "has no numpy; run the package with /usr/bin/python3" in why
    # one without the Python headers (sysconfig points elsewhere)
    noheaders = fake_python(tmp_path, "noheaders",
                            'case "$*" in *Python.h*) exit 1;; esac\nexec /usr/bin/python3 "$@"\n')
    assert "has no Python headers" in pick(noheaders, "--why")
    # a python3 on PATH with numpy and headers is used
    good = tmp_path / "good"
    good.mkdir()
    (good / "python3").symlink_to("/usr/bin/python3")
    assert pick(str(good)) == str(good / "python3")
    assert "the python3 on PATH, which has numpy and the Python headers" in pick(str(good), "--why")


def test_make_python_also_builds_the_dhm_command(tmp_path):
    _, out, _ = run(["make", "-n", "--no-print-directory", "python", "O=" + str(tmp_path / "o")], cwd=REPO)
    assert "-o %s/o/dhm " % tmp_path in out


def test_import_from_another_interpreter_names_the_build(tmp_path):
    """An interpreter the package was not built for (here: a copy of this one, without its
    site-packages, so without numpy) gets an ImportError naming the interpreter to use."""
    other = tmp_path / "python3"
    other.symlink_to(sys.executable)
    pkg = os.path.dirname(os.path.dirname(dhm.__file__))
    p = subprocess.run([str(other), "-S", "-c", "import dhm"], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, PYTHONPATH=pkg))
    assert p.returncode == 1
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: dhm: this build of the package is for %s (Python " % built_for())
    assert "this is %s (Python" % other in last and "which has no numpy" in last
    assert "Run it with %s, or build it for this interpreter: make python PYTHON=%s" % (built_for(), other) in last


def test_python_placeholder_in_pool_lines(dhm_bin, tmp_path):
    """{python} is the interpreter make python built the package for (or $DHM_PYTHON)."""
    (tmp_path / "pool.txt").write_text("a simple\nb simple\nc random\nd random\n"
                                       "x exec: {python} -c 'import sys; print(\"interpreter\", sys.executable)'\n")
    base = {k: v for k, v in os.environ.items() if k != "DHM_PYTHON"}
    echoed = '-c import sys; print("interpreter", sys.executable)'
    for env, want in ((base, "interpreter " + built_for()), (dict(base, DHM_PYTHON="/bin/echo"), echoed)):
        shutil.rmtree(tmp_path / "t.sqlite.logs", ignore_errors=True)
        for f in ("t.sqlite", "t.sqlite-wal", "t.sqlite-shm"):
            if (tmp_path / f).exists():
                (tmp_path / f).unlink()
        status, out, err = run([dhm_bin, "tournament", "--pool", "pool.txt", "--db", "t.sqlite", "--pairing", "fixed",
                                "--sets", "3", "--games", "5", "--quiet"], cwd=tmp_path, ok=False, env=env)
        assert status == 1 and "x (exec:) did not connect in set " in err
        assert '(last line: "%s")' % want in err


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_python_prints_a_line_a_step_not_every_compiler_command():
    """As make demo: one line for the build, then the interpreter's; V=1 shows the commands. A
    source of the extension is touched so that something is compiled and linked."""
    if os.path.dirname(os.path.dirname(os.path.realpath(dhm.__file__))) != str(REPO / "build" / "python"):
        pytest.skip("this package is not the repository's build/python (make python's own)")
    os.utime(REPO / "python" / "src" / "obs.c")
    _, out, err = run(["make", "--no-print-directory", "python"], cwd=REPO, timeout=900)
    lines = (out + err).strip().splitlines()
    assert lines[0].startswith("== building build/dhm and the package build/python/dhm (V=1 shows"), lines
    assert lines[-1].startswith("make python: for "), lines
    assert len(lines) == 2, lines  # no compiler line, no "is up to date"
    os.utime(REPO / "python" / "src" / "obs.c")
    _, out, _ = run(["make", "--no-print-directory", "python", "V=1"], cwd=REPO, timeout=900)
    assert "obs.c" in out and " -shared " in out  # the compile and the link, shown
