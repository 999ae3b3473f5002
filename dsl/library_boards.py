"""The library's functions over a board's graph: nodes, edges, paths, walks and lines.

Each function registers itself in the table (library_core.FUNCTIONS) when this module
is imported; dsl/functions.py imports every family."""
from __future__ import annotations

import networkx as nx

from . import board_edges, grid
from .compare import SCAN_FREE, charge_scan, fail, strict_key
from .types import ANY, BOOL, INT, STR, list_of
from .library_core import LIST, _fn, check_list, render, want_int, want_list


# -- boards --------------------------------------------------------------------------

# The functions whose first argument names a board: a name given as text is checked
# against the ruleset's boards when it is loaded (dsl/typecheck.py).
BOARD_FUNCTIONS = frozenset({"nodes", "nodes_where", "neighbours", "has_edge", "attr", "edge_attr",
                             "path", "distance", "reachable", "lines", "hop_targets", "within",
                             "cell", "row_of", "col_of", "step", "ray", "edges", "edges_of", "ends", "edge"})

def _board(ctx, b):
    if isinstance(b, nx.Graph):
        return b
    g = ctx.game.boards.get(b) if isinstance(b, str) else None
    if g is None:
        fail(f"there is no board {render(b, False)}")
    return g


def _node(g, n):
    if not isinstance(n, str) or n not in g:
        fail(f"the board has no node {render(n, False)}")
    return n


def _node_list(nodes) -> tuple:
    try:
        return tuple(sorted(nodes))
    except TypeError:
        return tuple(sorted(nodes, key=repr))


@_fn("nodes", 1, 1, list_of(STR))
def _nodes(ctx, b):
    g = _board(ctx, b)
    ctx.charge(len(g))
    cached = g.graph.get("_meeple_nodes")
    if cached is None:  # boards never change during a game, so the tuple is kept
        cached = g.graph["_meeple_nodes"] = tuple(g.nodes)
    return cached


@_fn("nodes_where", 3, 3, list_of(STR), [None, STR, None])
def _nodes_where(ctx, b, key, value):
    g = _board(ctx, b)
    ctx.charge(len(g))
    k = strict_key(value, ctx)
    cache = g.graph.setdefault("_meeple_where", {})
    hit = cache.get((key, k))
    if hit is None:
        hit = cache[(key, k)] = tuple(n for n, data in g.nodes(data=True)
                                      if key in data and strict_key(data[key]) == k)
    return hit


@_fn("neighbours", 2, 2, list_of(STR), [None, STR])
def _neighbours(ctx, b, n):
    g = _board(ctx, b)
    out = _node_list(g.neighbors(_node(g, n)))
    ctx.charge(len(out))
    return out


@_fn("has_edge", 3, 3, BOOL, [None, STR, STR])
def _has_edge(ctx, b, x, y):
    g = _board(ctx, b)
    return g.has_edge(_node(g, x), _node(g, y))


@_fn("attr", 3, 3, ANY, [None, STR, STR])
def _attr(ctx, b, n, key):
    """A missing attribute reads as none: boards often mark only some nodes."""
    g = _board(ctx, b)
    return g.nodes[_node(g, n)].get(key)


@_fn("edge_attr", 4, 4, ANY, [None, STR, STR, STR])
def _edge_attr(ctx, b, x, y, key):
    g = _board(ctx, b)
    if not g.has_edge(_node(g, x), _node(g, y)):
        fail(f"the board has no edge from {x} to {y}")
    return g.edges[x, y].get(key)


@_fn("path", 3, 3, list_of(STR), [None, STR, STR])
def _path(ctx, b, x, y):
    g = _board(ctx, b)
    ctx.charge(len(g))
    try:
        return tuple(nx.shortest_path(g, _node(g, x), _node(g, y)))
    except nx.NetworkXNoPath:
        return ()


@_fn("distance", 3, 3, INT, [None, STR, STR])
def _distance(ctx, b, x, y):
    g = _board(ctx, b)
    ctx.charge(len(g))
    try:
        return nx.shortest_path_length(g, _node(g, x), _node(g, y))
    except nx.NetworkXNoPath:
        return -1


@_fn("reachable", 3, 3, list_of(STR), [None, STR, LIST])
def _reachable(ctx, b, start, allowed):
    g = _board(ctx, b)
    start = _node(g, start)
    allowed = want_list(allowed, "the allowed nodes")
    charge_scan(ctx, len(allowed))
    adjacent = _adjacent(g)
    keep = _text_set(allowed) & adjacent.keys()
    keep.add(start)
    ctx.charge(len(keep))
    return _node_list(_walk_within(adjacent, start, keep))


