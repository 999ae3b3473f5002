"""Zavandor (ZavanDor manói): reduced random play for every player count, conformance,
and the privacy of soil samples."""
from __future__ import annotations

import pytest
from ruleset_support import check_conformance_complete, check_random_games

from meeple.interpreter import load_game

NAME = "zavandor"
GAMES = 50
MOVE_CAP = 5000  # generous: random games take a few hundred moves


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_normally_and_keep_the_invariants(players):
    for _, out in check_random_games(NAME, players, range(GAMES), MOVE_CAP):
        assert max(out.scores) >= 24 - 2 * players


def test_conformance_is_complete():
    check_conformance_complete(NAME)


def test_a_soil_sample_is_seen_only_by_the_sampler():
    game = load_game("zavandor", 3)
    state = game.apply(game.new_state(5), "sample(space=II-3)")
    tile = state.zones["site"]["II-3"][0]
    assert game.view(state, 0)["zones"]["site"]["II-3"] == [tile.id]
    for other in (1, 2):
        assert game.view(state, other)["zones"]["site"]["II-3"]["items"] == ["?"]
    # The sample does not use the action, and the same tile is not offered again.
    assert game.current_players(state) == (0,)
    assert "sample(space=II-3)" not in [str(m) for m in game.legal_moves(state)]


def test_the_discount_rule_is_an_option():
    assert load_game("zavandor", 2).options["discount_rule"] is False
    assert load_game("zavandor", 2, {"discount_rule": True}).options["discount_rule"] is True
