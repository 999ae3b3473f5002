"""examples/sealed-bids, the example of issue 47's language items together: items that
follow the options and the player count, typed options, `move_count()`, a slice, a range
with a step and an exact shared score.  Both back ends agree with every player count
and several option choices, and its random playouts stay in the fused tier (which
writes a move of no effects at a simultaneous step, `hold`), playing each game's own
items."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from meeple.interpreter import Game, load_game
from meeple.interpreter.analysis.differential import compare_backends

from test_kernel import _same_playouts

EXAMPLE = str(Path(__file__).resolve().parent.parent / "examples" / "sealed-bids")
SETTINGS = [(2, None), (3, {"top_bid": 6, "rounds": 2}), (4, {"top_bid": 3})]


@pytest.mark.parametrize("players, options", SETTINGS)
def test_both_back_ends_agree_at_every_step(players, options):
    report = compare_backends(EXAMPLE, players, games=4, seed=2, options=options)
    assert report.ok, str(report)
    assert report.moves > 0 and report.deopts == 0


def test_its_playouts_are_the_fused_tiers_with_each_games_items():
    rules = load_game(EXAMPLE, 2, backend="compiled").rules
    assert rules.playout_tier() == "fused"
    for players, options in SETTINGS:
        game = Game(rules, players, options)
        assert len(game.items) == players * (options or {}).get("top_bid", 4) + (options or {}).get("top_bid", 4)
        _same_playouts(game, seeds=range(8))
        assert game.kernel_fallbacks == 0


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_a_prize_shared_three_ways_scores_a_third_each(backend):
    game = load_game(EXAMPLE, 3, {"rounds": 2}, backend=backend)
    state = game.new_state(0)
    worth = state.zones["row"][0].fields["worth"]
    for player, move in enumerate(["bid(t=bid0-2)", "bid(t=bid1-2)", "bid(t=bid2-2)"] + ["hold"] * 3):
        state = game.apply(state, move, player % 3)
    assert state.over
    assert list(game.outcome(state).scores) == [Fraction(worth, 3)] * 3
