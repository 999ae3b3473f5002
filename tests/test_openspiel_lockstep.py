"""The OpenSpiel lockstep harness (benchmarks/openspiel_lockstep.py): the shipped
tic-tac-toe agrees with OpenSpiel's tic_tac_toe at every step, and the harness finds a
real difference: a rule changed in a copy of a ruleset, a translation that reads two
actions as one, returns read wrongly, chance outcomes with other probabilities, and the
one real difference between the shipped goofspiel and OpenSpiel's (after twelve rounds of
chance and simultaneous bids that agree)."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

from meeple.benchmarks.lockstep_games import DIFFERING, GAMES  # noqa: E402
from meeple.benchmarks.openspiel_lockstep import main, run_lockstep  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TIC_TAC_TOE = (ROOT / "rulesets" / "tic-tac-toe" / "game.yaml").read_text(encoding="utf-8")


def _altered(tmp_path, text: str, old: str, new: str) -> str:
    assert old in text
    path = tmp_path / "altered.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_tic_tac_toe_agrees_with_openspiel_at_every_step(backend):
    report = run_lockstep(GAMES["tic-tac-toe"], games=40, seed=5, backend=backend)
    assert report.ok, str(report)
    assert report.games == 40 and report.steps >= 40 * 6  # at least five moves and the final state


def test_a_cell_the_copy_forbids_is_a_difference_in_the_legal_moves_at_once(tmp_path):
    path = _altered(tmp_path, TIC_TAC_TOE, "check: \"cell[at] == ''\"", "check: \"cell[at] == '' and at != 'b2'\"")
    report = run_lockstep(dataclasses.replace(GAMES["tic-tac-toe"], ruleset=path), games=3)
    assert report.mismatches == 3
    first = report.first
    assert (first.step, first.what, first.history) == (0, "legal moves", [])
    assert "place(at=b2)" in first.openspiel and "place(at=b2)" not in first.meeple


def test_a_copy_without_diagonal_wins_differs_on_the_end_and_says_where(tmp_path):
    # Only rows and columns win in the copy: a diagonal line ends OpenSpiel's game alone.
    rows_and_columns = 'any_line: "any((line[0][0] == line[-1][0] or line[0][1:] == line[-1][1:]) and '
    path = _altered(tmp_path, TIC_TAC_TOE, 'any_line: "any(', rows_and_columns)
    report = run_lockstep(dataclasses.replace(GAMES["tic-tac-toe"], ruleset=path), games=60)
    assert 0 < report.mismatches < 60
    first = report.first
    assert first.what == "terminal" and (first.openspiel, first.meeple) == ("True", "False")
    assert len(first.history) == first.step >= 5  # both sides' texts of every move played
    assert all(" = place(at=" in line for line in first.history)


def test_two_actions_read_as_one_move_are_a_translation_error():
    spec = dataclasses.replace(GAMES["tic-tac-toe"], move_text=lambda state, player, action: "place(at=a1)")
    report = run_lockstep(spec, games=1)
    assert report.first.what.startswith("translations") and report.first.step == 0


def test_returns_read_the_wrong_way_round_differ_at_the_end():
    right = GAMES["tic-tac-toe"].returns
    spec = dataclasses.replace(GAMES["tic-tac-toe"], returns=lambda outcome: tuple(-x for x in right(outcome)))
    report = run_lockstep(spec, games=10)
    decided = report.mismatches  # a drawn game reads 0, 0 either way
    assert decided > 0 and report.first.what == "returns"
    assert report.first.step == len(report.first.history)


def test_chance_outcomes_with_other_probabilities_differ(tmp_path):
    text = (ROOT / "rulesets" / "2048" / "game.yaml").read_text(encoding="utf-8")
    nine_to_one = "['2 on ', '2 on ', '2 on ', '2 on ', '2 on ', '2 on ', '2 on ', '2 on ', '2 on ', '4 on ']"
    path = _altered(tmp_path, text, nine_to_one, "['2 on ', '4 on ']")  # a 4 as likely as a 2
    report = run_lockstep(dataclasses.replace(GAMES["2048"], ruleset=path), games=2)
    first = report.first
    assert report.mismatches == 2 and first.step == 0 and first.what.startswith("probabilities of chance(spawn='")
    assert abs(float(first.openspiel) - 0.9 / 16) < 1e-12 and abs(float(first.meeple) - 0.5 / 16) < 1e-12


def test_a_rule_that_fails_is_reported_as_a_difference_at_its_step(tmp_path):
    text = (ROOT / "rulesets" / "blackjack" / "game.yaml").read_text(encoding="utf-8")
    path = _altered(tmp_path, text, "for c in cards) in", "for c in cards) // 0 in")  # R701 in the first total
    report = run_lockstep(dataclasses.replace(GAMES["blackjack"], ruleset=path), games=2)
    first = report.first
    assert report.mismatches == 2 and first.what == "rule errors" and first.meeple.startswith("R701:")
    assert first.step == len(first.history)


def test_simultaneous_bids_agree_until_openspiel_plays_the_last_goofspiel_round_by_itself():
    report = run_lockstep(DIFFERING["goofspiel"], games=5)
    assert report.mismatches == 5
    first = report.first
    # 12 rounds of a prize drawn by chance and a simultaneous bid of both players agree.
    assert (first.step, first.what, first.openspiel, first.meeple) == (24, "terminal", "True", "False")
    assert sum(line.startswith("chance: Deal") for line in first.history) == 12
    assert sum(line.startswith(("p0: [P0]Bid", "p1: [P1]Bid")) for line in first.history) == 24


def test_the_command_line_prints_the_counts_and_exits_0_when_all_agree(capsys):
    assert main(["tic-tac-toe", "--games", "3", "--seconds", "0"]) == 0
    out = capsys.readouterr().out
    assert "tic-tac-toe (reference): 3 games" in out and "0 mismatches" in out and "YAML: " in out
    assert main(["tic-tac-toe", "--games", "2", "--seconds", "0.05", "--json", "--backend", "compiled"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["games"], row["mismatches"], row["backend"], row["openspiel"]) == (2, 0, "compiled", "tic_tac_toe")
    assert row["yaml_lines"] >= row["yaml_code_lines"] > 0
    assert set(row["playouts_per_second"]) == {"meeple", "openspiel_cpp", "openspiel_python_loop"}
    assert all(rate > 0 for rate in row["playouts_per_second"].values())
