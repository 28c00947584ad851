"""The AEC environment: legality, the information set, determinism, PettingZoo's protocol,
and equality with `dhm play`."""
import json
import random

import numpy as np
import pytest

import dhm
from conftest import run


def random_act(rng):
    """act() for dhm.play: a uniformly random action among the mask's, checked against
    legal_actions()."""
    def act(env, agent, obs):
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.tolist() == sorted(env.legal_actions()) and agent == env.agent_selection
        return int(legal[rng.randrange(len(legal))])
    return act


def check_record(rec):
    """An independent check of a finished game: every play takes cards its player holds, and
    the players leave in the order of the result (the last two by the 20-pass rule when
    the game stalemated)."""
    hands = [set(h) for h in rec["original"]]
    assert sorted(c for h in hands for c in h) == sorted(dhm.CARDS)
    out = []
    for player, action, text in rec["plays"]:
        m = dhm.move(action)
        assert m.text == text
        assert set(m.cards) <= hands[player], (player, text)
        hands[player] -= set(m.cards)
        if m.kind != "pass" and not hands[player]:
            out.append(player)
    by_class = sorted(range(5), key=lambda p: rec["result"][p])
    assert by_class[:len(out)] == out
    assert len(out) >= 4 or rec["stalemate"]


def test_random_play_10000_games_never_illegal():
    env = dhm.Env(seed=11)
    rng = random.Random(5)
    games = steps = 0
    classes_seen = set()
    for g in range(10000):
        env.reset()
        total = 0.0
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            total += reward
            if term:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        check_record(env.game_record())
        assert total == 0 and sorted(env.result) == [0, 1, 2, 3, 4]
        classes_seen.add(tuple(env.result))
        assert env.agents == [] and env.agent_selection is None
        games += 1
    assert games == 10000 and steps > 10000 * 40
    assert len(classes_seen) == 120  # every finishing order happens


def test_random_play_checks_masks_and_rewards():
    env = dhm.Env(seed=12)
    rng = random.Random(5)
    for g in range(300):
        total = dhm.play(env, random_act(rng))
        assert sorted(total.values()) == [-2, -1, 0, 1, 2]


def test_match_mode_schedule_exchange_and_rewards():
    env = dhm.Env(seed=3, mode="match", games=205)
    env.reset()
    rng = random.Random(1)
    seats, classes, exchanges = {}, {}, 0
    points = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        points[agent] += reward
        if term:
            env.step(None)
            continue
        seats.setdefault(env.game, env.seats)
        classes.setdefault(env.game, env.classes)
        if env.phase == "exchange":
            exchanges += 1
            o = obs["observation"]
            assert o[dhm.OBS_LAYOUT["exchange"]][0] == (2 if env.classes[env.actor] == 0 else 1)
            legal = np.flatnonzero(obs["action_mask"])
            assert all(dhm.move(a).kind == "give" for a in legal)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    assert sorted(seats) == list(range(205))
    for g in range(1, 205):  # new seats only at games n (1-based) with n mod 3 == 1
        if (g + 1) % 3 != 1:
            assert seats[g] == seats[g - 1], g
    assert len({tuple(s) for s in seats.values()}) > 10
    for g in (0, 100, 200):  # classes reset every 100 games: no exchange
        assert classes[g] == [-1] * 5
    assert all(sorted(classes[g]) == [0, 1, 2, 3, 4] for g in range(205) if g % 100)
    assert exchanges == 2 * 202  # daifugo and fugo in every game with classes
    assert sum(points.values()) == 0 and env.games_done == 205


def trajectory(seed, mode="game", episodes=3, actions_seed=9):
    env = dhm.Env(seed=seed, mode=mode, games=5)
    rng = random.Random(actions_seed)
    out = []
    env.reset()
    for _ in range(episodes):
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            out.append((agent, reward, obs["observation"].tobytes(), obs["action_mask"].tobytes()))
            if term:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
        env.reset()
    return out


