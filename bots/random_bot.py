"""The uniform random bot."""
from __future__ import annotations

import random


class RandomBot:
    """Picks uniformly among the legal moves, from its own seeded generator
    (never the game's, so a bot cannot learn hidden information from it)."""

    def __init__(self, seed: int | str = 0):
        self.random = random.Random(seed)

    def pick(self, seat) -> int:
        return self.random.randrange(seat.count)
