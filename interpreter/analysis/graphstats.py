"""Statistics of an explored state graph: sizes per depth, terminal states and
their outcomes, branching, the longest path, perft counts and the number of
distinct complete games."""
from __future__ import annotations

from collections import Counter, defaultdict

import networkx as nx

from .explore import Exploration


def perft(g: nx.MultiDiGraph, root: str, depth: int) -> list[int]:
    """perft[d] = number of move sequences of length d from the root (d = 0..depth).
    Sequences that reach a terminal state earlier stop there and are not counted at d."""
    counts = {root: 1}
    out = [1]
    for _ in range(depth):
        nxt: dict = defaultdict(int)
        for node, c in counts.items():
            for _, child in g.out_edges(node):
                nxt[child] += c
        counts = nxt
        out.append(sum(counts.values()))
        if not counts:
            break
    return out


def complete_games(g: nx.MultiDiGraph, root: str) -> int | None:
    """Distinct move sequences from the root to a terminal state; None if the
    graph has a cycle (then there are infinitely many)."""
    simple = nx.DiGraph(g)
    if not nx.is_directed_acyclic_graph(simple):
        return None
    paths: dict = defaultdict(int)
    paths[root] = 1
    for node in nx.topological_sort(simple):
        c = paths.get(node, 0)
        if not c:
            continue
        for _, child in g.out_edges(node):
            paths[child] += c
    return sum(c for n, c in paths.items() if g.nodes[n]["terminal"])


def summarize(ex: Exploration, perft_depth: int | None = None) -> dict:
    g = ex.graph
    by_depth = Counter(d["depth"] for _, d in g.nodes(data=True))
    edges_by_depth = Counter(g.nodes[a]["depth"] for a, _ in g.edges())
    terminals = [n for n, d in g.nodes(data=True) if d["terminal"]]
    outcomes = Counter(("winners " + (g.nodes[n].get("winners") or "none")) for n in terminals)
    branching = [g.out_degree(n) for n, d in g.nodes(data=True) if d["expanded"] and not d["terminal"]]
    simple = nx.DiGraph(g)
    acyclic = nx.is_directed_acyclic_graph(simple)
    max_depth = max(by_depth) if by_depth else 0
    depth = perft_depth if perft_depth is not None else max_depth
    return {
        "complete": ex.complete,
        "stopped_by": ex.stopped_by,
        "limits": ex.limits,
        "states": g.number_of_nodes(),
        "edges": g.number_of_edges(),
        "expanded": ex.expanded,
        "frontier": ex.frontier,
        "seconds": round(ex.seconds, 3),
        "states_per_depth": [by_depth.get(d, 0) for d in range(max_depth + 1)],
        "edges_per_depth": [edges_by_depth.get(d, 0) for d in range(max_depth + 1)],
        "terminal_states": len(terminals),
        "outcomes": dict(sorted(outcomes.items())),
        "branching": {"min": min(branching) if branching else 0, "max": max(branching) if branching else 0,
                      "mean": round(sum(branching) / len(branching), 3) if branching else 0},
        "acyclic": acyclic,
        "longest_path": nx.dag_longest_path_length(simple) if acyclic and len(simple) else None,
        "perft": perft(g, ex.root, depth),
        "complete_games": complete_games(g, ex.root) if ex.complete else None,
    }
