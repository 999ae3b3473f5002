"""Hex, a library game: move for move the same as OpenSpiel's `hex` (the reduced form of
`python -m meeple.benchmarks.openspiel_lockstep hex hex-5 --games 1000`) on both back ends,
and the end of set games where a chain winds or two chains merge, compared with
OpenSpiel's own verdict."""
from __future__ import annotations

from itertools import chain, zip_longest

import pytest

pytest.importorskip("pyspiel")

from meeple.benchmarks.lockstep_games import GAMES  # noqa: E402
from meeple.benchmarks.openspiel_lockstep import run_lockstep  # noqa: E402
from meeple.interpreter import load_game  # noqa: E402


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_hex_agrees_with_openspiel_at_every_step(backend):
    report = run_lockstep(GAMES["hex"], games=1, seed=3, backend=backend)
    assert report.ok, str(report)
    assert report.steps >= 21  # no 11 x 11 game ends before black's eleventh stone


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_a_small_board_from_the_option_agrees_with_openspiel(backend):
    report = run_lockstep(GAMES["hex-5"], games=12, seed=11, backend=backend)
    assert report.ok, str(report)
    assert report.games == 12 and set(report.ends) == {"black joined the bottom and top rows",
                                                       "white joined the left and right columns"}


def _cell(name: str) -> int:
    """OpenSpiel's action for a cell name of a 5 x 5 board (`b3` is row 2, column 1)."""
    return (int(name[1:]) - 1) * 5 + "abcde".index(name[0])


def _play_both(black: list[str], white: list[str]):
    """Black's stones in order, white answering with the next of its own; the number of
    stones played when each side's game ended, and both sides' returns."""
    import pyspiel
    game = load_game("hex", options={"board_size": 5})
    state = game.new_state(0)
    os_state = pyspiel.load_game("hex", {"board_size": 5}).new_initial_state()
    ended = {}
    for i, at in enumerate(x for x in chain.from_iterable(zip_longest(black, white)) if x):
        state = game.apply(state, f"place(at={at})")
        os_state.apply_action(_cell(at))
        if state.over:
            ended.setdefault("meeple", i + 1)
        if os_state.is_terminal():
            ended.setdefault("openspiel", i + 1)
        if state.over or os_state.is_terminal():
            break
    return ended, tuple(game.outcome(state).scores), tuple(os_state.returns())


# Black's chain winds along row 1, up the e file, back along row 3 and up again; white
# plays where black never goes.
WINDING = (["a1", "b1", "c1", "d1", "e1", "e2", "e3", "d3", "c3", "b3", "a3", "a4", "a5"],
           ["a2", "b2", "c2", "d2", "b4", "c4", "d4", "e4", "b5", "c5", "d5", "e5"])
# Black builds from the top and from the bottom; the stone on c3 joins the two halves.
MERGING = (["c1", "c5", "c2", "c4", "c3"], ["a1", "a2", "a3", "a4", "a5"])
# White's row of five, each stone joining the last, the left edge first.
WHITE_ROW = (["a1", "b1", "c1", "d1", "e5"], ["a3", "b3", "c3", "d3", "e3"])


@pytest.mark.parametrize("black, white, stones, winner", [(*WINDING, 25, 0), (*MERGING, 9, 0), (*WHITE_ROW, 10, 1)],
                         ids=["winding", "merging", "white-row"])
def test_a_set_game_ends_where_openspiel_ends_it(black, white, stones, winner):
    ended, ours, theirs = _play_both(black, white)
    assert ended == {"meeple": stones, "openspiel": stones}
    assert ours == theirs and ours[winner] == 1


def test_a_small_board_plays_to_its_end_at_a_web_table():
    pytest.importorskip("starlette")
    from web_support import open_table, web_client
    with web_client() as client:
        opened = open_table(client, "hex", 2, options={"board_size": "3"})
        page = client.get(opened.hot_seat).text
        assert 'data-node="c3"' in page and 'data-node="d1"' not in page
        for text in ["place(at=a1)", "place(at=c1)", "place(at=a2)", "place(at=c2)", "place(at=a3)"]:
            answer = client.post(f"{opened.hot_seat}/move", json={"move": text})
            assert answer.status_code == 200, answer.text
        assert opened.table.now.state.over
        assert "black joined the bottom and top rows" in answer.json()["html"]
