"""Freya's Folly (Brísingamen): reduced random play and rulebook conformance.

For every supported player count, 50 games (seeds 0-49) between random bots end
normally within a generous move cap that is never reached, and the ruleset's
invariants hold after every move.  To keep CI time low these games use the
ruleset's own `max_rounds` option (the assumed safety end, README assumption A7)
set to 5 rounds; full-length games are `meeple simulate freyas-folly -n 1000 -p K --check`.
"""
from __future__ import annotations

import random

import pytest

from meeple.interpreter import load_game, load_rules
from meeple.interpreter.conformance import conformance_report

NAME = "freyas-folly"
GAMES = 50
ROUNDS = 5
MOVE_CAP = 5_000  # a 5-round game takes about 40-90 moves


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_end_normally_with_invariants(players):
    game = load_game(NAME, players, {"max_rounds": ROUNDS})
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
        assert state.vars["ender"] >= 0 or state.vars["round"] == ROUNDS
        outcome = game.outcome(state)
        assert outcome.winners and len(outcome.scores) == players


def test_conformance_report_is_complete():
    report = conformance_report(load_rules(NAME).ruleset)
    assert report["gaps"] == [] and report["unknown_citations"] == []
    assert report["complete"]
