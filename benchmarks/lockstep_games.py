"""How each library game reads in OpenSpiel's terms, for the lockstep harness
(openspiel_lockstep.py).

A ruleset holds no Python and the interpreter names no game, so what ties a meeple
ruleset to OpenSpiel's game of the same name lives here, one small entry per game:

- `move_text(state, player, action)`: how OpenSpiel's `action` for `player` (-1 for
  chance) in its `state` is written as a meeple move text.  Only the OpenSpiel side is
  read, so a ruleset that offers a different move shows up as a difference in the sets
  of legal moves rather than being translated into agreement;
- `returns(outcome)`: the meeple outcome as OpenSpiel's returns, one per player.

Each entry also names the OpenSpiel game and its parameters, and the ruleset with the
player count and options that correspond to them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class Lockstep:
    """One meeple ruleset played beside one OpenSpiel game."""
    ruleset: str  # a shipped ruleset's name, or a path
    openspiel: str  # pyspiel.load_game's name
    players: int
    move_text: Callable  # (pyspiel state, player, action) -> meeple move text
    returns: Callable  # meeple Outcome -> OpenSpiel's returns, a tuple of numbers
    params: dict = field(default_factory=dict)  # OpenSpiel's parameters
    options: dict = field(default_factory=dict)  # the meeple options that match them


def _scores(outcome) -> tuple:
    return tuple(outcome.scores)


# -- tic-tac-toe ---------------------------------------------------------------------------------

def _tic_tac_toe_move(state, player, action) -> str:
    """OpenSpiel numbers the cells row by row from 0; meeple's grid names a cell by its
    column letter and row number, `a1` being column 0, row 0."""
    row, col = divmod(action, 3)
    return f"place(at={'abc'[col]}{row + 1})"


def _win_loss(outcome) -> tuple:
    """meeple scores 1 for three in a row and 0 otherwise; OpenSpiel +1, -1, or 0 each
    for a draw."""
    a, b = outcome.scores
    return (a - b, b - a)


GAMES = {
    "tic-tac-toe": Lockstep("tic-tac-toe", "tic_tac_toe", 2, _tic_tac_toe_move, _win_loss),
}


# -- goofspiel: simultaneous nodes, and a known difference ----------------------------------------

def _goofspiel_move(state, player, action) -> str:
    """OpenSpiel's action a deals the prize worth a + 1, or bids the card worth a + 1;
    the ruleset names them by item id: prize P5, player 1's bid card S1-5."""
    if player < 0:
        return f"chance(drawn=P{action + 1})"
    return f"bid(card=S{player}-{action + 1})"


def _win_loss_by_points(outcome) -> tuple:
    """OpenSpiel's default returns_type win_loss: +1 for more points, -1 for fewer."""
    a, b = outcome.scores
    sign = (a > b) - (a < b)
    return (sign, -sign)


# Not one of GAMES: the shipped example plays all 13 rounds as decisions, while OpenSpiel
# resolves the last one by itself (each player has one card left) and is over after 12.
# The two agree through 12 rounds of chance and simultaneous bids, which is what the
# harness's own test uses it for, and then differ on whether the game is over.
DIFFERING = {"goofspiel": Lockstep("goofspiel", "goofspiel", 2, _goofspiel_move, _win_loss_by_points)}
