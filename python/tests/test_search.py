"""Search from Python: clone() is the game itself (the same under the same actions, and
independent of the original), sample_world() deals only what the actor cannot see and keeps
its information set, and playout() plays a copy out in C."""
import random

import numpy as np
import pytest

import dhm


def random_step(env, rng):
    obs, reward, term, trunc, info = env.last()
    if term:
        env.step(None)
        return None
    a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
    env.step(a)
    return a


@pytest.mark.parametrize("mode", ["game", "match"])
def test_clone_equals_the_original_under_the_same_actions(mode):
    env = dhm.Env(seed=4, mode=mode, games=3, class_reset=2 if mode == "match" else None)
    rng = random.Random(1)
    clones = 0
    for _ in range(30 if mode == "game" else 1):
        env.reset()
        while env.agents:
            if rng.random() < 0.05 and env.agents and not env.terminations[env.agent_selection]:
                c = env.clone()
                clones += 1
                assert c.agent_selection == env.agent_selection and c.phase == env.phase
                assert c.game_record() == env.game_record() and (c.state() == env.state()).all()
                # the clone goes its own way: the original does not move
                before = env.game_record()
                r2 = random.Random(7)
                for _ in range(10):
                    if c.agents:
                        random_step(c, np.random.default_rng(r2.randrange(1000)))
                assert env.game_record() == before
                # a fresh clone fed the original's actions stays equal to it, step for step
                c = env.clone()
                for _ in range(25):
                    if not env.agents:
                        break
                    seed = rng.randrange(1000)
                    a = random_step(env, np.random.default_rng(seed))
                    b = random_step(c, np.random.default_rng(seed))
                    assert a == b
                    assert c.agent_selection == env.agent_selection and c.rewards == env.rewards
                    assert c.infos == env.infos and c.game_record() == env.game_record()
                    if env.agents:
                        o1 = c.observe(c.agent_selection)["observation"]
                        assert (o1 == env.observe(env.agent_selection)["observation"]).all()
            else:
                random_step(env, np.random.default_rng(rng.randrange(1000)))
    assert clones > 3


def test_sample_world_keeps_the_information_set():
    env = dhm.Env(seed=2, mode="match", games=4, class_reset=2)
    rng = np.random.default_rng(3)
    env.reset()
    checked = changed = 0
    while env.agents and checked < 300:
        if env.phase == "play" and not env.terminations[env.agent_selection]:
            me = env.agent_selection
            obs = env.observe(me)
            for est in ("uniform", "weights", "policy:k=8"):
                w = env.sample_world(seed=int(rng.integers(1 << 30)), est=est)
                o2 = w.observe(me)
                assert (o2["observation"] == obs["observation"]).all()
                assert (o2["action_mask"] == obs["action_mask"]).all()
                st, sw = env.state().reshape(5, -1), w.state().reshape(5, -1)
                hand = dhm.OBS_LAYOUT["hand"]
                p = env.actor
                # the counts and the public cards are the same, the actor's hand too
                assert (st[:, hand].sum(1) == sw[:, hand].sum(1)).all() and (st[p, hand] == sw[p, hand]).all()
                changed += any((st[q, hand] != sw[q, hand]).any() for q in range(5) if q != p)
                # nothing of the true hidden cards is left in the world's record
                rec = w.game_record()
                for q in range(5):
                    if q != p:
                        played = {c for pl, a, t in rec["plays"] if pl == q for c in dhm.move(a).cards}
                        held = set(dhm.describe(w.observe(q))["hand"])
                        assert set(rec["original"][q]) == played | held
                # and the world plays on
                c = w.playout(seed=1)
                assert sorted(c) == [0, 1, 2, 3, 4]
            checked += 1
        random_step(env, rng)
    assert checked > 100 and changed > checked  # hidden cards did move


def test_playout_plays_a_copy_in_c():
    env = dhm.Env(seed=8)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(12):
        random_step(env, rng)
    rec = env.game_record()
    a = env.playout(seed=5)
    assert env.game_record() == rec  # env unchanged
    assert a == env.playout(seed=5) and sorted(a) == [0, 1, 2, 3, 4]
    assert env.playout("policy", seed=5) == env.playout("policy", seed=5)
    seen = {tuple(env.playout("simple", seed=s, eps=0.5)) for s in range(40)}
    assert len(seen) > 1  # random moves with eps
    # the simple playout is the simple player: a clone played by four simple Players ends alike
    c = env.clone()
    players = [dhm.Player("simple") for _ in range(5)]
    while c.agents:
        obs, r, term, trunc, info = c.last()
        c.step(None if term else players[c.actor].act(c))
    assert c.result == env.playout("simple", seed=0)
    with pytest.raises(ValueError, match="policy=nope"):
        env.playout("nope")
    with pytest.raises(ValueError, match="a probability"):
        env.playout(eps=2)


