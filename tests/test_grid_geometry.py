"""Grid geometry (issue 42): cells by row and column, directions, steps and rays, hex
grids, and grids whose size is an option, on both back ends.

The library functions themselves are in the expression table tests/expr/grid.yaml (the
stand-in 3 x 3 grid).  Here they run inside real games: a probe action lists what an
expression gives as its moves, so each back end evaluates it its own way; and the
boards that a game's options resize reach every reader (the functions, the drawing,
`meeple board`, the observation encoding, the playout tiers)."""
from __future__ import annotations

import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

from meeple.adapters.observation import ObservationLayout
from meeple.dsl.build_grid import BoardSizeError
from meeple.dsl.functions import FUNCTIONS
from meeple.dsl.load import check_ruleset, read_ruleset
from meeple.interpreter import load_game, load_rules
from meeple.interpreter.presentation.board_layout import node_positions
from meeple.interpreter.presentation.board_export import board_as_text
from meeple.interpreter.runtime.context import RuleError
from meeple.interpreter.analysis.differential import compare_backends
from meeple.interpreter.runtime.game import Game

ROOT = Path(__file__).resolve().parent.parent
EMBER = ROOT / "tests" / "games" / "ember-queens"
BACKENDS = ("reference", "compiled")


def ruleset(tmp_path, board: str, domain: str, options: str = "", name: str = "probe") -> Path:
    """A one-action ruleset whose moves are the values of `domain` (board 'b')."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"""game:
  name: {name}
  players: 2
  options: {{{options}}}
boards:
  b: {board}
variables:
  done: {{type: bool, initial: false}}
flow:
  - loop:
      - turns: "players()"
        do: [{{choose: [probe]}}]
actions:
  probe:
    params: {{x: "{domain}"}}
    effects: [{{set: "done = true"}}]
end:
  - when: "done"
