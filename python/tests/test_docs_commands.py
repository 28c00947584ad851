"""Every documented command runs Python as `$PY`, the interpreter `make python` names, and works
where the `python3` on PATH is another one, without numpy:

- no shell block, command in prose or example docstring of README.md, docs/python.md and
  python/examples/ runs a bare `python3` (or `python`);
- each shell block of README.md and docs/python.md that runs Python is run as a user pasting it
  would, under a PATH whose `python3` has no numpy (Debian's, with its site-packages off), with
  only its sizes made small (games, sets, steps: the substitutions below, each checked to apply,
  so a changed page fails here until this test follows it) and `make python` left out (the
  package is built); servers the blocks start in the background are started by the test and
  waited for; the pip recipe installs into a venv from a copy of the sources;
- `pip install ./python` under an interpreter without numpy says in one line what to do.
"""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import REPO, run

PICK = str(REPO / "tools" / "pick_python.sh")
PAGES = [REPO / "README.md", REPO / "docs" / "python.md"]
EXAMPLES = sorted((REPO / "python" / "examples").glob("*.py"))
# a python3 command: at the start, after an assignment prefix, or after ; & | (
BARE = re.compile(r"(?:^|[;&|(]\s*|^(?:\w+=\S*\s+)+)(?:python3?)(?=\s|$)")
RUNS_PY = re.compile(r"(?:^|\s)(?:\$PY|\S*/bin/python3?|\S*/bin/pip)(?=\s|$)")


def blocks(path):
    """The fenced ```sh blocks of a page: (line number, text)."""
    out, lang, start, body = [], None, 0, []
    for i, line in enumerate(path.read_text().split("\n"), 1):
        if line.startswith("```"):
            if lang is None:
                lang, start, body = line[3:].strip(), i, []
            else:
                if lang == "sh":
                    out.append((start, "\n".join(body)))
                lang = None
        elif lang is not None:
            body.append(line)
    return out


def prose_commands(path):
    """Inline code in the prose that is a Python command line (`$PY x.py ...`, `... -m ...`)."""
    text = re.sub(r"```.*?```", "", path.read_text(), flags=re.S)
    return [c for c in re.findall(r"`([^`\n]+)`", text)
            if re.match(r"(?:\w+=\S+\s+)*(?:\$PY|python3?)\s+(?:-[cm]\s|\S+\.py\b)", c)]


def docstring_commands(path):
    doc = path.read_text().split('"""')[1]
    return [line.strip() for line in doc.split("\n") if line.startswith("    ") and
            re.match(r"\s+(?:\$PY|python3?)\s", line)]


def test_no_documented_command_runs_a_bare_python3():
    bad = []
    for page in PAGES:
        for start, text in blocks(page):
            for k, line in enumerate(text.split("\n")):
                if BARE.search(line):
                    bad.append("%s:%d: %s" % (page.name, start + 1 + k, line))
        bad += ["%s (prose): %s" % (page.name, c) for c in prose_commands(page) if BARE.search(c)]
    for ex in EXAMPLES:
        bad += ["%s: %s" % (ex.name, c) for c in docstring_commands(ex) if BARE.search(c)]
    assert not bad, "documented commands that run python3 instead of $PY:\n" + "\n".join(bad)
    # the checks see what they should: a bare python3 is caught, $PY is not
    assert BARE.search("python3 -m dhm.uecda") and BARE.search("PYTHONPATH=x python3 a.py")
    assert not BARE.search("$PY -m venv x") and not BARE.search("exec: {python} -m dhm.uecda")
    assert prose_commands(REPO / "docs" / "python.md"), "the ISMC command in the prose was not found"
    assert all(docstring_commands(ex) for ex in EXAMPLES)


