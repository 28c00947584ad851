"""The pure-Python baseline of bench/bench_python.py generates exactly dhm's legal moves (so
the speed ratio compares the same work), on every position of random games."""
import random
import sys

import numpy as np

import dhm
from conftest import REPO

sys.path.insert(0, str(REPO / "bench"))
import daihinmin_py as base  # noqa: E402


def card(tok):
    return base.JOKER if tok == "jo" else ("3456789tjqka2".index(tok[1]) + 1, "cdhs".index(tok[0]))


def table_of(o):
    f = {k: o[s] for k, s in dhm.OBS_LAYOUT.items()}
    kind = ["pass", "single", "group", "seq", "joker"][int(f["table_kind"].argmax())]
    if kind == "pass":
        return base.PASS
    if kind == "joker":
        return base.Meld("joker", 1)
    cells = np.flatnonzero(f["table_cells"])
    cols = sorted({int(c) // 4 for c in cells})
    suits = tuple(sorted({int(c) % 4 for c in cells}))
    return base.Meld(kind, int(f["table_size"][0]), cols[0], cols[-1], suits)


def test_baseline_generates_dhm_moves():
    env = dhm.Env(seed=21)
    rng = random.Random(2)
    positions = 0
    for _ in range(150):
        env.reset()
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term:
                env.step(None)
                continue
            o = obs["observation"]
            d = dhm.describe(obs)
            hand = {card(t) for t in d["hand"]}
            t = table_of(o)
            got = base.leads(hand) if t.kind == "pass" else base.follows(hand, t, d["revolution"], d["lock"])
            texts = [m.text() for m in got]
            assert len(texts) == len(set(texts))
            assert sorted(texts) == sorted(d["legal"]), (d["hand"], d["table"], d["revolution"], d["lock"])
            positions += 1
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
    assert positions > 10000


def test_baseline_plays_the_same_games():
    """Whole games: the baseline, dealt the same hands, follows the Env's random game step for
    step (the player to move and the legal moves) to the same result."""
    rng = random.Random(4)
    env = dhm.Env(seed=5)
    for g in range(200):
        cards = list(dhm.CARDS)
        rng.shuffle(cards)
        deal = [cards[k::5] for k in range(5)]
        env.reset(options={"deal": deal, "seats": [0, 1, 2, 3, 4]})
        game = base.Game(random.Random(0), [[card(t) for t in h] for h in deal])
        while env.phase == "play":
            assert game.turn == env.actor
            moves = {m.text(): m for m in game.legal()}
            legal = env.legal_actions()
            assert sorted(moves) == sorted(dhm.move(a).text for a in legal)
            a = legal[rng.randrange(len(legal))]
            env.step(a)
            game.step(moves[dhm.move(a).text])
        assert game.over
        if len(game.out) == 5 and env.game_record()["stalemate"] is False:
            assert [env.result.index(k) for k in range(5)] == game.out


def test_baseline_plays_whole_games():
    steps = base.play_random_games(200, seed=3)
    assert 200 * 40 < steps < 200 * 400
