"""`again` on a `choose` step (issue 42): after the move (its cost, effects and `then`
steps) the condition is tested, and while it holds the same step is offered again to
the same player.  A decider named by `player:` is worked out once, as the step starts,
and kept in a flow local until the step is left; in the condition `player` is that
decider.  A pass ends the repeats, a repeat nobody can move at is skipped as any
choose is, and an action offered by such a step may be offered again (the F509 cycle
through `then` is what authors wrote before).  Both back ends (the move-by-move walk,
the playout kernel and the fused tier) must make the same repeats."""
from __future__ import annotations

import pytest

from meeple.interpreter.persistence.saves import state_from_json, state_to_json

from flow_idiom_support import BACKENDS, check_both_playout_tiers, check_lockstep, codes_and_places, game_of, play

# A jump goes on jumping, a step ends the turn; after each round the leader takes a
# bonus, which hands the lead on, as long as bonuses are left: the leader who started
# takes them all.
CHAINS = """game: {name: chains, players: 3}
variables:
  left: {type: int, initial: 14}
  jumping: {type: bool, initial: false}
  chain: {per: player, type: int, initial: 0}
  leader: {type: int, initial: 2}
  bonuses: {type: int, initial: 0}
  took: {per: player, type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [step, jump]
            again: "jumping and chain[player] < 3"
      - effects: ["bonuses = 2"]
      - choose: [bonus]
        player: "leader"
        again: "bonuses > 0"
    until: "left <= 0"
actions:
  step:
    require: ["left >= 1"]
    effects: ["left -= 1", "jumping = false", "chain[player] = 0"]
  jump:
    params: {n: "[1, 2]"}
    require: ["left >= n"]
    effects: ["left -= n", "jumping = true", "chain[player] += 1"]
  bonus:
    effects: ["bonuses -= 1", "took[player] += 1", "leader = (leader + 1) % player_count()"]
scoring:
  score: "took[player]"
"""


