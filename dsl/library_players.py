"""The library's functions about players and the move count, and has_move, which asks the game itself.

Each function registers itself in the table (library_core.FUNCTIONS) when this module
is imported; dsl/functions.py imports every family."""
from __future__ import annotations

from .compare import fail
from .types import BOOL, INT, list_of
from .library_core import LIST, _fn, want_int, want_list


# -- players -------------------------------------------------------------------------

@_fn("players", 0, 0, list_of(INT))
def _players(ctx):
    return tuple(range(ctx.player_count))


@_fn("player_count", 0, 0, INT)
def _player_count(ctx):
    return ctx.player_count


@_fn("next_player", 1, 2, INT, [INT, INT])
def _next_player(ctx, p, k=1):
    n = ctx.player_count
    if n <= 0:
        fail("there are no players")
    return (want_int(p, "the player") + want_int(k, "the step")) % n


def _around(step):
    def impl(ctx, p):
        n = ctx.player_count
        p = want_int(p, "the player")
        ctx.charge(n)
        return tuple((p + step * i) % n for i in range(n))
    return impl


_fn("clockwise", 1, 1, list_of(INT), [INT])(_around(1))
_fn("counterclockwise", 1, 1, list_of(INT), [INT])(_around(-1))


@_fn("move_count", 0, 0, INT, reads_state=True, reads_moves=True)
def _move_count(ctx):
    """The moves the players have made so far (every decision, a pass included; chance
    outcomes are not moves), as the state counts them: a move limit needs no counter of
    the author's own.  Inside a move's costs and effects it is the count before that move;
    an end rule, checked after the move, sees it counted.  An initial value is the value
    before the first move: 0 (an item property's default has no state to read)."""
    state = getattr(ctx, "state", None)
    return 0 if state is None else state.move_count


@_fn("has_move", 2, 2, BOOL, [INT, LIST], reads_state=True)
def _has_move(ctx, p, actions):
    """Could player p make a move of one of these actions now?  The actions' own
    parameters, requirements and costs decide (Game.has_move), so a rule such as "a
    player who cannot move loses" needs no second copy of the move rules."""
    p = want_int(p, "the player")
    if not 0 <= p < ctx.player_count:
        fail(f"has_move: there is no player {p}")
    names = want_list(actions, "the actions")
    if any(not isinstance(n, str) for n in names):
        fail("has_move takes a list of action names")
    return ctx.game.has_move(ctx, p, names)