# Each block that runs Python: how to make it small and runnable here. Keys: a line of the block.
# "sub": (documented text, what runs instead), each required to be in the block; "server": seats of
# a dhm serve the test starts (the block's client joins it: 42485 becomes its port); "files":
# what the block expects the reader to have written; "torch": needs python3-torch; "copy": run in
# a copy of the sources (pip builds in the tree); "want": text the block's output must hold.
AGENT = "from dhm.agents import RandomAgent\n\n\nclass MyAgent(RandomAgent):\n    def __init__(self, weights=None, **kw):\n        super().__init__(**kw)\n"  # noqa: E501
PLAN = {
    # README: the Python quick start
    "$PY -c 'import dhm; print(dhm.evaluate(\"simple\", opponents=\"policy\", games=1000, seed=1))'": {
        "server": "simple,simple,simple,simple,remote", "files": {"agent.py": AGENT},
        "want": [" to act (play)", "points per game"]},
    # docs/python.md: build and import
    "$PY -c 'import dhm; print(dhm.__version__)'": {"want": ["0.1.0+g"]},
    # the pip recipe
    "~/dhm-venv/bin/pip install ./python": {
        "copy": True, "want": ["points per game", "dhm-venv/lib/"],  # the venv's own dhm, PYTHONPATH or not
        "sub": [('seed=1))\'', 'seed=1), dhm.__file__)\'')]},
    # a Python agent as a UECda client
    "$PY -m dhm.uecda --agent path/to/agent.py:MyAgent --arg weights=w.npy -p 42485": {
        "server": "simple,simple,simple,simple,remote",
        "files": {"mypackage/__init__.py": "", "mypackage/agents.py": AGENT, "path/to/agent.py": AGENT}},
    "$PY -m dhm.uecda --agent dhm.agents:RandomAgent -p 42485": {
        "sub": [("build/dhm serve --seats simple,simple,simple,simple,remote --games 100 &\n", ""),
                ("simple --db ab.sqlite", "simple --db ab.sqlite --games 2 --max-games 20 --quiet")],
        "server": "simple,simple,simple,simple,remote", "files": {"agent.py": AGENT}},
    # the numpy example
    "$PY -c 'import dhm; print(dhm.rate(\"example.sqlite\", methods=\"bt\"))'": {
        "sub": [("train --games 10000", "train --games 300"), ("--games 2000  #", "--games 100  #"),
                ("--games 2000 --opponents", "--games 100 --opponents"), ("--sets 40 --games 100", "--sets 5 --games 4")],
        "want": ["linear", "bt"]},
    # the PyTorch example
    "$PY python/examples/torch_agent.py train --out agent.pt": {
        "torch": True,
        "sub": [("train --out agent.pt", "train --out agent.pt --steps 256 --imitate 400 --imitate-epochs 1 --n 8 "
                                         "--rollout 4"),
                ("--games 2000 --opponents simple", "--games 100 --opponents simple"),
                ("--games 2000 --opponents policy", "--games 100 --opponents policy"),
                ('"mc": "mc:sims=100"', '"mc": "mc:sims=5"'), ("sets=40, games=100", "sets=5, games=4")],
        "want": ["torch", "sts"]},
}


def plan_of(text):
    keys = [k for k in PLAN if k in text]
    return keys[0] if keys else None


def python_blocks():
    out = []
    for page in PAGES:
        for start, text in blocks(page):
            if any(RUNS_PY.search(line) for line in text.split("\n")):
                out.append(("%s:%d" % (page.name, start), text))
    return out


def test_every_python_block_has_a_plan():
    found = python_blocks()
    missing = [where for where, text in found if plan_of(text) is None]
    assert not missing, "blocks that run Python with no entry in PLAN (say how to run them): %s" % missing
    used = {plan_of(text) for _, text in found}
    assert used == set(PLAN), "PLAN entries whose block is gone: %s" % (set(PLAN) - used)


@pytest.fixture(scope="module")
def nonumpy_path(tmp_path_factory):
    """A PATH whose python3 is Debian's with its site-packages off (so no numpy), and the $PY that
    tools/pick_python.sh gives there; skipped when the package was built for another interpreter."""
    if not os.access("/usr/bin/python3", os.X_OK):
        pytest.skip("no /usr/bin/python3")
    from dhm import _build

    d = tmp_path_factory.mktemp("nonumpy")
    (d / "python3").write_text('#!/bin/sh\nexec /usr/bin/python3 -S "$@"\n')
    (d / "python3").chmod(0o755)
    path = "%s:/usr/bin:/bin" % d
    p = subprocess.run(["python3", "-c", "import numpy"], env=dict(os.environ, PATH=path), capture_output=True)
    assert p.returncode != 0, "the fake python3 has numpy"
    _, py, _ = run(["sh", PICK], env=dict(os.environ, PATH=path))
    if py.strip() != _build.PYTHON:
        pytest.skip("the package is built for %s; with no numpy in the python3 on PATH make python picks %s"
                    % (_build.PYTHON, py.strip()))
    path = Path(path)
    path.py = py.strip()
    return path


