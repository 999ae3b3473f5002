"""What a piece is, drawn from the declarations (a board's `display: cells`, `marks`,
`kinds`; interpreter/board_cells.py, board_scene.py, board_svg.py): a grid's values by their
marks in the terminal and the SVG, items by their kind's mark in their owner's colour,
per-player sheets as grids, and every shipped board's SVG with no two texts overprinting
and no text under the smallest size (issues 44 and 47)."""
from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from meeple.dsl.load import check_ruleset, read_ruleset
from meeple.interpreter import list_rulesets, load_game
from meeple.interpreter.presentation.board_cells import PLAYER_COLOURS
from meeple.interpreter.presentation.board_export import board_as_svg, board_as_text, drawn_boards
from meeple.interpreter.presentation.board_svg import MIN_FONT
from meeple.web.table_html import HtmlTable

from ruleset_support import write_ruleset

NS = "{http://www.w3.org/2000/svg}"

# The example of docs/language.md ("Marks: what a piece is"), made a whole ruleset.
DRAUGHTS = """
game: {name: marks, players: 2}
boards:
  board:
    grid: {rows: 2, cols: 4}
    display:
      cells: man
      marks:
        0: ""
        1: {glyph: "o", owner: 0, label: "red man"}
        2: {glyph: "O", owner: 0, label: "red king (crowned)"}
        -1: {glyph: "x", owner: 1, label: "black man"}
        -2: {glyph: "X", owner: 1, label: "black king (crowned)"}
  camp:
    nodes: [tent, river]
    edges: [[tent, river]]
    display:
      pieces: [scout.at]
      kinds:
        scout: {glyph: "{num}", owner: team, label: "scout {num}"}
components:
  scout:
    fields: {team: int, num: int}
    generate: {team: [0, 1], num: {from: 1, to: 3}}
    id: "s{team}-{num}"
    props:
      at: {type: str, initial: "'tent'"}
variables:
  man: {per: "nodes('board')", type: int, initial: "1 if key == 'a1' else 2 if key == 'c1' else -1 if key == 'b2' else -2 if key == 'd2' else 0"}
setup:
  - for: s
    in: "items('scout')"
    do:
      - set: ["s.at = 'tent' if s.team == 0 else 'river'"]
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [wait]
actions:
  wait:
    effects:
      - set: ["man['a2'] = 1"]
end:
  - when: "man['a2'] == 1"
"""


@pytest.fixture
def draughts(tmp_path):
    return load_game(write_ruleset(tmp_path, DRAUGHTS, "marks"))


def _errors(tmp_path, text):
    rs, diags = read_ruleset(write_ruleset(tmp_path, text, "marks"))
    if rs is not None:
        diags += check_ruleset(rs)
    return {(d.code, d.span.line, d.span.col) for d in diags if d.severity == "error"}


def test_the_documented_example_is_clean(tmp_path):
    assert _errors(tmp_path, DRAUGHTS) == set()


@pytest.mark.parametrize("old,new,code,at", [
    ('owner: 0, label: "red man"', 'colour: "red;x", label: "red man"', "S126", '"red;x"'),
    ("cells: man", "cells: mann", "N303", "mann"),
    ("scout: {glyph", "scoot: {glyph", "N303", "{glyph"),
    ('glyph: "{num}"', 'glyph: "{number}"', "N303", "{glyph"),
    ("owner: team", "owner: side", "N303", "{glyph"),
    ('glyph: "{num}"', 'glyph: "{1}"', "S117", '"{1}"'),
])
def test_a_mark_that_cannot_be_drawn_is_reported_at_its_place(tmp_path, old, new, code, at):
    """At the mark's colour or template, or for a kind's mark (its places, its owner) at the mark."""
    text = DRAUGHTS.replace(old, new)
    assert text != DRAUGHTS
    line = next(i for i, row in enumerate(text.splitlines(), 1) if at in row and new in row)
    col = text.splitlines()[line - 1].index(at) + 1
    assert (code, line, col) in _errors(tmp_path, text)


def test_a_grid_is_drawn_by_its_marks_with_a_legend(draughts):
    text = draughts.render(draughts.new_state(0), 0)
    assert " 2 . x . X\n 1 o . O .\n   a b c d\n" in text
    assert "o red man, O red king (crowned), x black man, X black king (crowned)" in text


