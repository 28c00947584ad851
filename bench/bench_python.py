"""Benchmarks of dhm from Python (make bench; needs make python): environment steps per second
with uniformly random legal actions, side by side with a pure-Python engine of the same rules
(bench/daihinmin_py.py; RLCard's Dou Dizhu could not be installed here: it is not a Debian
package and no other registry is reachable); and learner steps per second with dhm's players
acting in C as the opponents, on one core and on two.

Lines are `name value unit`. Each figure is the best of 5 runs of about 0.6 s, the runs of
the four measures interleaved (round 1 of each, then round 2, ...) so that a busy neighbour
on this VM slows all of them alike; the median follows as a second line. Seeds are fixed, so
two builds do the same work.

  env_steps_single    Env (one game at a time, mode="game"): agent_iter, last() (the
                      observation and action_mask arrays are made), a random action among
                      the mask's, step() - the PettingZoo loop a user writes
  vecenv_steps        VecEnv(256): one call steps 256 games; actions drawn with numpy from
                      each game's legal list; observations and masks written every step
  vecenv_steps_bare   the same without observations and masks (legal lists only)
  purepy_steps        the pure-Python engine: legal moves generated every step, a random one
                      played (no observation vector, no mask: less work than dhm's Env)
  vecenv_learner_steps_policy_opponents_one_core
                      VecEnv(256, learners=[0], opponents=["policy"] * 4): a learner step is
                      the learner's action (drawn with numpy from its legal list) and the
                      four policy players' moves until the learner's next decision, all in
                      C; observations and masks written; the process pinned to one CPU
  vecenv_learner_steps_policy_opponents_two_cores
                      the same with threads=2, the process on two CPUs (the Python side,
                      drawing the actions, stays on one thread)
  vecenv_learner_steps_fast_policy_opponents_one_core
                      the first of the two with the fast policy (policy:model=fast), the
                      default policy of earlier versions, beside it
  DHM_BENCH_OPPONENT=SPEC replaces "policy" in the two policy measures (e.g. policy:endgame=0)

The goal lines say which measure and which opponents each checks: the learner-step goal is
checked with the default `policy` (the rich policy and the gift model), as the README states it.

The first four measures run pinned to one CPU, so that they measure one core.
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
VEC_N = 256


def timed(fns):
    """Calls every fn(deadline) RUNS times, interleaved; fn returns the steps it did. Returns
    {name: (best, median)} in steps/s."""
    rates = {name: [] for name, _ in fns}
    for _ in range(RUNS):
        for name, fn in fns:
            t0 = time.perf_counter()
            steps = fn(t0 + SECONDS)
            rates[name].append(steps / (time.perf_counter() - t0))
    return {name: (max(r), statistics.median(r)) for name, r in rates.items()}


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


def vecenv(n, seed, full=True, batch=20, **kw):
    """Steps of VecEnv(n, **kw), the actions drawn with numpy from the legal lists."""
    v = dhm.VecEnv(n, seed=seed, observations=full, masks=full, **kw)
    v.reset()
    rng = np.random.default_rng(seed)
    rows = np.arange(n)

    def run(deadline):
        steps = 0
        while time.perf_counter() < deadline:
            for _ in range(batch):
                idx = (rng.random(n) * v.num_legal).astype(np.int64)
                v.step(v.legal[rows, idx])
            steps += batch * n
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


def pinned(ncpu, fn):
    """fn, run with the process pinned to its first ncpu CPUs (all of them when fewer)."""
    cpus = sorted(os.sched_getaffinity(0))

    def run(deadline):
        os.sched_setaffinity(0, cpus[:ncpu])
        try:
            return fn(deadline)
        finally:
            os.sched_setaffinity(0, cpus)

    return run, len(cpus[:ncpu])


OPPONENT = os.environ.get("DHM_BENCH_OPPONENT", "policy")  # the opponents' spec (policy)


FAST = "policy:model=fast"


def opponents(n, seed, threads, spec=None):
    return vecenv(n, seed, batch=5, learners=[0], opponents=[spec or OPPONENT] * 4, threads=threads)


def line(name, value, unit):
    print("%-48s %12.0f %s" % (name, value, unit))


def main():
    results = {}
    one = lambda fn: pinned(1, fn)[0]  # noqa: E731
    two, ncpu = pinned(2, opponents(VEC_N, 1, 2))
    fns = (("env_steps_single", one(env_single(1))), ("vecenv_steps", one(vecenv(VEC_N, 1))),
           ("vecenv_steps_bare", one(vecenv(VEC_N, 1, full=False))), ("purepy_steps", one(purepy(1))),
           ("vecenv_learner_steps_policy_opponents_one_core", one(opponents(VEC_N, 1, 1))),
           ("vecenv_learner_steps_policy_opponents_two_cores", two),
           ("vecenv_learner_steps_fast_policy_opponents_one_core", one(opponents(VEC_N, 1, 1, FAST))))
    for name, (best, med) in timed(fns).items():
        results[name] = best
        cores = "%d cores" % ncpu if name.endswith("two_cores") else "one core"
        line(name, best, "steps/s (best of %d; %s)" % (RUNS, cores))
        line(name + "_median", med, "steps/s (median)")
    base = results["purepy_steps"]
    print("%-48s %12.1f x (env_steps_single / purepy_steps)" % ("ratio_single_vs_purepy", results["env_steps_single"] / base))
    print("%-48s %12.1f x (vecenv_steps / purepy_steps)" % ("ratio_vecenv_vs_purepy", results["vecenv_steps"] / base))
    scale = results["vecenv_learner_steps_policy_opponents_two_cores"] / results[
        "vecenv_learner_steps_policy_opponents_one_core"]
    print("%-48s %12.2f x (two cores / one core, learner steps with policy opponents)" % ("ratio_two_cores", scale))
    goals = (("env_steps_single", 100000, "Env, one game at a time"),
             ("vecenv_steps", 1000000, "VecEnv(256), observations and masks"),
             ("vecenv_learner_steps_policy_opponents_one_core", 300000,
              "learner steps on one core against 4 x %s%s" % (OPPONENT, " (the default policy)" if OPPONENT == "policy"
                                                              else "")))
    for name, goal, what in goals:
        print("%-48s %12s (goal %d steps/s: %s)" % (name + "_goal", "met" if results[name] >= goal else "NOT MET", goal,
                                                    what))
    print("%-48s %12s (goal 1.7 x on two cores against 4 x %s%s)" % (
        "ratio_two_cores_goal", "met" if scale >= 1.7 else "NOT MET", OPPONENT,
        "" if ncpu == 2 else "; this machine lends %d" % ncpu))


if __name__ == "__main__":
    main()