@pytest.mark.parametrize("mode", ["game", "match"])
def test_same_seed_same_trajectory(mode):
    a, b = trajectory(7, mode), trajectory(7, mode)
    assert a == b and len(a) > 300
    assert trajectory(8, mode) != a
    env = dhm.Env(seed=7, mode=mode, games=5)  # reset(seed) starts over from that seed
    env.reset(seed=123)
    first = env.observe(env.agent_selection)["observation"].tobytes()
    env.reset(seed=7)
    assert env.observe(env.agent_selection)["observation"].tobytes() == a[0][2]
    env.reset(seed=123)
    assert env.observe(env.agent_selection)["observation"].tobytes() == first


def test_observation_is_the_information_set_only():
    """Dealing the cards the actor cannot see anew never changes its observation (and does
    change the others'), at random points of many games of both modes."""
    rng = random.Random(3)
    checked = changed = 0
    for mode, seed in (("game", 1), ("match", 2)):
        env = dhm.Env(seed=seed, mode=mode, games=30)
        env.reset()
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term:
                env.step(None)
                continue
            if rng.random() < 0.1:
                others = [a for a in env.agents if a != agent]
                before = {a: env.observe(a)["observation"].copy() for a in others}
                env._shuffle_hidden(rng.randrange(1 << 30))
                after = env.observe(agent)
                assert np.array_equal(after["observation"], obs["observation"])
                assert np.array_equal(after["action_mask"], obs["action_mask"])
                changed += any(not np.array_equal(env.observe(a)["observation"], before[a]) for a in others)
                checked += 1
                obs = after
            # the per-seat cards from the public history equal the running ones (as the UECda
            # client builds them)
            h = env._observe_from_history(agent)
            assert np.array_equal(h["observation"], obs["observation"])
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
    assert checked > 200 and changed > checked * 0.9


def test_observation_layout():
    env = dhm.Env(seed=4, mode="match", games=2)
    env.reset()
    o = env.observe(env.agent_selection)
    assert o["observation"].dtype == np.int8 and o["observation"].shape == (dhm.OBS_SIZE,)
    assert o["action_mask"].dtype == np.bool_ and o["action_mask"].shape == (dhm.NUM_ACTIONS,)
    L = dhm.OBS_LAYOUT
    assert sum(s.stop - s.start for s in L.values()) == dhm.OBS_SIZE
    rec = env.game_record()
    me = env.actor
    d = dhm.describe(o)
    assert sorted(d["hand"], key=dhm.CARDS.index) == sorted(rec["dealt"][me], key=dhm.CARDS.index)
    assert d["table"]["kind"] == "empty" and d["turn"] == 0
    assert d["ncards"][0] == len(d["hand"]) and sum(d["ncards"]) == 53
    assert d["classes"] == [-1] * 5
    # at the first play the diamond-3 holder leads and the table is empty
    assert "d3" in d["hand"]


def test_illegal_actions_are_clear_exceptions():
    env = dhm.Env(seed=5, mode="match", games=3)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset()
    rng = random.Random(2)
    tried = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term:
            with pytest.raises(ValueError, match="None"):
                env.step(0)
            env.step(None)
            continue
        mask = obs["action_mask"]
        for a in rng.sample(range(dhm.NUM_ACTIONS), 40) + [0, 2606, dhm.NUM_ACTIONS - 1]:
            if not mask[a]:
                with pytest.raises(ValueError, match="not legal|exchange action|must give"):
                    env.step(a)
                tried += 1
        for bad in (-1, dhm.NUM_ACTIONS, 2 ** 40):
            with pytest.raises((ValueError, OverflowError)):
                env.step(bad)
        with pytest.raises(TypeError):
            env.step("p")
        for b in (True, False, np.bool_(True)):  # a bool is an int to Python, never an action
            with pytest.raises(TypeError, match="an action is an int"):
                env.step(b)
        with pytest.raises(ValueError):
            env.step(None)
        assert np.array_equal(env.observe(agent)["observation"], obs["observation"])  # nothing moved
        legal = np.flatnonzero(mask)
        env.step(int(legal[rng.randrange(len(legal))]))
    assert tried > 1000
    with pytest.raises(RuntimeError):
        env.step(None)
    with pytest.raises(ValueError):
        env.observe("player_9")


