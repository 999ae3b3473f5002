"""The table a player reads (interpreter/display.py, `Game.render`, `meeple play`):
items described by their kind's `show` text, bookkeeping left out, labels applied, and
nothing a player may not know, since the table is made from their view alone."""
from __future__ import annotations

import random
import re

import pytest

from meeple.dsl.load import check_ruleset, read_ruleset
from meeple.interpreter import list_rulesets, load_game
from meeple.interpreter.runtime.knowledge import WHOLE

from ruleset_support import write_ruleset

SHOP = """
game:
  name: shop
  players: 2
  labels:
    hu:
      "{wood} wood + {cloth} cloth → {pay} coins": "{wood} fa + {cloth} posztó → {pay} tallér"
      orders: megrendelések
components:
  order:
    fields: {wood: int, cloth: int, pay: int}
    items:
      - {id: O-01, wood: 2, cloth: 1, pay: 6}
      - {id: O-02, wood: 0, cloth: 3, pay: 7}
      - {id: O-03, wood: 1, cloth: 1, pay: 3}
      - {id: O-04, wood: 3, cloth: 0, pay: 5}
    show: "{wood} wood + {cloth} cloth → {pay} coins"
  lamp:
    fields: {colour: str}
    props: {lit: {type: bool, initial: false}}
    generate: {colour: [red, green]}
    id: "lamp-{colour}"
    show: "{colour} lamp, lit: {lit}"
zones:
  orders: {kind: row, initial: "[o for o in items('order') if o.pay > 5]"}
  hand: {per: player, kind: hand, visibility: owner,
         initial: "[o for o in items('order') if o.pay <= 5 and (o.id == 'O-03') == (player == 0)]"}
  lamps: {kind: row, initial: "items('lamp')"}
variables:
  coins: {per: player, initial: 3}
  turns_taken: {initial: 0, show: false}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [light]
actions:
  light:
    params: {lamp: "[l for l in lamps if not l.lit]"}
    effects:
      - set: ["lamp.lit = true", "turns_taken += 1"]
end:
  - when: "all(l.lit for l in lamps)"
"""


@pytest.fixture
def shop(tmp_path):
    return load_game(write_ruleset(tmp_path, SHOP, "shop"))


def test_items_are_described_by_their_show_text(shop):
    state = shop.new_state(0)
    text = shop.render(state, 0)
    assert "O-01 (2 wood + 1 cloth → 6 coins)" in text
    assert "O-03 (1 wood + 1 cloth → 3 coins)" in text  # in player 0's own hand
    assert "lamp-red (red lamp, lit: no)" in text
    after = shop.apply(state, "light(lamp=lamp-red)")
    assert "lamp-red (red lamp, lit: yes)" in shop.render(after, 1)


def test_a_field_that_maps_names_to_counts_reads_as_a_sum_of_the_nonzero_ones(tmp_path):
    """A price written as a mapping in the item data reads `1 ruby + 2 gold`, not `{...}`."""
    text = SHOP.replace('    show: "{colour} lamp, lit: {lit}"', '    show: "{colour} lamp, lit: {lit}"\n'
                        '  deal:\n    fields: {price: "map[str, int]"}\n'
                        '    items: [{id: D-1, price: {ruby: 1, jade: 0, gold: 2}}, {id: D-2, price: {ruby: 0}}]\n'
                        '    show: "costs {price}"')
    text = text.replace("  lamps: {kind: row", "  deals: {kind: row, initial: \"items('deal')\"}\n  lamps: {kind: row")
    game = load_game(write_ruleset(tmp_path, text, "shop"))
    shown = game.render(game.new_state(0), 0)
    assert "D-1 (costs 1 ruby + 2 gold)" in shown and "D-2 (costs nothing)" in shown


