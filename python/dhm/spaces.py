"""Spaces in the shape of gymnasium's (gymnasium.spaces), without depending on gymnasium:
``Discrete``, ``Box`` and ``Dict`` with ``shape``, ``dtype``, ``n`` or bounds, ``sample()``,
``seed()`` and ``contains()`` (also ``x in space``). Code written for gymnasium or PettingZoo
spaces reads them as it reads theirs."""

import numpy as np


class Space:
    """What every space has: shape, dtype, a seeded random generator (np_random)."""

    def __init__(self, shape, dtype, seed=None):
        self.shape = tuple(shape) if shape is not None else None
        self.dtype = np.dtype(dtype) if dtype is not None else None
        self._np_random = None
        if seed is not None:
            self.seed(seed)

    @property
    def np_random(self):
        if self._np_random is None:
            self.seed()
        return self._np_random

    def seed(self, seed=None):
        """Seeds sample() (None: from the operating system). Returns [seed]."""
        self._np_random = np.random.default_rng(seed)
        return [seed]

    def __contains__(self, x):
        return self.contains(x)


class Discrete(Space):
    """The integers start .. start + n - 1 (dhm's actions: Discrete(NUM_ACTIONS))."""

    def __init__(self, n, seed=None, start=0):
        super().__init__((), np.int64, seed)
        self.n = int(n)
        self.start = int(start)

    def sample(self, mask=None):
        """A uniform draw; with mask (an array of n 0/1 or bools, as an action_mask), a uniform
        draw among the entries set."""
        if mask is not None:
            legal = np.flatnonzero(np.asarray(mask))
            if len(legal) != 0 and np.asarray(mask).shape == (self.n,):
                return int(self.start + legal[self.np_random.integers(len(legal))])
            raise ValueError("Discrete.sample: mask must have shape (%d,) with an entry set" % self.n)
        return int(self.start + self.np_random.integers(self.n))

    def contains(self, x):
        try:
            v = int(x)
        except (TypeError, ValueError):
            return False
        return v == x and self.start <= v < self.start + self.n

    def __repr__(self):
        return "Discrete(%d)" % self.n if self.start == 0 else "Discrete(%d, start=%d)" % (self.n, self.start)

    def __eq__(self, other):
        return isinstance(other, Discrete) and (self.n, self.start) == (other.n, other.start)

    __hash__ = None


class Box(Space):
    """Arrays of a fixed shape and dtype with elementwise bounds low <= x <= high."""

    def __init__(self, low, high, shape=None, dtype=np.float32, seed=None):
        dtype = np.dtype(dtype)
        if shape is None:
            shape = np.broadcast(np.asarray(low), np.asarray(high)).shape
        super().__init__(shape, dtype, seed)
        self.low = np.broadcast_to(np.asarray(low, dtype=dtype), self.shape).copy()
        self.high = np.broadcast_to(np.asarray(high, dtype=dtype), self.shape).copy()

    def sample(self, mask=None):
        """A uniform draw within the bounds (integers: each value equally likely)."""
        if mask is not None:
            raise ValueError("Box.sample takes no mask")
        if self.dtype == np.bool_:
            return self.np_random.integers(0, 2, size=self.shape).astype(np.bool_)
        if np.issubdtype(self.dtype, np.integer):
            return self.np_random.integers(self.low.astype(np.int64), self.high.astype(np.int64) + 1,
                                           size=self.shape).astype(self.dtype)
        return self.np_random.uniform(self.low, self.high, size=self.shape).astype(self.dtype)

    def contains(self, x):
        x = np.asarray(x)
        if x.shape != self.shape or not np.can_cast(x.dtype, self.dtype, casting="same_kind"):
            return False
        return bool(np.all(x >= self.low) and np.all(x <= self.high))

    def __repr__(self):
        lo, hi = self.low.min(), self.high.max()
        return "Box(%s, %s, %s, %s)" % (lo, hi, self.shape, self.dtype)

    def __eq__(self, other):
        return (isinstance(other, Box) and self.shape == other.shape and self.dtype == other.dtype
                and np.array_equal(self.low, other.low) and np.array_equal(self.high, other.high))

    __hash__ = None


class Dict(Space):
    """A dict of named spaces (dhm's observation: {"observation": Box, "action_mask": Box})."""

    def __init__(self, spaces, seed=None):
        super().__init__(None, None)
        self.spaces = dict(spaces)
        if seed is not None:
            self.seed(seed)

    def seed(self, seed=None):
        """Seeds every part (part k from seed + k when seed is an int)."""
        super().seed(seed)
        for k, s in enumerate(self.spaces.values()):
            s.seed(None if seed is None else int(seed) + k)
        return [seed]

    def sample(self, mask=None):
        return {k: s.sample() for k, s in self.spaces.items()}

    def contains(self, x):
        return (isinstance(x, dict) and set(x) == set(self.spaces)
                and all(s.contains(x[k]) for k, s in self.spaces.items()))

    def __getitem__(self, key):
        return self.spaces[key]

    def keys(self):
        return self.spaces.keys()

    def items(self):
        return self.spaces.items()

    def __iter__(self):
        return iter(self.spaces)

    def __len__(self):
        return len(self.spaces)

    def __repr__(self):
        return "Dict(%s)" % ", ".join("%r: %r" % kv for kv in self.spaces.items())

    def __eq__(self, other):
        return isinstance(other, Dict) and self.spaces == other.spaces

    __hash__ = None