""")
    return path


def values(path, backend, options=None) -> list:
    game = load_game(path, 2, options, backend=backend)
    return [dict(m.args)["x"] for m in game.legal_moves(game.new_state(0))]


# -- hex grids -------------------------------------------------------------------------------

HEX = "{grid: {rows: 4, cols: 4, shape: hex}}"


def test_a_hex_grid_is_a_rhombus_whose_inner_cells_have_six_neighbours(tmp_path):
    game = load_game(ruleset(tmp_path, HEX, "nodes('b')"), 2)
    g = game.boards["b"]
    assert len(g) == 16 and g.number_of_edges() == 3 * 4 * 4 - 4 * 4 + 1
    assert sorted(g.neighbors("b2")) == ["a2", "a3", "b1", "b3", "c1", "c2"]
    assert [g.degree(n) for n in ("a1", "d1", "a4", "d4")] == [2, 3, 3, 2]
    # As drawn, every neighbour is one cell away.
    at = node_positions(g)
    assert all(math.isclose(math.dist(at[a], at[b]), 1.0) for a, b in g.edges)


@pytest.mark.parametrize("backend", BACKENDS)
def test_hex_directions_name_the_six_neighbours(tmp_path, backend):
    path = ruleset(tmp_path, HEX, "[step('b', 'b2', d) for d in directions('hex')]")
    assert values(path, backend) == ["b3", "c2", "c1", "b1", "a2", "a3"]
    game = load_game(path, 2, backend=backend)
    assert sorted(values(path, backend)) == sorted(game.boards["b"].neighbors("b2"))


@pytest.mark.parametrize("backend", BACKENDS)
def test_hex_lines_run_along_the_three_axes(tmp_path, backend):
    path = ruleset(tmp_path, HEX, "[join(line, '-') for line in lines('b', 4)]")
    assert values(path, backend) == ["a1-b1-c1-d1", "a1-a2-a3-a4", "b1-b2-b3-b4", "c1-c2-c3-c4", "d1-d2-d3-d4",
                                     "d1-c2-b3-a4", "a2-b2-c2-d2", "a3-b3-c3-d3", "a4-b4-c4-d4"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_compass_name_a_hex_grid_has_not_fails_where_it_is_written(tmp_path, backend):
    game = load_game(ruleset(tmp_path, HEX, "[step('b', 'b2', 'n')]"), 2, backend=backend)
    with pytest.raises(RuleError) as info:
        game.legal_moves(game.new_state(0))
    assert info.value.code == "R701"
    line = (tmp_path / "probe.yaml").read_text().split("\n")[14]
    assert (info.value.span.line, info.value.span.col) == (15, line.index("step(") + 1)


def test_a_hex_grid_is_drawn_with_each_row_half_a_cell_further_east(tmp_path):
    path = tmp_path / "marked.yaml"
    path.write_text(ruleset(tmp_path, HEX, "nodes('b')").read_text().replace(
        "  done: {type: bool, initial: false}",
        "  done: {type: bool, initial: false}\n  stone: {per: \"nodes('b')\", type: str, initial: \"''\"}"))
    game = load_game(path, 2)
    state = game.new_state(0)
    lines = board_as_text(game, game.view(state, 0), "b").splitlines()[1:5]
    assert [line.index(".") for line in lines] == [6, 5, 4, 3]  # row 4 at the top, shifted most


# -- sizes from options ----------------------------------------------------------------------

SIZED = "{grid: {rows: \"options.size\", cols: \"options.size + 1\", diagonal: true}}"
SIZE_OPTION = "size: {default: 3}"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_grid_sized_by_an_option_is_built_for_each_game(tmp_path, backend):
    path = ruleset(tmp_path, SIZED, "ray('b', 'a1', 'ne')", SIZE_OPTION)
    assert values(path, backend) == ["b2", "c3"]
    assert values(path, backend, {"size": 5}) == ["b2", "c3", "d4", "e5"]
    rules = load_rules(path, backend)
    default, bigger, again = (Game(rules, 2, o) for o in (None, {"size": 5}, {"size": 5}))
    assert default.boards is rules.boards  # the default size: the board built when loading
    assert len(bigger.boards["b"]) == 30 and bigger.boards is again.boards  # made once per size
    assert len(default.boards["b"]) == 12
    # The board functions, the per-node variables and the moves all read the game's board.
    assert values(path, backend, {"size": 3}) == ["b2", "c3"]
    corner = ruleset(tmp_path, SIZED, "[cell('b', options.size - 1, options.size)]", SIZE_OPTION, "corner")
    assert values(corner, backend, {"size": 7}) == ["h7"]


def test_each_game_of_another_size_plays_the_same_on_both_back_ends():
    for options in ({"size": 4, "leaps": True}, {"size": 8}):
        report = compare_backends(EMBER, 2, games=3, seed=5, options=options)
        assert report.ok, str(report)
        assert report.moves > 0 and report.deopts == 0, str(report)


@pytest.mark.parametrize("size", [0, -2, 101])
def test_options_that_give_a_grid_no_size_it_can_have_stop_the_game_being_made(tmp_path, size):
    rules = load_rules(ruleset(tmp_path, SIZED, "nodes('b')", SIZE_OPTION))
    with pytest.raises(BoardSizeError) as info:
        Game(rules, 2, {"size": size})
    assert isinstance(info.value, ValueError) and "'b'" in str(info.value)


def test_options_that_drop_a_node_the_edges_name_stop_the_game_being_made(tmp_path):
    board = "{grid: {rows: \"options.size\", cols: \"options.size\"}, nodes: [exit], edges: [[exit, c3]]}"
    rules = load_rules(ruleset(tmp_path, board, "nodes('b')", SIZE_OPTION))
    assert len(Game(rules, 2, {"size": 4}).boards["b"]) == 17
    with pytest.raises(BoardSizeError):
        Game(rules, 2, {"size": 2})


def test_every_board_of_a_game_counts_towards_the_ruleset_limit(tmp_path):
    path = tmp_path / "many.yaml"
    boards = "".join(f"  b{i}: {{grid: {{rows: \"options.size\", cols: \"options.size\"}}}}\n" for i in range(6))
    path.write_text(ruleset(tmp_path, "{nodes: [x]}", "nodes('b')", SIZE_OPTION).read_text()
                    .replace("boards:\n", "boards:\n" + boards))
    rules = load_rules(path)
    assert len(Game(rules, 2, {"size": 90}).boards["b5"]) == 8100
    with pytest.raises(BoardSizeError):
        Game(rules, 2, {"size": 100})  # 6 x 10,000 nodes


def test_the_command_line_reports_a_size_the_options_cannot_give_without_a_traceback(tmp_path):
    path = ruleset(tmp_path, SIZED, "nodes('b')", SIZE_OPTION)
    for command in (["simulate", path, "-n", "1", "--option", "size=0"], ["board", path, "--option", "size=0"]):
        done = subprocess.run([sys.executable, "-m", "meeple.cli", *map(str, command)], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
        assert "board 'b'" in done.stderr


def test_meeple_board_draws_the_size_the_options_give():
    done = subprocess.run([sys.executable, "-m", "meeple.cli", "board", str(EMBER), "--option", "size=7"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line[:2].strip().isdigit()]
    assert len(rows) == 7 and rows[0].split()[-1] == "1" and rows[-1].split()[:2] == ["1", "0"]


def test_the_observation_encodes_the_game_s_own_board():
    small, large = (ObservationLayout(load_game(EMBER, 2, {"size": s})) for s in (4, 8))
    assert "h8" in large.texts and "h8" not in small.texts
    assert (len(small.var_slots["mark"]), len(large.var_slots["mark"])) == (16, 64)


def test_a_board_a_game_s_options_make_too_large_for_the_fused_tier_plays_in_the_kernel(tmp_path):
    path = tmp_path / "stones.yaml"
    path.write_text("""game:
  name: stones
  players: 2
  options: {size: {default: 4}}
