"""Nim written by hand: the baseline for the `nim` ruleset.

Normal play: a move takes one or more objects from a single heap, and whoever takes
the last object wins.  The heaps are a list of ints; a move is (heap, count), listed
heap by heap and count by count as the ruleset lists them.
"""
from __future__ import annotations

import random

from .baseline_steps import TwoPlayerSteps, kept_positions

HEAPS = (3, 4, 5)


def playout(rnd: random.Random, heaps=HEAPS) -> int:
    """One uniformly random game; returns the number of moves played."""
    heaps = list(heaps)
    moves = 0
    while True:
        options = [(h, count) for h in range(len(heaps)) for count in range(1, heaps[h] + 1)]
        if not options:
            return moves
        heap, count = options[rnd.randrange(len(options))]
        heaps[heap] -= count
        moves += 1



class Nim(TwoPlayerSteps):
    """The same game one move at a time, with moves named as the ruleset names them,
    so a test can follow it step by step next to the interpreter.  The winner is the
    last mover."""

    def __init__(self, heaps=HEAPS):
        super().__init__()
        self.heaps = list(heaps)
        if sum(self.heaps) == 0:
            self.over, self.end_reason = True, "the last object was taken"

    def _moves(self) -> list:
        return [(h, count) for h in range(len(self.heaps)) for count in range(1, self.heaps[h] + 1)]

    def legal(self) -> list:
        return [] if self.over else [f"take(heap={h},count={count})" for h, count in self._moves()]

    def play(self, index: int) -> None:
        heap, count = self._moves()[index]
        self.heaps[heap] -= count
        self.winner = self.player
        if sum(self.heaps) == 0:
            self.over, self.end_reason = True, "the last object was taken"
        self.player = 1 - self.player

    def winners(self) -> tuple:
        """The last mover; a game over before any move (all heaps empty) is a tie of both."""
        return (self.winner,) if self.winner is not None else (0, 1)


def kept_states(rnd: random.Random) -> list:
    """Every position of the game `playout` plays with the same generator, kept as a
    search would keep it: what `meeple bench` weighs per kept state."""
    return kept_positions(Nim(), lambda g: (tuple(g.heaps), g.player), rnd)
