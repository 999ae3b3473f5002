"""Grid geometry: where a cell of a grid board is, and which cell lies some steps away.

A grid's cells are the nodes with int attributes `row` and `col`: a `grid:` board's
nodes, or nodes given those attributes by hand.  Rows grow northwards (row 0 is drawn
at the bottom, as rank 1 of a chess board) and columns eastwards, so that the names
authors already use (`a1`, `h8`) keep their usual compass.  A direction is a compass
name or a `[drow, dcol]` step; on a hex grid (`shape: hex`: a rhombus whose cells have
six neighbours) the six names are those of the neighbours as the board is drawn, each
row half a cell east of the one below.

Boards never change during a game, so what is worked out here is kept on the board.
The library functions (functions.py, "boards") check their arguments and charge the
cost counter; this file only computes.
"""
from __future__ import annotations

from .compare import fail, kind_of

SQUARE_STEPS = {"n": (1, 0), "ne": (1, 1), "e": (0, 1), "se": (-1, 1),
                "s": (-1, 0), "sw": (-1, -1), "w": (0, -1), "nw": (1, -1)}
HEX_STEPS = {"ne": (1, 0), "e": (0, 1), "se": (-1, 1), "sw": (-1, 0), "w": (0, -1), "nw": (1, -1)}
KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

# What `directions(kind)` gives: compass names, each set clockwise from the north (from
# the north-east on a hex grid, which has no north), or [drow, dcol] steps for the knight.
DIRECTION_SETS = {
    "orthogonal": ("n", "e", "s", "w"),
    "diagonal": ("ne", "se", "sw", "nw"),
    "all": tuple(SQUARE_STEPS),
    "hex": tuple(HEX_STEPS),
    "knight": KNIGHT_STEPS,
}
DIRECTION_NAMES = frozenset(SQUARE_STEPS) | frozenset(HEX_STEPS)

# Rays are kept per (node, direction): a ruleset that computes its directions could ask
# for many, so past this many the board keeps no more.
MAX_KEPT_RAYS = 100_000


def is_hex(g) -> bool:
    return g.graph.get("shape") == "hex"


def cells(g) -> dict:
    """(row, col) -> node, for the nodes with int attributes row and col."""
    cached = g.graph.get("_meeple_cells")
    if cached is None:
        cached = {}
        for n, data in g.nodes(data=True):
            r, c = data.get("row"), data.get("col")
            if _is_int(r) and _is_int(c):
                cached[(r, c)] = n
        g.graph["_meeple_cells"] = cached
    return cached


def coordinates(g, node: str) -> tuple[int, int]:
    """The node's (row, col); a node without them is not a cell of a grid."""
    data = g.nodes[node]
    r, c = data.get("row"), data.get("col")
    if not (_is_int(r) and _is_int(c)):
        fail(f"the node '{node}' is not a grid cell: it has no int attributes row and col")
    return r, c


def direction(g, d) -> tuple[int, int]:
    """A direction as a (drow, dcol) step: a compass name of the board's kind of grid, or
    a pair of ints other than [0, 0] (which would go nowhere, and a ray never end)."""
    if isinstance(d, str):
        steps = HEX_STEPS if is_hex(g) else SQUARE_STEPS
        found = steps.get(d)
        if found is None:
            kind = "a hex" if is_hex(g) else "a square"
            fail(f"{kind} grid has no direction '{d}'; its directions are {', '.join(steps)}")
        return found
    if isinstance(d, (tuple, list)) and len(d) == 2 and _is_int(d[0]) and _is_int(d[1]):
        if d[0] == 0 and d[1] == 0:
            fail("the direction [0, 0] goes nowhere")
        return d[0], d[1]
    fail(f"a direction is a name such as 'n' or a [drow, dcol] pair of ints, found {kind_of(d)}")


def step(g, node: str, d, k: int):
    """The cell k steps from node in direction d (the cells between need not exist), or
    None off the board."""
    dr, dc = direction(g, d)
    r, c = coordinates(g, node)
    return cells(g).get((r + k * dr, c + k * dc))


def ray(g, node: str, d) -> tuple:
    """The cells from node (left out) in direction d, in order, up to the first place that
    is not a cell: the edge of the board, or a hole in a board drawn by hand."""
    dr, dc = direction(g, d)
    kept = g.graph.setdefault("_meeple_rays", {})
    key = (node, dr, dc)
    found = kept.get(key)
    if found is None:
        at, out = cells(g), []
        r, c = coordinates(g, node)
        r, c = r + dr, c + dc
        while (r, c) in at:
            out.append(at[(r, c)])
            r, c = r + dr, c + dc
        found = tuple(out)
        if len(kept) < MAX_KEPT_RAYS:
            kept[key] = found
    return found


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)
