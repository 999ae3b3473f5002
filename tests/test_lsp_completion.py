"""Completion without a server: where the cursor stands in a file being typed, and
what is offered there, on the small ruleset of tests/fixtures/lsp and on tic-tac-toe."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from meeple.authoring.analysis import analyse
from meeple.authoring.completion import complete
from meeple.authoring.cursor import cursor_at

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "lsp" / "mini.yaml"
TIC_TAC_TOE = ROOT / "rulesets" / "tic-tac-toe" / "game.yaml"


def _analysis(tmp_path_factory, source: Path):
    folder = tmp_path_factory.mktemp(source.parent.name)
    shutil.copy(source, folder / "game.yaml")
    return analyse(folder.resolve(), {})


@pytest.fixture(scope="module")
def mini(tmp_path_factory):
    return _analysis(tmp_path_factory, MINI)


@pytest.fixture(scope="module")
def tic_tac_toe(tmp_path_factory):
    return _analysis(tmp_path_factory, TIC_TAC_TOE)


def labels_at(analysis, anchor: str, typed: str, after: str = None):
    """Completion labels once `typed` replaces the line that starts with `anchor`
    (or is inserted after it, when `after` is given: anchor is then the line before)."""
    path = analysis.files[0]
    lines = analysis.lines(path)[:]
    index = next(i for i, ln in enumerate(lines) if ln.startswith(anchor))
    if after is None:
        lines[index] = typed
    else:
        index += 1
        lines.insert(index, typed)
    return [item.label for item in complete(analysis, lines, index, len(typed))]


# -- where the cursor is ----------------------------------------------------------

CURSOR_FILE = """\
zones:
  deck: {kind: stack, vis
actions:
  play:
    params: {card: "hand[pl
    effects:
      - move: card
        from: "hand[player]"
        fa
      - move: {from: deck, to: hand, face: u
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [pl
define:
  long:
    expr: |
      len(de
"""


def cursor(fragment: str):
    lines = CURSOR_FILE.split("\n")
    index = next(i for i, ln in enumerate(lines) if ln.rstrip().endswith(fragment))
    return cursor_at(lines, index, len(lines[index]))


def test_the_cursor_at_a_key_of_a_flow_mapping():
    c = cursor("vis")
    assert (c.path, c.at_key, c.prefix, c.siblings) == (("zones", "deck"), True, "vis", {"kind"})


def test_the_cursor_inside_a_quoted_expression():
    c = cursor('"hand[pl')
    assert (c.path, c.at_key, c.text) == (("actions", "play", "params", "card"), False, "hand[pl")


def test_the_cursor_at_a_key_of_an_effect_knows_the_keys_beside_it():
    c = cursor("        fa")
    assert (c.path, c.at_key, c.siblings) == (("actions", "play", "effects", "-"), True, {"move", "from"})


def test_the_cursor_in_an_inline_effect_and_in_a_flow_list():
    assert cursor("face: u").path == ("actions", "play", "effects", "-", "move", "face")
    assert cursor("choose: [pl").path == ("flow", "-", "loop", "-", "do", "-", "choose", "-")


def test_the_cursor_in_a_block_scalar():
    c = cursor("len(de")
    assert (c.path, c.at_key, c.text) == (("define", "long", "expr"), False, "len(de")


# -- what is offered -------------------------------------------------------------

def test_keys_of_a_section_and_of_the_top(mini):
    assert labels_at(mini, "  hand: {per", "  hand: {per: player, ") == \
        ["kind", "visibility", "face", "initial", "rule", "description", "show"]
    top = labels_at(mini, "scoring:", "sc")
    assert {"scoring", "triggers", "invariants"} <= set(top) and not {"game", "zones", "flow"} & set(top)


def test_an_effect_offers_its_keywords_then_its_keys(mini):
    keywords = labels_at(mini, "      - move: score", "      - ", after=True)
    assert {"set", "move", "deal", "shuffle", "if", "for", "rule"} <= set(keywords)
    assert labels_at(mini, "        from: \"hand[player]\"", "        ", after=True) == ["count", "at", "face", "rule", "narrate"]


def test_words_of_a_choice_and_booleans(mini):
    assert labels_at(mini, "  bag: {kind: bag", "  bag: {kind: ") == ["stack", "hand", "row", "bag"]
    assert labels_at(mini, "  hand: {per", "  hand: {per: player, show: ") == ["true", "false"]


def test_names_written_as_values(mini):
    assert labels_at(mini, "          - choose: [take]", "          - choose: [") == ["take"]
    assert labels_at(mini, "    to: hand", "    to: ") == ["hand"], "deal hands out to per-player zones only"
    assert labels_at(mini, "    after: rounds_done", "    after: ") == ["rounds_done", "now"]
    types_offered = labels_at(mini, "  score: {per", "  score: {per: player, type: ")
    assert {"int", "str", "item[token]", "list[item[token]]"} <= set(types_offered)


def test_names_an_expression_may_read(mini):
    offered = labels_at(mini, '      - check: "score.id in', '      - check: "sc')
    assert {"score", "bag", "hand", "at", "worth", "richest", "spots", "max_by", "len", "player", "options",
            "and", "not"} <= set(offered)
    assert offered.count("score") == 1, "the variable and the parameter are one word"


def test_texts_the_language_reads_as_names(mini, tic_tac_toe):
    assert labels_at(mini, "  bag: {kind: bag", "  bag: {kind: bag, initial: \"items('") == ["token"]
    assert labels_at(mini, '      - check: "score.id in', '      - check: "score.id == \'') == \
        ["gold", "copper-1", "copper-2"]
    assert labels_at(mini, '      - check: "score.id in', "      - check: \"score.id in ['gold', '")[:1] == ["gold"]
    assert labels_at(tic_tac_toe, "  board_full:", "  board_full: \"nodes('") == ["grid"]
    nodes = labels_at(tic_tac_toe, "  board_full:", "  board_full: \"neighbours('grid', '")
    assert nodes[:3] == ["a1", "b1", "c1"] and len(nodes) == 9


def test_after_a_dot(mini):
    assert labels_at(mini, "    times:", '    times: "options.') == ["rounds"]
    fields = labels_at(mini, '      - check: "score.id in', '      - check: "score.')
    assert fields == ["value", "id", "kind", "face", "seen_by"]


def test_a_file_of_no_ruleset_still_gets_keys():
    labels = [item.label for item in complete(None, ["zo"], 0, 2)]
    assert "zones" in labels
    assert [item.label for item in complete(None, ["zones:", "  deck: {kind: "], 1, 15)] == \
        ["stack", "hand", "row", "bag"]
