"""The library function within(board, node, k): nodes at 1..k steps, sorted, cached per board."""
from __future__ import annotations

import networkx as nx
import pytest

from meeple.dsl.eval_errors import EvalError
from meeple.dsl.functions import FUNCTIONS


class _Ctx:
    def __init__(self, boards):
        self.game = type("G", (), {"boards": boards})()
        self.cost = 0

    def charge(self, n=1):
        self.cost += n


def _within():
    return FUNCTIONS["within"].impl


def _line():
    g = nx.Graph()
    g.add_edges_from([("a", "b"), ("b", "c"), ("c", "d")])
    return g


def test_steps_and_order():
    ctx = _Ctx({"track": _line()})
    f = _within()
    assert f(ctx, "track", "a", 2) == ("b", "c")
    assert f(ctx, "track", "c", 1) == ("b", "d")
    assert f(ctx, "track", "a", 0) == ()
    assert f(ctx, "track", "b", 10) == ("a", "c", "d")


def test_directed_board_follows_edges():
    g = nx.DiGraph()
    g.add_edges_from([("a", "b"), ("b", "c")])
    ctx = _Ctx({"oneway": g})
    assert _within()(ctx, "oneway", "b", 3) == ("c",)


def test_cached_and_errors():
    g = _line()
    ctx = _Ctx({"track": g})
    f = _within()
    assert f(ctx, "track", "a", 3) is f(ctx, "track", "a", 3)
    with pytest.raises(EvalError):
        f(ctx, "track", "a", -1)
    with pytest.raises(EvalError):
        f(ctx, "track", "zz", 1)
