"""VecEnv with learners and built-in opponents acting in C: the arrays hold only the learners'
decisions, rewards are per learner, every spec works, the games equal `dhm play`'s, and the
thread count changes nothing."""
import json

import numpy as np
import pytest

import dhm
import dhm.agents
from conftest import run


def random_actions(v, rng):
    idx = (rng.random(v.n) * v.num_legal).astype(np.int64)
    return v.legal[np.arange(v.n), idx]


def digest(v, steps, seed=0, reset=True):
    """Steps v with seeded random actions; every array of every step, hashed."""
    rng = np.random.default_rng(seed)
    if reset:
        v.reset()
    out = []
    for _ in range(steps):
        v.step(random_actions(v, rng))
        out.append(hash((v.observation.tobytes(), v.action_mask.tobytes(), v.legal.tobytes(), v.actor.tobytes(),
                         v.reward.tobytes(), v.done.tobytes(), v.game_over.tobytes(), v.result.tobytes())))
    return out


@pytest.mark.parametrize("spec", ["random", "simple", "policy", "mc:sims=100"])
def test_only_learners_act_and_rewards_are_theirs(spec):
    v = dhm.VecEnv(16, seed=2, mode="match", games=4, learners=[0, 3], opponents=spec)
    assert v.learners == [0, 3] and v.opponents == {1: spec, 2: spec, 4: spec}
    assert v.reward.shape == (16, 2)
    rng = np.random.default_rng(1)
    v.reset()
    total = np.zeros((16, 2))
    games = 0
    for _ in range(400 if spec.startswith("mc") else 1500):
        assert set(v.actor.tolist()) <= {0, 3}
        assert (v.actor_index == np.where(v.actor == 0, 0, 1)).all()
        for i in range(0, 16, 5):  # the observation is the acting learner's; the mask its legal actions
            assert v.observation[i][dhm.OBS_LAYOUT["turn"]][0] == 1 or v.observation[i][dhm.OBS_LAYOUT["exchange"]][0]
            assert sorted(v.legal[i, :v.num_legal[i]].tolist()) == np.flatnonzero(v.action_mask[i]).tolist()
        v.step(random_actions(v, rng))
        total += v.reward
        over = v.game_over
        games += int(over.sum())
        for i in np.flatnonzero(over):  # each game's rewards are its classes' points - 3
            cls = v.result[i]
            assert sorted(cls.tolist()) == [0, 1, 2, 3, 4]
            assert v.reward[i].tolist() == [2 - cls[0], 2 - cls[3]]
        assert (v.result[~over] == -1).all() and (v.reward[~over] == 0).all()
    assert games > 16


def test_opponent_seats_and_errors():
    v = dhm.VecEnv(2, opponents={1: "policy", 4: "simple"}, learners=[0, 2, 3])
    assert v.learners == [0, 2, 3] and v.opponents == {1: "policy", 4: "simple"}
    v = dhm.VecEnv(2, opponents=["simple", "policy", "random", "simple"])  # learner 0 by default
    assert v.learners == [0] and v.opponents == {1: "simple", 2: "policy", 3: "random", 4: "simple"}
    for kw, msg in [({"opponents": ["simple"] * 3}, "4 specs for the 4 seats"),
                    ({"opponents": "nonsense"}, "unknown player"),
                    ({"opponents": "mc:est=oracle:method=all-w:p=0.5"}, "hidden cards"),
                    ({"learners": [0, 0]}, "given twice"),
                    ({"learners": [], "opponents": "simple"}, "at least one seat"),
                    ({"learners": [0], "opponents": {0: "simple"}}, "both a learner and an opponent"),
                    ({"learners": [0]}, "neither a learner nor given an opponent"),
                    ({"threads": -1}, "threads from 1 to 256"),
                    ({"mask_dtype": "float"}, "mask_dtype")]:
        with pytest.raises(ValueError, match=msg):
            dhm.VecEnv(2, **kw)


@pytest.mark.parametrize("spec", ["simple", "policy", "mc:sims=30"])
def test_threads_change_nothing(spec):
    """The same games, arrays and rewards with 1, 2 and 3 threads (and n not a multiple of the
    blocks threads take)."""
    steps = 150 if "mc" in spec else 400
    runs = [digest(dhm.VecEnv(37, seed=9, mode="match", games=3, opponents=spec, threads=t), steps) for t in (1, 2, 3)]
    assert runs[0] == runs[1] == runs[2]
    assert dhm.VecEnv(4, threads=2).threads == 2


def test_seeds_and_reset():
    a = digest(dhm.VecEnv(8, seed=5, opponents="policy"), 200)
    assert a == digest(dhm.VecEnv(8, seed=5, opponents="policy"), 200)
    assert a != digest(dhm.VecEnv(8, seed=6, opponents="policy"), 200)
    v = dhm.VecEnv(3, seed=[11, 12, 13], opponents="simple")
    assert v.seeds == [11, 12, 13]
    digest(v, 100)
    v.reset(seed=5)  # a new seed: games and opponents start over from it
    assert digest(v, 200, reset=False) == digest(dhm.VecEnv(3, seed=5, opponents="simple"), 200)
    with pytest.raises(ValueError, match="one seed per game"):
        dhm.VecEnv(3, seed=[1, 2])


def test_games_equal_dhm_play(dhm_bin):
    """Game i of VecEnv(seed=[S...]) with learner SimpleAgent and opponents in C is `dhm play
    --seed S` with simple as player 0: the same classes, game by game."""
    specs = ["policy", "simple", "mc:sims=50", "random"]
    for seed in (3, 4):
        _, out, _ = run([dhm_bin, "play", "--players", ",".join(["simple"] + specs), "--games", "40", "--seed",
                         str(seed), "--json", "--quiet"])
        want = json.loads(out)
        v = dhm.VecEnv(1, seed=[seed], mode="match", games=40, opponents=specs)
        v.reset()
        agent = dhm.agents.SimpleAgent()
        points = np.zeros(5)
        games = 0
        while games < 40:
            v.step([agent.act({"observation": v.observation[0], "action_mask": v.action_mask[0]})])
            if v.game_over[0]:
                games += 1
                points += 5 - v.result[0]
        assert points.tolist() == [p["total"] for p in want["players"]]
        assert v.done[0]


def test_int8_masks():
    v = dhm.VecEnv(4, seed=1, opponents="simple", mask_dtype="int8")
    v.reset()
    assert v.action_mask.dtype == np.int8
    b = dhm.VecEnv(4, seed=1, opponents="simple")
    b.reset()
    assert (v.action_mask == b.action_mask.astype(np.int8)).all()
    assert v.single_observation_space["action_mask"].dtype == np.int8