def test_a_map_of_counts_on_the_table_lists_its_nonzero_entries(tmp_path):
    text = SHOP.replace("  turns_taken: {initial: 0, show: false}",
                        "  turns_taken: {initial: 0, show: false}\n"
                        "  stock: {type: \"map[str, int]\", initial: \"{'wood': 2, 'cloth': 0, 'iron': 1}\"}\n"
                        "  spent: {type: \"map[str, int]\", initial: \"{'wood': 0}\"}\n"
                        "  owner: {type: \"map[str, int]\", initial: \"{'mill': -1}\"}\n"
                        "  debts: {type: \"map[str, str]\", initial: \"{}\"}")
    game = load_game(write_ruleset(tmp_path, text, "shop"))
    lines = game.render(game.new_state(0), 0).splitlines()
    assert "  stock   iron 1, wood 2" in lines and "  spent   nothing" in lines
    assert "  owner   {mill: -1}" in lines  # not counts: written out whole
    assert "  debts   nothing" in lines  # an empty map


def test_rows_of_items_fit_the_width_they_are_given():
    game = load_game("treasure-hunter")
    state = game.new_state(3)
    for width in (90, 130):  # a line of two or more items fits; one long item is never cut
        rows = [x for x in game.render(state, 0, width=width).splitlines() if "), " in x]
        assert rows and all(len(x) <= width for x in rows), width
    assert any(len(x) > 90 and "), " in x for x in game.render(state, 0).splitlines())  # no width: 100 of items


def test_bookkeeping_is_left_out_and_areas_are_grouped(shop):
    text = shop.render(shop.new_state(0), 0)
    assert "turns_taken" not in text
    mine, _, rest = text.partition("player 1:")
    assert mine.startswith("your area (player 0):") and "O-03" in mine
    theirs, _, table = rest.partition("table:")
    assert re.search(r"hand +1 hidden", theirs) and "O-04" not in theirs  # player 1's hand is theirs alone
    assert "O-01" in table and "O-02" in table


def test_labels_translate_the_show_text(shop):
    text = shop.render(shop.new_state(0), 0, lang="hu")
    assert "O-01 (2 fa + 1 posztó → 6 tallér)" in text
    assert "megrendelések" in text


@pytest.mark.parametrize("show,code,col", [
    ('"{wood} wood and {glue}"', "N303", 11),
    ('"{pay:>3} coins"', "S117", 11),
    ('"{2} of them"', "S117", 11),
    ('"an open { brace"', "S117", 11),
])
def test_a_show_text_that_cannot_be_filled_is_reported_at_its_place(tmp_path, show, code, col):
    text = SHOP.replace('show: "{wood} wood + {cloth} cloth → {pay} coins"', f"show: {show}")
    path = write_ruleset(tmp_path, text, "shop")
    rs, diags = read_ruleset(path)
    if rs is not None:
        diags += check_ruleset(rs)
    line = text.splitlines().index(f"    show: {show}") + 1
    assert (code, line, col) in {(d.code, d.span.line, d.span.col) for d in diags}


def _leaked(game, state, player, text) -> list[str]:
    """Ids of items the player does not see whole that appear in the text anyway."""
    namer = game.namer(state, player)
    return [item.id for item in game.rules.items.values()
            if namer.sight(item) != WHOLE and re.search(rf"(?<![\w-]){re.escape(item.id)}(?![\w-])", text)]


@pytest.mark.parametrize("name", list_rulesets())
def test_the_table_names_no_item_its_reader_may_not_know(name):
    game = load_game(name)
    rnd = random.Random(11)
    state = game.new_state(11)
    for step in range(120):
        if state.over:
            break
        if step % 10 == 0:
            for p in range(game.player_count):
                assert _leaked(game, state, p, game.render(state, p)) == [], f"step {step}, player {p}"
        moves = game.legal_moves(state)
        state = game.apply(state, moves[rnd.randrange(len(moves))])


def test_lint_warns_of_a_kind_with_no_show_text(tmp_path):
    from meeple.interpreter import load_rules
    from meeple.interpreter.analysis.lint import lint
    bare = SHOP.replace('    show: "{colour} lamp, lit: {lit}"\n', "")
    path = write_ruleset(tmp_path, bare, "bare")
    warned = [(d.code, d.span.line) for d in lint(load_rules(path))[0] if d.code == "L109"]
    assert warned == [("L109", bare.splitlines().index("  lamp:") + 1)]
    described = write_ruleset(tmp_path, SHOP, "shop")
    assert not [d for d in lint(load_rules(described))[0] if d.code == "L109"]


