"""Boards drawn as maps (a board's `display:`; interpreter/board_*.py; `meeple board`):
positions and node texts checked with codes at their places, a layout that never changes,
the text map and the SVG of every shipped graph board, and nothing drawn that the player's
view does not hold."""
from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from meeple.cli.main import app
from meeple.dsl.load import check_ruleset, read_ruleset
from meeple.interpreter import list_rulesets, load_game
from meeple.interpreter.presentation.board_export import board_as_svg, board_as_text, drawn_boards
from meeple.interpreter.presentation.board_layout import node_positions
from meeple.interpreter.presentation.board_scene import board_scene
from meeple.interpreter.presentation.board_text import draw_board
from meeple.interpreter.presentation.display import TableText
from meeple.interpreter.runtime.knowledge import WHOLE

from ruleset_support import write_ruleset

LAND = """
game: {name: land, players: 2}
boards:
  land:
    nodes:
      home: {kind: farm, toll: 0}
      mill: {kind: mill, toll: 2}
      port: {kind: port, toll: 1, ships: 2}
    edges: [[home, mill], [mill, port]]
    display:
      positions: {home: [0, 0], mill: [4, 1], port: [8, 0]}
      show: {by: kind, farm: "farm", mill: "mill, toll {toll}, grain {grain}",
             port: "port, toll {toll}, {ships} ships, cargo: {cargo}"}
      pieces: [at, cart.place]
components:
  cart:
    fields: {n: int}
    props: {place: {type: str, initial: "'home'"}}
    items: [{id: cart-1, n: 1}]
  crate:
    fields: {n: int}
    items: [{id: crate-1, n: 1}, {id: crate-2, n: 2}]
variables:
  at: {per: player, type: str, initial: "'home' if player == 1 else 'mill'"}
  secret: {per: player, type: str, initial: "'port'", visibility: owner}
  grain: {per: "nodes('land')", type: int, initial: "3 if key == 'mill' else 0"}
zones:
  cargo: {per: "nodes('land')", kind: stack, visibility: none,
          initial: "items('crate') if key == 'port' else []"}
setup:
  - for: c
    in: "items('cart')"
    do:
      - set: ["c.place = 'port'"]
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [go]
actions:
  go:
    params: {to: "neighbours('land', at[player])"}
    effects:
      - set: ["at[player] = to"]
end:
  - when: "at[0] == 'port' and at[1] == 'port'"
"""


@pytest.fixture
def land(tmp_path):
    return load_game(write_ruleset(tmp_path, LAND, "land"))


def _diagnostics(tmp_path, text):
    """The errors (not the lint warnings) of a ruleset text, as (code, line, column)."""
    rs, diags = read_ruleset(write_ruleset(tmp_path, text, "land"))
    if rs is not None:
        diags += check_ruleset(rs)
    return {(d.code, d.span.line, d.span.col) for d in diags if d.severity == "error"}


def test_the_example_ruleset_is_clean(tmp_path):
    assert _diagnostics(tmp_path, LAND) == set()


@pytest.mark.parametrize("old,new,code,at", [
    ("port: [8, 0]}", "port: [8, 0], barn: [1, 1]}", "N309", "barn"),
    ("port: [8, 0]}", "port: [8]}", "S118", "[8]"),
    ("port: [8, 0]}", "port: [8, 'east']}", "S118", "[8, 'east']"),
    ('farm: "farm"', 'farm: "farm of {owner}"', "N303", '"farm of {owner}"'),
    ('farm: "farm"', 'farm: "farm {2}"', "S117", '"farm {2}"'),
    ("by: kind", "by: colour", "N303", "colour"),
    ("pieces: [at, cart.place]", "pieces: [at, cart.colour]", "N303", "cart.colour"),
    ("pieces: [at, cart.place]", "pieces: [grain]", "N303", "grain]"),
    ("pieces: [at", 'texts: {barn: "a barn"}\n      pieces: [at', "N309", "barn"),
    ("pieces: [at", 'texts: {home: "home of {2}"}\n      pieces: [at', "S117", '"home of {2}"'),
    ("pieces: [at", 'texts: {home: "home of {owner}"}\n      pieces: [at', "N303", '"home of {owner}"'),
])
def test_a_display_that_cannot_be_drawn_is_reported_at_its_place(tmp_path, old, new, code, at):
    """Each problem is reported at the very name, position or text that has it."""
    text = LAND.replace(old, new)
    assert text != LAND
    line = next(i for i, row in enumerate(text.splitlines(), 1) if at in row and "display" not in row)
    col = text.splitlines()[line - 1].index(at) + 1
    assert (code, line, col) in _diagnostics(tmp_path, text)


