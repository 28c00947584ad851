"""dhm.evaluate against the command line, dhm.tournament from Python (Python agents included),
and dhm.rate taking a store's own rows as they are."""
import json
import textwrap

import numpy as np
import pytest

import dhm
import dhm.agents
from conftest import run

try:
    import pandas
except ImportError:
    pandas = None


def play(dhm_bin, players, games, seed):
    _, out, _ = run([dhm_bin, "play", "--players", ",".join(players), "--games", str(games), "--seed", str(seed),
                     "--json", "--quiet"])
    return json.loads(out)["players"]


@pytest.mark.parametrize("opponents", ["simple", "policy", ["random", "mc:sims=40", "policy", "simple"]])
def test_evaluate_equals_a_command_line_match(dhm_bin, opponents):
    """The same seed, the same games: a Python agent that decides as `simple` does, evaluated
    against opponents acting in C, scores exactly what `dhm play` gives simple; so does the
    spec itself; and matches=m is m command-line matches of seeds seed .. seed+m-1."""
    opp = [opponents] * 4 if isinstance(opponents, str) else opponents
    want = play(dhm_bin, ["simple"] + opp, 120, 5)
    for agent in (dhm.agents.SimpleAgent(), "simple"):
        ev = dhm.evaluate(agent, opponents, games=120, seed=5)
        assert ev.games == 120 and ev.points == pytest.approx(want[0]["mean"], abs=5e-5)
        assert ev.classes == want[0]["classes"]
        assert ev.opponents == pytest.approx([p["mean"] for p in want[1:]], abs=5e-5)
    parts = [play(dhm_bin, ["simple"] + opp, 40, s)[0] for s in (9, 10, 11)]
    ev = dhm.evaluate(dhm.agents.SimpleAgent(), opponents, games=120, seed=9, matches=3, threads=2)
    assert ev.points == pytest.approx(sum(p["total"] for p in parts) / 120)
    assert ev.decisions > 0 and ev.cpu_s >= 0 and ev.wall_s > 0


def test_evaluate_other_seats_batches_and_errors(dhm_bin):
    want = play(dhm_bin, ["policy", "random", "simple", "policy", "random"], 100, 3)
    ev = dhm.evaluate(dhm.agents.SimpleAgent(), ["policy", "random", "policy", "random"], 100, 3, seat=2)
    assert ev.points == pytest.approx(want[2]["mean"], abs=5e-5)

    class Batched:  # act_batch: one call per step for every match
        calls = 0

        def act_batch(self, obs, masks):
            Batched.calls += 1
            assert obs.shape[0] == masks.shape[0] <= 4 and obs.dtype == np.int8
            return [dhm.agents.SimpleAgent().act({"observation": o, "action_mask": m}) for o, m in zip(obs, masks)]

    ev2 = dhm.evaluate(Batched(), "policy", 400, 1, matches=4)
    ev1 = dhm.evaluate(dhm.agents.SimpleAgent(), "policy", 400, 1, matches=4)
    assert ev2.points == ev1.points and Batched.calls < ev2.decisions
    assert "batch means over 4 class periods" in ev2.se_kind and ev2.se > 0
    assert str(ev2).startswith("%.3f ± " % ev2.points)
    small = dhm.evaluate("simple", "simple", 50, 1)
    assert "over games, taken as independent" in small.se_kind
    for kw, msg in [({"games": 100, "matches": 3}, "multiple of matches"), ({"opponents": ["simple"] * 3}, "four"),
                    ({"seat": 5}, "seat")]:
        with pytest.raises(ValueError, match=msg):
            dhm.evaluate("simple", **{"opponents": "simple", **kw})
    with pytest.raises(TypeError, match="act"):
        dhm.evaluate(object(), "simple", 10)


AGENT = textwrap.dedent('''
    import dhm.agents

    class Mine(dhm.agents.SimpleAgent):
        """simple, from Python"""
''')


def test_tournament_from_python(tmp_path, monkeypatch, dhm_bin):
    """A pool with a Python agent class: the run is dhm tournament's (its sets equal the
    command's with the same pool and seed, the agent deciding as simple does), the store comes
    back, and dhm.rate takes its rows as they are."""
    (tmp_path / "mine.py").write_text(AGENT)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    import mine

    st = dhm.tournament({"py": mine.Mine, "s": "simple", "p": "policy", "r": "random", "m": "mc:sims=20"},
                        "t.sqlite", sets=3, games=30, seed=4, pairing="fixed", jobs=2, quiet=True)
    rows = st.sets()
    assert len(rows) == 15 and {r["status"] for r in rows} == {"ok"}
    (tmp_path / "pool.txt").write_text("py simple\ns simple\np policy\nr random\nm mc:sims=20\n")
    run([dhm_bin, "tournament", "--pool", "pool.txt", "--db", "c.sqlite", "--sets", "3", "--games", "30", "--seed",
         "4", "--pairing", "fixed", "--quiet"], cwd=tmp_path)
    with dhm.Store(str(tmp_path / "c.sqlite")) as c:
        assert [(r["set"], r["player"], r["points"]) for r in c.sets()] == [(r["set"], r["player"], r["points"])
                                                                            for r in rows]
    assert "dhm.tournament(sets=3" in st.run()["command"]
    # the store's rows go back into rate as they are: sets, games, and DataFrames of them
    for methods in ("sts", "bt", "sts,bt"):
        want = dhm.rate(st, methods=methods, bootstrap=20, seed=1)
        assert dhm.rate(st.sets(), methods=methods, bootstrap=20, seed=1) == want
        assert dhm.rate(st.games(), methods=methods, bootstrap=20, seed=1) == want
        if pandas is not None:
            got = dhm.rate(st.games(as_frame=True), methods=methods, bootstrap=20, seed=1)
            assert got == want
    assert dhm.rate(st.games(), methods="elo-game") == dhm.rate(st, methods="elo-game")
    with pytest.raises(FileExistsError, match="t.sqlite exists"):
        dhm.tournament({"a": "simple"}, "t.sqlite")
    with pytest.raises(TypeError, match="class"):
        dhm.tournament({"py": mine.Mine(), "s": "simple", "p": "policy", "r": "random", "m": "simple"}, "x.sqlite")


def test_tournament_stops_when_a_client_cannot_start(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.py").write_text("import no_such_module_anywhere\n\nclass Bad:\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    pool = "a simple\nb simple\nc random\nd random\nbad exec: {python} -m dhm.uecda --agent bad.py:Bad -p {port}\n"
    with pytest.raises(RuntimeError) as e:
        dhm.tournament(pool, "b.sqlite", sets=10, games=20, pairing="fixed", quiet=True)
    msg = str(e.value)
    assert "bad (exec:) did not connect in set 0, its first in this run, so the run stops" in msg
    assert "b.sqlite.logs/set-0-bad.log" in msg and "no_such_module_anywhere" in msg
    assert dhm.Store("b.sqlite").sets(include_broken=True) == []