def _walk_within(adjacent: dict, start, keep: set) -> set:
    """The nodes of `keep` reachable from `start` through nodes of `keep`, start excluded:
    what networkx's descendants of the kept subgraph give, without building a subgraph view
    per call (a wall check in a maze game walks the board hundreds of times a move)."""
    seen = {start}
    frontier = seen
    while frontier:
        ahead = set()
        for node in frontier:
            ahead.update(adjacent[node])
        ahead &= keep
        ahead -= seen
        seen |= ahead
        frontier = ahead
    seen.discard(start)
    return seen


_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
# On a hex grid (a rhombus, `shape: hex`) the straight lines run along rows, along columns
# and along the third axis, where the row goes up as the column goes down.
_HEX_DIRECTIONS = ((0, 1), (1, 0), (1, -1))


def _line_directions(g) -> tuple:
    return _HEX_DIRECTIONS if grid.is_hex(g) else _DIRECTIONS


@_fn("lines", 2, 2, list_of(list_of(STR)), [None, INT])
def _lines(ctx, b, k):
    """Straight runs of k nodes, computed once per board and length: along the lines the
    board declares (`lines:`), else along a grid's rows, columns and diagonals.  On a grid
    how far a run goes from each cell is counted first, so the work is the board's size
    and the answer's, whatever k is (a line longer than the board is simply not there)."""
    g = _board(ctx, b)
    k = want_int(k, "the line length")
    if k < 1:
        fail("lines need a length of at least 1")
    cache = g.graph.setdefault("_meeple_lines", {})
    declared = g.graph.get(board_edges.DECLARED_LINES)
    if k not in cache and declared is not None:
        ctx.charge(sum(len(line) for line in declared))
        cache[k] = board_edges.declared_runs(declared, k)
    if k not in cache:
        ctx.charge(len(g))
        runs = _grid_runs(g)
        at, directions = runs[0], _line_directions(g) if k > 1 else _DIRECTIONS[:1]
        starts = [(r, c, d) for (r, c) in sorted(at) for d in directions
                  if runs[1][d].get((r, c), 0) >= k]
        check_list(starts)
        ctx.charge(len(starts) * k)
        cache[k] = tuple(tuple(at[(r + i * dr, c + i * dc)] for i in range(k))
                         for r, c, (dr, dc) in starts)
    ctx.charge(len(cache[k]))
    return cache[k]


@_fn("edges", 1, 1, list_of(STR))
def _edges(ctx, b):
    """Every edge's id (`a1-b1`), in the order the board declares them: the keys of state
    kept on edges, `per: "edges('board')"`."""
    g = _board(ctx, b)
    ids = board_edges.edge_table(g)[0]
    ctx.charge(len(ids))
    return ids


@_fn("edges_of", 2, 2, list_of(STR), [None, STR])
def _edges_of(ctx, b, n):
    """The ids of the edges at a node (leaving or entering it, on a one-way board)."""
    g = _board(ctx, b)
    out = board_edges.edge_table(g)[2][_node(g, n)]
    ctx.charge(len(out))
    return out


@_fn("ends", 2, 2, list_of(STR), [None, STR])
def _ends(ctx, b, e):
    """An edge's two nodes, as the board declares them."""
    g = _board(ctx, b)
    found = board_edges.edge_table(g)[1].get(e) if isinstance(e, str) else None
    if found is None:
        fail(f"the board has no edge {render(e, False)}")
    return found


@_fn("edge", 3, 3, ANY, [None, STR, STR])
def _edge(ctx, b, x, y):
    """The id of the edge joining x to y (either way on a board that is not one-way), or none."""
    g = _board(ctx, b)
    return board_edges.edge_table(g)[3].get((_node(g, x), _node(g, y)))


def _grid_runs(g):
    """(cell -> node, {direction: {cell: cells in a row from it, itself included}})."""
    cached = g.graph.get("_meeple_runs")
    if cached is not None:
        return cached
    at = grid.cells(g)
    runs = {}
    for dr, dc in _line_directions(g):
        run: dict = {}
        for cell in at:  # each run is walked once, from the cell where it starts
            r, c = cell
            if (r - dr, c - dc) in at:
                continue
            line = []
            while (r, c) in at:
                line.append((r, c))
                r, c = r + dr, c + dc
            for i, x in enumerate(line):
                run[x] = len(line) - i
        runs[(dr, dc)] = run
    cached = g.graph["_meeple_runs"] = (at, runs)
    return cached