def test_search_errors():
    env = dhm.Env(seed=1, mode="match", games=2, class_reset=1)
    env.reset()
    with pytest.raises(ValueError, match="est=oracle"):
        while env.phase != "play":
            env.step(env.legal_actions()[0])
        env.sample_world(est="oracle:method=all-w:p=0.5")
    with pytest.raises(ValueError, match="est=frob"):
        env.sample_world(est="frob")
    e2 = dhm.Env(seed=1, mode="match", games=2, class_reset=2)
    e2.reset()
    e2.step(e2.legal_actions()[0])
    for _ in range(400):  # into the second game: the exchange
        if e2.phase == "exchange":
            break
        e2.step(e2.legal_actions()[0])
    assert e2.phase == "exchange"
    with pytest.raises(RuntimeError, match="not during the exchange"):
        e2.sample_world()
    assert e2.playout() == e2.result  # right after the step that ended a game: that game's classes
    e2.step(e2.legal_actions()[0])  # the daifugo gives; the fugo is next
    assert e2.phase == "exchange"
    with pytest.raises(RuntimeError, match="not during the exchange"):
        e2.playout()
    assert e2.clone().phase == "exchange"
    with pytest.raises(RuntimeError, match="reset"):
        dhm.Env().clone()


def test_copy_and_deepcopy_are_clones_and_pickle_names_clone():
    import copy
    import pickle
    env = dhm.Env(seed=3)
    env.reset()
    for _ in range(6):  # a few steps into the game
        env.step(env.legal_actions()[0])
    for c in (copy.copy(env), copy.deepcopy(env), copy.deepcopy([env])[0]):
        assert type(c) is dhm.Env and c is not env
        assert c.game_record() == env.game_record() and (c.state() == env.state()).all()
        c.step(c.legal_actions()[-1])  # the copy goes its own way
        assert c.game_record() != env.game_record()
    with pytest.raises(TypeError, match=r"cannot pickle 'Env' object: .*env\.clone\(\)"):
        pickle.dumps(env)


def test_holder_probabilities_of_the_learned_estimator():
    """Env.holder_probabilities(): for each card, each player's chance of holding it from the
    selected agent's view: a distribution for every card not yet played (one-hot where it is
    known: its own hand), zeros for a played card, and better than chance at naming the true
    holder of the hidden ones (the network's likeliest holder, in self-play of `policy`)."""
    env = dhm.Env(seed=11, mode="match", games=6)
    players = [dhm.Player("policy", seed=dhm.player_seed(11, p)) for p in range(5)]
    env.reset()
    right = total = decisions = 0
    for agent in env.agent_iter():
        obs, _, term, _, _ = env.last()
        if term:
            env.step(None)
            continue
        if env.phase == "play" and decisions < 400:
            decisions += 1
            P = env.holder_probabilities()
            assert P.shape == (53, 5) and P.dtype == np.float64 and (P >= 0).all()
            me = env.actor
            hands = [set(dhm.describe(env.observe(p))["hand"]) for p in range(5)]
            for i, card in enumerate(dhm.CARDS):
                holder = next((p for p in range(5) if card in hands[p]), None)
                if holder is None:  # played
                    assert P[i].sum() == 0, (card, P[i])
                    continue
                assert abs(P[i].sum() - 1) < 1e-6, (card, P[i])
                if holder == me:
                    assert P[i, me] == 1
                elif P[i].max() < 1:  # a card to guess
                    assert P[i, me] == 0
                    right += int(np.argmax(P[i]) == holder)
                    total += 1
        env.step(players[env.actor].act(env))
    assert decisions == 400 and total > 4000
    print("holder_probabilities: likeliest holder right for %d of %d cards (%.3f)" % (right, total, right / total))
    assert right / total > 0.36, right / total  # chance among four is 0.25; the model's top-1 is about 0.44
    with pytest.raises(ValueError, match="the chances come from the learned estimator"):
        env.reset()
        while env.phase != "play":
            env.step(players[env.actor].act(env))
        env.holder_probabilities(est="uniform")
