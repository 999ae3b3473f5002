"""`views.summary(view)`: a player's view as one readable line, for a console.  The view
itself stays a plain dict (compared as one, written to JSON by saves, bots and playthroughs)."""
from __future__ import annotations

import json

import pytest

from meeple.interpreter import list_rulesets, load_game
from meeple.interpreter.runtime.views import summary
from ruleset_support import random_states


def test_a_view_stays_a_plain_dict():
    game = load_game("goofspiel", 2)
    view = game.view(game.new_state(7), 1)
    assert type(view) is dict
    assert json.loads(json.dumps(view)) == view


def test_nim_reads_as_its_variables():
    game = load_game("nim", 2)
    assert summary(game.view(game.new_state(7), 1)) == "<view of player 1, to move [0]: heaps=[3, 4, 5], last_mover=-1>"


def test_a_hidden_hand_is_a_count_and_the_own_hand_its_first_ids():
    game = load_game("goofspiel", 2)
    line = summary(game.view(game.new_state(7), 1))
    assert "hand=[13 hidden | [S1-1, S1-2, S1-3, S1-4, … 9 more]]" in line
    assert "S0-" not in line  # player 0's cards are in player 1's summary only as a count


def test_every_kind_of_zone_and_value_has_a_short_form():
    view = {"viewer": 2, "to_move": [], "over": True, "phase": "end",
            "vars": {"m": {"$map": {"a": 1, "b": [True, None]}}, "i": {"$item": "X1"}, "s": ""},
            "zones": {"deck": {"count": 3, "known": ["A"]}, "pile": {"count": 2, "top": "C"},
                      "empty_pile": {"count": 0, "top": None}, "bag": {"count": 2, "items": ["A", "?"]},
                      "rows": {"x": ["A"], "y": {"count": 1}}, "hands": [["B"], {"count": 2}]}}
    assert summary(view) == ("<view of player 2, over, phase end: i=X1, m={a: 1, b: [true, none]}, s=\"\", "
                             "bag=2 (A, ?), deck=3 hidden (1 known: A), empty_pile=empty, hands=[[B] | 2 hidden], "
                             "pile=2 (top C), rows={x: [A], y: 1 hidden}>")


def test_a_long_view_is_cut_to_the_limit():
    view = {"viewer": 0, "to_move": [0], "over": False, "vars": {f"v{i}": list(range(30)) for i in range(20)}, "zones": {}}
    line = summary(view, limit=200)
    assert len(line) == 200 and line.endswith("...>")
    assert "v0=[0, 1, 2" in line and line.count("...") >= 2  # each value is cut too


@pytest.mark.parametrize("name", list_rulesets())
def test_every_shipped_game_summarises_every_players_view_in_one_line(name):
    game = load_game(name)
    for step, state in random_states(game, 5, 40):
        if step % 10 == 0 or state.over:
            for p in range(game.player_count):
                line = summary(game.view(state, p))
                assert line.startswith(f"<view of player {p}, ") and line.endswith(">")
                assert "\n" not in line and len(line) <= 400