def test_a_node_of_its_own_text_reads_it_on_the_map_and_beside_a_move_that_names_it(tmp_path):
    """`texts:` gives one node the text `show`'s case for its attribute would get wrong."""
    text = LAND.replace("pieces: [at", 'texts: {home: "the farmhouse, {grain} grain"}\n      pieces: [at')
    path = write_ruleset(tmp_path, text, "land")
    game = load_game(path)
    lines = game.render(game.new_state(0), 0).splitlines()
    assert "  home  the farmhouse, 0 grain; here: player 1; → mill" in lines
    assert "  mill  mill, toll 2, grain 3; here: player 0; → home, port" in lines
    out = CliRunner().invoke(app, ["play", path, "--bots", "1"], input="quit\n").output
    assert "go(to=home)" in out and "— home: the farmhouse, 0 grain" in out


def test_state_a_board_shows_place_by_place_is_not_repeated_on_the_table(land):
    """`grain` and `cargo` are keyed by node and read by the node texts: the board shows
    them at their places, so the common table leaves them out."""
    text = land.render(land.new_state(0), 0)
    table = text[text.index("table:") if "table:" in text else 0:text.index("board land:")]
    assert "grain" not in table and "cargo" not in table
    assert "mill, toll 2, grain 3" in text and "cargo: 2 hidden" in text


def test_lint_asks_for_the_translation_of_every_node_text(tmp_path):
    from meeple.interpreter.presentation.label_check import label_diagnostics
    text = LAND.replace("game: {name: land, players: 2}",
                        "game: {name: land, players: 2, labels: {hu: {go: menj, at: hely, cargo: rakomány, "
                        "grain: gabona, player: játékos, secret: titok, to: hová}}}")
    rs, _ = read_ruleset(write_ruleset(tmp_path, text, "land"))
    warned = " ".join(d.message for d in label_diagnostics(rs) if d.code == "L107")
    assert "'mill, toll {toll}, grain {grain}'" in warned and "'farm'" in warned
    assert "'land'" in warned  # the board's name heads its drawing


def test_a_boards_name_is_labelled_in_its_scope(tmp_path):
    text = LAND.replace("game: {name: land, players: 2}",
                        "game: {name: land, players: 2, labels: {hu: {board.land: vidék, value.land: föld}}}")
    game = load_game(write_ruleset(tmp_path, text, "land"))
    assert "tábla vidék:" in game.render(game.new_state(0), 0, "hu").splitlines()


def test_positions_are_the_declared_ones_and_the_rest_are_laid_out_the_same_every_time(land):
    graph = land.boards["land"]
    assert node_positions(graph, {"home": (0.0, 0.0), "mill": (4.0, 1.0), "port": (8.0, 0.0)}) == \
        {"home": (0.0, 0.0), "mill": (4.0, 1.0), "port": (8.0, 0.0)}
    partly = node_positions(graph, {"home": (0.0, 0.0)})
    assert partly["home"] == (0.0, 0.0) and partly == node_positions(graph, {"home": (0.0, 0.0)})
    for name in ("valdora", "freyas-folly", "zavandor", "treasure-hunter"):
        for board, g in load_game(name).boards.items():
            first = node_positions(g, None, seed=3)
            assert first == node_positions(g, None, seed=3), (name, board)
            assert set(first) == set(g.nodes)
            points = [tuple(round(c, 6) for c in p) for p in first.values()]
            assert len(set(points)) == len(points), f"{name}/{board}: two nodes on one spot"


def test_a_grid_node_sits_at_its_column_and_row():
    graph = load_game("connect-four").boards
    g = next(iter(graph.values()))
    at = node_positions(g)
    assert at["a1"] == (0.0, 0.0) and at["c2"] == (2.0, 1.0)


