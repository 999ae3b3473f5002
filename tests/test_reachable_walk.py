"""`reachable` walks a cached adjacency instead of a networkx subgraph view (issue 43: a maze
game's wall check walked the board hundreds of times a move, 85% of its playout in networkx's
views).  The walk must give exactly what networkx's descendants of the kept subgraph give, on
one-way and two-way boards, with any allowed list (stray texts, repeats, the start itself)."""
from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.dsl import library_boards

NODES = [f"n{i}" for i in range(12)]


@st.composite
def boards_and_questions(draw):
    directed = draw(st.booleans())
    g = nx.DiGraph() if directed else nx.Graph()
    g.add_nodes_from(NODES)
    pairs = st.tuples(st.sampled_from(NODES), st.sampled_from(NODES))
    g.add_edges_from(draw(st.lists(pairs, max_size=30)))
    start = draw(st.sampled_from(NODES))
    allowed = draw(st.lists(st.sampled_from(NODES + ["elsewhere", 7]), max_size=16))
    return g, start, allowed


@settings(max_examples=300, deadline=None)
@given(boards_and_questions())
def test_the_walk_finds_what_networkx_finds(question):
    g, start, allowed = question
    keep = {n for n in allowed if isinstance(n, str) and n in g} | {start}
    expected = nx.descendants(g.subgraph(keep), start)
    adjacent = {n: tuple(g.neighbors(n)) for n in g}
    assert library_boards._walk_within(adjacent, start, keep) == expected
