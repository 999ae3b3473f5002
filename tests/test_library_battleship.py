"""Battleship, a library game: move for move the same as OpenSpiel's `battleship` (the reduced
form of `python -m meeple.benchmarks.openspiel_lockstep battleship --games 1000`) on both back
ends, with a fractional loss multiplier and a crowded sea besides the default game; and the
placements kept from the other player while the shots' results are seen by both."""
from __future__ import annotations

from fractions import Fraction

import pytest

pytest.importorskip("pyspiel")

from meeple.benchmarks.lockstep_games import GAMES  # noqa: E402
from meeple.benchmarks.openspiel_lockstep import run_lockstep  # noqa: E402
from meeple.interpreter import load_game  # noqa: E402

BACKENDS = ["reference", "compiled"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_default_game_agrees_with_openspiel_at_every_step(backend):
    report = run_lockstep(GAMES["battleship"], games=1, seed=5, backend=backend)
    assert report.ok, str(report)
    assert report.steps == 2 * 5 + 2 * 50 + 1  # ten placements, a hundred shots, the end


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_crowded_sea_agrees_with_openspiel_where_room_must_be_kept(backend):
    report = run_lockstep(GAMES["battleship-crowded"], games=12, seed=0, backend=backend)
    assert report.ok, str(report)
    assert report.ends == {"a whole fleet has been sunk": 12}


@pytest.mark.parametrize("backend", BACKENDS)
def test_half_a_loss_gives_fractional_returns_as_openspiel_does(backend):
    spec = GAMES["battleship-half-loss"]
    assert spec.options["loss_multiplier"] == [1, 2]
    report = run_lockstep(spec, games=1, seed=2, backend=backend)
    assert report.ok, str(report)


def _placed_and_fired(backend: str):
    """A 4 x 3 sea, two shots each and a loss multiplier of 1/2: player 0's ships on a2-b2 and
    b3-d3, player 1's on c1-c2 and a1-a3; player 0 has sunk c1-c2 (in two shots), player 1 has
    hit a2, and has one shot left."""
    game = load_game("battleship", 2, {"board_width": 4, "board_height": 3, "ship_sizes": [2, 3],
                                       "ship_values": [1, 2], "num_shots": 2, "loss_multiplier": [1, 2]},
                     backend=backend)
    state = game.new_state(0)
    for text in ["place(at=a2,heading=e)", "place(at=c1,heading=n)", "place(at=b3,heading=e)",
                 "place(at=a1,heading=n)", "shoot(at=c1)", "shoot(at=a2)", "shoot(at=c2)"]:
        state = game.apply(state, text)
    return game, state


@pytest.mark.parametrize("backend", BACKENDS)
def test_placements_are_the_owners_alone_and_results_are_everyones(backend):
    game, state = _placed_and_fired(backend)
    seen = game.view(state, 1)["vars"]
    assert seen["fleet"] == {"1": [[2, 6], [0, 4, 8]]}  # cells numbered row * 4 + column; not player 0's ships
    assert seen["damage"] == {"1": [2, 0]}  # nor which of player 0's ships was hit
    assert "spots" not in seen
    assert seen["marks"] == [{"$map": {"c1": "hit", "c2": "sunk"}}, {"$map": {"a2": "hit"}}]
    assert seen["afloat"] == [2, 1]
    start = game.new_state(0)
    placed = game.legal_moves(start)[0]
    assert game.move_text(start, placed, 0) == "place(at=a1,heading=e)"
    assert game.move_text(start, placed, 1) == "place(at=?,heading=?)"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_fractional_return_is_exact(backend):
    game, state = _placed_and_fired(backend)
    state = game.apply(state, "shoot(at=d3)")
    outcome = game.outcome(state)
    # player 0 sank a ship worth 1 and lost none; player 1 lost it, at half its value
    assert outcome.scores == (1, Fraction(-1, 2))
    assert outcome.winners == (0,) and outcome.reason == "both players have fired all their shots"


def test_a_small_sea_plays_to_its_end_at_a_web_table():
    pytest.importorskip("starlette")
    from web_support import open_table, web_client
    with web_client() as client:
        opened = open_table(client, "battleship", 2, options={"board_width": "3", "board_height": "2",
                                                              "ship_sizes": "[2]", "ship_values": "[1]",
                                                              "num_shots": "4"})
        assert sorted(opened.table.game.boards["sea"].nodes) == ["a1", "a2", "b1", "b2", "c1", "c2"]
        for seat, text in [(0, "place(at=a1,heading=e)"), (1, "place(at=b2,heading=e)"), (0, "shoot(at=c2)"),
                           (1, "shoot(at=a1)"), (0, "shoot(at=b2)")]:
            answer = client.post(f"{opened.seats[seat]}/move", json={"move": text})
            assert answer.status_code == 200, answer.text
            if seat == 0 and text.startswith("place"):  # the other seat reads the placement as hidden
                assert "place(at=?,heading=?)" in client.get(opened.seats[1]).text
        assert opened.table.now.state.over
        assert "a whole fleet has been sunk" in answer.json()["html"]