boards:
  b: {grid: {rows: "options.size", cols: "options.size"}}
variables:
  stone: {per: "nodes('b')", type: str, initial: "''"}
flow:
  - loop:
      - turns: "players()"
        do: [{choose: [place]}]
actions:
  place:
    params: {at: "nodes('b')"}
    require: [{check: "stone[at] == ''", reason: taken}]
    effects: [{set: "stone[at] = str(player)"}]
end:
  - when: "all(stone[n] != '' for n in nodes('b'))"
""")
    for size, tier in ((4, "FUSED"), (40, "PLAYOUT")):  # 1,600 nodes: past fused.MAX_NODES
        game = load_game(path, 2, {"size": size}, backend="compiled")
        assert game._playout_kernel()[0].__name__ == tier
        end = game.playout(game.new_state(0), rng=random.Random(1))
        assert game.is_terminal(end) and len([v for v in end.vars["stone"].values() if v]) == size * size


# -- located diagnostics when the ruleset is loaded ------------------------------------------

def _load_errors(tmp_path, board: str, options: str = SIZE_OPTION, domain: str = "nodes('b')"):
    """(code, line, column) of each error loading the probe ruleset, and its text's lines."""
    path = ruleset(tmp_path, board, domain, options)
    rs, diags = read_ruleset(path)
    if rs is not None and not any(d.severity == "error" for d in diags):
        diags += check_ruleset(rs)
    return [(d.code, d.span.line, d.span.col) for d in diags if d.severity == "error"], \
        path.read_text().split("\n")


def _at(lines, code: str, line: int, text: str):
    """The code at the first `text` on (1-based) `line`."""
    return code, line, lines[line - 1].index(text) + 1


@pytest.mark.parametrize("board,options,code,at", [
    ("{grid: {rows: \"options.size\", cols: 2}}", "size: {default: 0}", "S112", "\"options.size\""),
    ("{grid: {rows: \"options.size * 5000\", cols: 2}}", SIZE_OPTION, "S112", "\"options.size"),
    ("{grid: {rows: 0, cols: 2}}", SIZE_OPTION, "S112", "{rows"),
    ("{grid: {rows: \"'six'\", cols: 2}}", SIZE_OPTION, "T403", "'six'"),
    ("{grid: {rows: \"options.size\", cols: 2}}", "size: {default: six}", "T403", "options.size"),
    ("{grid: {rows: \"size\", cols: 2}}", SIZE_OPTION, "N301", "size"),
    ("{grid: {rows: \"options.sise\", cols: 2}}", SIZE_OPTION, "N305", "sise"),
    ("{grid: {rows: \"options.size + player_count()\", cols: 2}}", SIZE_OPTION, "R701", "player_count()"),
    ("{grid: {rows: \"options.size // 0\", cols: 2}}", SIZE_OPTION, "R701", "options.size // 0"),
    ("{grid: {rows: 3, cols: 3, shape: hex, diagonal: true}}", SIZE_OPTION, "S122", "true"),
    ("{grid: {rows: 3, cols: 3, shape: round}}", SIZE_OPTION, "S105", "round"),
    ("{grid: {rows: 3, cols: \"options.size +\"}}", SIZE_OPTION, "X202", "\"}}"),
], ids=["default size 0", "default size too big", "written size 0", "text size", "text option", "not an option",
        "unknown option", "reads the players", "fails", "hex with diagonals", "unknown shape", "syntax"])
