"""Phantom tic-tac-toe, a library game: move for move the same as OpenSpiel's `phantom_ttt`
(default parameters) on both back ends (the reduced form of `python -m
meeple.benchmarks.openspiel_lockstep phantom-tic-tac-toe --games 1000`), and what each
player is shown: the harness compares only the acting player's legal moves, so the views
are compared here with OpenSpiel's own, and the other's marks checked to stay out of them."""
from __future__ import annotations

import random

import pytest

pytest.importorskip("pyspiel")

from meeple.benchmarks.lockstep_games import GAMES  # noqa: E402
from meeple.benchmarks.openspiel_lockstep import load_pair, run_lockstep  # noqa: E402
from meeple.interpreter import load_game  # noqa: E402

SPEC = GAMES["phantom-tic-tac-toe"]


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_phantom_tic_tac_toe_agrees_with_openspiel_at_every_step(backend):
    report = run_lockstep(SPEC, games=40, seed=11, backend=backend)
    assert report.ok, str(report)
    assert report.steps >= 40 * 6
    assert set(report.ends) == {"three in a row", "the board is full"}


def _as_openspiel_sees_it(sheet: dict) -> str:
    """A player's sheet written as OpenSpiel writes a player's view: row 0 (meeple's row 1)
    first, `x`, `o` or `.` per cell."""
    return "\n".join("".join(sheet.get(f"{c}{r}", ".").lower() for c in "abc") for r in (1, 2, 3))


def _played_side_by_side(backend: str, seed: int):
    """(meeple game, meeple state, OpenSpiel state) at every step of one random game."""
    game, os_game = load_pair(SPEC, backend)
    rnd, state, theirs = random.Random(seed), game.new_state(seed), os_game.new_initial_state()
    while True:
        yield game, state, theirs
        if theirs.is_terminal():
            return
        action = rnd.choice(theirs.legal_actions())
        state = game.apply(state, SPEC.move_text(theirs, theirs.current_player(), action))
        theirs.apply_action(action)


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_each_player_sees_what_openspiel_shows_them_and_nothing_of_the_other(backend):
    steps = 0
    for seed in range(12):
        for game, state, theirs in _played_side_by_side(backend, seed):
            for p in (0, 1):
                view = game.view(state, p)
                assert list(view["vars"]) == ["sheet"] and list(view["vars"]["sheet"]) == [str(p)]  # own only
                assert _as_openspiel_sees_it(view["vars"]["sheet"][str(p)]["$map"]) == theirs.observation_string(p)
            steps += 1
    assert steps > 12 * 6


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_a_miss_keeps_the_turn_and_tells_the_other_player_nothing(backend):
    game = load_game("phantom-tic-tac-toe", backend=backend)
    state = game.apply(game.apply(game.new_state(0), "place(at=a1)"), "place(at=c3)")
    miss = next(m for m in game.legal_moves(state) if str(m) == "place(at=c3)")
    missed = game.apply(state, miss)
    assert game.current_players(missed) == (0,)
    assert game.view(missed, 0)["vars"]["sheet"] == {"0": {"$map": {"a1": "X", "c3": "O"}}}
    assert game.view(missed, 1) == game.view(state, 1)  # O cannot tell that X missed
    assert game.move_text(state, miss, 1) == "place(at=?)"
    assert game.move_text(state, miss, 0) == "place(at=c3)"
    placed = game.apply(missed, "place(at=b2)")
    assert game.current_players(placed) == (1,)
    assert game.view(placed, 1)["vars"] == {"sheet": {"1": {"$map": {"c3": "O"}}}}


def test_it_plays_at_the_web_table_each_seat_from_its_own_link():
    pytest.importorskip("starlette")
    from web_support import open_table, web_client
    with web_client() as client:
        opened = open_table(client, "phantom-tic-tac-toe", 2)
        assert "place(at=b2)" in client.get(opened.seats[0]).text
        assert client.post(f"{opened.seats[0]}/move", json={"move": "place(at=b2)"}).status_code == 200
        assert client.post(f"{opened.seats[1]}/move", json={"move": "place(at=b2)"}).status_code == 200  # a miss
        assert opened.table.now.state.vars["sheet"][1] == {"b2": "X"}
        refused = client.post(f"{opened.seats[1]}/move", json={"move": "place(at=b2)"})
        assert refused.status_code == 400 and refused.json()["code"] == "M804"
        for seat, text in [(1, "place(at=a1)"), (0, "place(at=a2)"), (1, "place(at=a3)"), (0, "place(at=c2)")]:
            assert client.post(f"{opened.seats[seat]}/move", json={"move": text}).status_code == 200
        assert opened.table.now.state.over and opened.table.now.state.end_reason == "three in a row"
