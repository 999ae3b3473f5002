"""Kalah, a library game: move for move the same as OpenSpiel's `mancala` on both back
ends (the reduced form of `python -m meeple.benchmarks.openspiel_lockstep kalah --games
1000`), the pits and stores the same as OpenSpiel's board seed for seed after every move of
random games that meet each tricky rule, and a game with an extra sowing at a web table."""
from __future__ import annotations

import random

import pytest

pytest.importorskip("pyspiel")

from meeple.benchmarks.lockstep_games import GAMES, Lockstep  # noqa: E402
from meeple.benchmarks.openspiel_lockstep import run_lockstep  # noqa: E402
from meeple.interpreter import load_game  # noqa: E402

SPEC: Lockstep = GAMES["kalah"]
# OpenSpiel's 14 places, counter-clockwise from player 1's store (0): player 0's pits 1..6,
# player 0's store 7, player 1's pits 8..13.  The same places in the ruleset's terms.
PLACES = (["store 1"] + [f"{c}1" for c in "abcdef"] + ["store 0"] + [f"{c}2" for c in reversed("abcdef")])


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_kalah_agrees_with_openspiel_at_every_step(backend):
    report = run_lockstep(SPEC, games=20, seed=5, backend=backend)
    assert report.ok, str(report)
    assert report.games == 20 and report.steps >= 20 * 10


def _ours(state) -> list[int]:
    seeds, store = state.vars["seeds"], state.vars["store"]
    return [store[int(p[-1])] if p.startswith("store") else seeds[p] for p in PLACES]


def _theirs(os_state) -> list[int]:
    return [int(x) for x in os_state.observation_tensor(0)[:len(PLACES)]]


def _what_happened(before: list[int], after: list[int], mover: int, pit: int, over: bool) -> set:
    """The tricky rules a move of OpenSpiel's met, read from its board before and after: a
    sowing of n seeds ends in the mover's store when the store is n places on, counting 13
    places to a round (the other store is skipped)."""
    own_store = 7 if mover == 0 else 0
    seen = set()
    if before[pit] >= 13:
        seen.add("a sowing went round past its own pit")
    if after[own_store] - before[own_store] > (before[pit] + 13 - (own_store - pit) % 14) // 13:
        seen.add("a capture")  # more seeds in the store than the sowing dropped into it
    if before[pit] % 13 == (own_store - pit) % 14:
        seen.add("the game ended on a store landing" if over else "the same player again")
    return seen


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_the_pits_and_stores_match_openspiel_after_every_move(backend):
    import pyspiel
    game = load_game("kalah", 2, backend=backend)
    os_game = pyspiel.load_game("mancala")
    rnd = random.Random(17)
    met = set()
    for _ in range(60):
        state, os_state = game.new_state(0), os_game.new_initial_state()
        while not os_state.is_terminal():
            mover, before = os_state.current_player(), _theirs(os_state)
            action = rnd.choice(os_state.legal_actions())
            state = game.apply(state, SPEC.move_text(os_state, mover, action))
            os_state.apply_action(action)
            assert _ours(state) == _theirs(os_state), os_state.history()
            met |= _what_happened(before, _theirs(os_state), mover, action, os_state.is_terminal())
        assert state.over and tuple(game.outcome(state).scores) == tuple(os_state.returns())
    assert met == {"a sowing went round past its own pit", "a capture", "the same player again",
                   "the game ended on a store landing"}


def test_a_capture_names_both_pits_in_the_log():
    game = load_game("kalah", 2)
    state = game.new_state(0)
    state.vars["seeds"] = {**state.vars["seeds"], "a1": 1, "b1": 0}
    state.vars["store"] = (3, 0)
    state = game.apply(state, "sow(pit=a1)")
    assert state.vars["store"][0] == 3 + 1 + 4
    assert list(state.log[-2:]) == ["player 0 sows a1: b1", "player 0 captures 5 seeds from b1 and b2"]


def test_an_extra_sowing_at_a_web_table():
    pytest.importorskip("starlette")
    from web_support import open_table, web_client
    with web_client() as client:
        opened = open_table(client, "kalah", 2)
        assert "sow(pit=c1)" in client.get(opened.seats[0]).text
        # c1's four seeds end in player 0's store: player 0 sows again, player 1 must wait
        assert client.post(f"{opened.seats[0]}/move", json={"move": "sow(pit=c1)"}).status_code == 200
        refused = client.post(f"{opened.seats[1]}/move", json={"move": "sow(pit=c2)"})
        assert refused.status_code == 400 and refused.json()["code"] == "M805"
        assert client.post(f"{opened.seats[0]}/move", json={"move": "sow(pit=f1)"}).status_code == 200
        assert client.post(f"{opened.seats[1]}/move", json={"move": "sow(pit=c2)"}).status_code == 200
        state = opened.table.now.state
        assert state.vars["store"] == (2, 1) and opened.table.game.current_players(state) == (0,)
