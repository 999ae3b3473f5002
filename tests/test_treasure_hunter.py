"""Treasure Hunter (Kincsvadászat): reduced random play and rulebook conformance.

For every supported player count, 50 games (seeds 0-49) between random bots end
normally within a generous move cap that is never reached, and the ruleset's
invariants hold after every move.  The full 1,000-game run per player count is
`meeple simulate treasure-hunter -n 1000 -p K --check`.
"""
from __future__ import annotations

import random

import pytest
from ruleset_support import check_conformance_complete, check_random_games

from meeple.interpreter import load_game

NAME = "treasure-hunter"
GAMES = 50
MOVE_CAP = 5_000  # real games take about 160-390 moves


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_end_normally_with_invariants(players):
    for state, _ in check_random_games(NAME, players, range(GAMES), MOVE_CAP):
        assert state.vars["round"] == 6, "the game ends after the fifth round"


def test_conformance_report_is_complete():
    check_conformance_complete(NAME)


@pytest.mark.parametrize("players", [2, 3])
def test_views_hide_other_hands_kept_cards_and_piles(players):
    game = load_game(NAME, players)
    rnd = random.Random(7)
    state = game.new_state(7)
    for _ in range(6):  # a few draft picks: packets and kept cards are filled
        legal = game.legal_moves(state)
        state = game.apply(state, legal[rnd.randrange(len(legal))])
    view = game.view(state, 1)
    mine = {c.id for c in state.zones["packet"][0]} | {c.id for c in state.zones["kept"][0]}
    assert mine and not mine & set(_ids(view["zones"]))
    assert view["zones"]["deck"] == {"count": len(state.zones["deck"])}
    assert all(set(z) == {"count"} for z in view["zones"]["own_pile"])


def _ids(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _ids(v)
    elif isinstance(value, list):
        for v in value:
            yield from _ids(v)
    elif isinstance(value, str):
        yield value
