"""The examples run: the Python information-set Monte Carlo agent (python/examples/ismc.py)
plays legal, seeded, complete matches; the PyTorch agent (python/examples/torch_agent.py)
trains for a moment, is saved, loaded, evaluated, and plays as a UECda client. The PyTorch
test needs Debian's python3-torch and is skipped without it."""
import importlib.util
import json
import subprocess

import numpy as np
import pytest

import dhm
from conftest import PYTHON, REPO, python_env, run

EXAMPLES = REPO / "python" / "examples"


def load(name):
    spec = importlib.util.spec_from_file_location("example_" + name, EXAMPLES / (name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_ismc_agent_is_short_legal_and_seeded():
    ismc = load("ismc")
    src = (EXAMPLES / "ismc.py").read_text().split("\n")
    start = next(i for i, line in enumerate(src) if line.startswith("class ISMC"))
    end = next(i for i, line in enumerate(src) if line.startswith("def play_match"))
    assert len([line for line in src[start:end] if line.strip()]) <= 40
    a = ismc.play_match(ismc.ISMC(sims=12, seed=1), "simple", 6, 2)
    b = ismc.play_match(ismc.ISMC(sims=12, seed=1), "simple", 6, 2)
    assert a[0].tolist() == b[0].tolist() and len(a[0]) == 6 and a[1] > 20
    assert set(a[0].tolist()) <= {1, 2, 3, 4, 5}


def test_ismc_command_names_its_standard_error():
    # below 200 games the SE is over blocks of 10 games, never "nan"; below 20 it says so
    for games, want in ((30, "± "), (5, "too few games for an SE")):
        _, stdout, _ = run([PYTHON, str(EXAMPLES / "ismc.py"), "--games", str(games), "--sims", "4"],
                           env=python_env(), timeout=120)
        first = stdout.splitlines()[0]
        assert want in first and "nan" not in first, first
        if games == 30:
            assert "batch means over 3 blocks of 10 games" in first


def test_torch_agent_trains_saves_loads_and_plays(tmp_path, dhm_bin):
    pytest.importorskip("torch", reason="python3-torch is not installed (an optional package for this example)")
    out = tmp_path / "agent.pt"
    run([PYTHON, str(EXAMPLES / "torch_agent.py"), "train", "--steps", "320", "--imitate", "500", "--imitate-epochs",
         "1", "--n", "8", "--rollout", "4", "--threads", "1", "--out", str(out)], env=python_env(), timeout=300)
    ta = load("torch_agent")
    agent = ta.TorchAgent(str(out))
    ev = dhm.evaluate(agent, "simple", games=200, seed=3, matches=2)
    assert ev.games == 200 and 1 <= ev.points <= 5 and ev.decisions > 0
    # act() and act_batch() agree; every choice is legal
    env = dhm.Env(seed=5)
    env.reset()
    obs = env.observe(env.agent_selection)
    a = agent.act(obs)
    assert obs["action_mask"][a] and a == agent.act_batch(obs["observation"][None], obs["action_mask"][None])[0]
    # as a UECda client of dhm serve
    server = subprocess.Popen([dhm_bin, "serve", "--port", "0", "--seats", "simple,remote,simple,simple,simple",
                               "--games", "5", "--wait", "60000", "--json"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    line = server.stderr.readline()
    port = int(line.rsplit(":", 1)[1])
    client = subprocess.run([PYTHON, "-m", "dhm.uecda", "--agent", "%s:TorchAgent" % (EXAMPLES / "torch_agent.py"),
                             "--arg", "weights=%s" % out, "-p", str(port), "--quiet"], capture_output=True, text=True,
                            timeout=300, env=python_env())
    sout, serr = server.communicate(timeout=120)
    assert client.returncode == 0, client.stderr
    assert server.returncode == 0 and json.loads(sout)["games"] == 5, serr
