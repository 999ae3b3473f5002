"""Valdora: random games end normally with the invariants holding after every move, and the
conformance report is complete.

Random bots need several thousand moves for a game of Valdora (the guild empties only after
some 35 orders have been fulfilled), so this reduced test plays GAMES seeds per player count;
the full runs (seeds 0-999) are made with `meeple simulate valdora -n 1000 -p K --check`.
"""
from __future__ import annotations

import random

import pytest

from meeple.interpreter import load_game, load_rules
from meeple.interpreter.conformance import conformance_report

GAMES = 2          # seeds 0..GAMES-1 per player count (see the module docstring)
MOVE_CAP = 60_000  # generous: random games take about 5,000-10,000 moves


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_end_normally(players):
    game = load_game("valdora", players)
    for seed in range(GAMES):
        rnd = random.Random(seed)
        state = game.new_state(seed)
        assert game.invariant_failures(state) == []
        moves = 0
        while not game.is_terminal(state):
            assert moves < MOVE_CAP, f"seed {seed}: no end after {MOVE_CAP} moves"
            legal = game.legal_moves(state)
            assert legal, f"seed {seed}: no legal move at a non-terminal state"
            state = game.apply(state, legal[rnd.randrange(len(legal))])
            moves += 1
            assert game.invariant_failures(state) == [], f"seed {seed}, move {moves}"
        outcome = game.outcome(state)
        assert outcome.winners and "guild" in outcome.reason


def test_conformance_complete():
    report = conformance_report(load_rules("valdora").ruleset)
    assert report["complete"], report
