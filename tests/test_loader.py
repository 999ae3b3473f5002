"""The loader and checker: every problem reported at once, each with its code and
exact position (file, line, column), including positions inside expressions."""
from __future__ import annotations

from pathlib import Path

import pytest

from meeple.dsl.diagnostics import RulesetError
from meeple.dsl.load import check_ruleset, load_ruleset, read_ruleset
from meeple.interpreter.analysis.setup_check import check_setup

FIX = Path(__file__).parent / "fixtures"


def _diags(path):
    rs, diags = read_ruleset(path)
    if rs is not None:
        diags += check_ruleset(rs)
    return {(d.code, d.span.line, d.span.col) for d in diags if d.severity == "error"}


def test_all_problems_of_a_broken_ruleset_are_reported_with_positions():
    found = _diags(FIX / "broken_many.yaml")
    assert found == {
        ("S101", 4, 3),    # unknown key 'colour' in the game section
        ("F502", 14, 27),  # choose offers an undeclared action
        ("F501", 15, 5),   # a step after an endless loop is unreachable
        ("T403", 21, 17),  # a requirement that is not a boolean
        ("N301", 24, 15),  # undefined name, caret inside the expression string
        ("X202", 25, 25),  # syntax error at the end of an expression
        ("F503", 28, 5),   # end rule waits for a label that does not exist
    }


def test_load_ruleset_raises_once_with_everything():
    with pytest.raises(RulesetError) as info:
        load_ruleset(FIX / "broken_many.yaml")
    assert len(info.value.errors) == 7
    text = info.value.render()
    assert "broken_many.yaml:24:15: error[N301]" in text
    assert "^^^^^" in text  # the caret under 'silvr'


def test_malformed_yaml_is_a_diagnostic_not_a_traceback():
    rs, diags = read_ruleset(FIX / "not_yaml.yaml")
    assert rs is None
    assert [(d.code, d.span.line) for d in diags] == [("Y001", 4)]


def test_missing_path():
    rs, diags = read_ruleset(FIX / "nowhere.yaml")
    assert rs is None and diags[0].code == "Y002"


def test_setup_bounds_are_checked_for_every_player_count():
    rs = load_ruleset(FIX / "setup_bounds.yaml")
    diags = check_setup(rs)
    assert [(d.code, d.span.line, d.rule) for d in diags] == [("B601", 6, "p.2")]


def test_a_folder_is_one_ruleset_and_names_are_unique_across_files():
    found = _diags(FIX / "split")
    assert ("S104", 2, 3) in found  # 'count' declared again in rules.yaml
    assert ("S104", 4, 3) in found  # and the action 'tick', declared first in more.yaml


def test_a_folder_ruleset_loads_and_runs(tmp_path):
    for f in ("game.yaml", "rules.yaml"):
        (tmp_path / f).write_text((FIX / "split" / f).read_text())
    from meeple.interpreter.runtime.game import Game
    from meeple.interpreter.runtime.rules import Rules
    rs = load_ruleset(tmp_path)
    game = Game(Rules(rs), 2)
    state = game.new_state(0)
    state = game.apply(state, "tick", 0)
    state = game.apply(state, "tick", 1)
    assert game.is_terminal(state)


@pytest.mark.parametrize("text,code,line,col", [
    ("game: {name: x, players: 2}\nflow: [{choose: [a]}]\nactions: {a: {params: {n: 'range(3'}}}\n",
     "X202", 3, 35),
    ("game: {name: x, players: 0}\nflow: []\n", "S107", 1, 26),
    ("game: {name: x, players: 2}\nvariables: {v: {type: int, per: player, initial: 'true + 1'}}\n"
     "flow: [{choose: [a]}]\nactions: {a: {}}\n", "T401", 2, 51),
    ("game: {name: x, players: 2}\nflow: [{choose: [a]}]\nactions: {a: {effects: [{set: 'x = 1'}]}}\n",
     "N301", 3, 32),
    ("game: {name: x, players: 2}\nflow: [{choose: [a], colour: 1}]\nactions: {a: {}}\n",
     "S101", 2, 22),
    ("game: {name: x, players: 2}\nflow: [{choose: [a]}]\nactions: {a: {require: ['1 + 1']}}\n",
     "T403", 3, 26),
    ("game: {name: x, players: 2}\nflow: [{choose: [a]}]\nactions: {a: {}}\nend: [{when: 'len(1, 2)'}]\n",
     "T402", 4, 15),
    ("game: {name: x, players: 2}\nflows: []\n", "S101", 2, 1),
    ("game: {name: x, players: 2, options: {fast: {default: false}}}\nflow: [{choose: [a]}]\n"
     "actions: {a: {require: ['options.fats']}}\n", "N305", 3, 34),
    ("game: {name: x, players: 2}\nflow: [{choose: [a]}]\nactions: {a: {require: [\"options['x']\"]}}\n",
     "N305", 3, 34),
    ("game: {name: x, players: 2}\nflow: [{choose: [a]}]\nactions: {a: {}}\nscoring: {estimate: 'gold[player]'}\n",
     "N301", 4, 22),
])
def test_single_error_positions(tmp_path, text, code, line, col):
    f = tmp_path / "g.yaml"
    f.write_text(text)
    found = _diags(f)
    assert (code, line, col) in found, sorted(found)


def test_an_item_may_start_in_only_one_zone():
    rs, _ = read_ruleset(FIX / "zone_overlap.yaml")
    found = {(d.code, d.span.line, d.span.col) for d in check_setup(rs)}
    assert ("R710", 6, 3) in found


def test_end_rules_are_checked_right_after_setup():
    from meeple.interpreter import load_game
    game = load_game("nim", 2, {"heaps": [0, 0]})
    state = game.new_state(0)
    assert game.is_terminal(state) and game.legal_moves(state) == ()
    assert game.outcome(state).reason == "the last object was taken"


def test_unchanged_files_give_the_rules_compiled_before_and_a_change_is_read(tmp_path, monkeypatch):
    import shutil
    from meeple.interpreter.runtime import loading
    folder = tmp_path / "nim"
    shutil.copytree(loading.RULESETS / "nim", folder)
    first = loading.load_rules(folder)

    def must_not_read(path):
        raise AssertionError("unchanged files were read and checked again")
    monkeypatch.setattr(loading, "load_ruleset", must_not_read)
    assert loading.load_rules(folder) is first
    monkeypatch.undo()
    game_file = next(folder.glob("*.yaml"))
    game_file.write_text(game_file.read_text() + "\n# an edit\n")
    again = loading.load_rules(folder)
    assert again is not first and again.ruleset.content_hash != first.ruleset.content_hash
    game_file.write_text(game_file.read_text() + "  :\n")  # now broken: reported, not served from the cache
    with pytest.raises(RulesetError):
        loading.load_rules(folder)