def test_a_marked_cell_in_the_browser_has_its_glyph_owner_colour_and_label(draughts):
    view = draughts.view(draughts.new_state(0), 1)
    page = ET.fromstring(f"<div>{HtmlTable(draughts, view, 'en').boards()}</div>")
    cell = next(g for g in page.iter(f"{NS}g") if g.get("data-node") == "c1")
    glyph = next(cell.iter(f"{NS}text"))
    assert glyph.text == "O" and glyph.get("fill") == PLAYER_COLOURS[0]
    assert next(cell.iter(f"{NS}title")).text == "c1: red king (crowned)"
    empty = next(g for g in page.iter(f"{NS}g") if g.get("data-node") == "a2")
    assert list(empty.iter(f"{NS}text")) == []


def test_items_are_drawn_by_their_kinds_mark_in_their_owners_colour(draughts):
    svg = ET.fromstring(board_as_svg(draughts, draughts.view(draughts.new_state(0), 0), "camp"))
    pieces = {g.get("data-piece"): g for g in svg.iter(f"{NS}g") if g.get("class") == "piece"}
    assert set(pieces) == {f"s{t}-{n}" for t in (0, 1) for n in (1, 2, 3)}
    for piece_id, g in pieces.items():
        team, num = piece_id[1], piece_id[3]
        assert next(g.iter(f"{NS}text")).text == num
        assert next(g.iter(f"{NS}rect")).get("fill") == PLAYER_COLOURS[int(team)]
        assert next(g.iter(f"{NS}title")).text == f"scout {num} ({piece_id})"


def test_go_shows_stones_not_numbers():
    game = load_game("go")
    state = game.new_state(1)
    for move in ("e5", "d5"):
        state = game.apply(state, next(m for m in game.legal_moves(state) if move in game.move_text(state, m, 0)))
    text = board_as_text(game, game.view(state, 0), "goban")
    assert " 5 . . . ○ ● . . . ." in text and "-1" not in text and "● black, ○ white" in text


def test_each_players_own_sheet_is_drawn_as_a_grid_and_only_their_own():
    game = load_game("phantom-tic-tac-toe")
    state = game.apply(game.new_state(1), next(m for m in game.legal_moves(game.new_state(1))
                                               if "b2" in game.move_text(game.new_state(1), m, 0)))
    mine, theirs = game.render(state, 0), game.render(state, 1)
    assert " 2 . X .\n 1 . . .\n   a b c" in mine and "player 0" in mine
    assert "X" not in theirs.split("sheet")[1] and "//" not in theirs  # not the board's lines
    assert "sheet" not in [row.split()[0] for row in mine.splitlines() if row.startswith("  ")]


def _boxes(svg_text: str):
    """(box, font size, text) of every text of an SVG, measured as a browser would at
    most (0.6 of the font size a character, the line's height the font size)."""
    out = []
    for t in ET.fromstring(svg_text).iter(f"{NS}text"):
        if not t.text or t.text.strip() == "":
            continue
        size, x, y = float(t.get("font-size")), float(t.get("x")), float(t.get("y"))
        width = len(t.text) * size * 0.58
        left = x - width / 2 if t.get("text-anchor") == "middle" else x
        out.append(((left, y - size * 0.8, left + width, y + size * 0.2), size, t.text))
    return out


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _drawings():
    """Every shipped game's boards, as its first player sees them after some random moves."""
    for name in list_rulesets():
        game = load_game(name)
        state = game.playout(game.new_state(4), rng=random.Random(4), max_moves=30)
        view = game.view(state, 0)
        for board in drawn_boards(game):
            yield name, board, HtmlTable(game, view, "en").boards() if _is_grid(game, board) \
                else board_as_svg(game, view, board)


def _is_grid(game, board):
    return all("row" in d for _, d in game.boards[board].nodes(data=True))


@pytest.mark.parametrize("name,board,svg", list(_drawings()), ids=lambda v: v if isinstance(v, str) and len(v) < 30 else "")
def test_no_two_texts_of_a_board_overprint_and_none_is_too_small(name, board, svg):
    for part in re.findall(r"<svg.*?</svg>", str(svg), re.S):
        boxes = _boxes(part)
        assert all(size >= MIN_FONT for _, size, _ in boxes), (name, board)
        for i, (a, _, ta) in enumerate(boxes):
            for b, _, tb in boxes[i + 1:]:
                assert not _overlap(a, b), (name, board, ta, tb)
