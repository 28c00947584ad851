"""Small agents for examples and tests: each has act(observation) -> action, the interface
Env users, dhm.evaluate and `python3 -m dhm.uecda --agent dhm.agents:RandomAgent` expect."""

import numpy as np

from . import OBS_LAYOUT, action_of, move


class RandomAgent:
    """Uniform among the legal actions (the action_mask)."""

    def __init__(self, seed=None):
        self.rng = np.random.default_rng(None if seed is None else int(seed))

    def act(self, observation):
        legal = np.flatnonzero(observation["action_mask"])
        return int(legal[self.rng.integers(len(legal))])


class FirstAgent:
    """Always the legal action with the lowest index (deterministic; the pass when following)."""

    def act(self, observation):
        return int(np.flatnonzero(observation["action_mask"])[0])


class SimpleAgent:
    """dhm's `simple` player written in Python from the observation alone: the weakest meld
    (natural before the joker, the lowest card, then the most cards; a pass only when nothing
    else is legal), the weakest cards in the exchange. It decides exactly as the C player
    does, so dhm.evaluate(SimpleAgent(), ...) gives the points of `dhm play` with `simple`
    (a test checks it)."""

    _REV = OBS_LAYOUT["revolution"].start
    _GIVE = OBS_LAYOUT["exchange"].start
    _HAND = OBS_LAYOUT["hand"]

    def _key(self, m, rev):
        if m.kind == "joker":
            strength = 20
        else:
            col = m.high if rev else m.low
            strength = 14 - col if rev else col
        # among equals, the first that dhm's move generator lists: natural groups from the
        # highest suit set down, everything else in action order
        return (m.joker, strength, -m.size, -m.action if m.kind == "group" and not m.joker else m.action)

    def act(self, observation):
        obs, mask = observation["observation"], observation["action_mask"]
        legal = np.flatnonzero(mask)
        if obs[self._GIVE]:  # the exchange: the weakest cards (3 first, clubs first, the joker last)
            return action_of([int(i) for i in np.flatnonzero(obs[self._HAND])[:int(obs[self._GIVE])]])
        rev = bool(obs[self._REV])
        moves = [move(int(a)) for a in legal if a != 0]
        if not moves:
            return 0
        return min(moves, key=lambda m: self._key(m, rev)).action
