"""Labels (interpreter/phrases.py): a ruleset's `en` table is used when no language is
asked, and a key may be scoped (`phase.market`, `value.market`) so that one name meaning
two things (a phase and a place a variable holds) reads right in each."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from meeple.cli.main import app
from meeple.interpreter import load_game, load_rules
from meeple.interpreter.presentation.label_check import label_diagnostics
from meeple.interpreter.presentation.phrases import find_label

from ruleset_support import write_ruleset

# A ferry that goes between a market and a mill; `market` is a phase and a place.
FERRY = """
game:
  name: ferry
  players: 2
  labels:
    en:
      phase.market: "Market day"
      value.market: "the market square"
      mill: "the old mill"
      action.sail: "Set sail"
      to: "destination"
      spot: "where the ferry lies"
      trips: "trips made"
      player: "player"
    hu:
      phase.market: "Vásárnap"
      value.market: "a piactér"
      mill: "a régi malom"
      action.sail: "Vitorlát bont"
      to: "úti cél"
      spot: "a komp helye"
      trips: "megtett utak"
      player: "játékos"
variables:
  spot: {type: str, initial: "'market'"}
  trips: {initial: 0}
flow:
  - loop:
      - phase: market
        do:
          - turns: "players()"
            do:
              - choose: [sail]
actions:
  sail:
    params: {to: "[p for p in ['market', 'mill'] if p != spot]"}
    effects:
      - set: ["spot = to", "trips += 1"]
end:
  - when: "trips >= 4"
"""


@pytest.fixture
def ferry_path(tmp_path):
    return write_ruleset(tmp_path, FERRY, "ferry")


def test_a_scoped_key_wins_in_its_scope_and_the_bare_key_is_the_fallback(ferry_path):
    rs = load_rules(ferry_path).ruleset
    assert find_label(rs, "en", "market", "phase") == "Market day"
    assert find_label(rs, "en", "market", "value") == "the market square"
    assert find_label(rs, "en", "mill", "value") == "the old mill"  # bare key, any scope
    assert find_label(rs, "en", "market", None) is None  # a message looks up bare keys only
    assert find_label(rs, "hu", "market", "phase") == "Vásárnap"


def test_the_table_labels_a_phase_and_a_value_of_the_same_name_apart(ferry_path):
    game = load_game(ferry_path)
    text = game.render(game.new_state(0), 0, "hu")
    assert "fázis: Vásárnap" in text
    assert "a komp helye  a piactér" in text


def test_without_a_language_the_english_table_is_used(ferry_path):
    """Before: no `--lang` meant raw names (`spot`, `trips`, `market`) on the screen."""
    game = load_game(ferry_path)
    text = game.render(game.new_state(0), 0)
    assert "phase: Market day" in text
    assert "where the ferry lies  the market square" in text and "trips made" in text
    assert "spot" not in text.replace("where the ferry lies", "")


def test_the_cli_uses_the_english_table_and_scopes_in_moves_and_headings(ferry_path):
    out = CliRunner().invoke(app, ["play", ferry_path, "--bots", "1", "--seed", "1", "--no-auto"], input="q\n").output
    assert "Market day" in out  # the turn's heading names the phase
    assert "1  Set sail: destination=the old mill  (sail(to=mill))" in out


def test_a_shipped_clash_is_scoped():
    """Treasure Hunter's grey scroll pays per captured goblin; `goblins` is also a phase."""
    rs = load_rules("treasure-hunter").ruleset
    for lang in ("en", "hu"):
        assert find_label(rs, lang, "goblins", "value") != find_label(rs, lang, "goblins", "phase")
    assert find_label(rs, None, "goblins", "value") == "captured goblin"


def test_lint_counts_a_name_translated_by_its_scoped_key(ferry_path):
    """`market` (a phase) has only `phase.market`: it is translated (no L107)."""
    assert not [d for d in label_diagnostics(load_rules(ferry_path).ruleset) if d.code == "L107"]


def test_lint_warns_of_a_scoped_key_that_names_nothing_in_its_scope(tmp_path):
    text = FERRY.replace('      action.sail: "Set sail"', '      action.sial: "Set sail"\n      phase.sail: "x"')
    diags = label_diagnostics(load_rules(write_ruleset(tmp_path, text, "ferry")).ruleset)
    found = sorted(d.message for d in diags if d.code == "L110")
    assert found == ["labels 'en': 'action.sial' names no action called 'sial', so it is never shown",
                     "labels 'en': 'phase.sail' names no phase called 'sail', so it is never shown"]
    assert any(d.code == "L107" and "'sail'" in d.message for d in diags)  # `sail` lost its label


def test_the_shipped_rulesets_have_no_stray_scoped_key():
    for name in ("treasure-hunter", "valdora", "freyas-folly"):
        assert not [d for d in label_diagnostics(load_rules(name).ruleset) if d.code in ("L107", "L110")], name
