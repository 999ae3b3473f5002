"""The flow graph around the current control point, for the author panel: drawn as
`meeple graph --flow -f svg` draws the whole flow (matplotlib, the `sim` extra), the steps
that lead to the point above it, those that follow below, the point itself in the colour
that picture gives its start.  The whole flow of a rulebook game is too tall to read beside
a table; `meeple graph GAME --flow` draws it.  Drawings are kept per ruleset and point:
matplotlib takes a moment, and play comes back to the same points."""
from __future__ import annotations

import threading

import networkx as nx

from meeple.cli.graph_svg import DrawingError, draw_svg
from meeple.cli.graphs import _label

AROUND = 3  # steps each way from the current point
_DRAWN: dict = {}  # (the ruleset's content hash, point) -> (SVG text or why there is none, drawn)
_ONE_AT_A_TIME = threading.Lock()  # pyplot keeps one current figure: pages are drawn in worker threads


def flow_picture(rules, pc: int) -> tuple[str, bool]:
    """(the SVG, True) or (why there is none, False)."""
    key = (rules.ruleset.content_hash, pc)
    with _ONE_AT_A_TIME:
        if key not in _DRAWN:
            _DRAWN[key] = _draw(rules, rules.flow.graph, pc)
    return _DRAWN[key]


def point_text(rules, pc: int) -> str:
    return _label(rules.flow.graph, pc)


def _draw(rules, graph, pc: int):
    shown = nx.ego_graph(graph, pc, radius=AROUND, undirected=True)
    ahead = nx.single_source_shortest_path_length(shown, pc)
    behind = nx.single_source_shortest_path_length(shown.reverse(copy=False), pc)
    layers = {n: ahead.get(n, -behind.get(n, AROUND + 1)) for n in shown.nodes}
    labels = {n: _label(graph, n) for n in shown.nodes}
    moves = {(a, b): d.get("move", "") for a, b, d in shown.edges(data=True) if d.get("move")}
    try:
        svg = draw_svg(shown, pc, labels, layers, moves, f"{rules.ruleset.game.name}: the flow around {pc}")
        return svg[svg.index("<svg"):], True  # inside a page: no XML declaration or doctype
    except DrawingError as exc:
        return str(exc), False
