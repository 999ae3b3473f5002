"""Timing a runner: random playouts for a number of seconds, and `Game.playout` as a
runner.  Used by the bench table and by the hand-written baselines' own comparisons,
which the table in turn imports, so it lives apart from both."""
from __future__ import annotations

import random
import time


def _measure(fn, seconds: float) -> tuple[int, int, float]:
    """Run fn(rnd) -> moves repeatedly for about `seconds` (at least once); returns
    (playouts, moves, elapsed).  The policy's generator is seeded the same for every
    runner."""
    rnd = random.Random(12345)
    playouts = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        moves += fn(rnd)
        playouts += 1
        if time.perf_counter() >= deadline:
            break
    return playouts, moves, time.perf_counter() - start


def engine_playout(game):
    """One random game from a fresh state by `Game.playout`; returns its moves."""
    def play(rnd: random.Random) -> int:
        return game.playout(game.new_state(rnd.randrange(1 << 30)), rng=rnd).move_count
    return play