def test_the_text_map_shows_places_pieces_and_node_texts(land):
    text = land.render(land.new_state(0), 0)
    board = text[text.index("board land:"):]
    lines = board.splitlines()
    assert re.search(r"home\[1\] -+ mill\[0\]", lines[1] + " " + lines[2]) or "home[1]" in board
    assert "mill[0]" in board and "port[cart-1]" in board
    assert "  mill  mill, toll 2, grain 3; here: player 0; → home, port" in lines
    assert "  port  port, toll 1, 2 ships, cargo: 2 hidden; here: cart-1; → mill" in lines
    assert all(len(line) <= 80 for line in lines)


def test_a_player_hidden_variable_is_a_piece_only_for_its_owner(tmp_path):
    game = load_game(write_ruleset(tmp_path, LAND.replace("pieces: [at, cart.place]", "pieces: [at, secret]"),
                                   "land"))
    state = game.new_state(0)
    mine = board_scene(TableText(game, game.view(state, 0)), "land").node("port").pieces
    assert [(p.label, p.player) for p in mine] == [("0", 0)]  # only player 0's own secret
    theirs = board_scene(TableText(game, game.view(state, 1)), "land").node("port").pieces
    assert [(p.label, p.player) for p in theirs] == [("1", 1)]


def test_pieces_are_marked_shorter_on_a_crowded_map_and_not_drawn_when_names_collide(land):
    scene = board_scene(TableText(land, land.view(land.new_state(0), 0)), "land")
    assert "port[cart-1]" in "\n".join(draw_board(scene))
    assert "port[+1]" in "\n".join(draw_board(scene, width=18))  # 'home[1] port[cart-1]' does not fit
    assert "port*" in "\n".join(draw_board(scene, width=12))
    home, mill = scene.node("home"), scene.node("mill")
    mill.x, mill.y = home.x, home.y  # two nodes on one spot: no map, the list stays
    assert draw_board(scene) is None
    text = "\n".join(land.render(land.new_state(0), 0).splitlines())
    assert "  mill  mill, toll 2, grain 3; here: player 0; → home, port" in text


@pytest.mark.parametrize("name,board", [("valdora", "map"), ("freyas-folly", "mine"), ("zavandor", "mines")])
def test_every_shipped_graph_board_is_drawn_as_text_and_svg(name, board):
    game = load_game(name)
    state = game.playout(game.new_state(5), rng=random.Random(5), max_moves=60)
    for p in range(game.player_count):
        view = game.view(state, p)
        scene = board_scene(TableText(game, view), board)
        drawing = draw_board(scene)
        assert drawing is not None and all(len(line) <= 76 for line in drawing), name
        text = board_as_text(game, view, board)
        for node in game.boards[board].nodes:
            assert re.search(rf"^  {re.escape(node)} ", text, re.M), (name, node)
        svg = ET.fromstring(board_as_svg(game, view, board))
        ns = "{http://www.w3.org/2000/svg}"
        drawn = {g.get("data-node") for g in svg.iter(f"{ns}g") if g.get("class") == "node"}
        assert drawn == set(game.boards[board].nodes)
        for node in scene.nodes:  # pieces where the view puts them
            group = next(g for g in svg.iter(f"{ns}g") if g.get("data-node") == node.name)
            marks = [g.get("data-piece") for g in group.iter(f"{ns}g") if g.get("class") == "piece"]
            assert marks == [piece.label for piece in node.pieces]
        edges = [line for line in svg.iter(f"{ns}line") if line.get("class") != "leader"]  # not a text's leader
        assert len(edges) == game.boards[board].number_of_edges()


def test_pieces_follow_the_view():
    game = load_game("freyas-folly")
    state = game.playout(game.new_state(2), rng=random.Random(2), max_moves=40)
    view = game.view(state, 0)
    scene = board_scene(TableText(game, view), "mine")
    placed = {p.label: n.name for n in scene.nodes for p in n.pieces}
    expected = {item: props["pos"] for item, props in view["props"].items()
                if props.get("pos") in game.boards["mine"].nodes}
    assert placed == expected and expected
    valdora = load_game("valdora")
    vstate = valdora.playout(valdora.new_state(2), rng=random.Random(2), max_moves=30)
    vscene = board_scene(TableText(valdora, valdora.view(vstate, 1)), "map")
    assert {p.player: n.name for n in vscene.nodes for p in n.pieces} == dict(enumerate(vstate.vars["pos"]))


