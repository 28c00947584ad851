"""Python agents as UECda clients: against dhm serve, in a tournament, in an SPRT."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

import dhm
import dhm.agents
from conftest import PYTHON, python_env, run


def serve(dhm_bin, seats, games, extra=()):
    """Starts dhm serve on a free port; returns (process, port)."""
    p = subprocess.Popen([dhm_bin, "serve", "--port", "0", "--seats", seats, "--games", str(games), "--wait", "30000",
                          "--json", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    assert "listening on" in line, line
    return p, int(line.rsplit(":", 1)[1])


def client(port, agent="dhm.agents:RandomAgent", *args):
    return subprocess.Popen([PYTHON, "-m", "dhm.uecda", "--agent", agent, "-h", "127.0.0.1", "-p", str(port), "-n",
                             "pyagent", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=python_env())


def test_python_agent_finishes_a_served_match(dhm_bin):
    server, port = serve(dhm_bin, "simple,simple,remote,simple,simple", 30)
    c = client(port, "dhm.agents:RandomAgent", "--arg", "seed=3")
    cout, cerr = c.communicate(timeout=120)
    sout, serr = server.communicate(timeout=120)
    assert c.returncode == 0, cerr
    assert server.returncode == 0, serr
    summary = json.loads(sout)
    assert summary["games"] == 30
    assert "30 games" in cerr and "player 2" in cerr


def test_python_agent_equals_the_env(dhm_bin, tmp_path):
    """The agent sees over the network what the Env shows: a deterministic agent ends the served
    match with the points the same agent gets in the Env with the same seed."""
    games, seed = 20, 4
    server, port = serve(dhm_bin, "simple,remote,simple,random,simple", games, ["--seed", str(seed)])
    c = client(port, "dhm.agents:FirstAgent")
    _, cerr = c.communicate(timeout=120)
    sout, serr = server.communicate(timeout=120)
    assert c.returncode == 0 and server.returncode == 0, cerr + serr
    served = [p["total"] for p in json.loads(sout)["players"]]
    env = dhm.Env(seed=seed, mode="match", games=games)
    specs = ["simple", None, "simple", "random", "simple"]
    players = [dhm.Player(s, seed=dhm.player_seed(seed, p)) if s else None for p, s in enumerate(specs)]
    agent = dhm.agents.FirstAgent()
    total = dhm.play(env, lambda env, name, obs: agent.act(obs) if players[env.actor] is None
                     else players[env.actor].act(env))
    assert [int(total[a]) + 3 * games for a in dhm.AGENTS] == served


def test_agent_errors_end_the_client_with_status_1(dhm_bin, tmp_path):
    bad = tmp_path / "bad_agent.py"
    bad.write_text(textwrap.dedent("""
        class Illegal:
            def act(self, observation):
                return 2605  # a sequence nobody can hold
        class Boom:
            def act(self, observation):
                raise RuntimeError("boom")
    """))
    for cls, msg in (("Illegal", "not in the action_mask"), ("Boom", "boom")):
        server, port = serve(dhm_bin, "simple,simple,simple,simple,remote", 5)
        c = client(port, "%s:%s" % (bad, cls))
        _, cerr = c.communicate(timeout=60)
        server.communicate(timeout=60)
        assert c.returncode == 1 and msg in cerr, cerr
    st, out, err = run([PYTHON, "-m", "dhm.uecda", "--agent", "nosuchmodule:X", "-p", "1"], ok=False, env=python_env())
    assert st == 2 and "cannot make the agent" in err
    st, out, err = run([PYTHON, "-m", "dhm.uecda", "-p", "1"], ok=False, env=python_env())
    assert st == 2 and "--agent" in err
    st, out, err = run([PYTHON, "-m", "dhm.uecda", "--help"], env=python_env())
    assert "usage" in out
    st, out, err = run([PYTHON, "-m", "dhm.uecda", "--agent", "dhm.agents:RandomAgent", "-p", "1", "--quiet"],
                       ok=False, env=python_env())
    assert st == 1 and "connect" in err


def pool_line(name="py"):
    return ("%s exec: %s -m dhm.uecda --agent dhm.agents:RandomAgent --quiet -h {host} -p {port} -n {name}\n"
            % (name, sys.executable))


def test_python_agent_in_a_tournament_and_the_store(dhm_bin, tmp_path):
    pool = tmp_path / "pool.txt"
    pool.write_text(pool_line() + "s1 simple\ns2 simple\nr1 random\npo policy\n")
    db = tmp_path / "t.sqlite"
    run([dhm_bin, "tournament", "--pool", str(pool), "--db", str(db), "--sets", "3", "--games", "20", "--jobs", "1",
         "--pairing", "fixed", "--quiet"], env=python_env())
    with dhm.Store(str(db)) as st:
        rows = st.sets()
        assert len(rows) == 15 and {r["status"] for r in rows} == {"ok"}
        assert {r["player"] for r in rows} == {"py", "s1", "s2", "r1", "po"}
        assert all(sum(r["points"] for r in rows if r["set"] == k) == 20 * 15 for k in range(3))
        games = st.games()
        assert len(games) == 3 * 20 * 5
        assert [p["name"] for p in st.players()] == ["py", "s1", "s2", "r1", "po"]
        assert st.run()["games"] == 20
    # the report reads it like any other store
    run([dhm_bin, "report", "--db", str(db), "-o", str(tmp_path / "r.html")])
    assert "py" in (tmp_path / "r.html").read_text()


def test_python_agent_in_an_sprt(dhm_bin, tmp_path):
    a = "exec: %s -m dhm.uecda --agent dhm.agents:RandomAgent --quiet -h {host} -p {port} -n {name}" % sys.executable
    db = tmp_path / "s.sqlite"
    st, out, err = run([dhm_bin, "sprt", a, "random", "--db", str(db), "--games", "4", "--max-games", "40",
                        "--jobs", "1", "--json", "--quiet"], ok=False, env=python_env())
    assert st == 0, err
    res = json.loads(out)
    assert res["games"] >= 20
