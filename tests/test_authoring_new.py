"""`meeple new` and `meeple schema`: from an empty folder, an author gets a ruleset
that validates, plays to the end with bots and passes its scenarios, and an editor
gets the schema it names on its first line."""
from __future__ import annotations

import json

from jsonschema import Draft202012Validator

from meeple.dsl.load import check_ruleset, read_ruleset
from meeple.dsl.schema.json_schema import SCHEMA_FILE, ruleset_schema
from meeple.dsl.source import read_yaml
from meeple.interpreter.analysis.scenario import load_scenarios, run_scenario

from test_cli import meeple, no_traceback


def test_new_validate_and_play_work_from_an_empty_folder(tmp_path):
    made = meeple("new", "mygame", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    checked = meeple("validate", "mygame", cwd=tmp_path)
    assert checked.returncode == 0 and "mygame: ok" in checked.stdout
    played = meeple("play", "mygame", "--bots", "all", "--seed", "5", cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "game over" in played.stdout and "winner" in played.stdout
    tested = meeple("test", "mygame", cwd=tmp_path)
    assert tested.returncode == 0 and "3 passed, 0 failed" in tested.stdout


def test_the_new_ruleset_has_no_diagnostic_and_its_scenarios_pass(tmp_path):
    meeple("new", "race-to-zero", cwd=tmp_path)
    folder = tmp_path / "race-to-zero"
    rs, diagnostics = read_ruleset(folder)
    diagnostics += check_ruleset(rs)
    assert [(d.code, str(d.span)) for d in diagnostics] == []
    assert rs.game.name == "race-to-zero" and rs.game.title == "Race To Zero"
    scenarios = load_scenarios(folder / "scenarios" / "rules.yaml")
    assert len(scenarios) == 3
    assert [run_scenario(s).passed for s in scenarios] == [True, True, True]
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert "| rule | page | spec element |" in readme


def test_the_new_game_file_names_the_schema_it_validates_against(tmp_path):
    meeple("new", "mygame", cwd=tmp_path)
    game = tmp_path / "mygame" / "game.yaml"
    first = game.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=meeple.schema.json"
    schema = json.loads((game.parent / "meeple.schema.json").read_text(encoding="utf-8"))
    assert schema == ruleset_schema()
    assert list(Draft202012Validator(schema).iter_errors(read_yaml(game))) == []


def test_new_refuses_a_folder_that_holds_files_and_a_name_that_cannot_be_one(tmp_path):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine", encoding="utf-8")
    for args, words in ((("new", "taken"), "already exists"), (("new", "Bad Name"), "cannot name a ruleset")):
        result = meeple(*args, cwd=tmp_path)
        no_traceback(result)
        assert result.returncode == 2 and words in result.stderr
    assert (tmp_path / "taken" / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert not (tmp_path / "taken" / "game.yaml").exists()


def test_schema_prints_or_writes_the_shipped_schema(tmp_path):
    printed = meeple("schema")
    assert printed.returncode == 0 and printed.stdout == SCHEMA_FILE.read_text(encoding="utf-8")
    written = meeple("schema", "-o", tmp_path / "s.json")
    assert written.returncode == 0
    assert (tmp_path / "s.json").read_text(encoding="utf-8") == printed.stdout
    refused = meeple("schema", "-o", tmp_path / "no" / "such" / "s.json")
    no_traceback(refused)
    assert refused.returncode == 2 and "cannot write" in refused.stderr
