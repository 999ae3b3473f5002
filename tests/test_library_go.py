"""Go (9x9), a library game: move for move the same as OpenSpiel's `go` with board_size 9
on both back ends (the reduced form of `python -m meeple.benchmarks.openspiel_lockstep go
--games 1000`), and the area count compared with OpenSpiel's on set positions."""
from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

from meeple.benchmarks.lockstep_games import GAMES  # noqa: E402
from meeple.benchmarks.openspiel_lockstep import run_lockstep  # noqa: E402
from meeple.interpreter import load_game  # noqa: E402


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_go_agrees_with_openspiel_at_every_step(backend):
    report = run_lockstep(GAMES["go"], games=4, seed=7, backend=backend)
    assert report.ok, str(report)
    assert report.steps >= 4 * 20


def _black_wins_here(rows: list[str], komi_halves: int) -> bool:
    game = load_game("go", options={"komi_halves": komi_halves})
    state = game.new_state(0)
    given = {f"{'abcdefghi'[c]}{9 - r}": {"X": 0, "O": 1}[ch]
             for r, line in enumerate(rows) for c, ch in enumerate(line) if ch != "+"}
    state.vars["stone"] = {**state.vars["stone"], **given}
    state = game.apply(game.apply(state, "pass_turn"), "pass_turn")
    assert state.over
    return game.outcome(state).scores[0] > 0


def _black_wins_there(rows: list[str], komi_halves: int) -> bool:
    import pyspiel
    state = pyspiel.load_game("go", {"board_size": 9, "komi": komi_halves / 2}).new_initial_state()
    for r, line in enumerate(reversed(rows)):
        for c, ch in enumerate(line):
            if ch != "+":
                if state.current_player() != {"X": 0, "O": 1}[ch]:
                    state.apply_action(81)  # a pass hands the turn over
                state.apply_action(r * 9 + c)
    state.apply_action(81)
    state.apply_action(81)
    assert state.is_terminal()
    return state.returns()[0] > 0


def _area(black_wins, rows: list[str]) -> int:
    """Black's area less white's: the returns give only the sign of (area - komi), so
    komi is moved (in half points, always odd: no tie) until the sign turns."""
    low, high = -82, 82  # black wins with komi low + 0.5 and loses with high + 0.5
    while high - low > 1:
        mid = (low + high) // 2
        if black_wins(rows, 2 * mid + 1):
            low = mid
        else:
            high = mid
    return high


POSITIONS = {
    "one region touching both colours": ["+++++++++"] * 4 + ["XXXX+OOOO"] + ["+++++++++"] * 4,
    "a region touching both colours in a corner": ["+++++++++"] * 7 + ["X++++++++", "+O+++++++"],
    "walls with territory": ["++X+++O++"] * 9,
    "a lone stone": ["+++++++++"] * 4 + ["++++X++++"] + ["+++++++++"] * 4,
}


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_the_area_is_counted_as_openspiel_counts_it(name):
    rows = POSITIONS[name]
    assert _area(_black_wins_here, rows) == _area(_black_wins_there, rows)
