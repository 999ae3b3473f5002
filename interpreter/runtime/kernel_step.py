"""A step of `Game.apply` played by the back end's playout function.

A compiled ruleset has a generated function that plays whole random playouts
(codegen/kernel.py, codegen/fused.py).  Given a limit of one move and, in place of a random
draw, the index of the move being applied, it plays exactly that move: the effects, the end
rules and the flow up to the next decision, where it lists the moves and stops
(codegen/listed_moves.py hands them over as the next state's legal moves).  The function
lists the moves in the order `Game.legal_moves` does, which is what lets a playout it gave
up on be replayed by the loop from the indices it drew; the same order makes the index of a
legal move the move itself.

Anything unusual (a check the function cannot prove, a listing of another length) gives up
the step, and `Game._play` plays it move by move on a fresh copy: the function only ever
changed that step's own copy of the state, so the state applied to is as it was.
"""
from __future__ import annotations

from operator import is_
from time import perf_counter

from .flowgraph import DECIDE
from .moves import UnmadeMoves, place_of


class _ListingDiffers(Exception):
    """The function listed a different number of moves than legal_moves: give up the step."""


def play(game, state, move, index=None):
    """`Game._play` on a back end with a playout function: the step played by that
    function or move by move, whichever `game._steps_by_kernel` says (None: the faster
    way for this game, by StepTrial).  `index`: the move's place among the state's legal
    moves, where the caller found it."""
    way = game._steps_by_kernel
    if way is None:
        trial = game._step_trial
        if trial is None:
            trial = game._step_trial = StepTrial()
        way = trial.way
        if way is None:
            return trial.play(game, state, move, index)
    if way:
        new = kernel_step(game, state, move, index)
        if new is not None:
            return new
    return game._play_by_loop(state, move)


class StepTrial:
    """Which way plays this game's steps faster.  The playout function pays at every
    step for what a whole playout pays once (its own copies of the zones, the lists it
    keeps); the move-by-move functions keep what they worked out between steps (a
    definition's value, the elements of an `any` a move did not touch).  Which weighs
    more depends on the game, so the first steps are timed both ways in turn, and then
    the faster way plays.  Both ways reach the same states (tests/test_kernel_step.py):
    the choice changes nothing but the time."""

    STEPS = 24  # timed each way

    __slots__ = ("way", "spent", "timed", "turn")

    def __init__(self):
        self.way = None  # decided: True for the playout function, False move by move
        self.spent = [0.0, 0.0]  # seconds, move by move and by the function
        self.timed = [0, 0]
        self.turn = 1

    def play(self, game, state, move, index=None):
        if game._within is not None or _playable(game, state) is None:
            return game._play_by_loop(state, move)  # a step only one way can play is not timed
        turn = self.turn
        self.turn = 1 - turn
        start = perf_counter()
        new = kernel_step(game, state, move, index) if turn else None
        if new is None:
            new = game._play_by_loop(state, move)
        self.spent[turn] += perf_counter() - start
        self.timed[turn] += 1
        if min(self.timed) >= self.STEPS:
            self.way = self.spent[1] < self.spent[0]
        return new


def _playable(game, state):
    """The playout function, the decisions it runs and the generated module, where the
    function may play a step from `state`."""
    kernel = game._walk_kernel()
    if kernel is None or state.drawing is not None or state._moves is None:
        return None
    if type(state._moves) is UnmadeMoves:  # made, where the function left them unmade
        game._moves_at(state)
    facts = game._step_facts
    if facts is None or facts[0] is not kernel:
        facts = game._step_facts = _facts(game, kernel)
    return facts if state.pc in facts[2] else None


def _facts(game, kernel) -> tuple:
    """(kernel, run, the decision points it runs, the generated module), kept per game:
    asked at every step, they change only with the kernel."""
    run, points_run = kernel
    points = game.rules.points
    return kernel, run, frozenset(pc for pc in points_run if points[pc].code == DECIDE), \
        getattr(game.rules, "module", None)


def kernel_step(game, state, move, index=None):
    """The state after `move`, played by the playout function; None where the function
    cannot play this step (then the caller plays it move by move).  `index`, where given,
    is the move's place among the state's legal moves (`Game.legal_moves` lists them in
    the order of `state._moves`, some renamed for their movers)."""
    facts = _playable(game, state)
    if facts is None or game._within is not None:
        return None
    _, run, decisions, module = facts
    moves = state._moves
    if index is None:
        index = place_of(moves, move)
        if index is None:
            return None
    count = len(moves)

    def chosen(n: int) -> int:
        if n != count:
            raise _ListingDiffers()
        return index

    new = state.copy()
    settled = _still_settled(state)
    if settled:  # the function's own listing of these moves: it starts from it, not listing them again
        new._listing = state._listing
    deopts = getattr(module, "deopts", 0)
    try:
        played = run(game, new, chosen, 1, 0, [], settled)
    except Exception:  # noqa: BLE001 - the move-by-move step meets it again and reports it
        played = None
    if played != 1:
        game.kernel_fallbacks += 1
        if module is not None:  # the step given up is counted there; the move-by-move step counts its own
            module.deopts = deopts
        return None
    game.kernel_steps += 1
    if new.over:
        new._moves = new._listing = None
    elif new.pc not in decisions:
        new._moves = new._listing = None
        game._advance(new)  # on to the next decision from a point the function does not run
    else:
        new._settled = _contents(new)
    new._shown = None  # (`_where`, kept from the state given, is checked against the zones before use)
    return new


def _contents(state) -> tuple:
    return (*state.vars.values(), *state.zones.values(), *state.props.values())


def _still_settled(state) -> bool:
    """Whether `state` is as a step by the playout function left it, at a decision: its
    values have the types that function proved, and its end rules were tested after the
    last write (so the function need not test every line of a board again).  States are
    never changed in place, so the same objects mean the same values; a caller that
    replaced one (a test, a scenario) made the state anew."""
    kept = state._settled
    if kept is None:
        return False
    now = _contents(state)
    return len(now) == len(kept) and all(map(is_, now, kept))
