"""Lines on any board (a board's `lines:`, walked by `lines(b, k)`) and state on a board's
edges (`edges`, `edges_of`, `ends`, `edge`; dsl/board_edges.py), on both back ends, with
bad declarations reported where they are written."""
from __future__ import annotations

import pytest

from meeple.interpreter import load_game, load_rules
from meeple.interpreter.codegen.fused import located_reasons
from meeple.interpreter.runtime.context import RuleError

from ruleset_support import diagnostics_at, write_ruleset

PROBE = """game: {name: probe, players: 1}
boards:
%s
variables:
  got: {type: any, initial: "none"}
flow:
  - choose: [look]
actions:
  look:
    params: {q: "range(%d)"}
    effects:
%s
scoring:
  score: "0"
"""


def _values(tmp_path, board: str, exprs: list[str], backend: str, options=None):
    """What each expression gives in a game of a one-board ruleset (`look(q=i)` stores
    the i-th in `got`)."""
    effects = "\n".join(f"      - if: \"q == {i}\"\n        then: [\"got = {e}\"]" for i, e in enumerate(exprs))
    path = write_ruleset(tmp_path, PROBE % (board, len(exprs), effects), f"probe-{backend}")
    game = load_game(path, 1, options or {}, backend=backend)
    out = []
    for i in range(len(exprs)):
        out.append(game.apply(game.new_state(0), f"look(q={i})").vars["got"])
    return out


MILL = """  square:
    nodes: [nw, n, ne, w, mid, e, sw, s, se]
    edges: [[nw, n], [n, ne], [n, mid], [w, mid], [mid, e], [s, mid]]
    lines: [[nw, n, ne], [ne, e, se], [n, mid, s], [w, mid, e], [nw, w, sw]]"""


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_a_board_that_is_no_grid_walks_the_lines_it_declares(tmp_path, backend):
    got = _values(tmp_path, MILL, ["lines('square', 3)", "lines('square', 2)[:4]", "len(lines('square', 1))",
                                   "lines('square', 4)"], backend)
    assert got[0] == (("nw", "n", "ne"), ("ne", "e", "se"), ("n", "mid", "s"), ("w", "mid", "e"), ("nw", "w", "sw"))
    assert got[1] == (("nw", "n"), ("n", "ne"), ("ne", "e"), ("e", "se"))
    assert got[2] == 9 and got[3] == ()  # each node once; no line is four long


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_a_grid_that_declares_lines_is_walked_along_them_only(tmp_path, backend):
    board = "  g:\n    grid: {rows: 3, cols: 3}\n    lines: [[a1, b2, c3]]\n  plain:\n    grid: {rows: 3, cols: 3}"
    got = _values(tmp_path, board, ["lines('g', 3)", "len(lines('plain', 3))"], backend)
    assert got == [(("a1", "b2", "c3"),), 8]


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_an_edge_has_a_stable_id_and_its_nodes_and_edges_are_found_both_ways(tmp_path, backend):
    board = ("  dots:\n    grid: {rows: 2, cols: 2}\n"
             "  road:\n    nodes: [x, y, z]\n    edges: [[y, x], [y, z], [x, y]]\n"
             "  river:\n    nodes: [up, down]\n    edges: [[up, down]]\n    directed: true")
    got = _values(tmp_path, board, [
        "edges('dots')", "edges_of('dots', 'b2')", "ends('dots', 'a1-a2')", "edge('dots', 'b1', 'a1')",
        "edges('road')", "edge('road', 'x', 'y')", "edge('road', 'x', 'z')",
        "edge('river', 'down', 'up')", "edges_of('river', 'down')"], backend)
    assert got == [("a1-b1", "a1-a2", "b1-b2", "a2-b2"), ("b1-b2", "a2-b2"), ("a1", "a2"), "a1-b1",
                   ("y-x", "y-z"), "y-x", None,  # [x, y] written again is the edge y-x
                   None, ("up-down",)]


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_an_unknown_edge_or_node_is_r701(tmp_path, backend):
    board = "  dots:\n    grid: {rows: 2, cols: 2}"
    path = write_ruleset(tmp_path, PROBE % (board, 2, "      - if: \"q == 0\"\n        then: [\"got = ends('dots', 'a1-b2')\"]\n"
                                            "      - if: \"q == 1\"\n        then: [\"got = edges_of('dots', 'z9')\"]"),
                         "bad")
    game = load_game(path, 1, backend=backend)
    for q in (0, 1):
        with pytest.raises(RuleError) as err:
            game.apply(game.new_state(0), f"look(q={q})")
        assert err.value.code == "R701" and err.value.span.line == 14 + 2 * q


