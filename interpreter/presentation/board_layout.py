"""Where each node of a board is drawn: its declared position (`display: positions`), its
grid place (a grid node's col and row; on a hex grid each row half a cell further east),
or else networkx's spring layout.

Placed nodes stay where they are and the others settle around them (`spring_layout` with
`fixed`).  A board with nothing placed starts from networkx's planar drawing when it is
planar, so few edges cross.  The layout is seeded: the same board and seed always give the
same positions, so a map does not move between turns.
"""
from __future__ import annotations

import networkx as nx


# On a hex grid each row lies half a cell east of the one below, and rows are closer than
# columns, so that a cell's six neighbours are all one cell away.
HEX_ROW_HEIGHT = 3 ** 0.5 / 2


def grid_place(graph, row: int, col: int) -> tuple[float, float]:
    """Where the cell (row, col) of a grid is drawn."""
    if graph.graph.get("shape") == "hex":
        return col + row / 2, row * HEX_ROW_HEIGHT
    return float(col), float(row)


def node_positions(graph, declared: dict | None = None, seed: int = 0) -> dict:
    """node -> (x, y), y pointing up, for every node of `graph`.  A declared position of a
    node the graph has not (a grid the game's options made smaller) is left out."""
    fixed = {n: at for n, at in (declared or {}).items() if n in graph}
    for node, data in graph.nodes(data=True):
        if node not in fixed and isinstance(data.get("col"), int) and isinstance(data.get("row"), int):
            fixed[node] = grid_place(graph, data["row"], data["col"])
    if all(n in fixed for n in graph.nodes):
        return {n: (float(fixed[n][0]), float(fixed[n][1])) for n in graph.nodes}
    undirected = nx.Graph(graph)
    if fixed:
        laid = nx.spring_layout(undirected, pos=fixed, fixed=list(fixed), seed=seed, k=_spacing(fixed, graph))
    else:
        laid = nx.spring_layout(undirected, pos=_planar(undirected), seed=seed)
    return {n: (float(laid[n][0]), float(laid[n][1])) for n in graph.nodes}


def _spacing(fixed: dict, graph) -> float:
    """The distance free nodes keep, in the units of the placed ones (spring_layout's `k`
    assumes a unit square, while declared positions may span any range)."""
    xs, ys = [p[0] for p in fixed.values()], [p[1] for p in fixed.values()]
    size = max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
    return size / max(1.0, len(graph) ** 0.5)


def _planar(undirected) -> dict | None:
    if len(undirected) < 3 or not nx.is_connected(undirected):
        return None
    ok, embedding = nx.check_planarity(undirected)
    if not ok:
        return None
    from networkx.algorithms.planar_drawing import combinatorial_embedding_to_pos
    return {n: (float(x), float(y)) for n, (x, y) in combinatorial_embedding_to_pos(embedding).items()}
