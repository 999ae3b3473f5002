"""A conditional pass (issue 42): `pass:` on a `choose` takes, besides true and false,
a condition, with `player` the deciding player; the move `pass` is legal only when it
holds.  A pass asked for where it does not hold is refused with M804 citing the step,
and the state is left as it was.  The pass keeps its id in the action table, and both
back ends (the move-by-move walk, the playout kernel, the fused tier, and the trial a
`then_required` action makes of its follow-ups) offer it at the same states."""
from __future__ import annotations

import pytest

from meeple.adapters.action_table import ActionTable
from meeple.interpreter import IllegalMove

from flow_idiom_support import BACKENDS, check_both_playout_tiers, check_lockstep, codes_and_places, game_of

# A player may pass only with an empty hand; after each turn the helper (someone other
# than the turn's player, named by `player:`) may pass only once they have played.
PASSING = """game: {name: passing, players: 3}
variables:
  hand: {per: player, type: int, initial: 2}
  played: {per: player, type: int, initial: 0}
  helper: {type: int, initial: 1}
  rounds: {type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [play, draw]
            pass: "hand[player] == 0"
            rule: "p.2"
          - choose: [help]
            player: "helper"
            pass: "played[player] >= 1"
      - effects: ["rounds += 1"]
    until: "rounds >= 3"
actions:
  play:
    require: ["hand[player] > 0"]
    effects: ["hand[player] -= 1", "played[player] += 1"]
  draw:
    require: ["hand[player] == 0 and played[player] < 3"]
    effects: ["hand[player] += 1"]
  help:
    effects: ["helper = (helper + 1) % player_count()"]
scoring:
  score: "played[player]"
"""


def _game(tmp_path, text, backend, name="passing", players=3):
    return game_of(tmp_path, text, backend, name, players)


