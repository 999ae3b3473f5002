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
    written out in the loop (a shuffle of a deck is a hot path of setup and playouts)."""
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
