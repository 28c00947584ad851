"""A neural agent for Daihinmin in PyTorch, trained with dhm.VecEnv against dhm's own players
(which act in C inside the environment), saved, and played anywhere a UECda client can play
(docs/python.md, "A neural agent with PyTorch", walks through it and gives its results).

The network reads the acting player's observation (its information set: docs/python.md's
table) and scores each legal action (a learned vector per action of the global encoding); a
value head estimates the reward of the game in play. Training has two parts: a warm start, in
which the network learns to choose as dhm's `policy` player does (its decisions in self-play
matches: an Env with a dhm.Player on every seat), then advantage actor-critic (A2C) in a
VecEnv: n matches side by side, the learner as player 0, the other seats dhm's `simple` and
`policy` players acting in C; each decision is pushed towards the learner's reward at the end
of its game (UECda points - 3), less the value head's estimate. Nothing but dhm, numpy and
torch (Debian: python3-torch).

    $PY torch_agent.py train --out agent.pt                      # threads: half the free cores each
    $PY torch_agent.py eval --weights agent.pt --games 2000 --opponents simple
    $PY -m dhm.uecda --agent torch_agent.py:TorchAgent --arg weights=agent.pt -p 42485

    ($PY: the interpreter `make python` built dhm for, PY=$(sh tools/pick_python.sh), with
    PYTHONPATH naming the repository's build/python; run from python/examples.)
"""

import argparse
import os
import sys
import time

import numpy as np
import torch
from torch import nn

import dhm


def action_features():
    """What each action of the global encoding is, as numbers: its kind (pass, single, group,
    sequence, lone joker, exchange), size, lowest and highest column, whether the joker is in
    it, and its cards (53 entries): float32[NUM_ACTIONS, 63]. The network reads these beside a
    learned vector per action, so what it learns of one meld carries over to similar ones."""
    kinds = ["pass", "single", "group", "sequence", "joker", "give"]
    f = np.zeros((dhm.NUM_ACTIONS, 63), np.float32)
    for a in range(dhm.NUM_ACTIONS):
        m = dhm.move(a)
        f[a, kinds.index(m.kind)] = 1
        f[a, 6] = m.size / 5
        f[a, 7] = max(m.low, 0) / 14
        f[a, 8] = max(m.high, 0) / 14
        f[a, 9] = m.joker
        for c in m.cards:
            f[a, 10 + dhm.CARDS.index(c)] = 1
    return torch.from_numpy(f)


class Net(nn.Module):
    """Observation -> a score for each legal action, and a value.

    The first layer is a sum of the rows of its weight matrix picked by the observation's
    nonzero entries, weighted by their values: the same as nn.Linear on the observation, but it
    costs the ~60 entries that are set instead of all 525 (Debian's torch has no optimised BLAS,
    so dense layers are what costs). Actions are scored by a dot product of the state's vector
    with a learned vector per action, for the legal actions only; the padding of the legal list
    is masked out. An action's vector is its learned one plus a projection of what it is
    (action_features)."""

    def __init__(self, hidden=128, k=32):
        super().__init__()
        self.register_buffer("feat", action_features(), persistent=False)
        self.feat_proj = nn.Linear(self.feat.shape[1], k)
        self.inp = nn.EmbeddingBag(dhm.OBS_SIZE, hidden, mode="sum")
        self.b0 = nn.Parameter(torch.zeros(hidden))
        self.l1 = nn.Linear(hidden, hidden)
        self.q = nn.Linear(hidden, k)
        self.act = nn.Embedding(dhm.NUM_ACTIONS, k)
        self.act_bias = nn.Embedding(dhm.NUM_ACTIONS, 1)
        self.v = nn.Linear(hidden, 1)
        nn.init.normal_(self.inp.weight, std=0.05)
        nn.init.normal_(self.act.weight, std=0.05)
        nn.init.zeros_(self.act_bias.weight)

    def action_vectors(self):
        """Every action's vector (NUM_ACTIONS x k): computed once a forward pass while
        training, once and for all when playing (eval mode)."""
        if not self.training and getattr(self, "_vectors", None) is not None:
            return self._vectors
        vec = self.act.weight + self.feat_proj(self.feat)
        if not self.training:
            self._vectors = vec.detach()
        return vec

    def forward(self, obs, legal, nlegal, vectors=None):
        """obs: int8[B, OBS_SIZE]; legal: int64[B, L] (each row's legal actions, padded);
        nlegal: int64[B]; vectors: action_vectors() when the caller has them. Returns
        logits[B, L] (padding: -1e9) and value[B]."""
        rows, cols = obs.nonzero(as_tuple=True)
        counts = torch.bincount(rows, minlength=obs.shape[0])
        offsets = torch.cumsum(counts, 0) - counts
        h = torch.relu(self.inp(cols, offsets, per_sample_weights=obs[rows, cols].float()) + self.b0)
        h = torch.relu(self.l1(h))
        z = self.q(h)
        vec = self.action_vectors() if vectors is None else vectors
        logits = (vec[legal] * z[:, None, :]).sum(-1) + self.act_bias(legal).squeeze(-1)
        pad = torch.arange(legal.shape[1])[None, :] >= nlegal[:, None]
        return logits.masked_fill(pad, -1e9), self.v(h).squeeze(-1)


