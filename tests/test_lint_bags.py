"""Lint L112 (issue 47): an expression that picks an item of a bag by its place reads the
order the items went in, not a draw; counting a bag, walking all of it or choosing by a
property does not, and is not reported."""
from __future__ import annotations

from meeple.interpreter import load_rules
from meeple.interpreter.analysis.lint import lint

from ruleset_support import write_ruleset

BY_PLACE = """game: {name: by-place, players: 2}
components:
  tile:
    fields: {value: int}
    generate: {value: {from: 1, to: 5}}
    id: "t{value}"
    show: "tile {value}"
zones:
  bag: {kind: bag, initial: "items('tile')", visibility: none}
  pouch: {per: player, kind: bag, visibility: owner}
  rack: {per: player, visibility: owner}
  line: {kind: row}
define:
  front: "top(line)"
  biggest: "max_by(bag, t => t.value)"
  counted: "len(bag) + len(pouch[0]) + len(bag[1:])"
setup:
  - move: "top(bag)"
    from: bag
    to: "rack[0]"
  - move: {from: bag, to: "rack[1]"}
flow:
  - turns: "players()"
    do: [{choose: [grab, peek]}]
actions:
  grab:
    require: ["len(pouch[player]) > 1 and front.value + biggest.value + counted > 0"]
    effects:
      - move: "pouch[player][0]"
        from: "pouch[player]"
        to: "rack[player]"
      - move: "[t for t in bag if t.value > 3]"
        from: bag
        to: "line"
  peek:
    effects:
      - log: "str(len([t for t in bag if t.value > 2])) + str(last(pouch[player]).value)"
      - move: {from: "pouch[player]", to: "rack[player]"}
"""


def test_an_item_of_a_bag_picked_by_its_place_is_reported_where_it_is_read(tmp_path):
    diags = lint(load_rules(write_ruleset(tmp_path, BY_PLACE, "by-place")))[0]
    found = [(d.code, d.severity, d.span.line, d.span.col) for d in diags if d.code == "L112"]
    # top(bag) in the setup, pouch[player][0] and last(pouch[player]) in moves; not top of
    # a row, a bag counted (whole or sliced), walked or chosen from by a property.
    assert found == [("L112", "warning", 18, 12), ("L112", "warning", 29, 16), ("L112", "warning", 37, 63)]


def test_a_ruleset_that_draws_from_its_bags_is_quiet():
    diags = lint(load_rules("tests/fixtures/chance_draws/bag_play.yaml"))[0]
    assert [d for d in diags if d.code == "L112"] == []