def _texts(game, state):
    return [str(m) for m in game.legal_moves(state)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_pass_is_legal_only_where_its_condition_holds(tmp_path, backend):
    game = _game(tmp_path, PASSING, backend)
    state = game.new_state(0)
    assert _texts(game, state) == ["play"]  # two cards in hand: no pass
    state = game.apply(state, "play")
    state = game.apply(state, "help")  # player 1 helps; the turns go on to player 1
    state = game.apply(state, "play")
    state = game.apply(state, "help")  # player 2 helps
    state = game.apply(state, "play")
    state = game.apply(state, "help")  # player 0 helps (they have played)
    state = game.apply(state, "play")  # round 2: player 0 plays their last card
    assert state.vars["hand"] == (0, 1, 1)
    state = game.apply(state, "help")  # player 1 helps
    state = game.apply(state, "play")
    state = game.apply(state, "help")  # player 2 helps
    state = game.apply(state, "play")
    state = game.apply(state, "help")  # player 0 helps; round 3, and player 0's hand is empty
    assert game.current_players(state) == (0,)
    assert _texts(game, state) == ["draw", "pass"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_player_in_the_condition_is_the_decider_not_the_turns_player(tmp_path, backend):
    game = _game(tmp_path, PASSING, backend)
    state = game.apply(game.new_state(0), "play")
    # Player 0 has played, player 1 (the helper, who decides) has not: no pass for them.
    assert game.current_players(state) == (1,) and state.vars["played"] == (1, 0, 0)
    assert _texts(game, state) == ["help"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_refused_pass_says_what_it_requires_and_changes_nothing(tmp_path, backend):
    game = _game(tmp_path, PASSING, backend)
    state = game.new_state(0)
    before = state.to_data()
    with pytest.raises(IllegalMove) as refused:
        game.apply(state, "pass")
    rejection = refused.value.rejection
    assert (rejection.code, rejection.rule) == ("M804", "p.2")
    assert dict(rejection.values) == {"condition": "hand[player] == 0"}
    assert game.explain(state, "pass", 0).code == "M804"
    assert state.to_data() == before and _texts(game, state) == ["play"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_true_and_false_keep_their_meaning(tmp_path, backend):
    always = _game(tmp_path, PASSING.replace('pass: "hand[player] == 0"', "pass: true"), backend, "always")
    never = _game(tmp_path, PASSING.replace('pass: "hand[player] == 0"', "pass: false"), backend, "never")
    assert _texts(always, always.new_state(0)) == ["play", "pass"]
    assert _texts(never, never.new_state(0)) == ["play"]
    assert never.explain(never.new_state(0), "pass", 0).code == "M807"


def test_a_conditional_pass_keeps_its_id_in_the_action_table(tmp_path):
    table = ActionTable(_game(tmp_path, PASSING, "reference"))
    assert "pass" in table.by_action


@pytest.mark.parametrize("condition,expected", [
    ('"hand[player]"', [("T403", 12, 20)]),           # not a condition
    ("1", [("T403", 12, 19)]),                         # a number is no condition either
    ('"cards[player] == 0"', [("N301", 12, 20)]),     # an undeclared name
    ('"hand[player] =="', [("X202", 12, 35)]),         # cut short
    ("{when: x}", [("S103", 12, 19)]),                 # neither true/false nor a condition
])
def test_a_wrong_condition_is_a_located_diagnostic(tmp_path, condition, expected):
    assert codes_and_places(tmp_path, PASSING.replace('pass: "hand[player] == 0"', f"pass: {condition}")) == expected


# Ordering a drink is legal only when its follow-up has a move: drinking, or (with no
# thirst left) passing. The trial of `then_required` must see the conditional pass.
THIRST = """game: {name: thirst, players: 2}
variables:
  thirst: {per: player, type: int, initial: 2, min: 0}
  mugs: {type: int, initial: 3, min: 0}
  orders: {per: player, type: int, initial: 0}
  rounds: {type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [order, wait]
      - effects: ["rounds += 1", "mugs += rounds % 2"]
    until: "rounds >= 6"
actions:
  order:
    then_required: true
    effects: ["orders[player] += 1"]
    then:
      - choose: [drink]
        pass: "thirst[player] == 0"
  drink:
    require: ["mugs > 0 and thirst[player] > 0"]
    effects: ["mugs -= 1", "thirst[player] -= 1"]
  wait:
    effects: ["thirst[player] += 1"]
scoring:
  score: "orders[player]"
"""


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("thirst,mugs,moves", [
    (1, 1, ["order", "wait"]),   # a drink can be had
    (1, 0, ["wait"]),            # thirsty and no mug: nothing could be done after ordering
    (0, 0, ["order", "wait"]),   # no thirst: the follow-up may be passed
])
def test_a_conditional_pass_in_follow_ups_counts_for_then_required(tmp_path, backend, thirst, mugs, moves):
    text = THIRST.replace("initial: 2, min: 0", f"initial: {thirst}, min: 0").replace(
        "initial: 3, min: 0", f"initial: {mugs}, min: 0")
    game = _game(tmp_path, text, backend, f"thirst-{thirst}-{mugs}", 2)
    assert _texts(game, game.new_state(0)) == moves


DRY = THIRST.replace("initial: 2, min: 0", "initial: 0, min: 0").replace("initial: 3, min: 0", "initial: 0, min: 0")
RULESETS = [("passing", PASSING, 3), ("thirst", THIRST, 2), ("dry", DRY, 2)]


@pytest.mark.parametrize("name,text,players", RULESETS, ids=[r[0] for r in RULESETS])
def test_both_back_ends_agree_at_every_step(tmp_path, name, text, players):
    check_lockstep(tmp_path, text, name, players, seed=11)


@pytest.mark.parametrize("name,text,players", RULESETS, ids=[r[0] for r in RULESETS])
def test_fused_and_kernel_playouts_end_where_the_loop_ends(tmp_path, monkeypatch, name, text, players):
    check_both_playout_tiers(tmp_path, monkeypatch, text, name, players)