MIXED = SHOP.replace("""zones:
""", """  token:
    fields: {sort: str, worth: int, gem: str}
    items:
      - {id: T-coin, sort: coin, worth: 3, gem: ''}
      - {id: T-gem, sort: gem, worth: 0, gem: ruby}
      - {id: T-odd, sort: odd, worth: 1, gem: ''}
    show: {by: sort, coin: "a coin worth {worth}", gem: "a {gem}"}
zones:
  tokens: {kind: row, initial: "items('token')"}
""")


def test_a_kind_of_several_sorts_has_a_text_per_sort(tmp_path):
    game = load_game(write_ruleset(tmp_path, MIXED, "mixed"))
    text = game.render(game.new_state(0), 0)
    assert "T-coin (a coin worth 3)" in text and "T-gem (a ruby)" in text
    assert re.search(r"T-odd(?! \()", text)  # a sort with no text: its id alone


def test_show_by_must_name_a_field(tmp_path):
    text = MIXED.replace("show: {by: sort,", "show: {by: colour,")
    rs, diags = read_ruleset(write_ruleset(tmp_path, text, "mixed"))
    if rs is not None:
        diags += check_ruleset(rs)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "by: colour" in t)
    assert ("N303", line) in {(d.code, d.span.line) for d in diags}


TWO_SIDED = """
game: {name: menus, players: 2}
components:
  recipe:
    fields: {course: str, dish: str, price: int}
    props: {side: {type: str, initial: "'menu'", choices: [menu, bill]}}
    sides: {by: side, menu: [dish], bill: [price]}
    show: {by: side, menu: "{course}: {dish}", bill: "{course} costs {price}"}
    items:
      - {id: soup-3, course: starter, dish: soup, price: 3}
      - {id: pie-5, course: dessert, dish: pie, price: 5}
zones:
  menus: {kind: stack, visibility: top, initial: "items('recipe')"}
variables:
  n: {initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [wait]
actions:
  wait:
    effects: ["n += 1"]
end:
  - when: "n > 3"
"""


def test_an_item_seen_from_one_side_is_described_by_that_sides_text(tmp_path):
    game = load_game(write_ruleset(tmp_path, TWO_SIDED, "menus"))
    state = game.new_state(0)
    text = game.render(state, 0)
    assert "top: [starter: soup]; 1 hidden" in text  # the menu side: course and dish show
    assert "soup-3" not in text and "price" not in text  # no id, nothing of the other side


ROADS = """
game: {name: roads, players: 2}
boards:
  land:
    nodes: {home: {toll: 0}, mill: {toll: 2}, port: {toll: 1}}
    edges: [[home, mill], [mill, port]]
variables:
  at: {per: player, type: str, initial: "'home'"}
  trips: {initial: 0, show: false}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [go]
actions:
  go:
    params: {to: "neighbours('land', at[player])"}
    effects: ["at[player] = to", "trips += 1"]
end:
  - when: "trips > 5"
"""


def test_a_board_that_is_no_grid_is_listed_place_by_place(tmp_path):
    game = load_game(write_ruleset(tmp_path, ROADS, "roads"))
    state = game.apply(game.new_state(0), "go(to=mill)")
    text = game.render(state, 1)
    assert "board land:" in text
    assert re.search(r"home +toll 0; here: player 1; → mill", text)
    assert re.search(r"mill +toll 2; here: player 0; → home, port", text)
    assert re.search(r"port +toll 1; → mill", text)


def test_a_state_prints_as_a_one_line_summary():
    game = load_game("nim")
    start = game.new_state(0)
    assert repr(start) == "<State pc=%d, move 0: heaps=(3, 4, 5), last_mover=-1>" % start.pc
    end = game.playout(start, rng=random.Random(1))
    assert repr(end).startswith("<State over (the last object was taken), move ")
    assert len(repr(load_game("valdora").new_state(0))) < 500
