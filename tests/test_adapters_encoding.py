"""The action table and observation tensors both adapters share (adapters/encoding.py)."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from meeple.adapters import ActionSpaceError, ActionTable, ObservationLayout
from meeple.interpreter.runtime.knowledge import WHOLE
from meeple.interpreter.runtime.loading import load_game

SHIPPED = ["tic-tac-toe", "connect-four", "nim", "goofspiel", "treasure-hunter", "valdora", "zavandor",
           "freyas-folly", "examples/high-card"]


def _ids_text(name, players):
    """The ids of the first position's legal moves, and the table's size."""
    game = load_game(name, players)
    table = ActionTable(game)
    state = game.new_state(3)
    return json.dumps([table.size, sorted((i, str(m)) for i, m in table.legal(state).items())])


@pytest.mark.parametrize("name,players", [("connect-four", 2), ("goofspiel", 3), ("treasure-hunter", 3)])
def test_the_same_move_has_the_same_id_in_another_process(name, players):
    here = _ids_text(name, players)
    code = f"from tests.test_adapters_encoding import _ids_text; print(_ids_text({name!r}, {players}))"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env,
                           cwd=os.path.dirname(os.path.dirname(__file__))).stdout.strip()
    assert here == there


def test_ids_follow_the_declarations_and_options():
    c4 = ActionTable(load_game("connect-four"))
    assert c4.size == 7 and [c4.describe(i) for i in range(7)] == [f"drop(col={i})" for i in range(7)]
    small = ActionTable(load_game("goofspiel", 2, {"cards": 3}))
    big = ActionTable(load_game("goofspiel", 2, {"cards": 13}))
    assert small.size == big.size  # every bid card of the game, whatever the option
    assert [small.describe_chance(i) for i in range(len(small.chance))][:2] == ["chance(drawn=P1)",
                                                                                "chance(drawn=P10)"]


def test_every_legal_move_of_a_long_game_has_a_distinct_id():
    game = load_game("zavandor", 2)
    table = ActionTable(game)
    state = game.new_state(11)
    import random
    rnd = random.Random(11)
    for _ in range(300):
        if state.over:
            break
        legal = table.legal(state)
        assert len(legal) == len(game.legal_moves(state))
        state = game.apply(state, legal[rnd.choice(sorted(legal))])


def test_a_move_on_an_item_its_mover_cannot_see_is_numbered_by_its_handle():
    game = load_game("valdora", 3)
    table = ActionTable(game)
    import random
    rnd = random.Random(1)
    state = game.new_state(1)
    hidden = []
    for _ in range(3000):
        for i, m in table.legal(state).items():
            namer = game.namer(state, m.player)
            items = [v for _, v in m.args if hasattr(v, "kind")]
            if items and any(namer.sight(v) != WHOLE for v in items):
                hidden.append((i, m, [v.id for v in items if namer.sight(v) != WHOLE]))
        if hidden or state.over:
            break
        state = game.apply(state, rnd.choice(game.legal_moves(state)))
    assert hidden, "no move on an unseen item met"
    for i, move, ids in hidden:
        text = table.describe(i)
        assert "@" in text and not any(item_id in text for item_id in ids)
        assert text == game.move_text(state, move, move.player)


def _one_action_game(folder, name, domain):
    """A two-player game of one action, `act`, whose parameter `choice` ranges over `domain`."""
    (folder / "game.yaml").write_text(f"""
game: {{name: {name}, title: {name}, players: {{min: 2, max: 2}}}}
variables:
  total: {{type: int, initial: 0}}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [act]
    while: "total < 2"
actions:
  act:
    params: {{choice: "{domain}"}}
    effects:
      - set: "total += 1"
""")
    return load_game(str(folder))


def test_a_parameter_whose_values_no_table_can_hold_is_named(tmp_path):
    with pytest.raises(ActionSpaceError, match="parameter 'choice' of action 'act'"):
        ActionTable(_one_action_game(tmp_path, "mapper", "[{'a': 1}, {'a': 2}]"))


def test_a_parameter_with_too_many_values_is_named(tmp_path):
    with pytest.raises(ActionSpaceError, match="cannot be bounded.*parameter 'choice'"):
        ActionTable(_one_action_game(tmp_path, "counter", "[total, 5000000]"))


@pytest.mark.parametrize("name", SHIPPED)
def test_observation_tensors_have_one_shape_per_game(name):
    game = load_game(name)
    layout = ObservationLayout(game)
    import random
    rnd = random.Random(0)
    state = game.new_state(0)
    for _ in range(40):
        if state.over:
            break
        for p in range(game.player_count):
            t = layout.tensor(state, p)
            assert t.shape == (layout.size,) and np.isfinite(t).all()
        state = game.apply(state, rnd.choice(game.legal_moves(state)))


def test_a_tensor_is_made_from_the_view_alone():
    """Two positions that differ only in the hidden order of the prize deck give player 0
    the same view, and so the same tensor."""
    game = load_game("goofspiel", 2, {"cards": 5})
    game.explicit_chance = True
    layout = ObservationLayout(game)
    first = game.new_state(0)
    a = game.apply(first, game.chance_outcomes(first)[0][0])
    b_state = game.new_state(0)
    b = game.apply(b_state, game.chance_outcomes(b_state)[0][0])
    assert game.view(a, 0) == game.view(b, 0)
    assert np.array_equal(layout.tensor(a, 0), layout.tensor(b, 0))
    own, other = layout.tensor(a, 0), layout.tensor(a, 1)
    assert not np.array_equal(own, other)  # each sees their own hand only


def test_cells_of_a_board_are_in_the_tensor():
    game = load_game("tic-tac-toe")
    layout = ObservationLayout(game)
    state = game.apply(game.new_state(0), game.legal_moves(game.new_state(0))[4])
    diff = layout.tensor(state, 1) - layout.tensor(game.new_state(0), 1)
    assert diff[diff > 0].size >= 1 and "X" in layout.texts


def test_a_parameter_the_probe_never_met_takes_what_its_static_type_allows():
    """Freyas Folly's drink_strength is rarely legal; random probe games may never offer it."""
    game = load_game("freyas-folly", 3)
    block = ActionTable(game).by_action["drink_strength"]
    dwarves = {("item", d.id) for d in game.items_of("dwarf")}
    assert dwarves <= set(block.universes[0])
