"""The bounded `while` effect: rounds while a condition holds, at most `max` of them, the
same on the reference interpreter (interpreter/effects.py), the generated effects
(codegen/emit_effects.py) and the fused tier (codegen/fused_zones.py), which takes a
`max` written as a small number and explains any other at its line."""
from __future__ import annotations

import pytest

from meeple.interpreter import load_game, load_rules
from meeple.interpreter.codegen.explain_tier import tier_explanation
from meeple.interpreter.codegen.fused import located_reasons
from meeple.interpreter.runtime.context import RuleError

from ruleset_support import diagnostics_at, write_ruleset

SOW = """game: {name: sow, players: 1}
variables:
  cups: {type: "list[int]", initial: "[0, 0, 0, 0]"}
  hand: {type: int, initial: 0}
  spot: {type: int, initial: 0}
  rounds: {type: int, initial: 0}
flow:
  - loop:
      - choose: [sow]
    times: 2
actions:
  sow:
    params: {n: "[3, 6, 9]"}
    effects:
      - set: ["hand = n", "spot = 0"]
      - while: "hand > 0"
        max: %s
        do:
          - "spot = (spot + 1) %% 4"
          - "cups[spot] += 1"
          - "hand -= 1"
          - "rounds += 1"
scoring:
  score: "cups[0]"
"""


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_rounds_run_while_the_condition_holds(tmp_path, backend):
    game = load_game(write_ruleset(tmp_path, SOW % "9", "sow"), 1, backend=backend)
    state = game.apply(game.new_state(0), "sow(n=6)")
    assert state.vars["cups"] == (1, 2, 2, 1) and state.vars["hand"] == 0 and state.vars["rounds"] == 6
    state = game.apply(state, "sow(n=9)")  # exactly max rounds: allowed
    assert state.vars["rounds"] == 15 and game.is_terminal(state)
    if backend == "compiled":
        assert game.rules.module.deopts == 0


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_a_round_past_max_is_r713_at_the_effect(tmp_path, backend):
    game = load_game(write_ruleset(tmp_path, SOW % "5", "sow"), 1, backend=backend)
    state = game.apply(game.new_state(0), "sow(n=3)")
    with pytest.raises(RuleError) as err:
        game.apply(state, "sow(n=6)")
    assert err.value.code == "R713" and (err.value.span.line, err.value.span.col) == (16, 9)


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_a_huge_max_stops_at_the_cost_limit(tmp_path, backend):
    # A condition that never fails, each test worth a thousand steps of the cost counter
    # (a range of 1,000 numbers): the limit stops the loop after some 5,000 rounds, long
    # before its max, in seconds rather than the minutes of five million one-step rounds.
    text = (SOW % "1000000000000").replace('while: "hand > 0"', 'while: "len(range(1000)) + rounds > 0"')
    game = load_game(write_ruleset(tmp_path, text, "sow"), 1, backend=backend)
    with pytest.raises(RuleError) as err:
        game.apply(game.new_state(0), "sow(n=3)")
    assert err.value.code == "R702"


@pytest.mark.parametrize("text,expected", [
    ((SOW % "9").replace('while: "hand > 0"', 'while: "hand"'), [("T403", 16, "hand", "error")]),
    (SOW % "\"'many'\"", [("T403", 17, "'many'", "error")]),
    ((SOW % "9").replace("        max: 9\n", ""), [("S102", 16, 'while: "hand > 0"', "error")]),
    ((SOW % "9").replace("        max: 9\n", "        max: 9\n        most: 9\n"), [("S101", 18, "most", "error")]),
])
def test_a_while_is_checked_where_it_is_written(tmp_path, text, expected):
    assert diagnostics_at(tmp_path, text) == expected


def test_the_fused_tier_takes_a_small_written_max_and_locates_any_other(tmp_path):
    small = load_rules(write_ruleset(tmp_path, SOW % "9", "small"), backend="compiled")
    assert small.playout_tier() == "fused" and located_reasons(small) == []
    computed = load_rules(write_ruleset(tmp_path, SOW % '"len(cups) * 3"', "computed"), backend="compiled")
    assert computed.playout_tier() == "kernel"
    [(why, span)] = located_reasons(computed)
    assert "while" in why and (span.line, span.col) == (16, 9)
    assert f"computed.yaml:16:9: {why}" in tier_explanation(computed)


@pytest.mark.parametrize("max_text", ["9", '"len(cups) * 3"'])
def test_random_playouts_agree_on_every_tier(tmp_path, max_text):
    path = write_ruleset(tmp_path, SOW % max_text, "sow")
    reference, compiled = load_game(path, 1, backend="reference"), load_game(path, 1, backend="compiled")
    import random
    for seed in range(6):
        ends = [g.playout(g.new_state(seed), rng=random.Random(seed)) for g in (reference, compiled)]
        assert ends[0].key() == ends[1].key()
