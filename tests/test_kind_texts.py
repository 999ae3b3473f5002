"""`text:` on component kinds (issue 44): what a card or an ability does, per language,
checked where it is written like `show`, and given by `Game.item_text` and `rules NAME`."""
from __future__ import annotations

import pytest

from meeple.cli.prompt_commands import rules_lines
from meeple.cli.screen import compact_lines, own_texts
from meeple.dsl.diagnostics import RulesetError
from meeple.dsl.load import load_ruleset
from meeple.interpreter import load_game

SPELLS = """\
game:
  name: spells
  players: 2
components:
  spell:
    fields: {school: str, power: int}
    items:
      - {id: FIRE, school: fire, power: 3}
      - {id: FROST, school: ice, power: 2}
    text:
      by: school
      fire: {en: "Burns for {power}.", hu: "{power} sebzést okoz."}
      ice: {en: "Freezes a rival for {power} turns."}
  charm:
    fields: {luck: int}
    items: [{id: LUCKY, luck: 1}]
    text: {en: "Adds {luck} to every roll."}
zones:
  book: {kind: row, visibility: all, initial: "items('spell') + items('charm')"}
flow:
  - choose: [rest]
actions:
  rest: {}
scoring:
  score: "0"
"""


def _game(tmp_path, text=SPELLS):
    path = tmp_path / "game.yaml"
    path.write_text(text)
    return path


def test_an_item_text_is_its_kinds_in_the_language_asked_with_its_fields(tmp_path):
    game = load_game(_game(tmp_path))
    assert game.item_text("FIRE") == "Burns for 3."
    assert game.item_text("FIRE", "hu") == "3 sebzést okoz."
    assert game.item_text("FROST", "hu") == "Freezes a rival for 2 turns."  # English where hu is missing
    assert game.item_text("LUCKY") == "Adds 1 to every roll."


def test_rules_names_a_card_by_id_or_by_its_sort(tmp_path):
    game = load_game(_game(tmp_path))
    assert rules_lines(game, "FROST", None) == ["FROST: Freezes a rival for 2 turns."]
    assert rules_lines(game, "fire", "hu") == ["FIRE: 3 sebzést okoz."]  # an id, whatever its case
    assert rules_lines(game, "ice", None) == ["spell: ice: Freezes a rival for 2 turns."]


@pytest.mark.parametrize("bad, code, line", [
    ('fire: {en: "Burns for {heat}."', "N303", 12),  # a place that names no field
    ('fire: {en: "Burns for {power."', "S117", 12),  # not well formed
    ("by: colour", "N303", 11),  # `by` names no field
])
def test_a_text_is_checked_where_it_is_written(tmp_path, bad, code, line):
    text = SPELLS.replace('fire: {en: "Burns for {power}."', bad) if bad.startswith("fire") else \
        SPELLS.replace("by: school", bad)
    with pytest.raises(RulesetError) as err:
        load_ruleset(_game(tmp_path, text))
    assert (code, line) in [(d.code, d.span.line) for d in err.value.diagnostics]


def test_treasure_hunters_action_cards_say_what_they_do():
    game = load_game("treasure-hunter", 3)
    for card in ("SWORD-1", "BLADE", "ANIMAL-1", "TRAP-1", "DISPEL-1", "SCOUT-1", "SCARER-1", "MULE"):
        assert game.item_text(card) and game.item_text(card, "hu") != game.item_text(card)
    assert "takes 2 off a rival" in game.item_text("TRAP-1")


HANDS = SPELLS.replace('  book: {kind: row, visibility: all, initial: "items(\'spell\') + items(\'charm\')"}',
                       '  hand: {kind: row, per: player, visibility: owner}\n'
                       '  book: {kind: row, visibility: all, initial: "items(\'spell\') + items(\'charm\')"}').replace(
    "flow:\n", "setup:\n  - move: {from: book, to: \"hand[0]\", count: 2}\n  - move: {from: book, to: \"hand[1]\", count: 1}\nflow:\n")


def test_the_screen_says_what_the_cards_in_ones_own_hand_do_and_no_others(tmp_path):
    """The compact screen lists the texts of the cards in the deciding player's own zones,
    each once; a card in another's hidden hand is not named."""
    game = load_game(_game(tmp_path, HANDS))
    state = game.new_state(1)
    mine = own_texts(game, game.view(state, 0), None)
    theirs = own_texts(game, game.view(state, 1), "hu")
    assert mine == ["Burns for 3.", "Freezes a rival for 2 turns."]
    assert theirs == ["Adds 1 to every roll."]  # seat 1 holds LUCKY only; English where hu is missing
    lines = compact_lines(game, game.view(state, 0), None, 130)
    assert "  Burns for 3." in lines and not any("Adds 1" in line for line in lines)
