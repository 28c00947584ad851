"""VecEnv: n games stepped in one call into preallocated arrays."""
import numpy as np
import pytest

import dhm


def random_actions(v, rng):
    idx = (rng.random(v.n) * v.num_legal).astype(np.int64)
    return v.legal[np.arange(v.n), idx]


def run(v, steps, seed=0):
    rng = np.random.default_rng(seed)
    v.reset()
    digest = []
    games = 0
    for _ in range(steps):
        v.step(random_actions(v, rng))
        games += int(v.game_over.sum())
        digest.append((v.observation.tobytes(), v.reward.tobytes(), v.actor.tobytes(), v.done.tobytes()))
    return digest, games


def test_arrays_are_consistent():
    v = dhm.VecEnv(64, seed=3, mode="match", games=3)
    assert v.observation.shape == (64, dhm.OBS_SIZE) and v.action_mask.shape == (64, dhm.NUM_ACTIONS)
    assert v.legal.shape == (64, dhm.LEGAL_MAX) and v.reward.shape == (64, 5)
    rng = np.random.default_rng(1)
    v.reset()
    games = episodes = 0
    points = np.zeros(5)
    for step in range(3000):
        for i in range(0, 64, 7):
            n = v.num_legal[i]
            assert sorted(v.legal[i, :n].tolist()) == np.flatnonzero(v.action_mask[i]).tolist()
            o = v.observation[i]
            assert o[dhm.OBS_LAYOUT["turn"]][0] == 1  # the observation is the actor's
        v.step(random_actions(v, rng))
        games += int(v.game_over.sum())
        episodes += int(v.done.sum())
        assert np.all(v.reward[~v.game_over] == 0)
        assert np.all(v.reward[v.game_over].sum(axis=1) == 0)
        points += v.reward.sum(axis=0)
        assert not np.any(v.done & ~v.game_over)
    assert games > 100 and episodes > 30
    with pytest.raises(ValueError):  # read-only: only the environment writes them
        v.action_mask[0, 0] = True


def test_same_seed_same_games_and_options():
    a, ga = run(dhm.VecEnv(16, seed=5), 500)
    b, gb = run(dhm.VecEnv(16, seed=5), 500)
    assert a == b and ga == gb > 20
    c, _ = run(dhm.VecEnv(16, seed=6), 500)
    assert c != a
    v = dhm.VecEnv(16, seed=5, observations=False, masks=False)
    assert v.observation is None and v.action_mask is None
    d, gd = run(dhm.VecEnv(16, seed=5), 500)
    assert gd == ga


def test_illegal_action_moves_no_game():
    v = dhm.VecEnv(8, seed=1)
    v.reset()
    rng = np.random.default_rng(0)
    acts = random_actions(v, rng)
    before = v.observation.copy()
    bad = acts.copy()
    bad[5] = dhm.NUM_ACTIONS - 1  # an exchange action while playing
    with pytest.raises(ValueError, match="game 5"):
        v.step(bad)
    assert np.array_equal(v.observation, before)
    with pytest.raises(ValueError, match="8 actions"):
        v.step(acts[:3])
    bad[5] = -1
    with pytest.raises(ValueError, match="out of range"):
        v.step(bad)
    v.step(acts)
    with pytest.raises(RuntimeError, match="reset"):
        dhm.VecEnv(2).step([0, 0])
    with pytest.raises(ValueError):
        dhm.VecEnv(0)
    with pytest.raises(ValueError, match="mode"):
        dhm.VecEnv(2, mode="nope")
