"""A pure-Python Daihinmin engine (UECda rules, single games): the baseline that
bench/bench_python.py compares dhm's Python environment with (RLCard cannot be installed
here: it is not a Debian package, and nothing but Debian's registry is reachable).

It plays the same rules as dhm's core/state.c and generates the same legal moves as
core/movegen.c (python/tests/test_baseline.py checks the move sets on thousands of positions of
real games): singles, the lone joker, groups of 2-4 with the joker standing in for a suit not
held, the five-card group, sequences of >= 3 of one suit with the joker filling one cell
(also below the 3 and above the 2), 8-cut, revolution, suit lock, the spade 3 over a lone
joker, passing until the table clears, finishing order and the 20-pass stalemate. Moves are
kifu strings ('p', 'jk', 'd-3', 'chs-3', 'ch-a(c)', 'h-678(7)', 'cdhsx-5(x)'); a hand is a
set of (column, suit) with columns 1 = 3 .. 13 = 2 and the joker as JOKER. Written plainly,
as a pure-Python environment would be: no tables precomputed, no bit tricks.
"""

import random

JOKER = (99, 99)
SUITS = "cdhs"
RANKS = "u3456789tjqka2o"  # column 0 .. 14
NPLAYERS = 5


class Meld:
    __slots__ = ("kind", "n", "low", "high", "suits", "jk", "cards")

    def __init__(self, kind, n=0, low=0, high=0, suits=(), jk=None, cards=()):
        self.kind, self.n, self.low, self.high, self.suits, self.jk, self.cards = kind, n, low, high, suits, jk, cards

    def text(self):
        if self.kind == "pass":
            return "p"
        if self.kind == "joker":
            return "jk"
        if self.kind == "seq":
            s = SUITS[self.suits[0]] + "-" + "".join(RANKS[c] for c in range(self.low, self.high + 1))
            return s + ("(%s)" % RANKS[self.jk] if self.jk is not None else "")
        if self.n == 5:
            return "cdhsx-%s(x)" % RANKS[self.low]
        s = "".join(SUITS[x] for x in self.suits) + "-" + RANKS[self.low]
        return s + ("(%s)" % SUITS[self.jk] if self.jk is not None else "")


PASS = Meld("pass")


def stronger(a, b, rev):
    return a < b if rev else a > b


def leads(hand):
    """Every meld of a hand on an empty table."""
    out = []
    has_joker = JOKER in hand
    cols = {}
    for c in hand:
        if c != JOKER:
            cols.setdefault(c[0], []).append(c[1])
    for col in sorted(cols):
        for s in sorted(cols[col]):
            out.append(Meld("single", 1, col, col, (s,), None, ((col, s),)))
    if has_joker:
        out.append(Meld("joker", 1, cards=(JOKER,)))
    for col in sorted(cols):
        out.extend(groups_of(col, sorted(cols[col]), has_joker, None, None))
    out.extend(sequences(hand, has_joker, None, None, None))
    return out


def subsets(items):
    res = [[]]
    for x in items:
        res += [r + [x] for r in res]
    return res


def groups_of(col, held, has_joker, size, suits_needed):
    """The groups of one column: naturals, the joker for a suit not held, the five-card group."""
    out = []
    for sub in subsets(held):
        if len(sub) >= 2 and (size is None or len(sub) == size):
            if suits_needed is None or tuple(sub) == suits_needed:
                out.append(Meld("group", len(sub), col, col, tuple(sub), None, tuple((col, s) for s in sub)))
    if has_joker:
        for sub in subsets(held):
            for j in range(4):
                if j in held:  # the joker stands in for a suit not held only
                    continue
                suits = tuple(sorted(sub + [j]))
                if len(suits) < 2 or (size is not None and len(suits) != size):
                    continue
                if suits_needed is not None and suits != suits_needed:
                    continue
                out.append(Meld("group", len(suits), col, col, suits, j, tuple((col, s) for s in sub) + (JOKER,)))
        if len(held) == 4 and (size is None or size == 5):
            out.append(Meld("group", 5, col, col, (0, 1, 2, 3), None, tuple((col, s) for s in held) + (JOKER,)))
    return out


def sequences(hand, has_joker, length, beats, suit_needed):
    """Sequences of one suit, >= 3 long (of the given length), with at most the joker filling
    one missing cell; beats(low, high) says whether one is strong enough."""
    out = []
    for s in range(4):
        if suit_needed is not None and s != suit_needed:
            continue
        for low in range(0, 15):
            for n in range(3, 16):
                high = low + n - 1
                if high > 14:
                    break
                if length is not None and n != length:
                    continue
                missing = [c for c in range(low, high + 1) if (c, s) not in hand]
                if len(missing) > 1 or (missing and not has_joker):
                    continue
                if beats is not None and not beats(low, high):
                    continue
                jk = missing[0] if missing else None
                cards = tuple((c, s) for c in range(low, high + 1) if c != jk) + ((JOKER,) if jk is not None else ())
                out.append(Meld("seq", n, low, high, (s,), jk, cards))
    return out