def test_state_is_kept_per_edge_by_id(tmp_path):
    text = PROBE % ("  dots:\n    grid: {rows: 2, cols: 2}", 1, "      - \"drawn['a1-b1'] = true\"")
    text = text.replace("variables:\n", "variables:\n  drawn: {per: \"edges('dots')\", type: bool, initial: false}\n")
    game = load_game(write_ruleset(tmp_path, text, "state"), 1)
    state = game.apply(game.new_state(0), "look(q=0)")
    assert state.vars["drawn"] == {"a1-b1": True, "a1-a2": False, "b1-b2": False, "a2-b2": False}


def test_the_fused_tier_takes_edges_and_declared_lines_and_locates_edge(tmp_path):
    ring = load_rules("tests/games/ring-fences", backend="compiled")
    assert ring.playout_tier() == "fused" and located_reasons(ring) == []
    text = PROBE % ("  dots:\n    grid: {rows: 2, cols: 2}", 1,
                    "      - if: \"edge('dots', 'a1', 'b1') == 'a1-b1'\"\n        then: [\"got = 1\"]")
    rules = load_rules(write_ruleset(tmp_path, text.replace("type: any, initial: \"none\"", "type: int, initial: 0"),
                                     "edge"), backend="compiled")
    [(why, span)] = located_reasons(rules)
    assert "edge" in why and (span.line, span.col) == (13, 14)


def _board_case(board: str) -> str:
    return PROBE % (board, 1, "      - \"got = 1\"")


@pytest.mark.parametrize("board,expected", [
    ("  m:\n    nodes: [a, b, c]\n    lines: [[a, b, cc]]", [("N304", 5, "cc", "error")]),
    ("  m:\n    nodes: [a, b, c]\n    lines: [[a], [a, b, a]]",
     [("S123", 5, "[a, b, a]", "error"), ("S123", 5, "[a]", "error")]),
    ("  m:\n    nodes: [a, b, c]\n    lines: [a, b]", [("S103", 5, "a", "error"), ("S103", 5, "b", "error")]),
    ("  m:\n    nodes: [a-b, c, a, b-c]\n    edges: [[a-b, c], [a, b-c]]", [("S124", 5, "[[a-b, c], [a, b-c]]", "error")]),
    ("  m:\n    nodes: [a, b]\n    edges: [[a, b], [b, a]]", []),  # the same edge twice is one edge
])
def test_a_bad_line_or_edge_id_is_reported_where_it_is_written(tmp_path, board, expected):
    assert [d for d in diagnostics_at(tmp_path, _board_case(board)) if d[3] == "error"] == expected


def test_a_literal_board_name_is_checked_for_the_edge_functions(tmp_path):
    text = _board_case("  m:\n    nodes: [a, b]\n    edges: [[a, b]]").replace('"got = 1"', "\"got = edges('n')\"")
    assert [d[:3] for d in diagnostics_at(tmp_path, text) if d[3] == "error"] == [("N307", 14, "'n'")]


def test_a_sized_grid_checks_its_lines_at_every_size(tmp_path):
    text = _board_case("  g:\n    grid: {rows: \"options.size\", cols: \"options.size\"}\n    lines: [[a1, b2, c3]]")
    text = text.replace("players: 1}", "players: 1, options: {size: {default: 3}}}")
    path = write_ruleset(tmp_path, text, "sized")
    assert load_game(path, 1, {"size": 4}) is not None
    with pytest.raises(ValueError, match="c3"):
        load_game(path, 1, {"size": 2})
