"""Hand-written Python playout loops, the baseline the interpreter is measured
against.  Same rules, same policy (uniform random over legal moves), no
interpreter: the fastest a plain Python loop does the same work."""
from __future__ import annotations

import random

LINES3 = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def tic_tac_toe_playout(rnd: random.Random) -> int:
    """Returns the number of moves played."""
    board = [0] * 9
    player = 1
    moves = 0
    while True:
        empty = [i for i in range(9) if board[i] == 0]
        if not empty:
            return moves
        board[empty[rnd.randrange(len(empty))]] = player
        moves += 1
        if any(board[a] == board[b] == board[c] == player for a, b, c in LINES3):
            return moves
        player = 3 - player


def _lines4(rows=6, cols=7):
    out = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(4)]
                if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                    out.append(tuple(rr * cols + cc for rr, cc in cells))
    return out


LINES4 = _lines4()


def connect_four_playout(rnd: random.Random) -> int:
    rows, cols = 6, 7
    board = [0] * (rows * cols)
    height = [0] * cols
    player = 1
    moves = 0
    while True:
        free = [c for c in range(cols) if height[c] < rows]
        if not free:
            return moves
        c = free[rnd.randrange(len(free))]
        board[height[c] * cols + c] = player
        height[c] += 1
        moves += 1
        if any(board[a] == board[b] == board[c2] == board[d] == player for a, b, c2, d in LINES4):
            return moves
        player = 3 - player


BASELINES = {"tic-tac-toe": tic_tac_toe_playout, "connect-four": connect_four_playout}
