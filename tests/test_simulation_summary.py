"""`meeple simulate`'s summary credits wins as `report` and `tournament` do: a game is one
win in all, shared by its winners, and a draw is shared by everyone at the table."""
from __future__ import annotations

import json

from meeple.simulation.summary import summarise

from test_cli import meeple


def _record(winners, finished=True):
    return {"moves": 10, "cpu_seconds": 0.01, "stuck": False, "finished": finished, "end_reason": "over",
            "winners": winners, "scores": [0, 0, 0] if finished else [], "invariant_failures": 0}


def test_a_shared_win_is_split_and_a_draw_shared_by_everyone():
    records = [_record([0, 1]), _record([2]), _record([]), _record([], finished=False)]
    s = summarise(records, 3, {})
    # seat 0: half of the first game and a third of the draw; seat 2: the second game and a third.
    assert s["wins_by_seat"] == [0.833, 0.833, 1.333]
    assert s["draws"] == 1 and s["unfinished"] == 1
    assert abs(sum(s["win_rate_by_seat"]) - 3 / 4) < 1e-3  # three of the four games finished


def test_whole_wins_stay_whole_numbers():
    s = summarise([_record([1]), _record([1]), _record([0])], 3, {})
    assert s["wins_by_seat"] == [1, 2, 0] and all(type(w) is int for w in s["wins_by_seat"])


def test_simulate_seat_rates_add_up_to_the_finished_games():
    """200 three-player treasure-hunter games hold shared wins: counted whole, the seats'
    rates added up to 101.5 %."""
    r = meeple("simulate", "treasure-hunter", "-p", "3", "-n", "200", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    finished = data["games"] - data["unfinished"] - data["stuck"]
    assert abs(sum(data["wins_by_seat"]) - finished) < 0.01
    assert abs(sum(data["win_rate_by_seat"]) - finished / data["games"]) < 0.001
