"""A seeded generator whose whole state is one integer, kept inside the game state.

Python's `random` would do, but its state is 625 words and its algorithms may
change between versions; replays must reproduce across machines, so chance uses
SplitMix64, which is fully specified by a few lines of integer arithmetic.
"""
from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    return (seed * GOLDEN + 0x632BE59BD9B4E019) & MASK


def next_u64(state: int) -> tuple[int, int]:
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n), without modulo bias."""
    if n <= 0:
        raise ValueError("below() needs n > 0")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, value = next_u64(state)
        if value < limit:
            return state, value % n


def shuffled(state: int, items: tuple) -> tuple[int, tuple]:
    """Fisher-Yates with `below(state, i + 1)` for i from the end; next_u64 and below are
    written out in the loop (a shuffle of a deck is a hot path of setup and playouts).
    A long deck draws all its numbers at once (`_draws`): the same numbers."""
    if len(items) >= _MANY:
        js = _draws(state, len(items) - 1)
        if js is not None:
            state, js = js
            out = list(items)
            for i, j in zip(range(len(out) - 1, 0, -1), js):
                out[i], out[j] = out[j], out[i]
            return state, tuple(out)
    out = list(items)
    two64 = 1 << 64
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = two64 - two64 % n
        while True:
            state = (state + GOLDEN) & MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        out[i], out[j] = out[j], out[i]
    return state, tuple(out)


# SplitMix64's k-th number depends only on `state + k * GOLDEN`, so the numbers of a
# shuffle can be worked out together with numpy's wrapping uint64 arithmetic: from about
# two dozen items on, that is faster than the loop (a deck of 70: 20 µs against 47).
_MANY = 24
_tables: dict = {}
_np = None


def _draws(state: int, m: int):
    """(the state after m draws, the swap index of each draw) for a shuffle of m + 1
    items, or None when a draw would be rejected for bias (then the loop, which redraws,
    gives the answer)."""
    global _np
    if _np is None:
        import numpy
        _np = numpy
    np = _np
    table = _tables.get(m)
    if table is None:
        steps = np.array([(k * GOLDEN) & MASK for k in range(1, m + 1)], dtype=np.uint64)
        sizes = np.arange(m + 1, 1, -1, dtype=np.uint64)  # n = i + 1 for i from the end
        # `below` rejects a number at or above 2**64 - 2**64 % n: above this bound
        bounds = np.array([MASK if (1 << 64) % n == 0 else (1 << 64) - (1 << 64) % n - 1 for n in range(m + 1, 1, -1)],
                          dtype=np.uint64)
        table = _tables[m] = (steps, sizes, bounds)
    steps, sizes, bounds = table
    u = np.uint64
    with np.errstate(over="ignore"):
        s = steps + u(state)
        z = (s ^ (s >> u(30))) * u(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> u(27))) * u(0x94D049BB133111EB)
        z ^= z >> u(31)
        if (z > bounds).any():
            return None
        return int(s[-1]), (z % sizes).tolist()
