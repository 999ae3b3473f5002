"""Blackjack, a library game: move for move the same as OpenSpiel's `blackjack` on both
back ends (the reduced form of `python -m meeple.benchmarks.openspiel_lockstep blackjack
--games 1000`), the back ends the same with chance explicit, and the dealer's hole card
hidden from the player until the player's turn is over."""
from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

from ruleset_support import check_conformance_complete  # noqa: E402

from meeple.benchmarks.lockstep_games import GAMES  # noqa: E402
from meeple.benchmarks.openspiel_lockstep import run_lockstep  # noqa: E402
from meeple.interpreter import load_game  # noqa: E402
from meeple.interpreter.analysis.differential import compare_backends  # noqa: E402


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_blackjack_agrees_with_openspiel_at_every_step(backend):
    report = run_lockstep(GAMES["blackjack"], games=60, seed=100, backend=backend)
    assert report.ok, str(report)
    assert report.steps >= 60 * 6  # four cards dealt, a decision, the end: at least


def test_both_back_ends_agree_with_chance_explicit():
    report = compare_backends("blackjack", 1, games=15, seed=4, explicit_chance=True)
    assert report.ok, str(report)
    assert report.moves > 15 * 5


def test_the_hole_card_is_hidden_until_the_player_is_done():
    game = load_game("blackjack")
    state = game.new_state(11)
    hole, upcard = state.zones["dealer"]
    seen = game.view(state, 0)["zones"]
    assert seen["dealer"] == {"count": 2, "items": ["?", upcard.id]}
    assert seen["deck"] == {"count": 48}  # what is left would tell the hole card
    assert hole.id not in str(game.view(state, 0))
    state = game.apply(state, "stand")
    assert game.view(state, 0)["zones"]["dealer"][:2] == [hole.id, upcard.id]


def test_conformance_report_is_complete():
    check_conformance_complete("blackjack")
