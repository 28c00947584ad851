"""Measuring agents from Python: evaluate() (an agent against dhm's players, points per game
with a standard error) and tournament() (dhm's tournament engine, Python agents included).
Both run on dhm's C engine: opponents act in C, games are seeded as `dhm play` and `dhm
tournament` seed them, so the same seed gives the same games as the command line."""

import collections
import math
import os
import sys
import time

import numpy as np

from . import _dhm

_CLASS_NAMES = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")


class Evaluation:
    """What evaluate() measured. points: the agent's mean points per game (5 daifugo .. 1
    daihinmin, 3 on average); se: its standard error (1 SE; se_kind says how it was taken);
    games; classes: how often the agent reached each class (daifugo first); opponents: each
    opponent seat's mean points; cpu_s and wall_s: the time spent (CPU of every thread of
    this process); decisions: the agent's decisions (decisions_per_s by the wall clock)."""

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def __repr__(self):
        return ("Evaluation(points=%.4f, se=%.4f, games=%d, classes=%s)"
                % (self.points, self.se, self.games, list(self.classes)))

    def __str__(self):
        return ("%.3f ± %.3f points per game (%s; %d games, seed %s); classes %s; opponents %s; "
                "%.1f s CPU, %.1f s wall%s"
                % (self.points, self.se, self.se_kind, self.games, self.seed,
                   " ".join("%s %d" % kv for kv in zip(_CLASS_NAMES, self.classes)),
                   " ".join("%.3f" % x for x in self.opponents), self.cpu_s, self.wall_s,
                   ", %.0f decisions/s" % self.decisions_per_s if self.decisions else ""))

    def as_dict(self):
        return dict(self.__dict__)


def _opponent_specs(opponents, seat):
    if isinstance(opponents, str):
        opponents = [opponents] * 4
    opponents = list(opponents)
    if len(opponents) != 4 or not all(isinstance(s, str) for s in opponents):
        raise ValueError("opponents: a player spec, or four (the other seats in player order), not %r" % (opponents,))
    if not 0 <= seat < 5:
        raise ValueError("seat: a player number 0..4, not %r" % (seat,))
    return opponents


