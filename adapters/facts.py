"""What kind of game a ruleset is, in the terms the frameworks ask: are turns ever
simultaneous, is there chance (explicit chance steps, or shuffles and bag draws made
from the state's own generator), and can a player ever lack information."""
from __future__ import annotations

from meeple.interpreter.runtime.flowgraph import CHANCE as CHANCE_STEP, DECIDE


def has_simultaneous(game) -> bool:
    return any(p.code == DECIDE and p.kind == "simultaneous" for p in game.rules.points)


def has_chance_steps(game) -> bool:
    return any(p.code == CHANCE_STEP for p in game.rules.points)


def draws_in_secret(game) -> bool:
    """True when effects draw from the state's generator: a `shuffle`, or any move out of
    a bag (which draws at random).  With chance explicit each draw is a chance point whose
    outcome (`draw(index=?)`) no player reads, so the game has imperfect information."""
    return game.effects_draw


def hides_information(game) -> bool:
    return bool(game.hides_information) or has_simultaneous(game) or draws_in_secret(game)
