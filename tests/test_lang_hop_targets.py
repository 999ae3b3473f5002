"""The library functions hop_targets (the first free nodes past runs of occupied nodes)
and sum_maps (maps of counts added key by key)."""
from __future__ import annotations

import networkx as nx
import pytest

from meeple.dsl.eval_errors import EvalError
from meeple.dsl.functions import FUNCTIONS


class _Ctx:
    def __init__(self, boards=None):
        self.game = type("G", (), {"boards": boards or {}})()
        self.cost = 0

    def charge(self, n=1):
        self.cost += n


def _tree():
    # s - a - b - c, and b - d - e
    g = nx.Graph()
    g.add_edges_from([("s", "a"), ("a", "b"), ("b", "c"), ("b", "d"), ("d", "e")])
    return g


def hop(*args):
    return FUNCTIONS["hop_targets"].impl(_Ctx({"t": _tree()}), "t", *args)


def test_first_free_node_along_every_branch():
    assert hop("s", [], [], 2) == ("a",)
    assert hop("s", ["a"], ["a"], 2) == ("b",)
    assert hop("s", ["a", "b"], ["a", "b"], 2) == ("c", "d")


def test_limit_on_passed_nodes():
    occ = ["a", "b", "d"]
    assert hop("s", occ, occ, 2) == ("c",)          # e would need passing three
    assert hop("s", occ, occ, 3) == ("c", "e")
    assert hop("s", occ, occ, 0) == ()


def test_blocked_nodes_are_neither_passed_nor_reached():
    assert hop("s", [], ["a"], 4) == ()
    assert hop("b", ["a"], ["a", "d"], 2) == ("c", "s")


def test_start_is_never_a_target_and_errors_are_eval_errors():
    assert hop("a", ["b"], ["b"], 2) == ("c", "d", "s")
    with pytest.raises(EvalError):
        hop("zz", [], [], 1)
    with pytest.raises(EvalError):
        hop("s", "a", [], 1)


def test_a_one_way_board_is_walked_along_its_edges_only():
    g = nx.DiGraph()
    g.add_edges_from([("s", "a"), ("a", "b"), ("c", "s")])
    one_way = FUNCTIONS["hop_targets"].impl
    assert one_way(_Ctx({"w": g}), "w", "s", ["a"], ["a"], 1) == ("b",)  # c leads to s, not from it
    assert one_way(_Ctx({"w": g}), "w", "a", [], [], 1) == ("b",)


def test_values_that_are_not_nodes_in_the_lists_change_nothing():
    assert hop("s", ["a", 7, {"a": 1}], ["a", (1, 2)], 2) == ("b",)
    assert hop("s", [1, True], [None], 1) == ("a",)


def test_sum_maps():
    f = FUNCTIONS["sum_maps"].impl
    assert f(_Ctx(), ({"a": 1}, {"a": 2, "b": 1}, {})) == {"a": 3, "b": 1}
    assert f(_Ctx(), ()) == {}
    with pytest.raises(EvalError):
        f(_Ctx(), ({"a": "x"},))
    with pytest.raises(EvalError):
        f(_Ctx(), (1,))
