"""dhm from Python: Daihinmin under the UECda rules as a fast multi-agent environment.

The engine is dhm's own C library (the same rules, players and stores as the `dhm`
command), reached through the extension module ``dhm._dhm``:

- ``Env``: one game (or match) with PettingZoo's AEC conventions: ``reset``, ``agents``,
  ``agent_selection``, ``agent_iter``, ``observe``, ``last``, ``step``, ``rewards``,
  ``terminations``, ``truncations``, ``infos``, spaces, ``render_mode``, ``state()``. An
  observation is the acting player's information set only (``OBS_LAYOUT``) with an
  ``action_mask`` over the fixed global action encoding (``NUM_ACTIONS``; ``move(a)`` says what
  action ``a`` is). ``clone()``, ``sample_world()`` and ``playout()`` are for search.
- ``VecEnv(n, learners=[0], opponents=["policy"] * 4, threads=2)``: n games stepped in one call
  into preallocated numpy arrays, dhm's players acting in C on the opponents' seats.
- ``Player("mc:sims=1000")``: dhm's built-in players acting in an ``Env``.
- ``evaluate(agent, opponents, games, seed)``: points per game with a standard error;
  ``tournament(pool, ...)``: dhm's tournaments from Python, Python agents included.
- ``Store(path)`` and ``rate(...)``: a tournament's results and dhm's rating methods.
- ``python3 -m dhm.uecda --agent module:Class -h HOST -p PORT -n NAME``: a Python agent as a
  UECda client, so it can join ``dhm serve``, tournaments, SPRTs and reports.

See docs/python.md in the dhm repository.
"""

import csv
import io
import os
import sys
import warnings
from collections import namedtuple


def _import_error(e):
    """The ImportError of a module built for another interpreter (or one without numpy): it
    names the interpreter the build was for and how to use or rebuild it."""
    try:
        from . import _build
        built, built_version = _build.PYTHON, _build.PYTHON_VERSION
    except ImportError:
        built, built_version = None, None
    import importlib.util

    here = "%s (Python %s)" % (sys.executable, sys.version.split()[0])
    lacks = "" if importlib.util.find_spec("numpy") else ", which has no numpy"
    if built and os.path.abspath(built) != os.path.abspath(sys.executable):  # a venv is another interpreter
        return ImportError(
            "dhm: this build of the package is for %s (Python %s); this is %s%s. Run it with %s, or build it "
            "for this interpreter: make python PYTHON=%s (which needs numpy and the Python headers). [%s]"
            % (built, built_version, here, lacks, built, sys.executable, e))
    return ImportError("dhm: the C module does not load in %s%s: %s (make python builds it; docs/python.md)"
                       % (here, lacks, e))


try:
    from . import _dhm
except ImportError as _e:
    raise _import_error(_e) from None

import numpy as np  # noqa: E402 (after the check above, which explains a missing numpy)

from ._dhm import NUM_ACTIONS, OBS_SIZE, LEGAL_MAX, player_seed, read_kifu  # noqa: E402,F401
from . import spaces  # noqa: E402
from .spaces import Discrete, Box, Dict  # noqa: E402,F401



def _pep440(describe):
    """0.1.0 with the build's git description as a PEP 440 local version (0.1.0+g93e5bdd.dirty):
    the same rule as python/setup.py's pep440, so pip's metadata and __version__ agree."""
    local = "".join(c if c.isalnum() else "." for c in describe).strip(".")
    return "0.1.0" + ("+g" + local if local and describe != "unknown" else "")


#: The version of the build, PEP 440 (0.1.0+gHASH[.dirty]); GIT_DESCRIBE is the raw git description.
__version__ = _pep440(_dhm.VERSION)
GIT_DESCRIBE = _dhm.VERSION

__all__ = [
    "Env", "VecEnv", "Player", "Store", "Move", "move", "action_of", "legal_moves", "describe",
    "rate", "read_kifu", "player_seed", "play", "evaluate", "tournament", "Evaluation",
    "NUM_ACTIONS", "OBS_SIZE", "OBS_LAYOUT", "AGENTS", "spaces", "__version__", "GIT_DESCRIBE",
]

AGENTS = ["player_%d" % p for p in range(5)]