def _stats(points, block):
    """Mean and standard error of per-game points, one row per match. With at least two whole
    class periods in all, by batch means over the periods (games within a period are correlated
    through the classes carried; periods are not); else per game."""
    points = np.asarray(points, dtype=float)
    n = points.size
    mean = float(points.mean())
    if block and points.shape[0] * (points.shape[1] // block) >= 2:
        nb = points.shape[1] // block
        means = points[:, :nb * block].reshape(points.shape[0], nb, block).mean(axis=2).ravel()
        se = float(means.std(ddof=1) / math.sqrt(means.size))
        kind = "1 standard error, batch means over %d class periods of %d games" % (means.size, block)
    else:
        se = float(points.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
        kind = "1 standard error over games, taken as independent"
    return mean, se, kind


class Progress:
    """The rate and ETA of a long run over a recent window, not from the start: a slow start (a
    warm-up, another job on the core) skews them no longer than `window` seconds.

    p = Progress(total, window=30); then p.update(done) at each report; p.rate (units a second
    over the last `window` seconds, from the start while less has passed), p.eta() (seconds left
    at that rate; None before a rate is known), p.elapsed. clock: a function giving seconds (for
    tests)."""

    def __init__(self, total, window=30.0, clock=time.perf_counter):
        self.total, self.window, self.clock = total, window, clock
        self.t0 = clock()
        self.samples = collections.deque([(self.t0, 0)])  # (time, done), oldest first
        self.rate, self.done, self.elapsed = 0.0, 0, 0.0

    def update(self, done):
        now = self.clock()
        self.samples.append((now, done))
        # drop samples while the next one is still at least a window old: the oldest kept is the
        # newest that old (or the start), so the rate spans the last window
        while len(self.samples) > 2 and now - self.samples[1][0] >= self.window:
            self.samples.popleft()
        t, d = self.samples[0]
        self.rate = (done - d) / (now - t) if now > t else 0.0
        self.done, self.elapsed = done, now - self.t0
        return self.rate

    def eta(self):
        return (self.total - self.done) / self.rate if self.rate > 0 else None


class _Progress:
    """A progress line on stderr (games done, recent rate, ETA), shown once a run has taken 2 s."""

    def __init__(self, what, total, show):
        self.what, self.total, self.show = what, total, show
        self.p = Progress(total)
        self.last = self.p.t0
        self.shown = False

    def update(self, done):
        now = time.perf_counter()
        if not self.show or now - self.p.t0 < 2 or (now - self.last < 0.5 and done < self.total):
            return
        self.last, self.shown = now, True
        rate = self.p.update(done)
        sys.stderr.write("\r%s: %d/%d games, %.0f games/s, ETA %.0f s " % (self.what, done, self.total, rate,
                                                                          self.p.eta() or 0))
        sys.stderr.flush()

    def done(self):
        if self.shown:
            sys.stderr.write("\n")


def evaluate(agent, opponents="simple", games=1000, seed=1, *, matches=1, seat=0, threads=0, seat_change=3,
             class_reset=100, progress=True):
    """Plays `agent` against four of dhm's players and measures its points per game.

    agent: an object with act(observation) -> action (the dict Env.observe gives), and
    optionally act_batch(observations, masks) -> actions (int8[k, OBS_SIZE], bool[k,
    NUM_ACTIONS]; one call per step for every match at once: the fast way for a network); or a
    built-in player spec ("simple", "mc:sims=100"), played in C.
    opponents: a spec for all four ("policy"), or four specs for the other seats in player order.
    games: in all, split into `matches` matches of games / matches games each, played side by
    side (threads: C threads for the opponents; 0: VecEnv's default). Match k is `dhm play --players ... --games
    games/matches --seed seed+k` with the agent as player `seat`: the same games, so a built-in
    agent gets exactly the command's points. A progress line goes to stderr once the run takes
    more than 2 s (progress=False: none). Returns an Evaluation.
    """
    opp = _opponent_specs(opponents, seat)
    if games < 1 or matches < 1 or games % matches:
        raise ValueError("games=%d, matches=%d: games must be a positive multiple of matches" % (games, matches))
    per = games // matches
    seeds = [int(seed) + k for k in range(matches)]
    t0, c0 = time.perf_counter(), time.process_time()
    decisions = 0
    bar = _Progress("dhm.evaluate", games, progress)
    if isinstance(agent, str):
        specs = opp[:seat] + [agent] + opp[seat:]
        rows = []
        for k, s in enumerate(seeds):
            rows.append(_dhm.play_match(specs, per, s, seat_change, class_reset))
            bar.update((k + 1) * per)
        cls = np.stack(rows)
    else:
        cls, decisions = _play_agent(agent, opp, per, seeds, seat, threads, seat_change, class_reset, bar)
    bar.done()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    pts = 5 - cls.astype(int)  # [matches, games, 5]
    mean, se, kind = _stats(pts[:, :, seat], class_reset)
    others = [p for p in range(5) if p != seat]
    return Evaluation(points=mean, se=se, se_kind=kind, games=games, matches=matches, seed=seed, seat=seat,
                      opponents=[float(pts[:, :, p].mean()) for p in others], opponent_specs=opp,
                      classes=[int((cls[:, :, seat] == c).sum()) for c in range(5)], cpu_s=cpu, wall_s=wall,
                      decisions=decisions, decisions_per_s=decisions / wall if wall > 0 else 0.0)


def _play_agent(agent, opp, per, seeds, seat, threads, seat_change, class_reset, bar):
    from . import VecEnv

    if not hasattr(agent, "act") and not hasattr(agent, "act_batch"):
        raise TypeError("agent: an object with act(observation) (or act_batch(observations, masks)), or a player "
                        "spec, not %r" % (agent,))
    n = len(seeds)
    v = VecEnv(n, seed=seeds, mode="match", games=per, seat_change=seat_change, class_reset=class_reset,
               learners=[seat], opponents=opp, threads=threads)
    v.reset()
    cls = np.full((n, per, 5), -1, dtype=np.int8)
    played = np.zeros(n, dtype=int)
    batch = getattr(agent, "act_batch", None)
    decisions = 0
    while (played < per).any():
        rows = np.flatnonzero(played < per)
        actions = v.legal[:, 0].astype(np.int64)  # finished matches: any legal action, not counted
        if batch is not None:
            acts = np.asarray(batch(v.observation[rows], v.action_mask[rows]), dtype=np.int64)
        else:
            acts = [agent.act({"observation": v.observation[i], "action_mask": v.action_mask[i]}) for i in rows]
        actions[rows] = acts
        decisions += len(rows)
        v.step(actions)
        for i in np.flatnonzero(v.game_over):
            if played[i] < per:
                cls[i, played[i]] = v.result[i]
                played[i] += 1
        bar.update(int(played.sum()))
    return cls, decisions


# ---------------------------------------------------------------- tournaments

def _agent_line(name, agent):
    """The pool line of a Python agent: a class, or (class, {arg: value}), run as a UECda client
    by {python} -m dhm.uecda; returns (line, directories its module needs on PYTHONPATH)."""
    cls, kwargs = (agent if isinstance(agent, tuple) else (agent, {}))
    if not isinstance(cls, type):
        raise TypeError("pool[%r]: a Python agent is a class (or (class, kwargs)); instances cannot cross into the "
                        "client process" % name)
    mod = sys.modules.get(cls.__module__)
    path = getattr(mod, "__file__", None)
    dirs = []
    if cls.__module__ == "__main__" or cls.__module__.startswith("dhm_agent_"):
        if not path:
            raise ValueError("pool[%r]: %s is defined interactively; put it in a file" % (name, cls.__name__))
        target = "%s:%s" % (os.path.abspath(path), cls.__qualname__)
    else:
        target = "%s:%s" % (cls.__module__, cls.__qualname__)
        if path:  # the directory the module's top package is in
            root = os.path.dirname(os.path.abspath(path))
            for _ in range(cls.__module__.count(".") + (os.path.basename(path) == "__init__.py")):
                root = os.path.dirname(root)
            dirs.append(root)
    args = "".join(" --arg %s=%s" % (k, _shell_word(str(v))) for k, v in kwargs.items())
    return ("exec: {python} -m dhm.uecda --agent %s%s --quiet -h {host} -p {port} -n {name}"
            % (_shell_word(target), args)), dirs


def _shell_word(s):
    if s and all(c.isalnum() or c in "/._-:=+@%," for c in s):
        return s
    return "'" + s.replace("'", "'\\''") + "'"


def tournament(pool, db, sets=10, games=1000, seed=1, *, jobs=1, pairing="random", seat_change=3, class_reset=100,
               records=False, move_timeout_ms=10000, connect_timeout_ms=10000, quiet=False):
    """Runs a tournament with dhm's engine (`dhm tournament`) into a new store db and returns it
    (a Store). pool: a pool file's path or text, or {name: player} (or (name, player) pairs)
    where a player is a spec ("policy", "mc:sims=100"), an "exec: ..." command line, or a
    Python agent class (or (class, {arg: value})), which joins as a UECda client
    (`{python} -m dhm.uecda`, {python} being this interpreter). The other options are
    dhm tournament's. An exec: client that does not connect in its first set stops the run
    with a RuntimeError naming its log file.
    """
    from . import Store

    env_dirs = []
    if isinstance(pool, (str, os.PathLike)):
        text = str(pool)
        if "\n" not in text and os.path.isfile(text):
            with open(text) as f:
                text = f.read()
    else:
        items = pool.items() if hasattr(pool, "items") else pool
        lines = []
        for name, player in items:
            if isinstance(player, str):
                lines.append("%s %s" % (name, player))
            else:
                line, dirs = _agent_line(name, player)
                lines.append("%s %s" % (name, line))
                env_dirs += dirs
        text = "\n".join(lines) + "\n"
    if os.path.exists(db):
        raise FileExistsError("tournament: %s exists (a new run needs a new store; dhm tournament --resume continues "
                              "one)" % db)
    # the clients import this very package (and the agents' modules): make both importable
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    old = os.environ.get("PYTHONPATH")
    parts = [here] + env_dirs + ([old] if old else [])
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(parts))
    try:
        _dhm.tournament(text, os.fspath(db), sets=sets, games=games, seed=seed, jobs=jobs, pairing=pairing,
                        seat_change=seat_change, class_reset=class_reset, records=records,
                        move_timeout_ms=move_timeout_ms, connect_timeout_ms=connect_timeout_ms,
                        python=sys.executable, command="dhm.tournament(sets=%d, games=%d, seed=%d, pairing=%s)"
                        % (sets, games, seed, pairing), progress=not quiet)
    finally:
        if old is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old
    st = Store(os.fspath(db))
    if not quiet:
        rows = st.sets(include_broken=True)
        by = {}
        for r in rows:
            b = by.setdefault(r["player"], [0, 0, 0])
            b[0] += 1
            b[1] += r["games"]
            b[2] += r["points"]
        print("%-24s %6s %9s %7s" % ("player", "sets", "games", "mean"), file=sys.stderr)
        for name, (s, g, p) in sorted(by.items(), key=lambda kv: -kv[1][2] / max(kv[1][1], 1)):
            print("%-24.24s %6d %9d %7.3f" % (name, s, g, p / g if g else 0.0), file=sys.stderr)
    return st
