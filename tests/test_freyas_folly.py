"""Freya's Folly (Brísingamen): reduced random play and rulebook conformance.

Random games between uniform random bots end only by the rulebook's own triggers (a player
uses their last disc, or the fourth Brísing card is completed): there is no turn cap and no
option shortening the game.  Such games are long (about 670-7,000 moves, 2,150-2,360 on
average: after the caves are emptied the bots wander until their random trades happen to fit
their jewelry cards or the Brísing amber), about 1.5-1.8 s of CPU each with the invariants
checked after every move.  To keep CI time low this file plays SEEDS = 20 games per player
count (seeds 0-19, in chunks that parallel test workers share) instead of 50; the move cap is
a safety net of the test, never reached.  The full runs are
`meeple simulate freyas-folly -n 1000 -p K --check`.
"""
from __future__ import annotations

import pytest
from ruleset_support import check_conformance_complete, check_random_games

from meeple.interpreter import load_game

NAME = "freyas-folly"
SEEDS = 20
CHUNK = 5
MOVE_CAP = 100_000  # 200 random games per count (600 in all) took 666-6,968 moves


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("first", range(0, SEEDS, CHUNK))
def test_random_games_end_by_the_rulebook_triggers(players, first):
    for state, _ in check_random_games(NAME, players, range(first, first + CHUNK), MOVE_CAP):
        ender = state.vars["ender"]
        assert ender in range(players), "the game ended without its end trigger"
        zones = state.zones
        last_disc = not zones["home"][ender] and not any(d.fields["seat"] == ender for d in zones["mine_z"])
        fourth_brising = sum(len(cards) for cards in zones["bdone"]) == 4
        assert last_disc or fourth_brising


def test_conformance_report_is_complete():
    check_conformance_complete(NAME)


def test_views_hide_the_face_down_piles():
    game = load_game(NAME, 4)
    state = game.new_state(7)
    view = game.view(state, 1)
    for pile in ("jdeck", "ab_pile", "bdeck"):
        assert view["zones"][pile] == {"count": len(state.zones[pile])}
