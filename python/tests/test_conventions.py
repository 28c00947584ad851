"""The conventions gymnasium and PettingZoo code expects: spaces with shape, dtype, n or bounds,
sample() and seed(); render_mode; observation_spaces / action_spaces, unwrapped, state();
infos with each game's end and classes; int8 masks; dhm.__version__."""
import os
import re

import numpy as np
import pytest

import dhm
from dhm import spaces


def test_discrete():
    d = spaces.Discrete(dhm.NUM_ACTIONS)
    assert d.n == dhm.NUM_ACTIONS and d.shape == () and d.dtype == np.int64
    d.seed(3)
    a = [d.sample() for _ in range(50)]
    d.seed(3)
    assert a == [d.sample() for _ in range(50)] and all(d.contains(x) and x in d for x in a)
    assert not d.contains(-1) and not d.contains(dhm.NUM_ACTIONS) and not d.contains("x") and not d.contains(1.5)
    mask = np.zeros(dhm.NUM_ACTIONS, np.int8)
    mask[[0, 7, 99]] = 1
    assert {d.sample(mask=mask) for _ in range(200)} == {0, 7, 99}
    with pytest.raises(ValueError, match="mask"):
        d.sample(mask=np.zeros(dhm.NUM_ACTIONS, bool))
    assert d == spaces.Discrete(dhm.NUM_ACTIONS) and repr(d) == "Discrete(%d)" % dhm.NUM_ACTIONS


def test_observation_space_holds_every_observation():
    env = dhm.Env(seed=1, mode="match", games=3, class_reset=2)
    space = env.observation_space("player_0")
    assert isinstance(space, spaces.Dict) and set(space) == {"observation", "action_mask"}
    assert space["observation"].shape == (dhm.OBS_SIZE,) and space["observation"].dtype == np.int8
    assert space["action_mask"].shape == (dhm.NUM_ACTIONS,) and space["action_mask"].dtype == np.bool_
    assert space["observation"].low.min() == -1 and space["observation"].high.max() == 20
    rng = np.random.default_rng(0)
    env.reset()
    n = 0
    for agent in env.agent_iter():
        obs, r, term, trunc, info = env.last()
        for p in env.agents:
            assert env.observation_space(p).contains(env.observe(p)), dhm.describe(env.observe(p))
        env.step(None if term else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        n += 1
    assert n > 100
    space.seed(5)
    s = space.sample()
    assert space.contains(s) and s["observation"].dtype == np.int8
    space.seed(5)
    assert (space.sample()["observation"] == s["observation"]).all()
    assert not space.contains({"observation": np.zeros(3, np.int8), "action_mask": s["action_mask"]})


def test_env_conventions():
    env = dhm.Env(seed=1)
    assert env.unwrapped is env
    assert set(env.observation_spaces) == set(env.action_spaces) == set(dhm.AGENTS)
    assert env.action_spaces["player_2"] is env.action_space("player_2") is env.action_space(2)
    assert env.state_space.shape == (5 * dhm.OBS_SIZE,)
    env.reset()
    st = env.state()
    assert st.shape == (5 * dhm.OBS_SIZE,) and st.dtype == np.int8 and env.state_space.contains(st)
    hands = st.reshape(5, -1)[:, dhm.OBS_LAYOUT["hand"]]
    assert (hands.sum(0) == 1).all()  # every card in exactly one hand: the global state
    obs = env.observe(env.agent_selection)
    assert (st.reshape(5, -1)[env.actor] == obs["observation"]).all()
    a = env.action_space(env.agent_selection)
    a.seed(1)
    assert obs["action_mask"][a.sample(mask=obs["action_mask"])]
    with pytest.raises(ValueError, match="unknown agent"):
        env.action_space("player_9")


def test_render_modes(capsys):
    env = dhm.Env(seed=1, render_mode="ansi")
    env.reset()
    text = env.render()
    assert text.startswith("player_") and "hand" in text and "legal" in text
    env = dhm.Env(seed=1, render_mode="human")
    env.reset()
    assert env.render() is None
    assert capsys.readouterr().out.strip() == text
    assert dhm.Env(seed=1).metadata["render_modes"] == ["ansi", "human"]
    env = dhm.Env(seed=1)  # render_mode None: nothing to render, said once, as gymnasium does
    env.reset()
    with pytest.warns(UserWarning, match="render_mode=None renders nothing"):
        assert env.render() is None
    assert capsys.readouterr().out == ""
    with pytest.raises(ValueError, match="render_mode"):
        dhm.Env(render_mode="rgb_array")


def test_infos_mark_each_game_end_in_match_mode():
    env = dhm.Env(seed=3, mode="match", games=4)
    rng = np.random.default_rng(2)
    env.reset()
    ends = 0
    results = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        assert set(info) == {"game_over", "classes", "game", "games_done"}
        assert info == env.infos[agent]
        if info["game_over"]:
            assert sorted(info["classes"]) == [0, 1, 2, 3, 4]
            assert reward == 2 - info["classes"][env.actor] or term  # the game's reward came with it
            ends += 1
            results.append(tuple(info["classes"]))
        else:
            assert info["classes"] is None
        env.step(None if term else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert ends >= 4 * 4  # every agent saw every game's end (the last one: at its termination)
    assert len(set(results)) == 4


def test_int8_mask_option():
    a, b = dhm.Env(seed=2, mask_dtype="int8"), dhm.Env(seed=2)
    a.reset()
    b.reset()
    ma, mb = a.observe(a.agent_selection)["action_mask"], b.observe(b.agent_selection)["action_mask"]
    assert ma.dtype == np.int8 and mb.dtype == np.bool_ and (ma == mb).all()
    assert a.observation_space(0)["action_mask"].dtype == np.int8
    with pytest.raises(ValueError, match="mask_dtype"):
        dhm.Env(mask_dtype="uint8")


def test_version():
    # PEP 440: a release and a local version label (letters, digits, dots) after "+"
    assert re.fullmatch(r"0\.1\.0(\+g[a-z0-9]+(\.[a-z0-9]+)*)?", dhm.__version__, re.I), dhm.__version__
    assert dhm.GIT_DESCRIBE == dhm._dhm.VERSION
    # the same rule as pip's metadata (python/setup.py's pep440)
    src = open(os.path.join(os.path.dirname(__file__), "..", "setup.py")).read()
    ns = {}
    exec(src[src.index("def pep440"):src.index("def sources")], ns)
    assert ns["pep440"](dhm.GIT_DESCRIBE) == dhm.__version__
    for describe, want in (("0ee7e67", "0.1.0+g0ee7e67"), ("0ee7e67-dirty", "0.1.0+g0ee7e67.dirty"), ("unknown", "0.1.0")):
        assert dhm._pep440(describe) == ns["pep440"](describe) == want