def legal_from_masks(masks):
    """The legal actions of each row of a mask array, padded with 0: (int64[B, L], nlegal[B])."""
    masks = torch.from_numpy(np.asarray(masks, dtype=bool))
    nlegal = masks.sum(1)
    legal = torch.zeros(masks.shape[0], max(int(nlegal.max()), 1), dtype=torch.int64)
    rows, cols = masks.nonzero(as_tuple=True)
    pos = torch.arange(len(rows)) - (torch.cumsum(nlegal, 0) - nlegal)[rows]
    legal[rows, pos] = cols
    return legal, nlegal


class TorchAgent:
    """The trained network as a dhm agent: act(observation) for Env, dhm.uecda and tournaments;
    act_batch(observations, masks) for dhm.evaluate. Greedy (the most likely legal action)
    unless sample=1."""

    def __init__(self, weights="agent.pt", sample="0", seed=None):
        torch.set_num_threads(1)  # one client per seat: no thread pool each
        saved = torch.load(weights, map_location="cpu")
        self.net = Net(saved["hidden"], saved["k"])
        self.net.load_state_dict(saved["state"])
        self.net.eval()
        self.sample = bool(int(sample))
        self.gen = torch.Generator().manual_seed(int(seed) if seed is not None else 0)

    @torch.no_grad()
    def act_batch(self, observations, masks):
        legal, nlegal = legal_from_masks(masks)
        logits, _ = self.net(torch.from_numpy(np.asarray(observations)), legal, nlegal)
        if self.sample:
            pick = torch.multinomial(torch.softmax(logits, -1), 1, generator=self.gen)
        else:
            pick = logits.argmax(-1, keepdim=True)
        return legal.gather(1, pick).squeeze(1).numpy()

    def act(self, observation):
        return int(self.act_batch(observation["observation"][None], observation["action_mask"][None])[0])


def pad(rows):
    """Lists of legal actions -> (int64[B, L] padded with 0, nlegal[B])."""
    n = torch.tensor([len(r) for r in rows])
    out = torch.zeros(len(rows), int(n.max()), dtype=torch.int64)
    for i, r in enumerate(rows):
        out[i, :len(r)] = torch.as_tensor(r)
    return out, n