def follows(hand, t, rev, lock):
    """The pass, then every meld that beats the table t."""
    out = [PASS]
    has_joker = JOKER in hand
    if t.kind == "joker":
        if (1, 3) in hand:
            out.append(Meld("single", 1, 1, 1, (3,), None, ((1, 3),)))
        return out
    if t.kind == "single":
        for c in sorted(x for x in hand if x != JOKER):
            if stronger(c[0], t.low, rev) and (not lock or (c[1],) == t.suits):
                out.append(Meld("single", 1, c[0], c[0], (c[1],), None, (c,)))
        if has_joker:
            out.append(Meld("joker", 1, cards=(JOKER,)))
        return out
    if t.kind == "group":
        cols = {}
        for c in hand:
            if c != JOKER:
                cols.setdefault(c[0], []).append(c[1])
        for col in sorted(cols):
            if stronger(col, t.low, rev):
                out.extend(groups_of(col, sorted(cols[col]), has_joker, t.n, t.suits if lock else None))
        return out
    beats = (lambda lo, hi: hi < t.low) if rev else (lambda lo, hi: lo > t.high)
    out.extend(sequences(hand, has_joker, t.n, beats, t.suits[0] if lock else None))
    return out


class Game:
    """One game: deal, the diamond-3 holder leads, play until four players are out."""

    def __init__(self, rng, hands=None):
        deck = [(c, s) for c in range(1, 14) for s in range(4)] + [JOKER]
        rng.shuffle(deck)
        self.rng = rng
        self.hands = [set(h) for h in hands] if hands else [set(deck[k::NPLAYERS]) for k in range(NPLAYERS)]
        self.turn = next(p for p in range(NPLAYERS) if (1, 1) in self.hands[p])
        self.owner = self.turn
        self.table = PASS
        self.passed = set()
        self.out = []
        self.rev = self.lock = False
        self.npass = 0
        self.over = False

    def legal(self):
        h = self.hands[self.turn]
        return leads(h) if self.table.kind == "pass" else follows(h, self.table, self.rev, self.lock)

    def next_player(self, p, skip):
        for i in range(1, NPLAYERS + 1):
            q = (p + i) % NPLAYERS
            if q not in skip:
                return q
        return None

    def clear(self):
        self.table = PASS
        self.passed = set()
        self.lock = False
        lead = self.owner
        if lead in self.out:
            lead = self.next_player(lead, set(self.out))
        self.turn = lead

    def step(self, m):
        p = self.turn
        if m.kind == "pass":
            self.passed.add(p)
            self.npass += 1
            if self.npass >= 20:  # stalemate: the rest in random order
                rest = [q for q in range(NPLAYERS) if q not in self.out]
                self.rng.shuffle(rest)
                self.out += rest
                self.over = True
            elif len(self.passed) >= NPLAYERS - len(self.out):
                self.clear()
            else:
                self.turn = self.next_player(p, set(self.out) | self.passed)
            return
        self.hands[p] -= set(m.cards)
        self.npass = 0
        if (m.kind == "group" and m.n >= 4) or (m.kind == "seq" and m.n >= 5):
            self.rev = not self.rev
        cut = (m.kind in ("single", "group", "seq") and m.low <= 6 <= m.high) or self.table.kind == "joker"
        if m.kind == "joker":
            self.lock = False
        elif not self.lock and self.table.kind != "pass" and m.suits == self.table.suits:
            self.lock = True
        self.table = m
        self.owner = p
        if not self.hands[p]:
            self.out.append(p)
            if len(self.out) == NPLAYERS - 1:
                self.out += [q for q in range(NPLAYERS) if q not in self.out]
                self.over = True
                return
        if cut:
            self.clear()
            return
        q = self.next_player(p, set(self.out) | self.passed)
        if q is None:
            self.clear()
        else:
            self.turn = q


def play_random_games(games, seed=1):
    """Plays games with uniformly random legal moves; returns the number of steps."""
    rng = random.Random(seed)
    steps = 0
    for _ in range(games):
        g = Game(rng)
        while not g.over:
            moves = g.legal()
            g.step(moves[rng.randrange(len(moves))])
            steps += 1
    return steps