def test_a_size_or_shape_that_cannot_be_is_reported_where_it_is_written(tmp_path, board, options, code, at):
    found, lines = _load_errors(tmp_path, board, options)
    assert found == [_at(lines, code, 6, at)]


@pytest.mark.parametrize("options,code,at", [
    ("size: {default: 3, choices: [3, 0, 4]}", "S112", "\"options.size\""),
    ("size: {default: 3, choices: [3, 200]}", "S112", "\"options.size\""),
    ("size: {default: 3, choices: [3, big]}", "T411", "big"),  # (a choice of another type is not tried)
], ids=["a choice of 0", "a choice too large", "a choice that is not a number"])
def test_every_size_the_declared_choices_give_is_tried_when_loading(tmp_path, options, code, at):
    found, lines = _load_errors(tmp_path, "{grid: {rows: \"options.size\", cols: \"options.size\"}}", options)
    assert found == [_at(lines, code, 4 if code == "T411" else 6, at)]


def test_choices_that_all_give_a_grid_load_cleanly_and_each_plays(tmp_path):
    options = "size: {default: 3, choices: [2, 3, 9]}, wide: {default: 1, choices: [1, 2]}"
    board = "{grid: {rows: \"options.size\", cols: \"options['size'] * options.wide\"}}"
    found, _ = _load_errors(tmp_path, board, options)
    assert found == []
    path = tmp_path / "probe.yaml"
    assert len(values(path, "compiled", {"size": 9, "wide": 2})) == 9 * 18


@pytest.mark.parametrize("domain,at", [("[step('b', 'a1', 'north')]", "'north'"),
                                       ("directions('orthogonl')", "'orthogonl'")])
def test_a_literal_direction_that_does_not_exist_is_n312(tmp_path, domain, at):
    found, lines = _load_errors(tmp_path, "{grid: {rows: 3, cols: 3}}", domain=domain)
    assert found == [_at(lines, "N313", 15, at)]


# -- the library on a real board -------------------------------------------------------------

class _Ctx:
    def __init__(self, game):
        self.game, self.cost = game, 0

    def charge(self, n=1):
        self.cost += n


def test_a_ray_costs_the_same_whether_or_not_the_board_kept_it(tmp_path):
    game = load_game(ruleset(tmp_path, "{grid: {rows: 8, cols: 8}}", "nodes('b')"), 2)
    costs = []
    for _ in range(2):
        ctx = _Ctx(game)
        assert FUNCTIONS["ray"].impl(ctx, "b", "a1", "ne") == ("b2", "c3", "d4", "e5", "f6", "g7", "h8")
        costs.append(ctx.cost)
    assert costs == [7, 7]


def test_columns_past_z_keep_their_coordinates(tmp_path):
    game = load_game(ruleset(tmp_path, "{grid: {rows: 2, cols: 30}}", "nodes('b')"), 2)
    ctx = _Ctx(game)
    assert FUNCTIONS["cell"].impl(ctx, "b", 1, 27) == "ab2"
    assert FUNCTIONS["col_of"].impl(ctx, "b", "ad1") == 29
    assert FUNCTIONS["ray"].impl(ctx, "b", "z1", "e")[-1] == "ad1"


def test_a_declared_position_of_a_node_a_smaller_grid_has_not_is_left_out(tmp_path):
    board = ("{grid: {rows: \"options.size\", cols: \"options.size\"}, nodes: [exit], edges: [[exit, a1]], "
             "display: {positions: {c3: [9, 9], exit: [-1, -1]}}}")
    game = load_game(ruleset(tmp_path, board, "nodes('b')", SIZE_OPTION), 2, {"size": 2})
    at = node_positions(game.boards["b"], game.rules.ruleset.boards["b"].display.positions)
    assert sorted(at) == ["a1", "a2", "b1", "b2", "exit"] and at["exit"] == (-1.0, -1.0)
