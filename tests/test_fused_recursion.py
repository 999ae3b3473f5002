"""Definitions that call themselves, lists of lists and list options in the fused tier
(interpreter/codegen/fused_definitions.py `recursive_call`): a small game of its own,
played by the tier as the move-by-move loop plays it."""
from __future__ import annotations

import random

import pytest

from meeple.interpreter import load_game
from meeple.interpreter.codegen.fused import reasons

from ruleset_support import write_ruleset
from fused_cases import fused_matches_the_loop, loop_policy

# Each turn a player banks a pair [w, w + 1] for a weight w that some of the weights not yet
# banked by anyone still add up to the target with (a search: `reach` calls itself), and
# scores the number of ways (`ways`, an int that calls itself) the pair's sum splits into
# ones and twos.
BANKS = """
game:
  name: banks
  players: {min: 2, max: 3}
  options:
    weights: {default: [2, 3, 5, 7, 8, 11], description: "the weights on offer"}
    target: {default: 20, description: "what the weights left must still reach"}
variables:
  piles: {per: player, type: "list[list[int]]", initial: "[]"}
  banked: {type: "list[int]", initial: "[]"}
  score: {per: player, type: int, initial: 0}
  rounds: {type: int, initial: 0}
define:
  reach:
    params: [xs, i, left]
    expr: "left == 0 or (i < len(xs) and left > 0 and (reach(xs, i + 1, left - xs[i]) or reach(xs, i + 1, left)))"
  ways: {params: [n], expr: "1 if n <= 1 else ways(n - 1) + ways(n - 2)"}
  free: "[w for w in options.weights if w not in banked]"
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [bank]
      - effects: ["rounds += 1"]
    while: "rounds < 3"
actions:
  bank:
    params: {w: "free"}
    require:
      - check: "reach([x for x in free if x != w], 0, options.target - w) or len(free) < 4"
        reason: "the weights left could no longer reach the target"
    effects:
      - "piles[player] += [[w, w + 1]]"
      - "banked = banked + [w]"
      - "score[player] += ways(len(piles[player][len(piles[player]) - 1]) + w % 5)"
scoring:
  score: "score[player] + sum(len(p) for p in piles[player])"
"""


@pytest.mark.parametrize("players", [2, 3])
def test_a_game_with_definitions_that_call_themselves_plays_in_the_tier_as_the_loop(tmp_path, players):
    game = load_game(write_ruleset(tmp_path, BANKS, "banks"), players, backend="compiled")
    assert reasons(game.rules) == []
    assert game.rules.playout_tier() == "fused"
    game.rules.playout_kernel(False, players)
    fused = [part for part in game.rules.module.parts if "def FUSED" in part][-1]
    assert "def _df_reach(" in fused and "def _df_ways(" in fused  # nested functions, not inlined
    fused_matches_the_loop(game, range(40), cut=4)
    assert game.kernel_fallbacks == 0


def test_a_list_option_given_another_value_is_read_as_given(tmp_path):
    path = write_ruleset(tmp_path, BANKS, "banks")
    game = load_game(path, 2, {"weights": [1, 4, 6, 9, 10, 12, 15], "target": 25}, backend="compiled")
    fused_matches_the_loop(game, range(20), cut=5)
    end = game.playout(game.new_state(3), rng=random.Random(3))
    assert set(end.vars["banked"]) <= {1, 4, 6, 9, 10, 12, 15}
    assert game.kernel_fallbacks == 0


def test_calls_nested_deeper_than_the_tier_goes_are_left_to_the_loop(tmp_path):
    """The tier stops at half the reference's depth (64 definitions deep): `ways(40)`, asked
    of every move in the first round, goes 40 deep, so every playout is handed to the loop,
    which plays it to the same end."""
    text = BANKS.replace("ways(len(piles[player][len(piles[player]) - 1]) + w % 5)", "len(piles[player])") \
        .replace("check: \"reach(", "check: \"ways(40 - 40 * rounds) > 0 and reach(") \
        .replace('ways: {params: [n], expr: "1 if n <= 1 else ways(n - 1) + ways(n - 2)"}',
                 'ways: {params: [n], expr: "1 if n <= 1 else ways(n - 1)"}')
    game = load_game(write_ruleset(tmp_path, text, "banks-deep"), 2, backend="compiled")
    assert game.rules.playout_tier() == "fused"
    for seed in range(6):
        fast = game.playout(game.new_state(seed), rng=random.Random(seed))
        loop = game.playout(game.new_state(seed), policy=loop_policy, rng=random.Random(seed))
        assert fast.to_data() == loop.to_data()
    assert game.kernel_fallbacks >= 6  # each playout handed over, at its first listing


def test_a_definition_that_calls_itself_for_a_list_is_named_at_its_place(tmp_path):
    text = BANKS.replace("  free: \"[w for w in options.weights if w not in banked]\"",
                         "  free: \"tail(options.weights)\"\n"
                         "  tail: {params: [xs], expr: \"xs if len(xs) < 3 else tail(xs[1:])\"}")
    game = load_game(write_ruleset(tmp_path, text, "banks-list"), 2, backend="compiled")
    (why,) = reasons(game.rules)
    assert why.startswith("definition 'tail' calls itself, and its value is not a bool, an int or a text, at file 1, ")
    assert game.rules.playout_tier() == "kernel"
