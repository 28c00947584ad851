"""A small numpy policy for Daihinmin, trained by self-play in dhm's environment, then played
anywhere a UECda client can play (docs/python.md walks through it).

The policy is a linear softmax over 14 features of each legal action, computed from the
observation only (the acting player's information set): what kind of meld, how strong, how
many cards it leaves, whether it cuts, turns the revolution or finishes the hand, and for the
exchange how strong the cards given are. Training is REINFORCE: every seat plays the current
policy, and each decision of a game is pushed towards its player's reward at the game's end
(UECda points - 3, zero-sum).

    $PY selfplay_linear.py train --games 10000 --out linear.npy    # about 2 minutes
    $PY selfplay_linear.py eval --weights linear.npy --games 2000  # against 4 x simple
    $PY -m dhm.uecda --agent selfplay_linear.py:LinearAgent --arg weights=linear.npy -p 42485

    ($PY: the interpreter `make python` built dhm for, PY=$(sh tools/pick_python.sh), with
    PYTHONPATH naming the repository's build/python; run from python/examples.)
"""

import argparse
import sys
import time

import numpy as np

import dhm

L = dhm.OBS_LAYOUT
NF = 14

# Per action: kind (0 pass, 1 single, 2 group, 3 sequence, 4 lone joker, 5 give), size, lowest
# and highest column, joker used, mean column of the cards given (the joker as 14).
_KINDS = {"pass": 0, "single": 1, "group": 2, "sequence": 3, "joker": 4, "give": 5}
KIND = np.zeros(dhm.NUM_ACTIONS, np.int8)
SIZE = np.zeros(dhm.NUM_ACTIONS)
LOW = np.zeros(dhm.NUM_ACTIONS)
HIGH = np.zeros(dhm.NUM_ACTIONS)
JOKER = np.zeros(dhm.NUM_ACTIONS)
GIVE = np.zeros(dhm.NUM_ACTIONS)
for _a in range(dhm.NUM_ACTIONS):
    _m = dhm.move(_a)
    KIND[_a] = _KINDS[_m.kind]
    SIZE[_a] = _m.size
    LOW[_a], HIGH[_a] = _m.low, _m.high
    JOKER[_a] = _m.joker
    if _m.kind == "give":
        GIVE[_a] = np.mean([14 if c == "jo" else dhm.CARDS.index(c) // 4 + 1 for c in _m.cards])


def _static(rev):
    """The features that depend on the action and the revolution only, plus the meld flag and
    the size (two extra columns): one row per action, so a decision indexes them once."""
    k = KIND
    meld = (k >= 1) & (k <= 4)
    strength = np.where(k == 4, 14.0, (14 - HIGH) if rev else LOW) / 14.0
    a = np.zeros((dhm.NUM_ACTIONS, NF + 2))
    a[:, 0] = k == 0
    a[:, 1] = strength * meld
    a[:, 2] = strength ** 2 * meld
    a[:, 3] = SIZE / 5 * meld
    a[:, 4] = JOKER * meld
    a[:, 5] = ((k >= 1) & (k <= 3)) & (LOW <= 6) & (HIGH >= 6)  # an 8 cuts
    a[:, 6] = ((k == 2) & (SIZE >= 4)) | ((k == 3) & (SIZE >= 5))  # revolution
    a[:, 12] = (k == 5) * GIVE / 14
    a[:, 13] = (k == 5) * JOKER
    a[:, NF] = meld
    a[:, NF + 1] = SIZE
    return a


STATIC = (_static(False), _static(True))


def features(obs, legal):
    """The feature rows of the legal actions (len(legal) x NF), from the observation only."""
    o = obs["observation"] if isinstance(obs, dict) else obs
    ncards = o[L["ncards"]]
    mine = int(ncards[0])
    live = [int(n) for n, out in zip(ncards[1:], o[L["finished"]][1:]) if n > 0 and out == 0]
    opp_min = min(live) if live else 11
    a = STATIC[int(o[L["revolution"]][0])][legal]
    meld, size = a[:, NF], a[:, NF + 1]
    f = a[:, :NF]
    f[:, 7] = meld * (size == mine)  # goes out
    f[:, 8] = (mine - meld * size) / 11  # cards left
    f[:, 9] = f[:, 1] * int(o[L["table_kind"]][0])  # strength when leading
    f[:, 10] = f[:, 0] * (opp_min <= 2)  # passing while someone is about to finish
    f[:, 11] = f[:, 1] * (mine <= 4)  # strength near the end
    return f


def policy(theta, f, temp=1.0):
    z = f @ theta / temp
    z -= z.max()
    p = np.exp(z)
    return p / p.sum()


class LinearAgent:
    """act(observation) -> action: greedy (or sampled) linear softmax policy."""

    def __init__(self, weights=None, greedy="1", seed=None):
        self.theta = np.load(weights) if weights else np.zeros(NF)
        self.greedy = str(greedy) not in ("0", "False", "false")
        self.rng = np.random.default_rng(None if seed is None else int(seed))

    def act(self, obs):
        legal = np.flatnonzero(obs["action_mask"])
        p = policy(self.theta, features(obs, legal))
        return int(legal[p.argmax()] if self.greedy else legal[self.rng.choice(len(legal), p=p)])


def train(games, seed=1, lr=4.0, batch=50, log=sys.stderr):
    """REINFORCE by self-play in match mode (the exchange included); returns theta."""
    rng = np.random.default_rng(seed)
    theta = np.zeros(NF)
    env = dhm.Env(seed=seed, mode="match", games=100)
    env.reset()
    traj = {a: [] for a in dhm.AGENTS}
    grad, count, done, progress = np.zeros(NF), 0, 0, dhm.Progress(games)
    recent = []
    while done < games:
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            f = features(obs, legal)
            p = policy(theta, f)
            i = min(int(np.searchsorted(np.cumsum(p), rng.random())), len(legal) - 1)
            traj[agent].append(f[i] - p @ f)  # the score function of the choice
            env.step(int(legal[i]))
            if any(env.rewards.values()):  # a game ended: every player's reward
                for a, r in env.rewards.items():
                    for g in traj[a]:
                        grad += r * g
                    count += len(traj[a])
                    traj[a] = []
                recent.append(env.rewards["player_0"])
                done += 1
                if done % batch == 0:
                    theta += lr * grad / max(count, 1)
                    grad[:], count = 0, 0
                if done % 1000 == 0 and log:
                    progress.update(done)  # the rate over the last 30 s
                    print("train: %d/%d games, %.0f s, %.0f games/s, ETA %.0f s, theta %s"
                          % (done, games, progress.elapsed, progress.rate, progress.eta() or 0, np.round(theta, 2)),
                          file=log)
                if done >= games:
                    break
        else:
            env.reset()
    return theta


def evaluate(theta, games, opponents="simple", seed=7):
    """Mean points per game of the greedy policy as player 0 against four built-in players."""
    env = dhm.Env(seed=seed, mode="match", games=games)
    agent = LinearAgent()
    agent.theta = theta
    others = [None] + [dhm.Player(opponents, seed=dhm.player_seed(seed, p)) for p in range(1, 5)]
    total = dhm.play(env, lambda env, name, obs: agent.act(obs) if env.actor == 0 else others[env.actor].act(env))
    return np.array([total[a] for a in dhm.AGENTS]) / games + 3


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("train", help="self-play training")
    t.add_argument("--games", type=int, default=10000)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--lr", type=float, default=4.0)
    t.add_argument("--out", default="linear.npy")
    e = sub.add_parser("eval", help="mean points per game against four built-in players")
    e.add_argument("--weights", required=True)
    e.add_argument("--games", type=int, default=2000)
    e.add_argument("--opponents", default="simple")
    a = ap.parse_args()
    if a.cmd == "train":
        t0 = time.time()
        theta = train(a.games, a.seed, a.lr)
        np.save(a.out, theta)
        print("trained on %d self-play games in %.0f s: %s" % (a.games, time.time() - t0, a.out))
    else:
        pts = evaluate(np.load(a.weights), a.games, a.opponents)
        print("points per game against 4 x %s over %d games: %.3f (the others %s)"
              % (a.opponents, a.games, pts[0], " ".join("%.3f" % x for x in pts[1:])))


if __name__ == "__main__":
    main()
