"""Definitions without parameters must not depend on themselves, and no definition with
parameters may take a library function's name.

A definition without parameters is one value; if its expression reads itself,
directly or through other such definitions (`x: y`, `y: x`), that value has no
ground to stand on and evaluating it could only recurse forever.  A definition
with parameters may call itself (its arguments can make it stop); such calls
are bounded at run time instead (R702: call depth and cost).
"""
from __future__ import annotations

from typing import Iterator

import networkx as nx

from .. import expr_ast as A
from ..diagnostics import Diagnostic
from ..functions import FUNCTIONS
from ..model import Ruleset


def check_definition_names(rs: Ruleset) -> Iterator[Diagnostic]:
    """A call is looked up in the library first, so a definition with parameters named
    `len` or `step` would be silently ignored wherever it is called.  (One without
    parameters is read as a name, which the ruleset's own names answer first.)"""
    for name, decl in rs.defines.items():
        if name in FUNCTIONS and decl.params:
            yield Diagnostic("N314", f"definition '{name}' takes the name of a library function, which "
                             f"every call would reach instead: give the definition another name "
                             f"(such as '{name}_of' or 'my_{name}')", decl.span)


def check_definition_cycles(rs: Ruleset) -> Iterator[Diagnostic]:
    plain = {name: d for name, d in rs.defines.items() if not d.params and d.expr is not None}
    graph = nx.DiGraph()
    graph.add_nodes_from(plain)
    for name, decl in plain.items():
        graph.add_edges_from((name, used) for used in A.names_read(decl.expr) if used in plain)
    order = {name: i for i, name in enumerate(rs.defines)}
    for component in nx.strongly_connected_components(graph):
        if len(component) == 1 and not graph.has_edge(*(2 * tuple(component))):
            continue
        first = min(component, key=order.__getitem__)
        cycle = _cycle_from(graph, first, component)
        yield Diagnostic("N308", f"definition '{first}' depends on itself: "
                         "a definition without parameters cannot refer back to itself",
                         plain[first].span, notes=(" -> ".join(cycle + [first]),))


def _cycle_from(graph: nx.DiGraph, start: str, component: set) -> list[str]:
    """One cycle through `start` inside its strongly connected component."""
    sub = graph.subgraph(component)
    for target in sorted(sub.predecessors(start)):
        path = nx.shortest_path(sub, start, target)
        return list(path)
    return [start]
