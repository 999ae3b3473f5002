"""The library functions hop_targets (the first free nodes past runs of occupied nodes)
and sum_maps (maps of counts added key by key)."""
from __future__ import annotations

import networkx as nx
import pytest

from meeple.dsl.eval_errors import EvalError
from meeple.dsl.functions import FUNCTIONS, board_adjacency, hop_walk


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


@pytest.mark.parametrize("start,over,blocked,k", [
    ("s", ["a", "b"], ["a", "b"], 2), ("s", ["a", "b", "d"], ["a", "b", "d"], 3), ("b", ["a"], ["a", "d"], 2),
    ("s", [], ["a"], 4), ("a", ["b"], ["b"], 0), ("s", ["a", 7], ["a", (1, 2)], 2)])
def test_the_walk_generated_code_calls_finds_and_charges_what_hop_targets_does(start, over, blocked, k):
    """The fused tier calls hop_walk on the board's adjacency once it has proven the
    arguments' types; it must find the same nodes and cost the same evaluation steps,
    also when one list is passed as both `over` and `blocked`."""
    boards = {"t": _tree()}
    library, walk = _Ctx(boards), _Ctx(boards)
    found = FUNCTIONS["hop_targets"].impl(library, "t", start, over, blocked, k)
    assert hop_walk(walk, board_adjacency(walk, "t"), start, over, blocked, k) == found
    assert walk.cost == library.cost > 0
    shared = list(over)
    assert hop_walk(walk, board_adjacency(walk, "t"), start, shared, shared, k) == \
        FUNCTIONS["hop_targets"].impl(library, "t", start, shared, list(shared), k)
    many = [f"x{i}" for i in range(40)] + list(over)  # a long list is charged for its scan
    before = (walk.cost, library.cost)
    hop_walk(walk, board_adjacency(walk, "t"), start, many, blocked, k)
    FUNCTIONS["hop_targets"].impl(library, "t", start, many, blocked, k)
    assert walk.cost - before[0] == library.cost - before[1] > 40


def test_the_walk_reports_a_start_off_the_board_as_hop_targets_does():
    ctx = _Ctx({"t": _tree()})
    with pytest.raises(EvalError) as walked:
        hop_walk(ctx, board_adjacency(ctx, "t"), "zz", [], [], 1)
    with pytest.raises(EvalError) as library:
        hop("zz", [], [], 1)
    assert walked.value.code == library.value.code and str(walked.value) == str(library.value)


@pytest.mark.parametrize("start,over,blocked,k,found,cost", [
    ("s", [], [], 2, ("a",), 2),
    ("s", ["a"], ["a"], 2, ("b",), 4),
    ("s", ["a", "b"], ["a", "b"], 1, (), 4),
    ("s", ["a", "b"], ["a", "b"], 2, ("c", "d"), 6),
    ("s", ["a", "b", "d"], [], 3, ("c", "e"), 8),
    ("b", ["a", "c", "d"], ["c"], 0, (), 2),
    ("b", ["a", "c", "d"], [], -1, (), 0),
    ("e", ["d", "b"], [], 5, ("a", "c"), 6),
])
def test_the_walk_charges_a_step_per_node_it_leaves_and_one_per_level(start, over, blocked, k, found, cost):
    """hop_walk's nodes and charge, written down: each level walked costs one step and
    one per node left from on it; a negative limit walks nothing."""
    ctx = _Ctx({"t": _tree()})
    assert hop_walk(ctx, board_adjacency(ctx, "t"), start, over, blocked, k) == found
    assert ctx.cost == cost
