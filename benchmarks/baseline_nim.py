"""Nim written by hand: the baseline for the `nim` ruleset.

Normal play: a move takes one or more objects from a single heap, and whoever takes
the last object wins.  The heaps are a list of ints; a move is (heap, count), listed
heap by heap and count by count as the ruleset lists them.
"""
from __future__ import annotations

import random

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


class Nim:
    """The same game one move at a time, with moves named as the ruleset names them,
    so a test can follow it step by step next to the interpreter."""

    def __init__(self, heaps=HEAPS):
        self.heaps = list(heaps)
        self.player = 0
        self.last_mover = None
        self.over = sum(self.heaps) == 0
        self.end_reason = "the last object was taken" if self.over else None

    def to_move(self) -> tuple:
        return () if self.over else (self.player,)

    def _moves(self) -> list:
        return [(h, count) for h in range(len(self.heaps)) for count in range(1, self.heaps[h] + 1)]

    def legal(self) -> list:
        return [] if self.over else [f"take(heap={h},count={count})" for h, count in self._moves()]

    def play(self, index: int) -> None:
        heap, count = self._moves()[index]
        self.heaps[heap] -= count
        self.last_mover = self.player
        if sum(self.heaps) == 0:
            self.over, self.end_reason = True, "the last object was taken"
        self.player = 1 - self.player

    def scores(self) -> tuple:
        return tuple(1 if p == self.last_mover else 0 for p in range(2))

    def winners(self) -> tuple:
        """The last mover; a game over before any move (all heaps empty) is a tie of both."""
        return (self.last_mover,) if self.last_mover is not None else (0, 1)