@pytest.mark.parametrize("options,match", [
    ({"deal": ["c3"] * 5}, "twice|cards"),
    ({"deal": [[], [], [], [], []]}, "holds 0 cards"),
    ({"seats": [0, 1, 2, 3, 4]}, "go with a 'deal'"),
    ({"bogus": 1}, "unknown key"),
])
def test_bad_options_are_clear_errors(options, match):
    env = dhm.Env(seed=1)
    with pytest.raises(ValueError, match=match):
        env.reset(options=options)


def test_given_deal():
    cards = list(dhm.CARDS)
    random.Random(4).shuffle(cards)
    deal = [cards[0:11], cards[11:22], cards[22:33], cards[33:43], cards[43:53]]
    env = dhm.Env(seed=1, mode="match", games=2)
    env.reset(options={"deal": deal, "seats": [4, 3, 2, 1, 0], "classes": [0, 1, 2, 3, 4]})
    rec = env.game_record()
    assert [sorted(h) for h in rec["dealt"]] == [sorted(h) for h in deal]
    assert env.seats == [4, 3, 2, 1, 0] and env.classes == [0, 1, 2, 3, 4]
    assert env.phase == "exchange" and env.agent_selection == "player_0"
    # the daifugo holds what the daihinmin had to give: its two strongest cards
    assert len(dhm.describe(env.observe("player_0"))["hand"]) == 13
    with pytest.raises(ValueError, match="permutation"):
        env.reset(options={"deal": deal, "classes": [0, 0, 2, 3, 4]})


def test_pettingzoo_protocol_and_cumulative_rewards():
    env = dhm.Env(seed=2, mode="match", games=4)
    env.reset()
    assert env.agents == env.possible_agents == dhm.AGENTS
    assert env.action_space("player_0").n == dhm.NUM_ACTIONS
    seen_reward_steps = 0
    got = {a: 0.0 for a in env.agents}
    rng = random.Random(0)
    last_dead = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        assert reward == env._cumulative_rewards[agent]
        got[agent] += reward
        assert set(env.rewards) == set(env.terminations) == set(env.truncations) == set(env.infos) == set(env.agents)
        if term:
            assert all(env.terminations.values())
            last_dead.append(agent)
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        seen_reward_steps += any(env.rewards.values())
    assert last_dead == dhm.AGENTS  # every agent stepped once with None, then removed
    assert seen_reward_steps == 4  # rewards come at the end of each game
    assert sum(got.values()) == 0 and all(v == int(v) for v in got.values())


def totals_by_players(specs, games, seed):
    env = dhm.Env(seed=seed, mode="match", games=games)
    players = [dhm.Player(s, seed=dhm.player_seed(seed, p)) for p, s in enumerate(specs)]
    total = dhm.play(env, lambda env, agent, obs: players[env.actor].act(env))
    return [int(total[a]) + 3 * games for a in dhm.AGENTS]


@pytest.mark.parametrize("specs", [
    ["simple", "simple", "random", "simple", "random"],
    ["policy", "random", "simple", "random", "simple"],
])
def test_builtin_players_in_the_env_equal_dhm_play(dhm_bin, specs):
    games, seed = 300, 17
    _, out, _ = run([dhm_bin, "play", "--players", ",".join(specs), "--games", str(games), "--seed", str(seed),
                     "--json"])
    want = [p["total"] for p in json.loads(out)["players"]]
    assert totals_by_players(specs, games, seed) == want


def test_player_errors_and_mc():
    with pytest.raises(ValueError, match="unknown|valid"):
        dhm.Player("nosuch")
    with pytest.raises(ValueError):
        dhm.Player("mc:sims=0")
    with pytest.raises(ValueError, match="hidden"):
        dhm.Player("mc:est=oracle:method=all-w:p=1")
    env = dhm.Env(seed=1, mode="match", games=2)
    env.reset()
    mc = dhm.Player("mc:sims=50")
    assert mc.kind == "mc" and repr(mc) == "Player('mc:sims=50')"
    a = mc.act(env)
    assert a in env.legal_actions()
    env.step(a)
    with pytest.raises(ValueError, match="one Player per seat"):
        mc.act(env)
    with pytest.raises(TypeError):
        mc.act(None)