def _adjacent(g) -> dict:
    """node -> its neighbours (successors on a one-way board), as a tuple: boards never
    change during a game, so the walks of hop_targets read them from here."""
    cached = g.graph.get("_meeple_adjacent")
    if cached is None:
        cached = g.graph["_meeple_adjacent"] = {n: tuple(g.neighbors(n)) for n in g}
    return cached


def _text_set(xs) -> set:
    """The texts among xs, as a set (a node is a text; nothing else can equal one)."""
    try:
        found = set(xs)
    except TypeError:  # an unhashable value (a map) among them
        return {n for n in xs if isinstance(n, str)}
    return found


@_fn("hop_targets", 5, 5, list_of(STR), [None, STR, LIST, LIST, INT])
def _hop_targets(ctx, b, start, over, blocked, k):
    """The first free nodes beyond runs of occupied nodes: every node reachable from `start`
    along a path whose inner nodes all lie in `over` (at most `k` of them), that is itself
    neither in `over` nor in `blocked`, nor `start`.  A node in both lists may be passed.
    Sorted."""
    g = _board(ctx, b)
    start = _node(g, start)
    k = want_int(k, "the number of nodes that may be passed")
    over, blocked = want_list(over, "the nodes that may be passed"), want_list(blocked, "the blocked nodes")
    return hop_walk(ctx, _adjacent(g), start, over, blocked, k)


def board_adjacency(ctx, b) -> dict:
    """Board `b`'s nodes and their neighbours, as hop_walk reads them."""
    return _adjacent(_board(ctx, b))


def hop_walk(ctx, adjacent: dict, start, over, blocked, k: int) -> tuple:
    """hop_targets' walk, for a caller that knows `over` and `blocked` are lists and `k`
    an int (generated code that proved their types calls it without the checks)."""
    if not isinstance(start, str) or start not in adjacent:
        _node({}, start)  # reports the missing node as hop_targets does
    scanned = len(over) + len(blocked)
    if scanned > SCAN_FREE:  # charge_scan's rule, without its call for the short lists of a walk
        charge_scan(ctx, scanned)
    # A listing walks from every piece past the same list of occupied nodes: the set made
    # of the last such list (a tuple, which cannot change) is made once.
    last = _last_passed[0]
    if last[0] is over:
        passed = last[1]
    else:
        passed = _text_set(over)
        if type(over) is tuple:
            _last_passed[0] = (over, passed)
    if k < 0:  # no level to walk
        ctx.charge(0)
        return ()
    stopped = passed if blocked is over else _text_set(blocked)
    seen, frontier, out = {start}, (start,), []
    steps = depth = 0  # charged once at the end: the walk has no effect a failure part-way would show
    while True:  # a level at a time; the pieces on the k-th level are passed no further
        nxt = []
        for n in frontier:
            for m in adjacent[n]:
                if m not in seen:
                    seen.add(m)
                    if m in passed:
                        nxt.append(m)
                    elif m not in stopped:
                        out.append(m)
        steps += len(frontier) + 1
        if not nxt or depth == k:
            break
        frontier = nxt
        depth += 1
    ctx.charge(steps)
    return tuple(out) if len(out) < 2 else _node_list(out)


_last_passed = [((), set())]  # (the last tuple of passable nodes, its set), replaced whole


@_fn("within", 3, 3, list_of(STR), [None, STR, INT])
def _within(ctx, b, start, k):
    """The nodes at 1 to k steps from `start` (following edge directions on a one-way board),
    sorted.  Boards never change, so each (start, k) is computed once per board."""
    g = _board(ctx, b)
    start = _node(g, start)
    k = want_int(k, "the number of steps")
    if k < 0:
        fail("within needs a number of steps of at least 0")
    cache = g.graph.setdefault("_meeple_within", {})
    key = (start, k)
    if key not in cache:
        ctx.charge(len(g))
        dist = nx.single_source_shortest_path_length(g, start, cutoff=k)
        cache[key] = _node_list(n for n, d in dist.items() if 0 < d)
    ctx.charge(len(cache[key]))
    return cache[key]