#: The observation's fields: name -> slice of the int8 vector (docs/python.md has the meaning).
OBS_LAYOUT = {name: slice(off, off + size) for name, off, size in _dhm.OBS_FIELDS}

#: The ranges of the action encoding: kind -> range of action indices.
ACTION_RANGES = {
    "pass": range(_dhm.ACT_PASS, _dhm.ACT_SINGLE),
    "single": range(_dhm.ACT_SINGLE, _dhm.ACT_JOKER),
    "joker": range(_dhm.ACT_JOKER, _dhm.ACT_GROUP),
    "group": range(_dhm.ACT_GROUP, _dhm.ACT_SEQ),
    "sequence": range(_dhm.ACT_SEQ, _dhm.ACT_GIVE1),
    "give": range(_dhm.ACT_GIVE1, NUM_ACTIONS),
}

#: Card tokens in card index order (the order of every 53-entry card block).
CARDS = [s + r for r in "3456789tjqka2" for s in "cdhs"] + ["jo"]

_RANKS = " 3456789TJQKA2 "


class Move(namedtuple("Move", "action text kind cards size low high joker")):
    """What an action is: its index, kifu notation ('d-3', 'chs-3', 'h-678(7)', 'p', 'jk',
    'give c3 ha'), kind (pass, single, group, sequence, joker, give), the cards it takes from
    the hand, its size, its lowest and highest column (1 = 3 .. 13 = 2; 0 and 14 are the
    joker-only slots of a sequence; -1 for a pass, the lone joker and the exchange) and
    whether the joker is used."""

    __slots__ = ()

    def __str__(self):
        return self.text


_MOVES = {}


def move(a):
    """The Move of action index a (0 <= a < NUM_ACTIONS)."""
    m = _MOVES.get(a)
    if m is None:
        a = int(a)
        m = _MOVES[a] = Move(a, *_dhm.action_info(a))
    return m


def action_of(x):
    """The action index of a kifu move ('p', 'd-3', 'chs-3', 'h-678(7)', 'jk'), of an exchange
    ('give c3 ha'), or of the cards to give (a list of tokens or card indices)."""
    if isinstance(x, str):
        return _dhm.action_of_text(x)
    return _dhm.action_of_cards(x)


def legal_moves(observation):
    """The legal moves of an observation (its action_mask) as Move objects."""
    mask = observation["action_mask"] if isinstance(observation, dict) else observation
    return [move(int(a)) for a in mask.nonzero()[0]]


def _cards(block):
    return [CARDS[i] for i in block.nonzero()[0]]


