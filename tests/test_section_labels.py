"""Rulebook section titles in the player's language: `rules ACTION` at the `meeple play`
prompt cites the section an action's rule names by its title, which is ruleset content
(`game.rulebook.sections`) that `game.labels` translate like any message; lint L107
counts an untranslated title."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from meeple.cli.main import app
from meeple.interpreter import list_rulesets, load_rules
from meeple.interpreter.presentation.label_check import label_diagnostics

from ruleset_support import write_ruleset

# Two players light lanterns in turn until five are lit; the rule of lighting is on p.2.
LANTERNS = """
game:
  name: lanterns
  players: 2
  rulebook:
    title: "The lantern festival"
    sections:
      p.1: "the lanterns and the festival square"
      p.2: "lighting one lantern on your turn"
  labels:
    hu:
      light: "Lámpás meggyújtása"
      lit: "meggyújtott lámpások"
      player: "játékos"
      "lighting one lantern on your turn": "egy lámpás meggyújtása a körödben"
      "all lanterns burn": "minden lámpás ég"
variables:
  lit: {initial: 0, rule: p.1}
flow:
  - loop: [{turns: "players()", do: [{choose: [light]}]}]
actions:
  light: {rule: p.2, effects: ["lit += 1"]}
end:
  - when: "lit >= 5"
    reason: "all lanterns burn"
"""


@pytest.fixture
def lanterns(tmp_path):
    return write_ruleset(tmp_path, LANTERNS, "lanterns")


def _rules_at_prompt(path, *langs):
    args = ["play", path, "--bots", "1", "--seed", "3", "--no-auto", *langs]
    result = CliRunner().invoke(app, args, input="rules light\nq\n")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


def test_rules_cites_the_section_title_in_the_chosen_language(lanterns):
    out = _rules_at_prompt(lanterns, "--lang", "hu")
    assert "Lámpás meggyújtása (light)" in out
    assert "szabály p.2: egy lámpás meggyújtása a körödben" in out
    assert "lighting one lantern on your turn" not in out


def test_rules_cites_the_english_title_without_a_language(lanterns):
    out = _rules_at_prompt(lanterns)
    assert "rule p.2: lighting one lantern on your turn" in out


def test_lint_lists_an_untranslated_section_title(lanterns):
    warned = [d.message for d in label_diagnostics(load_rules(lanterns).ruleset) if d.code == "L107"]
    assert len(warned) == 1
    assert "labels 'hu' lack 1 of" in warned[0]
    assert "'the lanterns and the festival square'" in warned[0]
    assert "lighting one lantern" not in warned[0]  # translated


def test_an_english_table_needs_no_section_titles(tmp_path):
    """Titles are written in English, like reasons: an `en` table names only names."""
    text = LANTERNS.replace("  labels:\n    hu:", "  labels:\n    en:")
    rs = load_rules(write_ruleset(tmp_path, text, "lanterns")).ruleset
    assert not [d for d in label_diagnostics(rs) if d.code == "L107"]


def _with_hungarian_labels():
    names = [name for name in list_rulesets() if "hu" in load_rules(name).ruleset.game.labels]
    assert {"valdora", "zavandor", "treasure-hunter", "freyas-folly", "tic-tac-toe"} <= set(names)
    return names


@pytest.mark.parametrize("name", _with_hungarian_labels())
def test_every_shipped_hungarian_table_translates_every_section_title(name):
    rs = load_rules(name).ruleset
    table = rs.game.labels["hu"]
    assert rs.game.rulebook.sections
    assert [t for t in rs.game.rulebook.sections.values() if t not in table] == []
    assert not [d for d in label_diagnostics(rs) if d.code == "L107"]
