"""`has_move(p, [actions])` (issue 42): whether a player could move, asked of the move
rules themselves, on both back ends; names checked at load (N312); never kept by a
cache that keys values by what they read."""
from __future__ import annotations

import random

import pytest

from meeple.dsl.diagnostics import RulesetError
from meeple.interpreter import RuleError, load_game
from meeple.interpreter.analysis.differential import compare_backends

# Two runners on a lane of seven cells; a runner steps one or two cells forward onto a
# free cell, and a runner who cannot move loses.
LANE = """game: {name: lane, players: 2}
variables:
  pos: {per: player, type: int, initial: 0}
  loser: {type: int, initial: -1}
flow:
  - effects: ["pos[1] = 1"]
  - loop:
      - turns: "players()"
        do:
          - if: "not has_move(player, ['step'])"
            then:
              - effects: ["loser = player", {end_game: "a runner who cannot move loses"}]
          - choose: [step]
actions:
  step:
    params: {by: "[1, 2]"}
    require: ["pos[player] + by <= 6", "pos[player] + by != pos[1 - player]"]
    effects: ["pos[player] += by"]
scoring:
  score: "0 if player == loser else 1"
"""

BACKENDS = ["reference", "compiled"]


def _game(tmp_path, text, backend="reference"):
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return load_game(path, backend=backend), path


def _stuck_by_hand(pos, player) -> bool:
    other = pos[1 - player]
    return not any(pos[player] + by <= 6 and pos[player] + by != other for by in (1, 2))


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_stuck_runner_loses_exactly_when_no_step_is_legal(tmp_path, backend):
    game, _ = _game(tmp_path, LANE, backend)
    for seed in range(20):
        state, rnd = game.new_state(seed), random.Random(seed)
        while not game.is_terminal(state):
            mover = game.current_players(state)[0]
            assert game.legal_moves(state)  # never asked to move when stuck
            assert not _stuck_by_hand(state.vars["pos"], mover)
            state = game.apply(state, rnd.choice(game.legal_moves(state)))
        loser = state.vars["loser"]
        assert _stuck_by_hand(state.vars["pos"], loser)
        assert game.outcome(state).winners == (1 - loser,)


def test_both_back_ends_agree_step_by_step(tmp_path):
    _, path = _game(tmp_path, LANE)
    report = compare_backends(path, 2, games=10, seed=3)
    assert report.ok, str(report)
    assert report.moves > 0


def test_an_unknown_action_is_located(tmp_path):
    with pytest.raises(RulesetError) as info:
        _game(tmp_path, LANE.replace("['step']", "['stpe']"))
    found = [(d.code, d.span.line, d.span.col) for d in info.value.diagnostics]
    assert ("N312", 10, 40) in found


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_end_rule_asking_has_move_is_never_kept_by_what_it_names(tmp_path, backend):
    # The end rule names no variable; what decides it (n, limit) is read by the action's
    # requirement.  A cache keyed by the names the rule reads would keep its first answer.
    text = """game: {name: limits, players: 1}
variables:
  n: {type: int, initial: 0}
  limit: {type: int, initial: 5}
flow:
  - loop:
      - choose: [add]
      - effects: ["limit -= 2"]
end:
  - when: "not has_move(0, ['add'])"
    reason: "nothing to add"
actions:
  add:
    require: ["n < limit"]
    effects: ["n += 1"]
"""
    game, _ = _game(tmp_path, text, backend)
    state = game.new_state(0)
    state = game.apply(state, "add")  # n 1, limit 3: one may add
    assert not state.over
    state = game.apply(state, "add")  # n 2, limit 1: nobody can
    assert state.over and state.end_reason == "nothing to add"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_requirement_asking_about_its_own_action_stops_at_the_depth_limit(tmp_path, backend):
    text = LANE.replace('require: ["pos[player] + by <= 6"',
                        'require: ["has_move(player, [\'step\'])", "pos[player] + by <= 6"')
    game, _ = _game(tmp_path, text, backend)
    with pytest.raises(RuleError) as info:
        game.new_state(0)
    assert info.value.code == "R702"


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_answer_comes_from_the_first_legal_move_and_the_listing_stops_there(tmp_path, backend):
    # `probe`, which no decision offers, divides by zero at its second choice: the flow's
    # has_move is answered by the first choice and never works out the second.
    text = LANE.replace("has_move(player, ['step'])", "has_move(player, ['probe'])").replace("actions:\n", (
        "actions:\n  probe:\n    params: {by: \"[1, 2]\"}\n    require: [\"12 // (2 - by) > 0\"]\n"), 1)
    game, _ = _game(tmp_path, text, backend)
    state = game.new_state(0)
    for _ in range(3):
        state = game.apply(state, game.legal_moves(state)[0])
    assert state.move_count == 3 and not state.over


def test_a_definition_may_not_take_a_library_functions_name(tmp_path):
    # `has_move` as a definition would be silently replaced by the library's at every call.
    text = LANE.replace("actions:\n", "define:\n  has_move: {params: [p, a], expr: \"true\"}\nactions:\n", 1)
    with pytest.raises(RulesetError) as info:
        _game(tmp_path, text)
    found = [(d.code, d.span.line) for d in info.value.diagnostics]
    assert ("N314", 15) in found


def test_a_definition_without_parameters_may_share_a_functions_name(tmp_path):
    # Read as a name, not called: the ruleset's own names answer first.
    text = LANE.replace("actions:\n", "define:\n  last: \"6\"\nactions:\n", 1).replace("<= 6", "<= last")
    game, _ = _game(tmp_path, text)
    assert game.legal_moves(game.new_state(0))
