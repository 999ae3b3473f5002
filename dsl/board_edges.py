"""What a board's declarations add beyond its graph: the straight lines it declares
(`lines:`, walked by `lines(b, k)` on any board) and a stable text id for each edge (the
keys of state kept on edges: `per: "edges('board')"`).

An edge's id is its two ends joined by a hyphen, in the order the board declares them
(`[a1, b1]` is `a1-b1`; a grid's edges run east and north, so `a1-b1` and `a1-a2`).  The
id depends on nothing but the declaration, so it is the same in every game, save and
view.  Boards never change during a game, so the tables are worked out once per board
and kept on it, as grid.py keeps a grid's cells.  The library functions (functions.py,
"boards") check their arguments and charge the cost counter; this file only computes.
"""
from __future__ import annotations

# Where rules.Rules puts the declaration order of a board's edges and its declared lines
# (networkx does not keep the first: an undirected edge [b, a] may come back as (a, b)).
EDGE_ORDER = "meeple_edge_order"
DECLARED_LINES = "meeple_declared_lines"


def edge_id(a: str, b: str) -> str:
    return f"{a}-{b}"


def id_clash(edges, directed: bool) -> tuple[str, tuple, tuple] | None:
    """(id, first edge, second edge) of two different edges whose ids are the same text
    (ends named `a-b` and `c`, `a` and `b-c`), or None.  The same edge written twice is
    one edge (both ways, on a board that is not one-way)."""
    seen: dict[str, tuple] = {}
    for a, b in edges:
        same = (a, b) if directed else frozenset((a, b))
        key = edge_id(a, b)
        if key in seen and seen[key][0] != same:
            return key, seen[key][1], (a, b)
        seen.setdefault(key, (same, (a, b)))
    return None


def edge_table(g) -> tuple[tuple, dict, dict, dict]:
    """(ids in declaration order, id -> (a, b), node -> ids of the edges at it, (a, b) ->
    id, both ways on a board that is not one-way).  An edge written twice keeps its
    first id."""
    cached = g.graph.get("_meeple_edges")
    if cached is not None:
        return cached
    order = g.graph.get(EDGE_ORDER)
    if order is None:  # a graph made without the declaration's order
        order = tuple(g.edges())
    directed = g.is_directed()
    ids, ends, at, between = [], {}, {n: [] for n in g}, {}
    for a, b in order:
        if (a, b) in between or not g.has_edge(a, b):
            continue
        key = edge_id(a, b)
        ids.append(key)
        ends[key] = (a, b)
        at[a].append(key)
        if b != a:
            at[b].append(key)
        between[(a, b)] = key
        if not directed:
            between.setdefault((b, a), key)
    cached = g.graph["_meeple_edges"] = (tuple(ids), ends, {n: tuple(e) for n, e in at.items()}, between)
    return cached


def line_problem(line: list) -> str | None:
    """Why a declared line is not one, or None."""
    if len(line) < 2:
        return "a line needs at least two nodes"
    twice = sorted({n for n in line if line.count(n) > 1})
    if twice:
        return f"a line passes '{twice[0]}' twice"
    return None


def declared_runs(lines: tuple, k: int) -> tuple:
    """Every run of k consecutive nodes along the declared lines, in the order the lines
    and their nodes are written; a run met twice (shared by two lines) is listed once."""
    out = {}
    for line in lines:
        for i in range(len(line) - k + 1):
            out.setdefault(tuple(line[i:i + k]), None)
    return tuple(out)
