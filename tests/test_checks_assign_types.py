"""T410: an assignment whose value can never be stored in its target is found by
`meeple validate`, at the value, with its file:line:col (not when the effect first runs)."""
from __future__ import annotations

import pytest

from meeple.dsl.load import check_ruleset, read_ruleset
from ruleset_support import write_ruleset

RULESET = """\
game: {{name: assigns, players: 2}}
components:
  card: {{fields: {{rank: int}}, items: [{{id: c1, rank: 1}}]}}
variables:
  winner: {{type: int, initial: -1}}
  note: {{type: str, initial: "''"}}
  picked: {{type: "item[card]", initial: none}}
  coins: {{type: int, per: player}}
  seen: {{type: "list[int]", initial: "[]"}}
flow:
  - turns: "players()"
    do: [{{choose: [go]}}]
actions:
  go:
    effects:
      - set: ["{assignment}"]
"""


def diagnostics(tmp_path, assignment):
    rs, diags = read_ruleset(write_ruleset(tmp_path, RULESET.format(assignment=assignment), "assigns"))
    assert rs is not None and diags == [], [d.render() for d in diags]
    return [(d.code, d.span.line, d.span.col) for d in check_ruleset(rs) if d.severity == "error"]


@pytest.mark.parametrize("assignment,col", [
    ("winner = 'nobody'", 25),        # the case: a text into an int
    ("winner = true", 25),            # a boolean is not an int either
    ("coins[player] = 'x'", 32),      # an element of a per-player int
    ("note = 3", 23),
    ("seen = 'a'", 23),                # a text is not a list
    ("winner += 'x'", 26),
    ("winner -= 'x'", 26),            # '-=' and '*=' take an int
    ("winner *= 'x'", 26),
])
def test_a_value_of_the_wrong_type_is_T410_at_its_place(tmp_path, assignment, col):
    assert diagnostics(tmp_path, assignment) == [("T410", 16, col)]


@pytest.mark.parametrize("assignment", [
    "winner = player", "winner += 2", "coins[player] -= 1", "note = 'a'", "note += 'b'",
    "picked = none", "picked = top(items('card'))", "seen += [3]", "seen = []", "winner = len(seen)",
])
def test_a_value_of_the_right_type_passes(tmp_path, assignment):
    assert diagnostics(tmp_path, assignment) == []


def test_validate_reports_it_with_file_line_and_column(tmp_path):
    from typer.testing import CliRunner

    from meeple.cli.main import app
    path = write_ruleset(tmp_path, RULESET.format(assignment="winner = 'nobody'"), "assigns")
    result = CliRunner().invoke(app, ["validate", path])
    assert result.exit_code == 2
    assert f"{path}:16:25: error[T410]" in result.output
