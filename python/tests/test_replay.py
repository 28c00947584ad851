"""blaux5's 100 recorded games replayed move for move through the Env's action encoding."""
import pytest

import dhm
from conftest import BLAUX5


@pytest.mark.skipif(not BLAUX5.exists(), reason="../shared/data/blaux5.kifu is absent")
def test_blaux5_replays_move_for_move():
    games = dhm.read_kifu(str(BLAUX5))
    assert len(games) == 100
    env = dhm.Env(seed=1, mode="match", games=1)
    plays = exchanges = 0
    for g in games:
        env.reset(options={"deal": g["dealt"], "seats": g["seats"], "classes": g["classes"]})
        if g["classes"][0] >= 0:
            for c in (0, 1):  # the daifugo gives first, then the fugo
                rich = g["classes"].index(c)
                assert env.phase == "exchange" and env.actor == rich
                a = dhm.action_of(g["changed"][rich])
                assert env.observe(env.agent_selection)["action_mask"][a]
                env.step(a)
                exchanges += 1
        assert env.phase == "play" and env.actor == g["first"]
        assert [sorted(h) for h in env.game_record()["original"]] == [sorted(h) for h in g["original"]]
        for player, action, text in g["plays"]:
            assert env.actor == player, (g["game"], text)
            obs, reward, term, trunc, info = env.last()
            assert obs["action_mask"][action], (g["game"], text, dhm.describe(obs)["legal"])
            assert dhm.move(action).text == text
            env.step(action)
            plays += 1
        assert env.phase == "over" and env.result == g["result"], g["game"]
    assert plays == 7856 and exchanges == 2 * 99
