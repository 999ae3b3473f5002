"""The index of names behind go to definition, find references and hover: every
declaration and every use, with names that shadow a declared one left out."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from meeple.authoring.analysis import analyse

MINI = Path(__file__).resolve().parent / "fixtures" / "lsp" / "mini.yaml"


@pytest.fixture(scope="module")
def mini(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mini")
    shutil.copy(MINI, folder / "game.yaml")
    analysis = analyse(folder.resolve(), {})
    assert analysis.diagnostics == []
    return analysis, (folder / "game.yaml").resolve()


def lines_of(analysis, kind, name, text):
    """(line, text at the span) of every occurrence, the declaration marked with *."""
    lines = text.split("\n")
    out = []
    for o in analysis.index.occurrences(kind, name):
        s = o.span
        out.append((s.line, lines[s.line - 1][s.col - 1:s.end_col - 1] + ("*" if o.declaration else "")))
    return out


def test_every_kind_of_name_with_its_uses(mini):
    analysis, path = mini
    text = path.read_text(encoding="utf-8")

    def line(fragment):
        return next(i for i, ln in enumerate(text.split("\n"), 1) if fragment in ln)

    assert lines_of(analysis, "zone", "hand", text) == [
        (line("hand: {per"), "hand*"), (line("to: hand"), "hand"), (line("params: {score"), "hand"),
        (line('from: "hand'), "hand"), (line("score: \"score[player]"), "hand")]
    assert lines_of(analysis, "action", "take", text) == [(line("choose: [take]"), "take"), (line("  take:"), "take*")]
    assert lines_of(analysis, "label", "rounds_done", text) == [
        (line("label: rounds_done"), "rounds_done*"), (line("after: rounds_done"), "rounds_done")]
    assert lines_of(analysis, "option", "rounds", text) == [
        (line("rounds: {default"), "rounds*"), (line("options.rounds"), "rounds")]
    assert lines_of(analysis, "definition", "worth", text) == [
        (line("worth: {params"), "worth*"), (line("sum(worth(t)"), "worth")]
    assert lines_of(analysis, "component", "token", text) == [
        (line("  token:"), "token*"), (line("items('token')"), "'token'")]
    assert lines_of(analysis, "board", "track", text) == [
        (line("  track:"), "track*"), (line("nodes('track')"), "'track'"), (line("neighbours('track'"), "'track'")]
    assert [t for _, t in lines_of(analysis, "function", "max_by", text)] == ["max_by"]


def test_a_name_that_shadows_a_variable_is_not_a_use_of_it(mini):
    """The action parameter, the lambda parameter and the comprehension variable are all
    called `score`; only the scoring's `score[player]` reads the variable."""
    analysis, path = mini
    text = path.read_text(encoding="utf-8")
    found = lines_of(analysis, "variable", "score", text)
    assert [t for _, t in found] == ["score*", "score"]
    assert "score[player]" in text.split("\n")[found[1][0] - 1]


def test_item_ids_are_declared_and_found_where_ids_are_compared(mini):
    analysis, path = mini
    text = path.read_text(encoding="utf-8")
    assert [t for _, t in lines_of(analysis, "item", "gold", text)] == ["{id: gold, value: 3}*", "'gold'", "'gold'"]
    copper = lines_of(analysis, "item", "copper-1", text)
    assert [t for _, t in copper] == ["{id: copper, value: 1, count: 2}*", "'copper-1'"]


def test_what_is_at_a_position(mini):
    analysis, path = mini
    lines = path.read_text(encoding="utf-8").split("\n")
    row = next(i for i, ln in enumerate(lines, 1) if "sum(worth(t)" in ln)
    col = lines[row - 1].index("worth(t)") + 1
    assert (analysis.index.at(path, row, col).kind, analysis.index.at(path, row, col).name) == ("definition", "worth")
    assert analysis.index.at(path, row, col + 5).name == "worth", "the position just after the name is on it"
    sum_col = lines[row - 1].index("sum(") + 1
    assert analysis.index.at(path, row, sum_col).kind == "function"
    key_row = next(i for i, ln in enumerate(lines, 1) if ln.startswith("zones:"))
    assert analysis.index.at(path, key_row, 1) is None
    assert analysis.index.key_at(path, key_row, 1).doc == "ordered places that hold items"


def test_declarations_are_known_while_the_ruleset_does_not_build(tmp_path):
    """No game section: nothing builds, yet the YAML's declarations and plain-value names stay."""
    text = MINI.read_text(encoding="utf-8")
    (tmp_path / "game.yaml").write_text(text.replace("game:\n", "gaem:\n", 1), encoding="utf-8")
    analysis = analyse(tmp_path.resolve(), {})
    assert analysis.ruleset is None and analysis.last_built is None
    assert {"S101"} <= {d.code for d in analysis.diagnostics}
    found = analysis.index.occurrences("action", "take")
    assert [o.declaration for o in found] == [False, True]


def test_the_last_built_ruleset_stands_in_while_the_text_does_not_build(tmp_path):
    path = (tmp_path / "game.yaml").resolve()
    text = MINI.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    built = analyse(tmp_path.resolve(), {})
    broken = analyse(tmp_path.resolve(), {path: text.replace("game:\n", "gaem:\n", 1)}, built)
    assert broken.ruleset is None and broken.last_built is built.ruleset
    assert broken.rulesets == [built.ruleset]
    assert len(broken.index.occurrences("variable", "score")) == 2
