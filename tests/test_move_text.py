"""Moves have one canonical text form: every legal move's text parses back to that move,
whitespace outside quotes is ignored, and a malformed text is explained (M802/M803)."""
from __future__ import annotations

import pytest

from meeple.interpreter import load_game
from meeple.interpreter.runtime.moves import IllegalMove, canonical_text, split_args

RULESET = """
game: {name: labels, players: 2}
variables:
  said: {type: str, initial: "''"}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [say]
    times: 2
actions:
  say:
    params: {word: "['big red', \\"it's\\", 'a,b', 'plain']", n: "[1, 2]"}
    effects: ["said = word"]
"""


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "labels.yaml"
    path.write_text(RULESET, encoding="utf-8")
    return load_game(str(path), 2)


def test_every_legal_move_text_parses_back(game):
    state = game.new_state(0)
    legal = game.legal_moves(state)
    assert len(legal) == 8
    for move in legal:
        assert game.parse_move(state, str(move)) == move


def test_spaces_outside_quotes_are_ignored_and_inside_kept(game):
    state = game.apply(game.new_state(0), "say( word = 'big red' , n = 2 )")
    assert state.vars["said"] == "big red"
    with pytest.raises(IllegalMove) as err:
        game.apply(game.new_state(0), "say(word='bigred',n=2)")
    assert err.value.rejection.code == "M803"


def test_quoted_commas_and_quotes_survive_splitting():
    assert split_args("word='a,b',n=[1,2]") == ["word='a,b'", "n=[1,2]"]
    assert canonical_text('say(word = "it\'s", n=1)') == 'say(word="it\'s",n=1)'