def _game(tmp_path, text, backend, name="chains", players=3):
    return game_of(tmp_path, text, backend, name, players)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_same_player_moves_again_while_the_condition_holds(tmp_path, backend):
    game = _game(tmp_path, CHAINS, backend)
    state, movers = play(game, ["jump(n=1)", "jump(n=2)", "step", "jump(n=1)"])
    assert movers == [0, 0, 0, 1]
    assert state.vars["chain"] == (0, 1, 0) and game.current_players(state) == (1,)
    assert [str(m) for m in game.legal_moves(state)] == ["step", "jump(n=1)", "jump(n=2)"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_condition_reads_player_as_the_decider_and_ends_the_repeats(tmp_path, backend):
    game = _game(tmp_path, CHAINS, backend)
    state, movers = play(game, ["jump(n=1)", "jump(n=1)", "jump(n=1)", "jump(n=1)"])
    assert movers == [0, 0, 0, 1]  # three jumps in a chain, then the turn goes on
    assert state.vars["chain"] == (3, 1, 0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_decider_named_by_player_is_kept_for_the_repeats_and_dropped_after(tmp_path, backend):
    game = _game(tmp_path, CHAINS, backend)
    state, _ = play(game, ["step", "step", "step", "bonus"])
    # The bonus handed the lead to player 0, but the step came again to player 2.
    assert state.vars["leader"] == 0 and state.vars["took"] == (0, 0, 1)
    assert game.current_players(state) == (2,)
    state, movers = play(game, ["bonus", "step"], state)
    assert movers == [2, 0] and state.vars["took"] == (0, 0, 2)
    assert not any(name.startswith("__who") for name in state.locals)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_repeat_nobody_can_move_at_is_skipped(tmp_path, backend):
    game = _game(tmp_path, CHAINS.replace("initial: 14", "initial: 5"), backend)
    state, movers = play(game, ["step", "step", "step", "bonus", "bonus", "jump(n=2)"])
    assert movers == [0, 1, 2, 2, 2, 0] and state.vars["left"] == 0
    # Player 0 jumped the last two: the repeat has no move, so it is skipped (and so are
    # the other turns), and the flow reaches the bonus, now player 1's.
    assert state.vars["jumping"] and state.vars["chain"] == (1, 0, 0)
    assert game.current_players(state) == (1,) and [str(m) for m in game.legal_moves(state)] == ["bonus"]
    state, _ = play(game, ["bonus", "bonus"], state)
    assert state.over


# An action with `then` steps offered by a step that comes again: the follow-up is
# done before the condition is tested, and the action is offered again by the repeat.
FOLLOW_UPS = """game: {name: follow-ups, players: 2}
variables:
  hops: {per: player, type: int, initial: 0}
  landed: {per: player, type: int, initial: 0}
  turns_left: {type: int, initial: 4}
flow:
  - loop:
      - turns: "players()"
        as: seat
        do:
          - choose: [hop, rest]
            again: "hops[player] % 2 == 1"
            pass: "landed[player] > 0"
      - effects: ["turns_left -= 1"]
    until: "turns_left <= 0"
actions:
  hop:
    effects: ["hops[player] += 1"]
    then:
      - choose: [land]
  land:
    params: {spot: "[1, 2]"}
    effects: ["landed[player] += spot"]
  rest:
    effects: ["hops[player] += 2"]
scoring:
  score: "landed[player]"
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_action_with_follow_ups_is_offered_again_after_them(tmp_path, backend):
    game = _game(tmp_path, FOLLOW_UPS, backend, "follow-ups", 2)
    state, movers = play(game, ["hop", "land(spot=2)"])
    # The landing came first; then `again` held (one hop) and player 0 is asked again,
    # with `player` the turn's `seat`: the condition names no enclosing `player`.
    assert movers == [0, 0] and state.vars["landed"] == (2, 0)
    assert game.current_players(state) == (0,)
    assert [str(m) for m in game.legal_moves(state)] == ["hop", "rest", "pass"]
    state, movers = play(game, ["hop", "land(spot=1)", "hop"], state)
    assert movers == [0, 0, 1]  # two hops: the repeats end; player 1's hop awaits its landing
    assert [str(m) for m in game.legal_moves(state)] == ["land(spot=1)", "land(spot=2)"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_pass_ends_the_repeats(tmp_path, backend):
    game = _game(tmp_path, FOLLOW_UPS, backend, "follow-ups", 2)
    state, movers = play(game, ["hop", "land(spot=1)", "pass"])
    assert movers == [0, 0, 0] and game.current_players(state) == (1,)
    assert state.vars["hops"] == (1, 0)


def test_a_state_waiting_at_a_repeat_is_saved_and_loaded(tmp_path):
    game = _game(tmp_path, CHAINS, "reference")
    state, _ = play(game, ["step", "step", "step", "bonus"])
    assert any(name.startswith("__who") for name in state.locals)
    loaded = state_from_json(game, state_to_json(game, state))
    assert loaded.locals == state.locals and game.current_players(loaded) == (2,)


def test_a_mistyped_again_is_an_unknown_key_where_it_is_written(tmp_path):
    text = CHAINS.replace('again: "bonuses > 0"', 'agian: "bonuses > 0"')
    assert codes_and_places(tmp_path, text) == [("S101", 18, 9)]


def test_again_must_be_a_condition_over_known_names(tmp_path):
    assert codes_and_places(tmp_path, CHAINS.replace('again: "bonuses > 0"', 'again: "bonuses"')) == \
        [("T403", 18, 17)]
    assert codes_and_places(tmp_path, CHAINS.replace('again: "bonuses > 0"', 'again: "bonus_left > 0"')) == \
        [("N301", 18, 17)]


def test_again_is_a_choose_modifier_only(tmp_path):
    text = CHAINS.replace("      - choose: [bonus]\n        player: \"leader\"",
                          "      - simultaneous: [bonus]")
    assert [code for code, _, _ in codes_and_places(tmp_path, text)] == ["S101"]


def test_an_action_offering_itself_in_its_then_is_still_F509_where_it_is_offered(tmp_path):
    text = FOLLOW_UPS.replace("      - choose: [land]", "      - choose: [land, hop]")
    assert codes_and_places(tmp_path, text) == [("F509", 20, 24)]


RULESETS = [("chains", CHAINS, 3), ("follow-ups", FOLLOW_UPS, 2)]


@pytest.mark.parametrize("name,text,players", RULESETS, ids=[r[0] for r in RULESETS])
def test_both_back_ends_agree_at_every_step(tmp_path, name, text, players):
    check_lockstep(tmp_path, text, name, players, seed=7)


@pytest.mark.parametrize("name,text,players", RULESETS, ids=[r[0] for r in RULESETS])
def test_fused_and_kernel_playouts_end_where_the_loop_ends(tmp_path, monkeypatch, name, text, players):
    check_both_playout_tiers(tmp_path, monkeypatch, text, name, players)
