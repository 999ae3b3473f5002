"""Connect Four written by hand: the baseline for the `connect-four` ruleset.

A 7x6 board as a list of 42 ints (0 empty, 1 X, 2 O), cell = row * 7 + col with row 0
at the bottom, and the height of each column.  After a drop only the lines through
the new disc can have become four in a row, so the check walks out from that disc in
the four directions instead of rescanning the board.
"""
from __future__ import annotations

import random

from .baseline_steps import TwoPlayerSteps, kept_positions

ROWS, COLS = 6, 7
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def connects_four(board: list, row: int, col: int) -> bool:
    """Whether the disc just dropped at (row, col) is part of four in a row."""
    disc = board[row * COLS + col]
    for dr, dc in DIRECTIONS:
        run = 1
        r, c = row + dr, col + dc
        while 0 <= r < ROWS and 0 <= c < COLS and board[r * COLS + c] == disc:
            run += 1
            r += dr
            c += dc
        r, c = row - dr, col - dc
        while 0 <= r < ROWS and 0 <= c < COLS and board[r * COLS + c] == disc:
            run += 1
            r -= dr
            c -= dc
        if run >= 4:
            return True
    return False


def playout(rnd: random.Random) -> int:
    """One uniformly random game; returns the number of moves played."""
    board = [0] * (ROWS * COLS)
    height = [0] * COLS
    player = 1
    moves = 0
    while True:
        free = [c for c in range(COLS) if height[c] < ROWS]
        if not free:
            return moves
        col = free[rnd.randrange(len(free))]
        row = height[col]
        board[row * COLS + col] = player
        height[col] = row + 1
        moves += 1
        if connects_four(board, row, col):
            return moves
        player = 3 - player



class ConnectFour(TwoPlayerSteps):
    """The same game one move at a time, with moves named as the ruleset names them,
    so a test can follow it step by step next to the interpreter."""

    def __init__(self):
        super().__init__()  # player 0 plays X, 1 plays O
        self.board = [0] * (ROWS * COLS)
        self.height = [0] * COLS

    def _moves(self) -> list:
        return [] if self.over else [c for c in range(COLS) if self.height[c] < ROWS]

    def legal(self) -> list:
        return [f"drop(col={c})" for c in self._moves()]

    def play(self, index: int) -> None:
        col = self._moves()[index]
        row = self.height[col]
        self.board[row * COLS + col] = self.player + 1
        self.height[col] = row + 1
        if connects_four(self.board, row, col):
            self.over, self.winner, self.end_reason = True, self.player, "four in a row"
        elif all(h == ROWS for h in self.height):
            self.over, self.end_reason = True, "the board is full"
        self.player = 1 - self.player


def kept_states(rnd: random.Random) -> list:
    """Every position of the game `playout` plays with the same generator, kept as a
    search would keep it: what `meeple bench` weighs per kept state."""
    return kept_positions(ConnectFour(), lambda g: (tuple(g.board), tuple(g.height), g.player), rnd)
