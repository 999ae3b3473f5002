"""A variable declared as a set (docs/expressions.md, sets): it starts empty without an
`initial`, a save must hold a set of one kind in it, and the text view writes it as a set."""
from __future__ import annotations

import json

import pytest

from meeple.interpreter import load_game
from meeple.interpreter.presentation.display import TableText
from meeple.interpreter.persistence.saves import CorruptFile, load_state, save_state

GAME = """game: {name: marks, players: 2}
variables:
  marked: {type: "set[int]"}
  done: {type: bool, initial: false}
flow:
  - loop:
      - turns: "players()"
        do: [{choose: [mark]}]
    until: "len(marked) >= 3"
actions:
  mark:
    params: {n: "[k for k in range(5) if not (k in marked)]"}
    effects: ["marked = union(marked, {n})"]
end: [{when: "len(marked) >= 3"}]
"""


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(GAME, encoding="utf-8")
    return load_game(path)


def test_a_set_variable_without_initial_starts_empty(game):
    state = game.new_state(0)
    assert state.vars["marked"] == frozenset()
    state = game.apply(game.apply(state, "mark(n=3)"), "mark(n=1)")
    assert state.vars["marked"] == frozenset({1, 3})


def test_a_save_holding_a_mixed_set_is_refused_as_a_corrupt_save(game, tmp_path):
    state = game.apply(game.new_state(0), "mark(n=2)")
    path = tmp_path / "save.json"
    save_state(game, state, path)
    assert load_state(game, path).vars["marked"] == frozenset({2})
    data = json.loads(path.read_text())
    text = json.dumps(data).replace('{"$set": [2]}', '{"$set": [2, "two"]}')
    assert text != json.dumps(data)
    path.write_text(text)
    with pytest.raises(CorruptFile) as info:
        load_state(game, path)
    assert info.value.code == "D006"


def test_the_text_view_writes_a_set_as_a_set(game):
    state = game.apply(game.apply(game.new_state(0), "mark(n=4)"), "mark(n=0)")
    text = TableText(game, game.view(state, 0)).text()
    assert "{0, 4}" in text and "$set" not in text
