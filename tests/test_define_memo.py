"""A definition that reads nothing of the state is worked out once per game for each set
of arguments, on both back ends, lists of ints and texts among them (issue 47: a
`ray(n, [dr, dc])` called with a direction was worked out at every call)."""
from __future__ import annotations

import pytest

from meeple.interpreter import load_game
from meeple.interpreter.runtime.context import Ctx
from meeple.interpreter.runtime.memo_keys import memo_keyable

# `far` walks 300 numbers; every one of the 20 choices of `pick` asks it about one direction.
RULESET = """game: {name: memo-walk, players: 1}
variables:
  done: {type: bool, initial: false}
define:
  far: {params: [d], expr: "sum(x * d[0] + d[1] for x in range(300))"}
flow:
  - choose: [pick]
actions:
  pick:
    params: {n: "range(20)"}
    require: ["far(DIRECTION) > n"]
    effects: ["done = true"]
end:
  - when: "done"
scoring:
  score: "0"
"""


def _second_listing_cost(tmp_path, backend, direction):
    """What listing `pick` charges once the game has listed it before (at the decision)."""
    path = tmp_path / f"{backend}.yaml"
    path.write_text(RULESET.replace("DIRECTION", direction), encoding="utf-8")
    game = load_game(path, backend=backend)
    state = game.new_state(0)
    costs = []
    for _ in range(2):
        ctx = Ctx(game, state)
        game.rules.actions["pick"].enumerate(ctx, 0, [])
        costs.append(ctx.cost)
    return game, costs[1]


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_a_list_argument_is_worked_out_once_and_charged_as_a_call_after(tmp_path, backend):
    game, cost = _second_listing_cost(tmp_path, backend, "[1, 2]")
    assert ("far", (1, 2)) in game.memo
    assert cost <= 20 * 40  # twenty remembered answers (a call and a comparison each); twenty walks cost 18,440


def test_the_back_ends_charge_the_same_for_remembered_answers(tmp_path):
    costs = [_second_listing_cost(tmp_path, b, "[1, 2]")[1] for b in ("reference", "compiled")]
    assert costs[0] == costs[1]


@pytest.mark.parametrize("value, keyable", [
    (3, True), ("a", True), ((1, 2), True), (("a", (1, "b")), True), ((), True),
    (True, False), ((1, True), False), ({"a": 1}, False), (((1,), {1: 2}), False),
])
def test_which_values_key_the_memo(value, keyable):
    assert memo_keyable(value) is keyable
