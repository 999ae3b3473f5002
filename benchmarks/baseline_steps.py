"""What the step-by-step classes of the two-player baselines share.  They exist only so
`tests/test_baselines.py` can follow a baseline next to the interpreter; the timed
playouts do not use them."""
from __future__ import annotations


class TwoPlayerSteps:
    """Players 0 and 1 take turns, 0 first; at most one winner, who scores 1."""

    def __init__(self):
        self.player = 0
        self.winner = None
        self.over = False
        self.end_reason = None

    def to_move(self) -> tuple:
        return () if self.over else (self.player,)

    def scores(self) -> tuple:
        return tuple(1 if p == self.winner else 0 for p in range(2))

    def winners(self) -> tuple:
        return () if self.winner is None else (self.winner,)


def kept_positions(game, snapshot, rnd) -> list:
    """Play `game` (a step class) with uniformly random moves from `rnd`, keeping
    `snapshot(game)` (plain tuples) of every position."""
    kept = [snapshot(game)]
    while not game.over:
        game.play(rnd.randrange(len(game.legal())))
        kept.append(snapshot(game))
    return kept
