"""Valdora: random games end normally with the invariants holding after every move, and the
conformance report is complete.

Random bots need several thousand moves for a game of Valdora (the guild empties only after
some 35 orders have been fulfilled); the full runs (seeds 0-999) are made with
`meeple simulate valdora -n 1000 -p K --check`.
"""
from __future__ import annotations

import pytest
from ruleset_support import check_conformance_complete, check_random_games

NAME = "valdora"
GAMES = 10        # per player count here; the long runs are `meeple simulate` (above)
CHUNK = 10         # seeds per test item, so parallel workers share the load evenly
MOVE_CAP = 60_000  # generous: random games take about 5,000-10,000 moves


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("first", range(0, GAMES, CHUNK))
def test_random_games_end_normally(players, first):
    for _, outcome in check_random_games(NAME, players, range(first, first + CHUNK), MOVE_CAP):
        assert "guild" in outcome.reason


def test_conformance_complete():
    check_conformance_complete(NAME)
