"""2048, a library game: move for move the same as OpenSpiel's `2048` on both back ends
(the reduced form of `python -m meeple.benchmarks.openspiel_lockstep 2048 2048-max-tile-32
2048-max-tile-48 --games 1000`), with the default goal tile and with goals that make random
games end at the goal tile and at the move limit; the back ends the same with chance explicit."""
from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

from ruleset_support import check_conformance_complete  # noqa: E402

from meeple.benchmarks.lockstep_games import GAMES  # noqa: E402
from meeple.benchmarks.openspiel_lockstep import run_lockstep  # noqa: E402
from meeple.interpreter.analysis.differential import compare_backends  # noqa: E402

GAMES_PER_BACKEND = {"reference": 5, "compiled": 10}  # a default game is about 240 steps


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_2048_agrees_with_openspiel_at_every_step(backend):
    report = run_lockstep(GAMES["2048"], games=GAMES_PER_BACKEND[backend], seed=200, backend=backend)
    assert report.ok, str(report)
    assert report.steps >= report.games * 100


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_the_goal_tile_and_the_move_limit_agree_with_openspiel(backend):
    # The ends the default game's random play never meets: a goal of 32, which random play
    # reaches, and one of 48, which no tile can be, so that the move limit (192 actions) comes.
    games = GAMES_PER_BACKEND[backend]
    goal = run_lockstep(GAMES["2048-max-tile-32"], games=games, seed=300, backend=backend)
    limit = run_lockstep(GAMES["2048-max-tile-48"], games=games, seed=400, backend=backend)
    assert goal.ok and limit.ok, f"{goal}\n{limit}"
    assert goal.ends == {"the goal tile is on the board": games}
    assert limit.ends["the move limit is reached"] >= 2 and set(limit.ends) <= {
        "the move limit is reached", "the board is full and no two neighbours are equal"}


def test_both_back_ends_agree_with_chance_explicit():
    report = compare_backends("2048", 1, games=3, seed=5, options={"max_tile": 32}, explicit_chance=True)
    assert report.ok, str(report)
    assert report.finished == 3 and report.moves > 3 * 30


def test_conformance_report_is_complete():
    check_conformance_complete("2048")
