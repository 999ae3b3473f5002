"""Values of mixed kinds and texts that may be none, in the fused tier (issue 43): a map of
direction lists of two kinds handed to `step`, a map of records read by key, a map keyed
by ints, `x != none` in a comprehension, a map made from texts that may be none, `get`
with a list default, `in` on a set, an event's value that may be none, `key_of` of a
list of mixed values, and a list of lists written from cells.  A game of its own, played
by the tier as the move-by-move loop plays it."""
from __future__ import annotations

import pytest

from meeple.interpreter import load_game
from meeple.interpreter.codegen.fused import reasons

from ruleset_support import write_ruleset
from fused_cases import fast_and_loop_outcomes, fused_matches_the_loop

WARDENS = """
game: {name: wardens, players: 2}
boards:
  yard: {grid: {rows: 5, cols: 5, diagonal: true}}
variables:
  at: {per: player, type: str, initial: "''"}
  walls: {type: "set[str]", initial: "set([cell('yard', 2, 2)])"}
  trails: {per: player, type: "list[list[str]]", initial: "[]"}
  seen: {type: "map[str, list[str]]", initial: "{}"}
  last_key: {type: str, initial: "''"}
  budget: {type: int, initial: 14}
  heard: {per: player, type: int, initial: 0}
setup:
  - set: "at[0] = cell('yard', 0, 0)"
  - set: "at[1] = cell('yard', 4, 4)"
define:
  gaits: "{'leap': directions('knight'), 'step': ['n', 's', 'e', 'w'], 'slant': ['ne', 'nw', 'se', 'sw']}"
  kit: >-
    {'leap': {'cost': 2, 'mark': 'L', 'also': ['step']}, 'step': {'cost': 1, 'mark': 'S', 'also': ['slant']},
     'slant': {'cost': 1, 'mark': 'D', 'also': ['leap']}}
  order: "{0: ['step', 'slant'], 1: ['slant', 'leap']}"
  moves_of: {params: [from, g], expr: "[x for x in [step('yard', from, d) for d in gaits[g]] if x != none]"}
  row_path:
    params: [a, b]
    expr: "[cell('yard', row_of('yard', a), c) for c in range(min(col_of('yard', a), col_of('yard', b)), max(col_of('yard', a), col_of('yard', b)) + 1)]"
  shadows: {params: [p], expr: "{cell('yard', 0, col_of('yard', x)): row_path(x, at[p]) for x in moves_of(at[p], 'step')}"}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [go]
            pass: true
      - effects: ["budget -= 1"]
    while: "budget > 0"
actions:
  go:
    params: {g: "order[player] + kit[order[player][0]].also", to: "moves_of(at[player], g)"}
    require:
      - check: "to not in walls"
        reason: "a wall"
      - check: "to != at[1 - player]"
        reason: "taken"
    effects:
      - emit: moved
        with: {who: "player", ahead: "step('yard', to, 'n')"}
      - "walls = union(walls, [at[player]])"
      - "trails[player] = trails[player] + [row_path(at[player], to)]"
      - "seen = shadows(player)"
      - "last_key = key_of([at, budget, get(seen, to, [to]), kit[g].mark])"
      - "at[player] = to"
      - "budget -= kit[g].cost"
triggers:
  listen:
    on: moved
    when: "ahead != none and ahead not in walls"
    effects: ["heard[who] += 1"]
scoring:
  score: "heard[player] + len(trails[player])"
"""


def test_values_of_mixed_kinds_play_in_the_tier_as_the_loop_plays_them(tmp_path):
    game = load_game(write_ruleset(tmp_path, WARDENS, "wardens"), backend="compiled")
    assert reasons(game.rules) == []
    assert game.rules.playout_tier() == "fused"
    fused_matches_the_loop(game, range(60), cut=5)
    assert game.kernel_fallbacks == 0


def test_none_asked_of_a_set_stops_the_tier_and_the_loop_reports_it(tmp_path):
    """`step(...)` off the board is none, and none in a set is an error (R701): the tier
    stops there, and the loop plays on to the same error."""
    text = WARDENS.replace('check: "to not in walls"', "check: \"to not in walls and step('yard', to, 'n') not in walls\"")
    game = load_game(write_ruleset(tmp_path, text, "wardens-none"), backend="compiled")
    assert game.rules.playout_tier() == "fused"
    for seed in range(5):
        fast, loop = fast_and_loop_outcomes(game, game.new_state(seed), seed)
        assert fast == loop and fast[0] == "R701"
    assert game.kernel_fallbacks >= 5


@pytest.mark.parametrize("change,why", [
    (("'also': ['step']}", "'also': ['step'], 'n': 1}"), None),  # records of other keys: not one record type
    (("\"to != at[1 - player]\"", "\"gaits[g][0] != at[1 - player]\""), "'!=' on a value of mixed kinds"),
])
def test_what_a_value_of_mixed_kinds_cannot_do_keeps_the_ruleset_out(tmp_path, change, why):
    text = WARDENS.replace(*change)
    game = load_game(write_ruleset(tmp_path, text, "wardens-out"), backend="compiled")
    found = reasons(game.rules)
    if why is None:  # the records differ: the map of them is not a constant map the tier takes
        assert found and game.rules.playout_tier() == "kernel"
    else:
        assert any(why in reason for reason in found), found
