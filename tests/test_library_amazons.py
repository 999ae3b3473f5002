"""Amazons, a library game: move for move the same as OpenSpiel's `amazons` (the reduced form
of `python -m meeple.benchmarks.openspiel_lockstep amazons amazons-6 --games 1000`) on both
back ends: a turn is OpenSpiel's three actions (the queen, its destination, the arrow), and
a player who cannot move at the start of a turn loses."""
from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

from meeple.benchmarks.lockstep_games import GAMES  # noqa: E402
from meeple.benchmarks.openspiel_lockstep import run_lockstep  # noqa: E402

BOTH_ENDS = {"player 0 (X) could not move", "player 1 (O) could not move"}


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_amazons_agrees_with_openspiel_at_every_step(backend):
    report = run_lockstep(GAMES["amazons"], games=1, seed=5, backend=backend)
    assert report.ok, str(report)
    assert report.steps > 3 * 20  # a random 10 x 10 game lasts far longer than 20 turns
    assert set(report.ends) <= BOTH_ENDS and sum(report.ends.values()) == 1


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_the_small_board_from_the_option_agrees_with_openspiel(backend):
    report = run_lockstep(GAMES["amazons-6"], games=8, seed=2, backend=backend)
    assert report.ok, str(report)
    assert report.games == 8 and set(report.ends) == BOTH_ENDS


def test_a_turn_of_three_moves_at_a_web_table():
    pytest.importorskip("starlette")
    from web_support import open_table, web_client
    with web_client() as client:
        opened = open_table(client, "amazons", 2, options={"board_size": "6"})
        for text in ["pick(queen=b1)", "move(to=b4)", "shoot(at=b1)"]:
            answer = client.post(f"{opened.seats[0]}/move", json={"move": text})
            assert answer.status_code == 200, answer.text
        state = opened.table.now.state
        assert state.vars["piece"]["b4"] == "X" and state.vars["piece"]["b1"] == "#"
        refused = client.post(f"{opened.seats[0]}/move", json={"move": "pick(queen=e1)"})
        assert refused.status_code == 400 and refused.json()["code"] == "M805"
        assert client.post(f"{opened.seats[1]}/move", json={"move": "pick(queen=b6)"}).status_code == 200
