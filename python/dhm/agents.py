"""Small agents for examples and tests: each has act(observation) -> action, the interface
Env users and `python3 -m dhm.uecda --agent dhm.agents:RandomAgent` expect."""

import numpy as np


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