def _hide_differently(game, state, viewer):
    """A copy of `state` in which what `viewer` may not know is changed: hidden zones
    reversed, other players' owner-only variables given the viewer's value, and items the
    viewer does not see whole swapped with others of their kind that look the same to them
    (a face-down tile on one space with one on another)."""
    other = state.copy()
    for name, decl in game.rules.zones.items():
        z = other.zones[name]
        if decl.per == "player":
            other.zones[name] = tuple(
                tuple(reversed(sub)) if decl.visibility == "none" or (decl.visibility == "owner" and p != viewer)
                else sub for p, sub in enumerate(z))
        elif decl.visibility == "none":
            other.zones[name] = tuple(reversed(z)) if decl.per is None else \
                {key: tuple(reversed(sub)) for key, sub in z.items()}
    for name, decl in game.rules.variables.items():
        if decl.visibility == "owner" and decl.per == "player":
            other.vars[name] = tuple(other.vars[name][viewer] for _ in range(game.player_count))
    namer = game.namer(state, viewer)
    looks: dict = {}  # (kind, what shows) -> [(zone, key, index)]
    for name, z in state.zones.items():
        parts = enumerate(z) if isinstance(z, tuple) and z and isinstance(z[0], tuple) else \
            (z.items() if isinstance(z, dict) else [(None, z)])
        for key, sub in parts:
            for i, item in enumerate(sub):
                if namer.sight(item) != WHOLE:
                    looks.setdefault((item.kind, repr(namer.face(item))), []).append((name, key, i))
    for places in looks.values():
        spots = {(zone, key) for zone, key, _ in places}
        if len(spots) > 1:  # two of a look in two places: swap them
            (z1, k1, i1), (z2, k2, i2) = places[0], next(p for p in places if p[:2] != places[0][:2])
            a, b = _at(other, z1, k1)[i1], _at(other, z2, k2)[i2]
            _put(other, z1, k1, i1, b)
            _put(other, z2, k2, i2, a)
    return other


def _at(state, zone, key):
    return state.zones[zone] if key is None else state.zones[zone][key]


def _put(state, zone, key, i, item):
    sub = list(_at(state, zone, key))
    sub[i] = item
    if key is None:
        state.zones[zone] = tuple(sub)
    elif isinstance(state.zones[zone], dict):
        state.zones[zone] = {**state.zones[zone], key: tuple(sub)}
    else:
        state.zones[zone] = tuple(tuple(sub) if k == key else s for k, s in enumerate(state.zones[zone]))


@pytest.mark.parametrize("name", list_rulesets())
def test_a_board_drawn_for_a_player_shows_nothing_they_cannot_know(name):
    game = load_game(name)
    state = game.playout(game.new_state(9), rng=random.Random(9), max_moves=50)
    holds_secrets = game.rules.may_hide or any(v.visibility != "all" for v in game.rules.variables.values())
    for board in drawn_boards(game):
        for p in range(game.player_count):
            changed = _hide_differently(game, state, p)
            assert changed.zones != state.zones or changed.vars != state.vars or not holds_secrets, name
            for draw in (board_as_text, board_as_svg):
                assert draw(game, game.view(changed, p), board) == draw(game, game.view(state, p), board), \
                    (name, board, p, draw.__name__)


def test_the_board_command_writes_text_and_svg(tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["board", "freyas-folly", "--moves", "30", "--seed", "4", "--player", "1"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("board mine:") and "Cave10" in result.output
    out = tmp_path / "mine.svg"
    result = runner.invoke(app, ["board", "valdora", "-o", str(out)])
    assert result.exit_code == 0, result.output
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert root.tag.endswith("svg")
    result = runner.invoke(app, ["board", "valdora", "-f", "svg"])
    assert result.exit_code == 0 and result.output.startswith("<svg")
    result = runner.invoke(app, ["board", "tic-tac-toe", "--moves", "2"])
    assert result.exit_code == 0 and re.search(r"^   a b c$", result.output, re.M)


@pytest.mark.parametrize("args,message", [
    (["board", "nim"], "nim has no board"),
    (["board", "valdora", "--player", "7"], "--player must be 0 to 2"),
    (["board", "valdora", "-f", "png"], "unknown format 'png'"),
    (["board", "valdora", "--board", "sea"], "'sea' is not a board of valdora"),
    (["board", "valdora", "--moves", "-1"], "--moves must be at least 0"),
])
def test_the_board_command_refuses_with_one_line(args, message):
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output