class Path(str):
    """The PATH, with the $PY that tools/pick_python.sh gives under it."""


def start_server(dhm_bin, seats, cwd):
    server = subprocess.Popen([dhm_bin, "serve", "--port", "0", "--seats", seats, "--games", "3", "--wait", "120000",
                               "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd)
    line = server.stderr.readline()
    return server, int(line.rsplit(":", 1)[1])


@pytest.mark.parametrize("key", list(PLAN))
def test_documented_python_block_runs_under_a_python3_without_numpy(key, nonumpy_path, dhm_bin, tmp_path):
    plan = PLAN[key]
    where, text = next((w, t) for w, t in python_blocks() if plan_of(t) == key)
    if plan.get("torch"):
        pytest.importorskip("torch", reason="python3-torch is not installed (the PyTorch example's block)")
    for old, new in plan.get("sub", []):
        assert old in text, "%s: the page changed (%r is gone): update PLAN" % (where, old)
        text = text.replace(old, new)
    # make python is done already; the rest runs as written
    text = text.replace("make python && ", "").replace("make deps-torch", ":")
    cwd = tmp_path / "work"
    if plan.get("copy"):  # pip builds in the tree: a copy, so that the repository stays clean
        shutil.copytree(REPO, cwd, ignore=shutil.ignore_patterns("build*", ".git", "*.sqlite*", "demo", "__pycache__",
                                                                 "*.egg-info"))
    else:
        cwd.mkdir()
        for name in ("python", "tools", "build"):
            (cwd / name).symlink_to(REPO / name)
    for name, content in plan.get("files", {}).items():
        (cwd / name).parent.mkdir(parents=True, exist_ok=True)
        (cwd / name).write_text(content)
    # the page's set-up, done once at its top: PYTHONPATH and PY
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_", "DHM_PYTHON"))}
    env.update(PATH=nonumpy_path, HOME=str(tmp_path), PY=nonumpy_path.py,
               PYTHONPATH=str(REPO / "build" / "python"))
    servers = []
    if plan.get("server"):
        for n in range(text.count("-p 42485")):  # one server for each client line
            server, port = start_server(dhm_bin, plan["server"], cwd)
            servers.append(server)
            text = text.replace("-p 42485", "-p %d --quiet" % port, 1)
    p = subprocess.run(["bash", "-c", "set -euo pipefail\n" + text], cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=1500)
    results = []
    for server in servers:
        sout, serr = server.communicate(timeout=300)
        results.append((server.returncode, sout, serr))
    assert p.returncode == 0, "%s exited %d:\n%s\n%s" % (where, p.returncode, p.stdout[-3000:], p.stderr[-3000:])
    for want in plan.get("want", []):
        assert want in p.stdout + p.stderr, "%s: %r not in its output:\n%s" % (where, want, p.stdout[-3000:])
    for rc, sout, serr in results:
        assert rc == 0 and json.loads(sout)["games"] == 3, serr


def test_pip_build_without_numpy_says_what_to_do():
    """setup.py under an interpreter without numpy (numpy's import blocked): one line that names
    the interpreter and what to do, not a traceback from inside setuptools."""
    code = ("import sys, runpy; sys.modules['numpy'] = None; sys.argv = ['setup.py', '--version']; "
            "runpy.run_path('setup.py', run_name='__main__')")
    p = subprocess.run([sys.executable, "-c", code], cwd=REPO / "python", capture_output=True, text=True, timeout=120)
    assert p.returncode == 1, p.stdout + p.stderr
    err = p.stderr.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in p.stderr, p.stderr
    assert err[0].startswith("dhm: building the package needs numpy for %s (Python " % sys.executable)
    assert "/usr/bin/python3 -m venv --system-site-packages" in err[0]
