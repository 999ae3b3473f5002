"""Tic-tac-toe written by hand: the baseline for the `tic-tac-toe` ruleset.

A 3x3 board as a list of nine ints (0 empty, 1 X, 2 O), cell = row * 3 + col with
row 0 the first rank (a1 b1 c1).  After a mark only the lines through that cell can
have become complete, so only they are checked.
"""
from __future__ import annotations

import random

from .baseline_steps import TwoPlayerSteps, kept_positions

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
LINES_THROUGH = [[line for line in LINES if cell in line] for cell in range(9)]


def completes_line(board: list, cell: int) -> bool:
    """Whether the mark just placed on `cell` finished a line of three."""
    mark = board[cell]
    return any(board[a] == mark and board[b] == mark and board[c] == mark for a, b, c in LINES_THROUGH[cell])


def playout(rnd: random.Random) -> int:
    """One uniformly random game; returns the number of moves played."""
    board = [0] * 9
    player = 1
    moves = 0
    while True:
        empty = [i for i in range(9) if board[i] == 0]
        if not empty:
            return moves
        cell = empty[rnd.randrange(len(empty))]
        board[cell] = player
        moves += 1
        if completes_line(board, cell):
            return moves
        player = 3 - player



class TicTacToe(TwoPlayerSteps):
    """The same game one move at a time, with moves named as the ruleset names them,
    so a test can follow it step by step next to the interpreter."""

    def __init__(self):
        super().__init__()  # player 0 plays X, 1 plays O
        self.board = [0] * 9

    def _moves(self) -> list:
        return [] if self.over else [i for i in range(9) if self.board[i] == 0]

    def legal(self) -> list:
        return [f"place(at={'abc'[i % 3]}{i // 3 + 1})" for i in self._moves()]

    def play(self, index: int) -> None:
        cell = self._moves()[index]
        self.board[cell] = self.player + 1
        if completes_line(self.board, cell):
            self.over, self.winner, self.end_reason = True, self.player, "three in a row"
        elif 0 not in self.board:
            self.over, self.end_reason = True, "the board is full"
        self.player = 1 - self.player


def kept_states(rnd: random.Random) -> list:
    """Every position of the game `playout` plays with the same generator, kept as a
    search would keep it: what `meeple bench` weighs per kept state."""
    return kept_positions(TicTacToe(), lambda g: (tuple(g.board), g.player), rnd)
