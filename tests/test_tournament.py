"""`meeple tournament`: the seating, the tally (shared wins, places, Wilson intervals,
openskill ratings), the JSON records, the same results with any --jobs, and bad input as
one clear line."""
from __future__ import annotations

import itertools
import json
import math
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.bots import parse_bot_spec
from meeple.bots import registry
from meeple.cli.main import app
from meeple.simulation.standings import credit, places, rating_model, standings, wilson_interval
from meeple.cli.tournament import (TournamentError, default_players, entrant_labels, play_game,
                                   reproducible_part, run_tournament, seating_cycle)
from meeple.interpreter import load_game

ROOT = Path(__file__).resolve().parent.parent
HIGH_CARD = ROOT / "examples" / "high-card"


def meeple(*args, env=None):
    return subprocess.run([sys.executable, "-m", "meeple.cli", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, env={**os.environ, **(env or {})})


class FirstMove:
    """Always the first legal move: a bot whose games are known in advance."""

    def pick(self, seat) -> int:
        return 0


@pytest.fixture
def first_bot(monkeypatch):
    """`first` (which takes a budget and ignores it), registered for one test only."""
    monkeypatch.setitem(registry._FACTORIES, "first", lambda budget, seed: FirstMove())


# -- seating ------------------------------------------------------------------------------------

def test_as_many_bots_as_players_are_rotated():
    assert seating_cycle(3, 3) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert seating_cycle(2, 2) == [(0, 1), (1, 0)]


@pytest.mark.parametrize("entrants, players", [(3, 2), (4, 2), (4, 3), (5, 3), (5, 4)])
def test_with_fewer_seats_than_bots_every_bot_sits_everywhere_and_meets_everyone_equally(entrants, players):
    cycle = seating_cycle(entrants, players)
    assert len(cycle) == math.comb(entrants, players) * players
    assert len(set(cycle)) == len(cycle)
    in_seat = Counter((who, seat) for lineup in cycle for seat, who in enumerate(lineup))
    assert len(in_seat) == entrants * players and len(set(in_seat.values())) == 1
    met = Counter(frozenset(pair) for lineup in cycle for pair in itertools.combinations(lineup, 2))
    assert len(met) == math.comb(entrants, 2) and len(set(met.values())) == 1


@pytest.mark.parametrize("entrants, players, words", [
    (1, 2, "at least two bots; to let a bot play itself, name it twice"),
    (2, 3, "3 players need 3 bots, but --bots names 2"),
])
def test_seatings_that_cannot_be_made(entrants, players, words):
    with pytest.raises(TournamentError, match=words):
        seating_cycle(entrants, players)


def test_players_default_to_one_seat_per_bot_when_the_game_allows_it():
    assert default_players(3, 2, 4) == 3
    assert default_players(5, 2, 4) == 2
    assert default_players(2, 3, 5) == 3


def test_a_bot_named_twice_is_two_entrants():
    specs = [parse_bot_spec(t) for t in ("random", "random", "random")]
    assert entrant_labels(specs) == ["random", "random#2", "random#3"]


# -- the tally ----------------------------------------------------------------------------------

@pytest.mark.parametrize("wins, games, low, high", [
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I,
    # method 3 (Wilson score interval without continuity correction).
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_interval_matches_published_values(wins, games, low, high):
    lo, hi = wilson_interval(wins, games)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


def test_wilson_interval_at_the_edges():
    assert wilson_interval(3, 0) is None
    lo, hi = wilson_interval(20, 20)
    assert hi == 1.0 and round(lo, 4) == round(1 - 0.1611, 4)  # the mirror of 0 out of 20
    lo, hi = wilson_interval(5, 10)
    assert lo + hi == pytest.approx(1.0)


@pytest.mark.parametrize("winners, players, shares", [
    ((1,), 3, [0, 1, 0]),
    ((0, 2), 3, [0.5, 0, 0.5]),
    ((), 2, [0.5, 0.5]),
    ((), 4, [0.25] * 4),
])
def test_a_game_is_worth_one_win_shared_by_its_winners_or_by_all_in_a_draw(winners, players, shares):
    assert credit(winners, players) == shares
    assert sum(credit(winners, players)) == pytest.approx(1)


@pytest.mark.parametrize("winners, ranks, placed", [
    ((1,), (1, 1, 1), [2, 1, 2]),  # a winner by a rule, not by the score: still first
    ((0,), (1, 3, 2), [1, 3, 2]),
    ((0, 1), (2, 1, 3), [1, 1, 3]),
    ((), (1, 2), [1, 1]),  # nobody won: everyone shares first place
])
def test_places_put_the_winners_first_then_follow_the_ranks(winners, ranks, placed):
    assert places(winners, ranks) == placed


def _record(lineup, winners, ranks, scores, finished=True):
    record = {"lineup": lineup, "finished": finished}
    if finished:
        record.update(winners=list(winners), ranks=list(ranks), scores=list(scores))
    return record


def test_standings_count_shares_places_scores_and_rate_with_openskill():
    records = [_record(["a", "b"], (0,), (1, 2), (3, 1)),
               _record(["b", "a"], (1,), (2, 1), (0, 2)),
               _record(["a", "b"], (), (1, 1), (2, 2)),
               _record(["b", "a"], (), (), (), finished=False)]
    s = standings(records, ["a", "b"], 2)
    a, b = s["standings"]
    assert (a["games"], a["wins"], a["won"], a["shared"], a["lost"]) == (3, 2.5, 2, 1, 0)
    assert (b["games"], b["wins"], b["won"], b["shared"], b["lost"]) == (3, 0.5, 0, 1, 2)
    assert a["win_rate"] == round(2.5 / 3, 4) and a["ci95"] == [round(x, 4) for x in wilson_interval(2.5, 3)]
    assert a["mean_score"] == round((3 + 2 + 2) / 3, 3) and b["mean_place"] == round((2 + 2 + 1) / 3, 3)
    assert [seat["wins"] for seat in s["seats"]] == [1.5, 1.5] and s["fair_share"] == 0.5
    # The ratings are openskill's own, updated game by game from the places.
    model = rating_model()
    ra, rb = model.rating(), model.rating()
    [[ra], [rb]] = model.rate([[ra], [rb]], ranks=[1, 2])
    [[rb], [ra]] = model.rate([[rb], [ra]], ranks=[2, 1])
    [[ra], [rb]] = model.rate([[ra], [rb]], ranks=[1, 1])
    assert a["rating"]["mu"] == round(ra.mu, 3) and b["rating"]["sigma"] == round(rb.sigma, 3)
    assert a["rating"]["mu"] > 25 > b["rating"]["mu"]


def test_a_bot_with_no_finished_game_has_no_rate():
    s = standings([_record(["a", "b"], (), (), (), finished=False)], ["a", "b"], 2)
    assert s["standings"][0]["games"] == 0 and s["standings"][0]["win_rate"] is None
    assert s["standings"][0]["ci95"] is None and s["standings"][0]["rating"]["mu"] == 25.0


# -- games --------------------------------------------------------------------------------------

def test_one_game_record_of_two_first_move_bots(first_bot):
    # X takes 0, O 1, X 2, O 3, X 4, O 5, X 6: the diagonal 2-4-6.
    specs = [parse_bot_spec("first")] * 2
    record, seconds, decisions = play_game(load_game("tic-tac-toe"), 0, 5, (1, 0), specs, ["first", "first#2"], 100)
    assert record == {"game": 0, "seed": 5, "lineup": ["first#2", "first"], "moves": 7, "finished": True,
                      "stuck": False, "reason": "three in a row", "scores": [1, 0], "ranks": [1, 2],
                      "winners": [0]}
    assert decisions == [4, 3] and all(s >= 0 for s in seconds)


def test_the_seat_wins_not_the_bot_when_both_play_the_same_way(first_bot):
    s = run_tournament(load_game("tic-tac-toe"), ["first", "first"], 4, 0, 100, progress=False)
    assert [r["lineup"] for r in s["records"]] == [["first", "first#2"], ["first#2", "first"]] * 2
    assert [r["winners"] for r in s["records"]] == [[0]] * 4
    assert [seat["win_rate"] for seat in s["seats"]] == [1.0, 0.0]
    assert [b["win_rate"] for b in s["standings"]] == [0.5, 0.5]


def test_json_holds_every_game_and_the_standings(first_bot):
    result = CliRunner().invoke(app, ["tournament", "nim", "--bots", "first", "random", "--games", "6",
                                      "--seed", "3", "--json", "-"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"ruleset", "players", "games", "seed", "max_moves", "bots", "lineups", "balanced", "finished",
            "unfinished", "stuck", "fair_share", "standings", "seats", "records"} == set(data)
    assert "timing" not in data  # what depends on the machine is not in the file
    assert data["bots"] == [{"bot": "first", "spec": "first"}, {"bot": "random", "spec": "random"}]
    assert [r["seed"] for r in data["records"]] == [3, 4, 5, 6, 7, 8]
    assert [r["lineup"] for r in data["records"]] == [["first", "random"], ["random", "first"]] * 3
    for r in data["records"]:
        assert set(r) == {"game", "seed", "lineup", "moves", "finished", "stuck", "reason", "scores", "ranks",
                          "winners"}
        assert r["finished"] and r["moves"] > 0 and len(r["scores"]) == len(r["ranks"]) == 2
    assert [b["games"] for b in data["standings"]] == [6, 6]
    assert sum(b["wins"] for b in data["standings"]) == 6 == sum(seat["wins"] for seat in data["seats"])
    assert data["balanced"] and data["finished"] == 6


def test_draws_are_split_in_tic_tac_toe():
    s = run_tournament(load_game("tic-tac-toe"), ["random", "random"], 30, 0, 100, progress=False)
    draws = sum(1 for r in s["records"] if not r["winners"])
    assert draws > 0  # random tic-tac-toe draws often enough for 30 games to hold some
    for b in s["standings"]:
        assert b["won"] + b["shared"] + b["lost"] == b["games"] == 30
        assert b["wins"] == b["won"] + b["shared"] / 2 and b["shared"] == draws


def test_random_tic_tac_toe_agrees_with_the_known_odds():
    """Uniform random play of tic-tac-toe: the first player wins 58.49 %, the second
    28.81 %, 12.70 % are drawn (exact, by recursion over the game tree, each move weighted
    1/legal moves).  With draws split, the first seat's share is 64.84 %; the intervals of
    600 games must hold it."""
    s = run_tournament(load_game("tic-tac-toe"), ["random", "random"], 600, 0, 100, progress=False)
    lo, hi = s["seats"][0]["ci95"]
    assert lo < 0.5849 + 0.1270 / 2 < hi
    draws = sum(1 for r in s["records"] if not r["winners"])
    lo, hi = wilson_interval(draws, 600)
    assert lo < 0.1270 < hi
    for b in s["standings"]:  # and the bots, each in each seat half the time, are even
        assert b["ci95"][0] < 0.5 < b["ci95"][1]


def test_three_player_games_with_hidden_hands_and_simultaneous_choices():
    for game in (load_game(HIGH_CARD, 3), load_game("goofspiel", 3)):
        s = run_tournament(game, ["random", "random", "random"], 6, 1, 10_000, progress=False)
        assert s["finished"] == 6 and s["fair_share"] == round(1 / 3, 4)
        assert sum(seat["wins"] for seat in s["seats"]) == pytest.approx(6)
        assert all(b["games"] == 6 for b in s["standings"])
        in_seat = Counter((label, seat) for r in s["records"] for seat, label in enumerate(r["lineup"]))
        assert set(in_seat.values()) == {2}


def test_games_stopped_by_max_moves_count_for_nothing():
    runner = CliRunner()
    result = runner.invoke(app, ["tournament", "tic-tac-toe", "--bots", "random", "random", "-n", "2",
                                 "--max-moves", "3", "--json", "-"])
    data = json.loads(result.output)
    assert data["unfinished"] == 2 and data["finished"] == 0 and data["stuck"] == 0
    assert all(b["games"] == 0 and b["win_rate"] is None for b in data["standings"])
    shown = runner.invoke(app, ["tournament", "tic-tac-toe", "--bots", "random", "random", "-n", "2",
                                "--max-moves", "3"])
    assert shown.exit_code == 0 and "2 game(s) did not finish" in shown.output


def test_the_same_command_gives_the_same_json_with_any_jobs():
    args = ["tournament", "goofspiel", "--bots", "random", "random", "random", "-n", "7", "-p", "2", "--seed", "9",
            "--json", "-"]
    one, two = meeple(*args), meeple(*args, "--jobs", "2")
    assert one.returncode == two.returncode == 0, two.stderr
    assert one.stdout == two.stdout
    data = json.loads(one.stdout)
    assert len(data["records"]) == 7 and not data["balanced"] and len(data["lineups"]) == 6
    assert meeple(*args[:-3], "--seed", "10", "--json", "-").stdout != one.stdout


def test_workers_load_the_same_game_from_a_path_with_its_options():
    game = load_game(HIGH_CARD, 3, {"hand_size": 2})
    one = run_tournament(game, ["random"] * 3, 6, 4, 1000, jobs=1, progress=False)
    two = run_tournament(game, ["random"] * 3, 6, 4, 1000, jobs=2, progress=False)
    assert reproducible_part(one) == reproducible_part(two)
    assert {r["moves"] for r in one["records"]} == {6}  # two cards each, three players


def test_the_table_fits_a_ci_console_best_first_and_a_file_gets_the_json(tmp_path):
    out = tmp_path / "t.json"
    r = meeple("tournament", "goofspiel", "--bots", "random,random", "random", "-n", "9", "--json", out,
               env={"COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    assert data["games"] == 9 and data["players"] == 3 and f"written {out}" in r.stderr.replace("\n", "")
    table = r.stdout.splitlines()
    shown = [line.split()[0] for line in table if line.split()[:2] in
             ([b["bot"], "9"] for b in data["standings"])]
    best_first = sorted(data["standings"], key=lambda b: (-b["win_rate"], b["mean_place"]))
    assert shown == [b["bot"] for b in best_first]
    assert "by seat (a fair share: 33.3%)" in r.stdout and "…" not in r.stdout
    assert all(len(line) <= 80 for line in table[1:-1])  # the title and the closing note are records


# -- bad input ----------------------------------------------------------------------------------

@pytest.mark.parametrize("args, words", [
    (["--bots", "random", "randum"], "no bot is called 'randum'"),
    (["--bots", "random", "random:100"], "the random bot takes no budget"),
    (["--bots", "random"], "a tournament needs at least two bots"),
    (["--bots", "random", "random", "-p", "3"], "3 players need 3 bots, but --bots names 2"),
    (["--bots", "random", "random", "--games", "0"], "--games must be at least 1, not 0"),
    (["--bots", "random", "random", "--jobs", "0"], "--jobs must be at least 1, not 0"),
    (["--bots", "random", "random", "random"], None),  # tic-tac-toe: 3 bots in pairs, no error
    (["--bots", "random", "random", "random", "-p", "3"], "is for 2-2 players, not 3"),
    (["--bots", "random", "random", "--backend", "fast"], "unknown back end 'fast'"),
    (["--bots", "random", "random", "--json", "no/such/t.json"], "--json no/such/t.json: there is no folder no/such"),
])
def test_bad_input_is_one_clear_line(args, words):
    r = meeple("tournament", "tic-tac-toe", *args, "-n", "2") if "--games" not in args else \
        meeple("tournament", "tic-tac-toe", *args)
    assert "Traceback" not in r.stderr
    if words is None:
        assert r.returncode == 0, r.stderr
        return
    assert r.returncode == 2 and words in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_a_bad_budget_is_one_clear_line(first_bot):
    result = CliRunner().invoke(app, ["tournament", "nim", "--bots", "first:0", "random"])
    assert result.exit_code == 2
    assert "'first:0': a budget is a number of iterations (mcts:2000) or of seconds" in result.output


def test_the_python_example_of_docs_bots_runs():
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    section = text[text.index("## Tournaments"):]
    block = section[section.index("```python\n") + len("```python\n"):]
    namespace: dict = {}
    exec(block[:block.index("```")], namespace)
    assert 0 <= namespace["summary"]["standings"][0]["win_rate"] <= 1
    assert "timing" in namespace["summary"] and "timing" not in namespace["data"]
