"""close() and gymnasium's vector returns: after Env.close() and VecEnv.close() every use raises a
ValueError that says so (methods bound before the close included) and the native memory is freed
(tracemalloc sees PyMem and numpy allocations); a second close does nothing; arrays taken before
the close stay valid. VecEnv.reset() returns (observations, infos) and step() (observations,
rewards, terminations, truncations, infos), the in-place arrays themselves, so the fast path
costs nothing extra."""
import tracemalloc

import numpy as np
import pytest

import dhm

CLOSED = "is closed: close\\(\\) freed its games"


def test_env_close_frees_and_every_use_raises():
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        envs = [dhm.Env(seed=s) for s in range(200)]
        for e in envs:
            e.reset()
        held = tracemalloc.get_traced_memory()[0] - before
        steps = [e.step for e in envs]  # bound before the close
        for e in envs:
            e.close()
        freed = held - (tracemalloc.get_traced_memory()[0] - before)
    finally:
        tracemalloc.stop()
    # each Env's game (DhmEnv, several kB) is freed while the objects are alive
    assert freed > 0.8 * held and held > 200 * 1000, (held, freed)
    e = envs[0]
    assert e.closed and not dhm.Env(seed=1).closed
    uses = [lambda: e.reset(), lambda: e.step(0), lambda: steps[0](0), lambda: e.observe("player_0"),
            lambda: e.last(), lambda: e.agents, lambda: e.agent_selection, lambda: e.rewards, lambda: e.infos,
            lambda: e.legal_actions(), lambda: e.legal_moves(), lambda: e.clone(), lambda: e.sample_world(seed=1),
            lambda: e.playout(), lambda: e.state(), lambda: e.game_record(), lambda: e.render(),
            lambda: list(e.agent_iter()), lambda: e.__init__(seed=3), lambda: dhm.Player("simple").act(e)]
    import copy
    uses += [lambda: copy.copy(e), lambda: copy.deepcopy(e)]
    for i, use in enumerate(uses):
        with pytest.raises(ValueError, match="this Env " + CLOSED):
            use()
    e.close()  # a second close does nothing
    assert e.closed


def test_vecenv_close_frees_joins_and_every_use_raises():
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        v = dhm.VecEnv(2048, seed=1, learners=[0], opponents="simple", threads=2)
        v.reset()
        held = tracemalloc.get_traced_memory()[0] - before
        obs = v.observation
        step = v.step
        v.close()
        after = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # the games and every array but the one still held are freed
    assert after < obs.nbytes + 0.1 * held and held > 2048 * 1000, (held, after, obs.nbytes)
    assert v.closed and obs.shape == (2048, dhm.OBS_SIZE) and obs.sum() != 0  # still readable
    for use in (lambda: v.reset(), lambda: v.step(np.zeros(2048, np.int64)), lambda: step(np.zeros(2048, np.int64)),
                lambda: v.observation, lambda: v.reward, lambda: v.n, lambda: v.num_envs, lambda: v.threads,
                lambda: v.single_observation_space, lambda: v.__init__(4)):
        with pytest.raises(ValueError, match="this VecEnv " + CLOSED):
            use()
    v.close()
    assert v.closed


def test_vecenv_returns_gymnasium_tuples_of_the_inplace_arrays():
    v = dhm.VecEnv(32, seed=3, learners=[0], opponents="policy", mode="match", games=10)
    assert v.metadata["autoreset_mode"] == "SameStep"
    obs, infos = v.reset()
    assert obs["observation"] is v.observation and obs["action_mask"] is v.action_mask
    assert set(infos) == {"actor", "actor_index", "game_over", "result", "legal", "num_legal"}
    assert all(infos[k] is getattr(v, k) for k in ("actor", "result", "legal", "num_legal", "game_over"))
    rows = np.arange(v.n)
    rng = np.random.default_rng(1)
    ends = total = 0
    for _ in range(600):
        out = v.step(v.legal[rows, (rng.random(v.n) * v.num_legal).astype(np.int64)])
        assert len(out) == 5
        obs, rew, term, trunc, infos = out
        assert obs["observation"] is v.observation and term is v.done and infos["game_over"] is v.game_over
        assert rew.shape == (32,) and np.array_equal(rew, v.reward[:, 0])  # one learner: gymnasium's shape
        assert trunc.shape == (32,) and trunc.dtype == bool and not trunc.any()
        assert not rew.flags.writeable and not trunc.flags.writeable
        ends += int(term.sum())
        total += float(rew[infos["game_over"]].sum())
        assert np.all(rew[~infos["game_over"]] == 0)
    assert ends > 0  # matches of 10 games ended (and began again within the step)
    w = dhm.VecEnv(8, seed=3, learners=[0, 2], opponents="simple")
    w.reset()
    _, rew, _, _, _ = w.step(w.legal[:, 0])
    assert rew is w.reward and rew.shape == (8, 2)  # several learners: one column each


def test_progress_rate_and_eta_follow_a_recent_window():
    # the case: a slow start (824 steps/s for 2 minutes, other jobs on the core), then
    # 11,000/s; a running average from the start still said 824/s-ish and a far ETA
    now = [0.0]
    p = dhm.Progress(4_000_000, window=30, clock=lambda: now[0])
    done = 0
    for _ in range(120):
        now[0] += 1
        done += 824
        p.update(done)
    assert abs(p.rate - 824) < 1 and abs(p.eta() - (4_000_000 - done) / 824) < 100
    for _ in range(60):
        now[0] += 1
        done += 11_000
        p.update(done)
    assert abs(p.rate - 11_000) < 1, p.rate  # the start left the window
    assert abs(p.eta() - (4_000_000 - done) / 11_000) < 1
    assert p.elapsed == 180 and done / p.elapsed < 5_000  # what the old line showed (4,216/s)
    # reports far apart: the window reaches back to the newest report at least a window old
    q = dhm.Progress(100, window=30, clock=lambda: now[0])
    now[0] += 100
    q.update(50)
    assert q.rate == 0.5 and q.eta() == 100
    assert dhm.Progress(10, clock=lambda: 0.0).eta() is None
