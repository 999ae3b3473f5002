"""Slices and ranges with a step in rules (issue 47; the expressions themselves are in
tests/expr/idioms.yaml and test_expr_idioms.py since issue 42): the example of
docs/language.md, a line of numbers taken from the front with `line[:k]` and kept as
`line[k:]`, plays the same on both back ends, and its random playouts stay in the fused
tier, which writes a list of ints assigned whole (`xs = …`, `xs += …`) as a new list."""
from __future__ import annotations

import pytest

from meeple.interpreter import load_game
from meeple.interpreter.analysis.differential import compare_backends

from flow_idiom_support import BACKENDS, game_of, play
from ruleset_support import write_ruleset
from test_kernel import _same_playouts

FRONT = """game: {name: front-of-the-line, players: 2}
variables:
  line: {type: "list[int]", initial: "range(20, 0, -3)"}
  total: {per: player, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do: [{choose: [take]}]
    until: "len(line) == 0"
actions:
  take:
    params: {k: "range(1, min(3, len(line)) + 1)"}
    effects:
      - "total[player] += sum(line[:k])"
      - "line = line[k:]"
scoring:
  score: "total[player]"
"""
# The taken numbers go round to the back, reversed, every third one: the line never ends.
ROUND = FRONT.replace('      - "line = line[k:]"', '      - "line = line[k:]"\n      - "line += line[:k][::-1][::3]"')


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_front_of_the_line_is_taken_and_the_rest_kept(tmp_path, backend):
    game = game_of(tmp_path, FRONT, backend, "front", 2)
    assert game.new_state(0).vars["line"] == (20, 17, 14, 11, 8, 5, 2)
    state, _ = play(game, ["take(k=2)", "take(k=3)"])
    assert state.vars["total"] == (37, 33) and state.vars["line"] == (5, 2)


@pytest.mark.parametrize("name, text", [("front", FRONT), ("round", ROUND)])
def test_both_back_ends_agree_and_the_fused_tier_plays_the_loops_games(tmp_path, name, text):
    report = compare_backends(write_ruleset(tmp_path, text, name), 2, games=4, seed=3, max_moves=80)
    assert report.ok and report.moves > 0 and report.deopts == 0, str(report)
    game = load_game(write_ruleset(tmp_path, text, name + "-fused"), 2, backend="compiled")
    assert game.rules.playout_tier() == "fused"
    _same_playouts(game, seeds=range(8), max_moves=80)
    assert game.kernel_fallbacks == 0
