"""The compact screen of `meeple play` fits a terminal: every shipped game's first decision,
as player 0 sees it with bots in the other seats, takes at most 60 lines of a 130-column
terminal (a line longer than the terminal counts as the lines it wraps onto)."""
from __future__ import annotations

import math

import pytest
from typer.testing import CliRunner

from meeple.cli.main import app
from meeple.cli.screen import news_text
from meeple.interpreter import list_rulesets, load_rules

COLUMNS, ROWS = 130, 60


def first_screen(name: str, *extra: str) -> list[str]:
    game = load_rules(name).ruleset.game
    bots = ",".join(str(p) for p in range(1, game.min_players)) or ""
    args = ["play", name, "--seed", "3", *(["--bots", bots] if bots else []), *extra]
    result = CliRunner().invoke(app, args, input="q\n", env={"COLUMNS": str(COLUMNS)})
    assert result.exit_code == 0, result.output
    screen = result.output.split("player 0> ", 1)[0]
    return screen.splitlines()


@pytest.mark.parametrize("name", list_rulesets())
def test_the_first_decision_fits_a_terminal(name):
    lines = first_screen(name)
    tall = sum(max(1, math.ceil(len(line) / COLUMNS)) for line in lines) + 1  # and the prompt
    assert tall <= ROWS, f"{name}: {tall} lines\n" + "\n".join(lines)


def test_the_full_table_is_one_flag_away():
    compact, full = first_screen("treasure-hunter"), first_screen("treasure-hunter", "--full")
    assert "what player 0 sees" in "\n".join(full) and "what player 0 sees" not in "\n".join(compact)
    assert len(full) > len(compact)


def test_a_long_news_line_goes_on_under_its_own_start():
    said = "    » Frost Mountain: player 0 (you) has the strongest team (24) and takes the MAX treasure, TEAM-B-1"
    lines = news_text(["player 1: Pass  (pass)", said], 60)
    assert lines[0] == "  player 1: Pass  (pass)"
    assert lines[1].startswith("      » Frost Mountain:") and all(len(line) <= 60 for line in lines)
    assert all(line.startswith(" " * 8) and not line.startswith(" " * 9) for line in lines[2:]) and len(lines) > 2
    assert " ".join(line.strip() for line in lines[1:]) == said.strip()
    assert news_text([said], None) == ["  " + said]  # a pipe: whole
