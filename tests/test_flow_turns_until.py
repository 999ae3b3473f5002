"""`turns ... until` (issue 42): a round of turns that stops as soon as a condition
holds, tested before each player's turn as a loop's `until` is before each round.
The condition is read where the step stands (the turn's name is not bound yet), the
step's names end with it, and both back ends (the move-by-move walk, the playout
kernel and the fused tier) stop at the same turn."""
from __future__ import annotations

import pytest


from flow_idiom_support import BACKENDS, check_both_playout_tiers, check_lockstep, codes_and_places, game_of, play

# Three players add to a pot or hold; a round of turns ends as soon as the pot holds
# two, so the players after that are not asked, and each round empties the pot.
ROUNDS = """game: {name: rounds, players: 3}
variables:
  pot: {type: int, initial: 0}
  taken: {per: player, type: int, initial: 0}
  rounds: {type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        until: "pot >= 2"
        do:
          - choose: [add, hold]
          - effects: ["taken[player] += 1"]
      - effects: ["rounds += 1", "pot = 0"]
    until: "rounds >= 4"
actions:
  add:
    effects: ["pot += 1"]
  hold:
    effects: ["pot += 0"]
scoring:
  score: "taken[player]"
"""


def _game(tmp_path, text, backend, name="rounds"):
    return game_of(tmp_path, text, backend, name, 3)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_turns_stop_before_the_next_player_once_the_condition_holds(tmp_path, backend):
    game = _game(tmp_path, ROUNDS, backend)
    state, movers = play(game, ["add", "add"])
    assert movers == [0, 1]
    # Player 2 was never asked: the round is over and the next one starts with player 0.
    assert state.vars["taken"] == (1, 1, 0) and state.vars["rounds"] == 1 and state.vars["pot"] == 0
    assert game.current_players(state) == (0,)
    assert [str(m) for m in game.legal_moves(state)] == ["add", "hold"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_while_the_condition_is_false_every_player_takes_a_turn(tmp_path, backend):
    game = _game(tmp_path, ROUNDS, backend)
    state, movers = play(game, ["hold", "add", "hold", "add"])
    assert movers == [0, 1, 2, 0]  # the pot held one after the round: everyone was asked
    assert state.vars["taken"] == (2, 1, 1) and state.vars["rounds"] == 1
    assert game.current_players(state) == (1,)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_condition_true_from_the_start_gives_no_turn_at_all(tmp_path, backend):
    text = ROUNDS.replace('until: "pot >= 2"', 'until: "rounds == 0"')
    game = _game(tmp_path, text, backend)
    state = game.new_state(0)
    # Round 0 had no turn; the first decision is player 0's in round 1.
    assert state.vars["rounds"] == 1 and state.vars["taken"] == (0, 0, 0)
    assert game.current_players(state) == (0,)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_turns_name_ends_with_the_step(tmp_path, backend):
    text = ROUNDS.replace("      - effects: [\"rounds += 1\", \"pot = 0\"]\n",
                          "      - effects: [\"rounds += 1\", \"pot = 0\"]\n      - choose: [hold]\n")
    game = _game(tmp_path, text, backend)
    state, _ = play(game, ["add", "add"])
    # Waiting at the choose after the turns: no name of the turns step is left.
    assert game.current_players(state) == (0,)
    assert not any(name == "player" or name.startswith(("__list", "__index")) for name in state.locals)


def test_a_mistyped_until_is_an_unknown_key_where_it_is_written(tmp_path):
    assert codes_and_places(tmp_path, ROUNDS.replace("        until: \"pot >= 2\"", "        untill: \"pot >= 2\"")) == \
        [("S101", 9, 9)]


def test_until_cannot_read_the_player_whose_turn_it_would_be(tmp_path):
    text = ROUNDS.replace('until: "pot >= 2"', 'until: "taken[player] > 0"')
    assert codes_and_places(tmp_path, text) == [("N301", 9, 23)]


def test_until_must_be_a_condition(tmp_path):
    assert codes_and_places(tmp_path, ROUNDS.replace('until: "pot >= 2"', 'until: "pot"')) == [("T403", 9, 17)]


def test_until_is_a_turns_modifier_only(tmp_path):
    text = ROUNDS.replace('turns: "players()"', 'for: p\n        in: "players()"').replace(
        '"taken[player] += 1"', '"taken[p] += 1"').replace("- choose: [add, hold]", "- choose: [add, hold]\n            player: p")
    assert [code for code, _, _ in codes_and_places(tmp_path, text)] == ["S101"]


def test_both_back_ends_agree_at_every_step(tmp_path):
    check_lockstep(tmp_path, ROUNDS, "rounds", 3, seed=4)


def test_fused_and_kernel_playouts_end_where_the_loop_ends(tmp_path, monkeypatch):
    check_both_playout_tiers(tmp_path, monkeypatch, ROUNDS, "rounds", 3)
