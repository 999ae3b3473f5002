"""Treasure Hunter (Kincsvadászat): reduced random play and rulebook conformance.

For every supported player count, 50 games (seeds 0-49) between random bots end
normally within a generous move cap that is never reached, and the ruleset's
invariants hold after every move.  The full 1,000-game run per player count is
`meeple simulate treasure-hunter -n 1000 -p K --check`.
"""
from __future__ import annotations

import random

import pytest

from meeple.interpreter import load_game, load_rules
from meeple.interpreter.conformance import conformance_report

NAME = "treasure-hunter"
GAMES = 50
MOVE_CAP = 5_000  # real games take about 200-450 moves


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_end_normally_with_invariants(players):
    game = load_game(NAME, players)
    for seed in range(GAMES):
        rnd = random.Random(seed)
        state = game.new_state(seed)
        moves = 0
        while not game.is_terminal(state):
            assert moves < MOVE_CAP, f"seed {seed}: no end after {MOVE_CAP} moves"
            legal = game.legal_moves(state)
            assert legal, f"seed {seed}: no legal move in phase {state.phase}"
            state = game.apply(state, legal[rnd.randrange(len(legal))])
            moves += 1
            assert game.invariant_failures(state) == [], f"seed {seed}, move {moves}"
        assert state.vars["round"] == 6, "the game ends after the fifth round"
        outcome = game.outcome(state)
        assert outcome.winners and len(outcome.scores) == players


def test_conformance_report_is_complete():
    report = conformance_report(load_rules(NAME).ruleset)
    assert report["gaps"] == [] and report["unknown_citations"] == []
    assert report["complete"]


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
