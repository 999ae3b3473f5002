"""The library's grid geometry: cells by row and column, steps, rays and directions (grid.py's geometry).

Each function registers itself in the table (library_core.FUNCTIONS) when this module
is imported; dsl/functions.py imports every family."""
from __future__ import annotations

from . import grid
from .compare import fail, map_key
from .types import ANY, INT, STR, list_of, map_of
from .library_core import LIST, _fn, check_int, render, want_int, want_list, want_map
from .library_boards import _board, _node


# -- grid geometry: cells by row and column, steps and rays (the geometry is grid.py's)

DIRECTION = (STR, LIST)  # a compass name or a [drow, dcol] step
# Arguments that name one of a fixed set of words: (function, position) -> (the words, what
# one is called).  Written as a literal text, such an argument is checked when the ruleset
# is loaded (N313 in dsl/typecheck.py), so `step(b, n, 'north')` is caught before a game.
WORD_ARGUMENTS = {("directions", 0): (frozenset(grid.DIRECTION_SETS), "set of directions"),
                  ("step", 2): (grid.DIRECTION_NAMES, "direction"),
                  ("ray", 2): (grid.DIRECTION_NAMES, "direction")}


@_fn("cell", 3, 3, ANY, [None, INT, INT])
def _cell(ctx, b, row, col):
    """The node at (row, col), or none off the board: a move's target is often off it."""
    g = _board(ctx, b)
    return grid.cells(g).get((want_int(row, "the row"), want_int(col, "the column")))


@_fn("row_of", 2, 2, INT, [None, STR])
def _row_of(ctx, b, n):
    g = _board(ctx, b)
    return grid.coordinates(g, _node(g, n))[0]


@_fn("col_of", 2, 2, INT, [None, STR])
def _col_of(ctx, b, n):
    g = _board(ctx, b)
    return grid.coordinates(g, _node(g, n))[1]


@_fn("step", 3, 4, ANY, [None, STR, DIRECTION, INT])
def _step(ctx, b, n, d, k=1):
    g = _board(ctx, b)
    return grid.step(g, _node(g, n), d, want_int(k, "the number of steps"))


@_fn("ray", 3, 3, list_of(STR), [None, STR, DIRECTION])
def _ray(ctx, b, n, d):
    """Charged its length each time, kept or not, so that the cost of a move does not
    depend on what earlier moves asked."""
    g = _board(ctx, b)
    out = grid.ray(g, _node(g, n), d)
    ctx.charge(len(out))
    return out


def _directions_type(ts, cs):
    if cs and cs[0] == "knight":
        return list_of(list_of(INT))
    return list_of(STR) if cs and isinstance(cs[0], str) and cs[0] in grid.DIRECTION_SETS else LIST


@_fn("directions", 1, 1, _directions_type, [STR])
def _directions(ctx, kind):
    found = grid.DIRECTION_SETS.get(kind) if isinstance(kind, str) else None
    if found is None:
        fail(f"there is no set of directions {render(kind, False)}; sets: {', '.join(grid.DIRECTION_SETS)}")
    ctx.charge(len(found))
    return found


@_fn("sum_maps", 1, 1, map_of(ANY, INT), [LIST])
def _sum_maps(ctx, ms):
    """Maps of counts added key by key: `sum_maps([{'a': 1}, {'a': 2, 'b': 1}])` is
    `{'a': 3, 'b': 1}`; keys keep the order in which they first appear."""
    out: dict = {}
    ms = want_list(ms, "the maps to add")
    ctx.charge(len(ms))
    for m in ms:
        m = want_map(m, "each element")
        ctx.charge(len(m))
        for k, v in m.items():
            if type(v) is not int:
                want_int(v, "a count")
            k = map_key(k)
            out[k] = check_int(out.get(k, 0) + v)
    return out
