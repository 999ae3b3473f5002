"""An action may not take the name of a move the interpreter makes itself (issue 42):
an action called `pass` validated, was offered, and was silently replaced by the built-in
pass, so its requirement and effects never ran."""
from __future__ import annotations

import pytest

from meeple.dsl.diagnostics import RulesetError
from meeple.dsl.load import load_ruleset

GAME = """game: {{name: builtin-names, players: 2}}
variables:
  n: {{type: int, initial: 0}}
flow:
  - loop:
      - turns: "players()"
        do: [{{choose: [add, {name}]}}]
    until: "n >= 3"
actions:
  add:
    effects: ["n += 1"]
  {name}:
    effects: []
end: [{{when: "n >= 3"}}]
"""


@pytest.mark.parametrize("name", ["pass", "chance"])
def test_an_action_named_like_a_built_in_move_is_a_located_error(tmp_path, name):
    path = tmp_path / "game.yaml"
    path.write_text(GAME.format(name=name), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    found = [(d.code, d.span.line, d.span.col) for d in info.value.diagnostics if d.code == "S109"]
    assert found == [("S109", 12, 3)]


def test_the_same_game_with_its_own_name_for_the_action_loads(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(GAME.format(name="pass_turn"), encoding="utf-8")
    assert "pass_turn" in load_ruleset(path).actions
