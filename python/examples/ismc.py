"""Information-set Monte Carlo search written in Python over dhm's C engine (docs/python.md,
"Search from Python"): for each decision, `sims` simulations; each deals the cards the player
cannot see anew with dhm's sampler (env.sample_world: a clone of the game consistent with the
player's information set), tries one legal move chosen by UCB1 at the root, and plays the
rest of the game out in C (playout); the move with the best mean reward is played. That is
what dhm's `mc` player does in C (with more refinements), so the two are compared at the same
number of simulations.

    $PY ismc.py --games 1000 --sims 100        # the agent against four simple, and dhm's mc

    ($PY: the interpreter `make python` built dhm for, PY=$(sh tools/pick_python.sh), with
    PYTHONPATH naming the repository's build/python; run from python/examples.)
"""

import argparse
import math
import time

import numpy as np

import dhm
import dhm.agents


class ISMC:  # the agent: 28 lines
    """act(env) -> action for env's selected agent, by information-set Monte Carlo."""

    def __init__(self, sims=100, est="uniform", playout="simple", seed=0):
        self.sims, self.est, self.playout = int(sims), est, playout
        self.rng = np.random.default_rng(int(seed))

    def act(self, env):
        legal = env.legal_actions()
        if env.phase != "play":  # the exchange: the weakest cards, as simple gives
            return dhm.agents.SimpleAgent().act(env.observe(env.agent_selection))
        if len(legal) == 1:
            return legal[0]
        me, n, total = env.actor, np.zeros(len(legal)), np.zeros(len(legal))
        for s in range(self.sims):
            mean = total / np.maximum(n, 1)
            ucb = np.where(n == 0, np.inf, mean + np.sqrt(2 * math.log(s + 1) / np.maximum(n, 1)))
            k = int(np.argmax(ucb))
            world = env.sample_world(seed=int(self.rng.integers(1 << 62)), est=self.est)
            world.step(legal[k])
            classes = world.playout(self.playout, seed=int(self.rng.integers(1 << 62)))
            total[k] += (4 - classes[me]) / 4  # 1 daifugo .. 0 daihinmin, as mc's reward
            n[k] += 1
        return legal[int(np.argmax(total / np.maximum(n, 1)))]


def play_match(agent, opponent, games, seed):
    """The agent as player 0 of `dhm play --players X,opp,opp,opp,opp --games games --seed seed`:
    the same deals and opponents. Returns per-game points and the agent's decision count."""
    env = dhm.Env(seed=seed, mode="match", games=games)
    opps = {p: dhm.Player(opponent, seed=dhm.player_seed(seed, p)) for p in range(1, 5)}
    env.reset()
    points, decisions = [], 0
    for _ in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if info["game_over"] and env.actor == 0:
            points.append(5 - info["classes"][0])
        if term:
            env.step(None)
        elif env.actor == 0:
            env.step(agent.act(env))
            decisions += 1
        else:
            env.step(opps[env.actor].act(env))
    return np.array(points), decisions


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--sims", type=int, default=100)
    p.add_argument("--opponent", default="simple")
    p.add_argument("--seed", type=int, default=3)
    a = p.parse_args()
    t0, c0 = time.perf_counter(), time.process_time()
    pts, decisions = play_match(ISMC(a.sims, seed=a.seed), a.opponent, a.games, a.seed)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    # batch means: over class periods of 100 games, or blocks of 10 below 200 games (whole blocks only)
    block = 100 if len(pts) >= 200 else 10
    nb = len(pts) // block
    if nb >= 2:
        se = pts[:nb * block].reshape(nb, block).mean(1).std(ddof=1) / math.sqrt(nb)
        spread = "± %.3f points per game (1 SE, batch means over %d blocks of %d games)" % (se, nb, block)
    else:
        spread = "points per game (too few games for an SE: at least 20)"
    print("Python ISMC, %d simulations: %.3f %s; %d games against 4 x %s, seed %d; %d decisions, %.0f decisions/s "
          "(%.1f s CPU)" % (a.sims, pts.mean(), spread, len(pts), a.opponent, a.seed, decisions, decisions / wall, cpu))
    for spec in ("mc:sims=%d:playout=simple:est=uniform" % a.sims, "mc:sims=%d" % a.sims):
        ev = dhm.evaluate(spec, a.opponent, a.games, a.seed)
        print("dhm %s: %s" % (spec, ev))


if __name__ == "__main__":
    main()
