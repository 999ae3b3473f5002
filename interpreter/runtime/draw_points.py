"""Chance points inside a step: where an effect draws, with chance explicit (draws.py).

A step is what Game plays in one go: a move (or a flow `chance` step's outcome) and the
walk to where play waits next, or the setup and the walk to the first decision.  With
chance explicit, a step whose effects draw is played with a tape of chosen outcomes in
place of the generator.  When the tape runs out the step is not half played: the state
is the one from before the step, holding a `Drawing` (the step, the outcomes chosen so
far, the size of the draw now due).  Its chance moves are `draw(index=i)`, each of
probability 1/size; playing one plays the whole step again from that state with one
outcome more.  Nothing of the step shows until it is over, so what a player sees at
such a point is the table as it was before it, and the draws' outcomes are read as
`draw(index=?)` by every player (Game.seen_move): an outcome is a place in the source's
order or in a shuffle, and may tell where a hidden item went.
"""
from __future__ import annotations

from fractions import Fraction

from .draws import NeedDraw, Tape, generator, mixed
from .moves import CHANCE, DRAW, DRAW_INDEX as INDEX, Move  # a draw: draw(index=i)
from .state import State, to_plain



class Drawing:
    """The step a chance point is inside: its move (None: the setup), the outcomes
    chosen so far for its draws, and how many outcomes the next draw has.  Plain,
    unchanging data, so a state that holds one stays copyable, picklable and keyed."""

    __slots__ = ("move", "taken", "size")

    def __init__(self, move: Move | None, taken: tuple, size: int):
        self.move, self.taken, self.size = move, taken, size

    def _parts(self):
        return self.move, self.taken, self.size

    def __eq__(self, other):
        return isinstance(other, Drawing) and self._parts() == other._parts()

    def __hash__(self):
        return hash(self._parts())

    def __reduce__(self):
        return Drawing, self._parts()

    def __repr__(self):
        return f"Drawing(move={self.move!r}, taken={self.taken!r}, size={self.size})"

    def to_data(self) -> dict:
        move = None if self.move is None else {"player": self.move.player, "action": self.move.action,
                                               "args": [[k, to_plain(v)] for k, v in self.move.args]}
        return {"move": move, "taken": list(self.taken), "size": self.size}


def outcomes(drawing: Drawing) -> list:
    """The chance moves of the point, each with its probability."""
    p = Fraction(1, drawing.size)
    return [(Move(CHANCE, DRAW, ((INDEX, i),)), p) for i in range(drawing.size)]


def play_step(game, before: State, step: Move | None, taken: tuple = ()) -> State:
    """The state after `step` (None: the setup) played from `before` with `taken` as the
    outcomes of its first draws; a chance point inside the step when it draws more.
    `before` is not changed."""
    new = before.copy()
    new.drawing = None
    own = generator(before.rng)
    new.rng = Tape(own, taken)
    try:
        if step is None:
            game._set_up(new)
            game._advance(new)
        else:
            game._play_move(new, step)
    except NeedDraw as need:
        point = before.copy()
        point.drawing = Drawing(step, taken, need.size)
        return point
    if new.rng.used != len(taken):  # the step drew less than when it was played before
        raise AssertionError(f"a step took {new.rng.used} of the {len(taken)} outcomes chosen for it")
    chosen = taken + ((to_plain(step.args[0][1]),) if step is not None and step.player == CHANCE else ())
    new.rng = mixed(own, chosen) if chosen else own
    return new


def resume(game, point: State, move: Move) -> State:
    """The state after the chance move `move` (one of `outcomes`) at a point inside a step."""
    drawing = point.drawing
    return play_step(game, point, drawing.move, drawing.taken + (move.args[0][1],))


def take_over(state: State, other: State) -> None:
    """Make `state` what `other` is: a playout changes its one state in place."""
    for name in State.__slots__:
        setattr(state, name, getattr(other, name))
