"""`then_required: true` on an action: it is offered only when its `then` steps reach a
decision with a possible move, so a player cannot pay for a follow-up that cannot happen."""
from __future__ import annotations

import textwrap

import pytest

from meeple.dsl.diagnostics import RulesetError
from meeple.dsl.load import load_ruleset
from meeple.interpreter import IllegalMove, load_game

# A tavern: on each of two turns a player may pay a coin to order a drink, then drink one
# of the mugs on the bar that they can afford in thirst.  Ordering is pointless when no
# mug is drinkable, so `order` asks for its follow-up to be possible.
TAVERN = """
    game: {name: tavern, players: 2}
    variables:
      coins: {per: player, initial: 2, min: 0}
      thirst: {per: player, initial: "2 if player == 0 else 0"}
      drunk: {per: player, initial: 0}
    flow:
      - loop:
          - turns: "players()"
            do:
              - choose: [order]
                pass: true
        times: 2
    actions:
      order:
        then_required: REQUIRED
        cost: {"coins[player]": 1}
        then:
          - effects: ["coins[player] += 0"]
          - choose: [drink]
      drink:
        params: {mug: "[1, 2, 3]"}
        require: ["mug <= thirst[player]"]
        effects: ["thirst[player] -= mug", "drunk[player] += mug"]
"""


def _write(tmp_path, text):
    path = tmp_path / "game.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def _tavern(tmp_path, required="true"):
    return load_game(_write(tmp_path, TAVERN.replace("REQUIRED", required)), 2)


def test_offered_only_when_the_follow_up_has_a_move(tmp_path):
    game = _tavern(tmp_path)
    s = game.new_state(0)
    assert [str(m) for m in game.legal_moves(s)] == ["order", "pass"]
    s = game.apply(s, "order")
    assert [str(m) for m in game.legal_moves(s)] == ["drink(mug=1)", "drink(mug=2)"]
    s = game.apply(s, "drink(mug=2)")
    # player 1 is never thirsty: ordering would buy nothing
    assert game.current_players(s) == (1,)
    assert [str(m) for m in game.legal_moves(s)] == ["pass"]
    s = game.apply(s, "pass")
    # player 0 drank all their thirst away in the first round
    assert game.current_players(s) == (0,) and [str(m) for m in game.legal_moves(s)] == ["pass"]
    assert s.vars["coins"] == (1, 2)


def test_refusal_names_the_missing_follow_up_and_leaves_the_state(tmp_path):
    game = _tavern(tmp_path)
    s = game.apply(game.apply(game.new_state(0), "order"), "drink(mug=2)")
    key = s.key()
    with pytest.raises(IllegalMove) as err:
        game.apply(s, "order")
    assert err.value.rejection.code == "M811"
    assert s.key() == key


def test_without_the_flag_the_price_is_paid_and_the_follow_up_skipped(tmp_path):
    game = _tavern(tmp_path, "false")
    s = game.apply(game.apply(game.new_state(0), "order"), "drink(mug=2)")
    assert [str(m) for m in game.legal_moves(s)] == ["order", "pass"]
    s = game.apply(s, "order")
    assert s.vars["coins"] == (1, 1) and game.current_players(s) == (0,)


def test_the_flag_needs_then_steps(tmp_path):
    path = _write(tmp_path, """
        game: {name: t, players: 2}
        flow:
          - choose: [wait]
        actions:
          wait:
            then_required: true
        """)
    with pytest.raises(RulesetError) as err:
        load_ruleset(path)
    codes = [(d.code, d.span.line) for d in err.value.diagnostics if d.severity == "error"]
    assert codes == [("F510", 6)]


def test_trial_plays_are_not_reported_as_skipped_decisions(tmp_path):
    from meeple.interpreter.analysis.sampling import sample
    # with the flag no real play reaches a drink nobody can take; without it player 1 does
    assert sample(_tavern(tmp_path), playouts=5)["skipped_decisions"] == {}
    assert sample(_tavern(tmp_path, "false"), playouts=5)["skipped_decisions"] != {}
