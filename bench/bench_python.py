"""Benchmarks of dhm from Python (make bench; needs make python): environment steps per second
with uniformly random legal actions, one process on one core (nothing here starts a thread),
side by side with a pure-Python engine of the same rules (bench/daihinmin_py.py; RLCard's Dou
Dizhu could not be installed here: it is not a Debian package and no other registry is
reachable).

Lines are `name value unit`. Each figure is the best of 5 runs of about 0.6 s (this VM's
neighbours slow whole runs at random; the median follows in parentheses as a second line).
Seeds are fixed, so two builds do the same work.

  env_steps_single    Env (one game at a time, mode="game"): agent_iter, last() (the
                      observation and action_mask arrays are made), a random action among
                      the mask's, step() - the PettingZoo loop a user writes
  vecenv_steps        VecEnv(1024): one call steps 1024 games; actions drawn with numpy from
                      each game's legal list; observations and masks written every step
  vecenv_steps_bare   the same without observations and masks (legal lists only)
  purepy_steps        the pure-Python engine: legal moves generated every step, a random one
                      played (no observation vector, no mask: less work than dhm's Env)
"""

import os
import random
import statistics
import sys
import time

import numpy as np

import dhm

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daihinmin_py  # noqa: E402

RUNS = 5
SECONDS = 0.6


def timed(fn):
    """Calls fn(deadline) RUNS times; fn returns the steps done. Returns (best, median) steps/s."""
    rates = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        steps = fn(t0 + SECONDS)
        rates.append(steps / (time.perf_counter() - t0))
    return max(rates), statistics.median(rates)


def env_single(seed):
    env = dhm.Env(seed=seed)
    rng = random.Random(seed)

    def run(deadline):
        steps = 0
        while time.perf_counter() < deadline:
            env.reset()
            for agent in env.agent_iter():
                obs, reward, term, trunc, info = env.last()
                if term:
                    env.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0]
                env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        return steps

    return run


def vecenv(n, seed, full=True):
    v = dhm.VecEnv(n, seed=seed, observations=full, masks=full)
    v.reset()
    rng = np.random.default_rng(seed)
    rows = np.arange(n)

    def run(deadline):
        steps = 0
        while time.perf_counter() < deadline:
            for _ in range(20):
                idx = (rng.random(n) * v.num_legal).astype(np.int64)
                v.step(v.legal[rows, idx])
            steps += 20 * n
        return steps

    return run


def purepy(seed):
    rng = random.Random(seed)

    def run(deadline):
        steps = 0
        while time.perf_counter() < deadline:
            g = daihinmin_py.Game(rng)
            while not g.over:
                moves = g.legal()
                g.step(moves[rng.randrange(len(moves))])
                steps += 1
        return steps

    return run


def line(name, value, unit):
    print("%-28s %12.0f %s" % (name, value, unit))


def main():
    results = {}
    for name, fn in (("env_steps_single", env_single(1)), ("vecenv_steps", vecenv(1024, 1)),
                     ("vecenv_steps_bare", vecenv(1024, 1, full=False)), ("purepy_steps", purepy(1))):
        best, med = timed(fn)
        results[name] = best
        line(name, best, "steps/s (best of %d; one core)" % RUNS)
        line(name + "_median", med, "steps/s (median)")
    base = results["purepy_steps"]
    print("%-28s %12.1f x (env_steps_single / purepy_steps)" % ("ratio_single_vs_purepy", results["env_steps_single"] / base))
    print("%-28s %12.1f x (vecenv_steps / purepy_steps)" % ("ratio_vecenv_vs_purepy", results["vecenv_steps"] / base))
    goals = (("env_steps_single", 100000), ("vecenv_steps", 1000000))
    for name, goal in goals:
        print("%-28s %12s (goal %d steps/s)" % (name + "_goal", "met" if results[name] >= goal else "NOT MET", goal))


if __name__ == "__main__":
    main()