def imitate(net, opt, args):
    """The warm start: the network learns to choose as dhm's `policy` player does, from that
    player's decisions in self-play matches (an Env with a dhm.Player on every seat), and its
    value head learns the reward each decision's game brought its player."""
    t0 = time.perf_counter()
    env = dhm.Env(seed=args.seed + 1000, mode="match", games=100)
    players = [dhm.Player(args.teacher, seed=dhm.player_seed(args.seed + 1000, p)) for p in range(5)]
    obs, legal, target, value, who = [], [], [], [], []  # who: the player of each decision of the game in play
    env.reset()
    while len(obs) < args.imitate:
        for _ in env.agent_iter():
            o, r, term, trunc, info = env.last()
            if term:
                env.step(None)
                continue
            a = players[env.actor].act(env)
            moves = env.legal_actions()
            if len(moves) > 1:
                obs.append(o["observation"])
                legal.append(moves)
                target.append(moves.index(a))
                value.append(0.0)
                who.append((len(obs) - 1, env.actor))
            done = env.games_done
            env.step(a)
            if env.games_done != done or not env.agents or env.terminations[env.agent_selection]:
                for i, p in who:  # the game is over: its reward for each decision's player
                    value[i] = 2.0 - env.result[p]
                who = []
            if len(obs) >= args.imitate:
                break
        env.reset()
        who = []
    obs, target, value = torch.from_numpy(np.stack(obs)), torch.tensor(target), torch.tensor(value)
    gen = torch.Generator().manual_seed(args.seed)
    for epoch in range(args.imitate_epochs):
        order = torch.randperm(len(obs), generator=gen)
        right = 0
        for b in range(0, len(obs), 512):
            idx = order[b:b + 512]
            lg, n = pad([legal[i] for i in idx])
            logits, v = net(obs[idx], lg, n)
            loss = nn.functional.cross_entropy(logits, target[idx]) + 0.5 * ((v - value[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            right += int((logits.argmax(-1) == target[idx]).sum())
        print("imitate: epoch %d, %d decisions of %s, %.1f%% chosen as it chose, %.1f min"
              % (epoch + 1, len(obs), args.teacher, 100 * right / len(obs), (time.perf_counter() - t0) / 60),
              file=sys.stderr, flush=True)


def auto_threads():
    """Threads for torch and for the environment that never oversubscribe the machine: torch's
    threads plus the environment's at most the free cores, half each, at least one each. The free
    cores are the CPUs this process may use less the 1-minute load average (what other processes
    keep busy), rounded. Torch's threads spin while they wait for each other, so one more thread
    than there are free cores makes every step wait for a descheduled one (48-70 times slower
    with the other core of two busy)."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = 0.0
    free = max(1, cpus - int(load + 0.5))
    return max(1, free // 2), "auto: %d CPUs, load average %.1f, so %d free" % (cpus, load, free)


def set_threads(args):
    """args.threads from --threads (a number, or auto); says the choice on stderr."""
    if args.threads == "auto":
        args.threads, why = auto_threads()
    else:
        why = "--threads"
    torch.set_num_threads(args.threads)
    print("%s: %d torch thread%s and %d environment thread%s (%s)"
          % (args.cmd, args.threads, "" if args.threads == 1 else "s", args.threads, "" if args.threads == 1 else "s",
             why), file=sys.stderr, flush=True)


def threads_arg(text):
    if text == "auto":
        return text
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError("a number of threads (1 or more) or auto, not %r" % text)
    return n


THREADS_HELP = ("threads for torch and as many for the environment: a number, or auto (the default): half of the "
                "free cores each (the CPUs this process may use less the 1-minute load average), at least one, so "
                "that torch's threads and the environment's never outnumber the free cores")


def save(net, args, path, how):
    torch.save({"hidden": args.hidden, "k": args.k, "state": net.state_dict(),
                "trained": dict(how, seed=args.seed, n=args.n, threads=args.threads)}, path)


def train(args):
    torch.manual_seed(args.seed)
    set_threads(args)
    net = Net(args.hidden, args.k)
    if args.init:  # go on from a saved network (its shape wins over --hidden and --k)
        saved = torch.load(args.init, map_location="cpu")
        args.hidden, args.k = saved["hidden"], saved["k"]
        net = Net(args.hidden, args.k)
        net.load_state_dict(saved["state"])
    opt = torch.optim.Adam(net.parameters(), lr=args.lr if args.imitate else args.lr_rl if args.init else args.lr)
    c_start = time.process_time()
    t_start = time.perf_counter()
    if args.imitate:
        imitate(net, opt, args)
        if args.warm_out:
            save(net, args, args.warm_out, {"imitated": args.imitate})
        opt = torch.optim.Adam(net.parameters(), lr=args.lr_rl)  # gentler: keep what was imitated
    opponents = args.opponents.split(",")
    if len(opponents) == 1:
        opponents *= 4
    env = dhm.VecEnv(args.n, seed=args.seed, mode="match", games=100, learners=[0], opponents=opponents,
                     threads=args.threads, masks=False)  # the legal lists are enough
    env.reset()
    progress = dhm.Progress(args.steps, window=30)
    steps = games = it = 0
    recent = []
    deadline = t_start + 60 * args.minutes  # the whole training, the warm start included
    while steps < args.steps and time.perf_counter() < deadline:
        batch, rew_b, over_b, val_b = [], [], [], []
        with torch.no_grad():
            vectors = net.action_vectors()  # the weights do not change during a rollout
        for _ in range(args.rollout):
            obs = torch.from_numpy(env.observation.copy())
            nlegal = torch.from_numpy(env.num_legal.astype(np.int64))
            legal = torch.from_numpy(env.legal[:, :int(nlegal.max())].astype(np.int64))
            with torch.no_grad():
                logits, v = net(obs, legal, nlegal, vectors)
                pick = torch.multinomial(torch.softmax(logits, -1), 1)
            val_b.append(v)
            env.step(legal.gather(1, pick).squeeze(1).numpy())
            batch.append((obs, legal, nlegal, pick.squeeze(1)))
            rew_b.append(torch.from_numpy(env.reward[:, 0].copy()))
            over_b.append(torch.from_numpy(env.game_over.copy()))
            ended = env.game_over
            games += int(ended.sum())
            recent += (env.reward[ended, 0] + 3).tolist()
        steps += args.rollout * args.n
        # advantages by GAE (gamma = 1 within a game, nothing carried across games; the value of
        # the state after the rollout where it cuts a game short)
        with torch.no_grad():
            nl = torch.from_numpy(env.num_legal.astype(np.int64))
            _, v_next = net(torch.from_numpy(env.observation.copy()),
                            torch.from_numpy(env.legal[:, :int(nl.max())].astype(np.int64)), nl, vectors)
        advs, a_next = [], torch.zeros(args.n)
        for r, over, v in zip(reversed(rew_b), reversed(over_b), reversed(val_b)):
            keep = (~over).float()
            a_next = r + keep * v_next - v + keep * args.gae * a_next
            advs.append(a_next)
            v_next = v
        adv = torch.stack(advs[::-1]).reshape(-1)
        returns = adv + torch.cat(val_b)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        width = max(b[1].shape[1] for b in batch)
        obs = torch.cat([b[0] for b in batch])
        legal = torch.cat([nn.functional.pad(b[1], (0, width - b[1].shape[1])) for b in batch])
        nlegal = torch.cat([b[2] for b in batch])
        act = torch.cat([b[3] for b in batch])
        logits, value = net(obs, legal, nlegal)
        logp = torch.log_softmax(logits, -1)
        pg = -(logp.gather(1, act[:, None]).squeeze(1) * adv).mean()
        p = logp.exp()
        entropy = -(p * logp.clamp(min=-30)).sum(-1).mean()
        loss = pg + 0.5 * ((returns - value) ** 2).mean() - args.entropy * entropy
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
        it += 1
        if it % 100 == 0:
            rate = progress.update(steps)  # over the last 30 s: a slow start does not linger in it
            eta = min(progress.eta() or float("inf"), deadline - time.perf_counter())
            print("train: %5.1f min, %d learner steps (%.0f/s over the last %.0f s), %d games, mean points of the "
                  "last %d games %.3f, entropy %.2f, ETA %.1f min"
                  % (progress.elapsed / 60, steps, rate, min(progress.window, progress.elapsed), games,
                     len(recent[-5000:]), float(np.mean(recent[-5000:])) if recent else 0, float(entropy), eta / 60),
                  file=sys.stderr, flush=True)
    el, cpu = time.perf_counter() - t_start, time.process_time() - c_start
    save(net, args, args.out, {"minutes": el / 60, "cpu_minutes": cpu / 60, "steps": steps, "games": games,
                               "opponents": opponents, "imitated": args.imitate})
    print("train: %s: %d learner steps%s, %d games in %.1f min (%.1f CPU min, %d threads) against %s"
          % (args.out, steps, "" if steps >= args.steps else " (stopped at --minutes %g)" % args.minutes, games,
             el / 60, cpu / 60, args.threads, ",".join(opponents)))


def evaluate(args):
    agent = TorchAgent(args.weights)
    set_threads(args)
    ev = dhm.evaluate(agent, args.opponents, games=args.games, seed=args.seed, matches=args.matches,
                      threads=args.threads)
    print("%s against 4 x %s: %s" % (os.path.basename(args.weights), args.opponents, ev))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("train", help="train a network against dhm's players")
    t.add_argument("--steps", type=int, default=2000000, help="learner steps of actor-critic (2,000,000)")
    t.add_argument("--minutes", type=float, default=15,
                   help="stop earlier when the whole training has taken this long, wall clock (15)")
    t.add_argument("--out", default="agent.pt")
    t.add_argument("--opponents", default="simple,policy:model=fast,simple,policy:model=fast",
                   help="one spec, or four for players 1-4 (simple,policy:model=fast,simple,policy:model=fast)")
    t.add_argument("--n", type=int, default=128, help="matches stepped side by side (128)")
    t.add_argument("--rollout", type=int, default=8, help="steps per update (8)")
    t.add_argument("--hidden", type=int, default=128)
    t.add_argument("--k", type=int, default=32, help="size of the action vectors (32)")
    t.add_argument("--lr", type=float, default=1e-3, help="the warm start's learning rate (1e-3)")
    t.add_argument("--lr-rl", type=float, default=3e-5, help="actor-critic's after a warm start (3e-5)")
    t.add_argument("--gae", type=float, default=0.95, help="GAE's lambda (0.95)")
    t.add_argument("--entropy", type=float, default=0.003)
    t.add_argument("--threads", type=threads_arg, default="auto", help=THREADS_HELP)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--imitate", type=int, default=150000,
                   help="decisions of the teacher to imitate first (150,000; 0: none, actor-critic from scratch)")
    t.add_argument("--imitate-epochs", type=int, default=3)
    t.add_argument("--teacher", default="policy:model=fast", help="the player imitated (policy:model=fast)")
    t.add_argument("--warm-out", help="also save the network after the warm start here")
    t.add_argument("--init", help="start from this saved network (with --imitate 0: actor-critic only)")
    e = sub.add_parser("eval", help="points per game against four of dhm's players (dhm.evaluate)")
    e.add_argument("--weights", default="agent.pt")
    e.add_argument("--opponents", default="simple")
    e.add_argument("--games", type=int, default=2000)
    e.add_argument("--matches", type=int, default=20, help="matches played side by side (20 of 100 games)")
    e.add_argument("--threads", type=threads_arg, default="auto", help=THREADS_HELP)
    e.add_argument("--seed", type=int, default=7)
    a = p.parse_args(argv)
    (train if a.cmd == "train" else evaluate)(a)


if __name__ == "__main__":
    main()