def describe(observation):
    """An observation as a readable dict (seats relative to the observer: 0 = me, 1 = next)."""
    o = observation["observation"] if isinstance(observation, dict) else observation
    shape = getattr(o, "shape", None)
    if shape != (OBS_SIZE,):
        raise ValueError("describe: an observation is an int8 array of shape (%d,), not %s"
                         % (OBS_SIZE, "shape %s" % (shape,) if shape is not None else type(o).__name__))
    f = {k: o[s] for k, s in OBS_LAYOUT.items()}
    kinds = ["empty", "single", "group", "sequence", "joker"]
    cells = f["table_cells"].nonzero()[0]
    out = {
        "hand": _cards(f["hand"]),
        "played": [_cards(f["played"][53 * k:53 * (k + 1)]) for k in range(5)],
        "table": {
            "kind": kinds[int(f["table_kind"].argmax())],
            "size": int(f["table_size"][0]),
            "cells": [("jo" if c // 4 in (0, 14) else "cdhs"[c % 4] + "3456789tjqka2"[c // 4 - 1]) for c in cells],
            "joker": bool(f["table_joker"][0]),
            "owner": int(f["table_owner"].argmax()) if f["table_owner"].any() else None,
        },
        "ncards": f["ncards"].tolist(),
        "passed": f["passed"].tolist(),
        "finished": f["finished"].tolist(),
        "classes": f["classes"].tolist(),
        "revolution": bool(f["revolution"][0]),
        "lock": bool(f["lock"][0]),
        "npass": int(f["npass"][0]),
        "turn": int(f["turn"].argmax()),
        "exchange": int(f["exchange"][0]),
        "given": _cards(f["given"]),
        "received": _cards(f["received"]),
    }
    if isinstance(observation, dict) and "action_mask" in observation:
        out["legal"] = [m.text for m in legal_moves(observation)]
    return out


#: The bounds of each observation field (low, high): docs/python.md's table.
_OBS_BOUNDS = {"table_size": (0, 15), "ncards": (0, 11), "finished": (0, 5), "classes": (-1, 4), "npass": (0, 20),
               "exchange": (0, 2)}


def observation_space(mask_dtype="bool"):
    """The space of one observation: Dict(observation=Box(int8[OBS_SIZE]), action_mask=Box(0/1
    [NUM_ACTIONS])), each observation field bounded as docs/python.md says."""
    low = np.zeros(OBS_SIZE, np.int8)
    high = np.ones(OBS_SIZE, np.int8)
    for name, sl in OBS_LAYOUT.items():
        lo, hi = _OBS_BOUNDS.get(name, (0, 1))
        low[sl], high[sl] = lo, hi
    return spaces.Dict({"observation": spaces.Box(low, high, (OBS_SIZE,), np.int8),
                        "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.dtype(mask_dtype))})


class Env(_dhm.Env):
    """Daihinmin as an AEC environment (PettingZoo's conventions, without PettingZoo).

    Env(seed=0, *, mode="game", games=100, seat_change=3, class_reset=None, render_mode=None,
        mask_dtype="bool")

    mode="game": an episode is one game; games follow each other on the UECda schedule (seats
    changed every seat_change games; class_reset defaults to 1 here: no exchange). mode="match":
    an episode is a match of `games` games, classes carried (class_reset defaults to 100, the
    exchange is a step of the daifugo and of the fugo), seats changed every 3 games. The same
    seed always gives the same games; reset(seed) starts over from it.

    Rewards: at the end of every game each player gets its UECda points - 3 (daifugo +2 ..
    daihinmin -2). Agents are "player_0" .. "player_4" (dhm's player numbers). infos[agent]
    says whether a game ended since the agent last acted, and then its classes.
    render_mode: None (render() warns and returns None), "ansi" (render() returns the text), "human"
    (render() prints it). close() frees the game; every later use raises ValueError.
    mask_dtype="int8" gives action masks of int8 0/1 instead of bool.
    """

    metadata = {"name": "dhm_daihinmin_v0", "is_parallelizable": False, "render_modes": ["ansi", "human"]}

    def __init__(self, seed=0, *, render_mode=None, mask_dtype="bool", **kw):
        if render_mode not in (None, "ansi", "human"):
            raise ValueError("render_mode=%r: valid are None, 'ansi' and 'human'" % (render_mode,))
        if kw.get("class_reset", 0) is None:  # the mode's default
            del kw["class_reset"]
        super().__init__(seed, mask_dtype=mask_dtype, **kw)
        self.render_mode = render_mode
        self.mask_dtype = mask_dtype
        self._spaces = {}

    def agent_iter(self, max_iter=2 ** 63):
        """Yields agent_selection until every agent is done (as PettingZoo's agent_iter)."""
        i = 0
        while self.agents and i < max_iter:
            yield self.agent_selection
            i += 1

    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return 5

    @property
    def unwrapped(self):
        return self

    def _space(self, kind, agent):
        key = (kind, AGENTS[agent] if isinstance(agent, int) else agent)
        if key[1] not in AGENTS:
            raise ValueError("unknown agent %r (agents are player_0 .. player_4)" % (agent,))
        if key not in self._spaces:
            self._spaces[key] = spaces.Discrete(NUM_ACTIONS) if kind == "action" else observation_space(self.mask_dtype)
        return self._spaces[key]

    def action_space(self, agent):
        """Discrete(NUM_ACTIONS) (sample(mask=obs["action_mask"]) draws a legal action)."""
        return self._space("action", agent)

    def observation_space(self, agent):
        """Dict(observation=Box(int8[OBS_SIZE]), action_mask=Box(0/1[NUM_ACTIONS]))."""
        return self._space("observation", agent)

    @property
    def action_spaces(self):
        return {a: self.action_space(a) for a in AGENTS}

    @property
    def observation_spaces(self):
        return {a: self.observation_space(a) for a in AGENTS}

    @property
    def state_space(self):
        """The space of state(): every player's observation, player_0's first."""
        obs = observation_space()["observation"]
        return spaces.Box(np.tile(obs.low, 5), np.tile(obs.high, 5), (5 * OBS_SIZE,), np.int8)

    def legal_moves(self):
        """The selected agent's legal moves as Move objects."""
        return [move(a) for a in self.legal_actions()]

    def render(self):
        """The selected agent's view as text: returned (render_mode "ansi") or printed ("human").
        With render_mode None (the default) there is nothing to render: a warning, and None (as
        PettingZoo's and gymnasium's environments do)."""
        if self.render_mode is None:
            warnings.warn("render() with render_mode=None renders nothing: make the Env with render_mode='ansi' "
                          "(render() returns the text) or 'human' (it prints it)", stacklevel=2)
            return None
        if self.agent_selection is None:
            text = "episode over"
        else:
            d = describe(self.observe(self.agent_selection))
            lines = ["%s to act (%s)" % (self.agent_selection, self.phase)]
            for k in ("hand", "table", "ncards", "passed", "classes", "revolution", "lock", "legal"):
                lines.append("  %-10s %s" % (k, d[k]))
            text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _copy_attrs(self, other):
        other.__dict__.update(self.__dict__)
        other._spaces = {}
        return other

    def clone(self):
        """A full copy of the environment (the hidden cards included), which then plays on by
        itself: for perfect-information search, or to try an action and look."""
        return self._copy_attrs(super().clone())

    def __copy__(self):
        """copy.copy(env) is env.clone(): the game lives in C, so every copy is a full one."""
        return self.clone()

    def __deepcopy__(self, memo):
        """copy.deepcopy(env) is env.clone()."""
        return self.clone()

    def __reduce_ex__(self, protocol):
        raise TypeError("cannot pickle 'Env' object: its game lives in C; env.clone() copies it "
                        "(copy.copy and copy.deepcopy do), and Env(seed) with the same actions replays it")

    def sample_world(self, seed=None, est="uniform"):
        """A copy in which every card the selected agent cannot see is dealt anew by dhm's
        world sampler, consistently with that agent's information set: est="uniform" (every
        consistent world equally likely), "weights" (the learned weight table), "policy" (worlds
        weighted by how likely the learned policy makes the opponents' plays; "policy:k=64:beta=0.5").
        Nothing of the true hidden cards is left in the copy. Only while a game is in play."""
        return self._copy_attrs(super().sample_world(seed=seed, est=est))


class VecEnv(_dhm.VecEnv):
    """n games stepped in one call, into preallocated numpy arrays.

    VecEnv(n, seed=0, *, mode="game", games=100, seat_change=3, class_reset=None,
           observations=True, masks=True, learners=None, opponents=None, threads=0,
           mask_dtype="bool")

    learners: the player numbers whose decisions the arrays hold (default: all five, or [0]
    when opponents are given); opponents: dhm's players on the other seats, acting in C inside
    step(): a spec for all of them ("policy"), one per seat in player order (["simple",
    "policy", "mc:sims=100", "random"]) or {player: spec}. reward[i, j] is learner j's reward.
    threads: games are shared out over this many threads (0, the default: one per CPU this
    process may use, at most one per 8 games); the results do not depend on it.
    seed: an int (game i's seed derived from it) or n ints (game i's first episode is
    Env(seed[i]) / dhm play --seed seed[i], opponents seeded as dhm play seeds its players).
    """

    # reset and step return gymnasium's vector tuples; the episode that ends in a step is followed by
    # the next one within that step (gymnasium's same-step autoreset, without a final observation:
    # the learner has no decision at an episode's end; `result` gives the classes)
    metadata = {"autoreset_mode": "SameStep"}

    def __init__(self, n, seed=0, **kw):
        if kw.get("class_reset", 0) is None:  # the mode's default
            del kw["class_reset"]
        super().__init__(n, seed, **kw)
        # built once: the in-place arrays themselves (read-only; each step rewrites them)
        self._obs = {"observation": self.observation, "action_mask": self.action_mask}
        self._rewards = self.reward[:, 0] if len(self.learners) == 1 else self.reward
        self._truncations = np.zeros(n, bool)
        self._truncations.flags.writeable = False
        self._infos = {"actor": self.actor, "actor_index": self.actor_index, "game_over": self.game_over,
                       "result": self.result, "legal": self.legal, "num_legal": self.num_legal}

    def reset(self, seed=None):
        """Starts every game (game i's seed derived from seed and i, or seed[i] for a list; a new
        seed makes the opponents anew too). Returns (observations, infos) as gymnasium's vector
        environments do: {"observation", "action_mask"} and the infos below, the in-place arrays."""
        super().reset(seed=seed)
        return self._obs, self._infos

    def step(self, actions):
        """One action per game for its acting learner (ints, length n); the opponents then act in C
        until a learner must decide. Returns (observations, rewards, terminations, truncations,
        infos) as gymnasium's vector environments do, all of them the in-place arrays (read-only,
        rewritten by the next step: copy what you keep): observations {"observation",
        "action_mask"}; rewards reward[:, 0] with one learner, else reward (n, len(learners));
        terminations done; truncations always False; infos {"actor", "actor_index", "game_over",
        "result", "legal", "num_legal"}."""
        super().step(actions)
        return self._obs, self._rewards, self.done, self._truncations, self._infos

    def close(self):
        """Joins the threads and frees the games, the players and the arrays (those the caller
        still holds stay valid); every later use but close() raises ValueError."""
        self.__dict__.clear()  # the returned dicts hold the arrays too
        super().close()

    @property
    def num_envs(self):
        return self.n

    @property
    def single_action_space(self):
        return spaces.Discrete(NUM_ACTIONS)

    @property
    def single_observation_space(self):
        mask = self.action_mask
        return observation_space("bool" if mask is None else mask.dtype.name)


def play(env, act, reset=True):
    """Plays one episode of env: act(env, agent, observation) -> action at every decision
    (terminated agents are stepped with None, as PettingZoo asks). Returns each agent's summed
    reward (UECda points - 3 a game)."""
    if reset:
        env.reset()
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        env.step(None if term or trunc else act(env, agent, obs))
    return total


class Player(_dhm.Player):
    """A built-in dhm player: Player("simple"), Player("mc:sims=1000", seed=7), ...

    act(env) returns its action for env's selected agent, decided from that agent's
    information set exactly as in `dhm play` (one Player per seat: it follows the games it
    plays in, as the match engine would tell it). Specs: see `dhm play --help`.
    """

    def __repr__(self):
        return "Player(%r)" % self.spec


from .arena import Evaluation, Progress, evaluate, tournament  # noqa: E402

# ---------------------------------------------------------------- results and ratings

def _frame(rows, as_frame):
    if not as_frame:
        return rows
    try:
        import pandas
    except ImportError:
        raise ImportError("as_frame=True needs pandas (Debian: apt-get install python3-pandas)") from None
    return pandas.DataFrame(rows)


class Store(_dhm.Store):
    """A dhm tournament's results store (SQLite), read-only, every row checked.

    Store(path).sets() / .games() / .players() / .run() / .error_rates() / .ratings(...);
    as_frame=True gives pandas DataFrames when pandas is installed.
    """

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def sets(self, include_broken=False, as_frame=False):
        """One row per player per set: set, order, player, player_number, status, points,
        games, mean, forfeit, timeouts, started. Unclean sets only with include_broken."""
        return _frame(super().sets(include_broken=include_broken), as_frame)

    def games(self, include_broken=False, as_frame=False):
        """One row per player per game: set, game, player, player_number, rank (0 = daifugo),
        points, status."""
        return _frame(super().games(include_broken=include_broken), as_frame)

    def players(self, as_frame=False):
        return _frame(super().players(), as_frame)

    def error_rates(self, as_frame=False):
        return _frame(super().error_rates(), as_frame)

    def ratings(self, methods="sts", include_broken=False, as_frame=False, **params):
        """rate(self, ...): the ratings `dhm rate --db` gives."""
        return rate(self, methods=methods, include_broken=include_broken, as_frame=as_frame, **params)


_GAME_METHODS = ("elo-game", "morita")
_INT_COLS = {"rank", "sets", "games"}
_STR_COLS = {"method", "player", "uncertainty_kind", "ci_kind", "bound"}


def _typed(row):
    out = {}
    for k, v in row.items():
        if k in _STR_COLS:
            out[k] = v
        elif v == "":
            out[k] = None
        elif k in _INT_COLS:
            out[k] = int(v)
        else:
            out[k] = float(v)
    return out


def _records(data):
    if hasattr(data, "to_dict"):  # a pandas DataFrame
        return data.to_dict("records")
    return list(data)


def _rows_to_results(rows):
    """Set results and game results from rows: set rows (set, player, points[, order]) as
    `dhm rate` reads them and as Store.sets() gives them; game rows (game, player, rank[, p])
    and Store.games()' rows (set, game, player, rank, points), whose games are keyed by (set,
    game) and whose points also give each set's totals."""
    sb, gb, totals = {}, {}, {}
    for i, r in enumerate(rows):
        if "game" in r and "rank" in r:
            key = (r.get("set"), r["game"])
            g = gb.setdefault(key, ([], [], []))
            g[0].append(str(r["player"]))
            g[1].append(float(r["rank"]))
            g[2].append(r.get("p"))
            if r.get("set") is not None and r.get("points") is not None:
                t = totals.setdefault(r["set"], {})
                t[str(r["player"])] = t.get(str(r["player"]), 0.0) + float(r["points"])
        elif "set" in r and "points" in r:
            s = sb.setdefault(r["set"], [float(r.get("order", i)), [], []])
            s[1].append(str(r["player"]))
            s[2].append(float(r["points"]))
        else:
            raise ValueError("row %d: expected set,player,points[,order] or game,player,rank[,p]: %r" % (i, r))
    if not sb and totals:  # a store's game rows: their sets' totals, in the order the store gave them
        sb = {k: [float(n), list(t), list(t.values())] for n, (k, t) in enumerate(totals.items())}
    sets = [tuple(v) for v in sb.values()] or None
    games = [(n, rk, None if any(x is None or x == "" for x in p) else [float(x) for x in p])
             for n, rk, p in gb.values()] or None
    return sets, games


def rate(data, methods="sts", include_broken=False, as_frame=False, **params):
    """dhm's rating methods from Python: the rows `dhm rate --csv` prints.

    data: a store (a path or a Store: its clean sets, and its games for elo-game/morita), or
    rows as dicts (or a DataFrame) in `dhm rate`'s CSV shapes: set rows with set, player,
    points (and order) or game rows with game, player, rank (and p); Store.sets() and
    Store.games() (lists or DataFrames) are taken as they are.
    methods: "sts", "bt,pl", "all", ... (dhm rate --help lists them).
    params: the options of dhm rate with underscores: init, k, f, rd, c, sigma, tau, ts_sigma,
    beta, ts_tau, draw_prob, game_k, natural_log, prior, bootstrap, confidence, seed,
    sequential (order=seq), melo_k, melo_lr_r, melo_lr_c, melo_epochs, anchor=(name, rating).
    Returns one dict per method and player: method, rank, player, rating, uncertainty,
    uncertainty_kind, ci_low, ci_high, ci_kind, bound, sets (or games), h2h_win_pct. ci_low and
    ci_high are None for a method that gives no interval (the set-wise and game-wise methods give
    an uncertainty, named by uncertainty_kind; bt and pl give bootstrap intervals).
    """
    if isinstance(methods, (list, tuple)):
        methods = ",".join(methods)
    sets = games = None
    if isinstance(data, (str, bytes, os.PathLike)) or isinstance(data, _dhm.Store):
        st = Store(data) if not isinstance(data, _dhm.Store) else data
        try:
            srows = _dhm.Store.sets(st, include_broken=include_broken)
            by = {}
            for r in srows:
                by.setdefault(r["set"], (r["order"], [], []))
                by[r["set"]][1].append(r["player"])
                by[r["set"]][2].append(r["points"])
            sets = [by[k] for k in sorted(by)]
            if any(m in methods.split(",") for m in _GAME_METHODS):
                grows = _dhm.Store.games(st, include_broken=include_broken)
                gb = {}
                for r in grows:
                    g = gb.setdefault((r["set"], r["game"]), ([], [], None))
                    g[0].append(r["player"])
                    g[1].append(r["rank"])
                games = [gb[k] for k in sorted(gb)]
        finally:
            if st is not data:
                st.close()
    else:
        sets, games = _rows_to_results(_records(data))
    if "anchor" in params and isinstance(params["anchor"], str):
        name, _, value = params["anchor"].partition("=")
        params["anchor"] = (name, float(value))
    text = _dhm.rate(sets, games, methods, params)
    rows = [_typed(r) for r in csv.DictReader(io.StringIO(text))]
    return _frame(rows, as_frame)
