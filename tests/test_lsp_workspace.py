"""What the language server needs from the pipeline: `read_ruleset` checking an editor's
unsaved text in place of a file, diagnostics that carry the names they suggest, and
knowing which ruleset (if any) a file belongs to."""
from __future__ import annotations

import shutil
from pathlib import Path

from meeple.authoring.workspace import ruleset_folder
from meeple.dsl.load import check_ruleset, read_ruleset
from meeple.dsl.source import MAX_FILE_BYTES

ROOT = Path(__file__).resolve().parent.parent
HIGH_CARD = ROOT / "examples" / "high-card" / "game.yaml"


def diagnostics(folder: Path, texts=None):
    rs, found = read_ruleset(folder, texts)
    return found + (check_ruleset(rs) if rs is not None else [])


def copy(tmp_path: Path) -> Path:
    shutil.copy(HIGH_CARD, tmp_path / "game.yaml")
    return tmp_path / "game.yaml"


def test_a_given_text_stands_in_for_the_file(tmp_path):
    game = copy(tmp_path)
    broken = game.read_text(encoding="utf-8").replace("lead_colour or not", "lead_colur or not")
    [d] = diagnostics(tmp_path, {game: broken})
    assert d.code == "N301" and d.span.line == broken.split("\n").index(
        next(ln for ln in broken.split("\n") if "lead_colur" in ln)) + 1
    assert diagnostics(tmp_path) == [], "the file on disk is untouched and still clean"


def test_the_given_texts_are_matched_by_resolved_path(tmp_path, monkeypatch):
    game = copy(tmp_path)
    monkeypatch.chdir(tmp_path)
    broken = game.read_text(encoding="utf-8").replace("zones:", "zonse:")
    assert [d.code for d in diagnostics(Path("."), {Path("game.yaml"): broken})][:1] == ["S101"]


def test_a_given_text_is_held_to_the_limits_of_a_file(tmp_path):
    game = copy(tmp_path)
    [d] = diagnostics(tmp_path, {game: "game: x\n" + "#" * MAX_FILE_BYTES})
    assert d.code == "Y012"
    [d] = diagnostics(tmp_path, {game: "game: {name: x}\x07\n"})
    assert d.code == "Y005"


def test_did_you_mean_diagnostics_carry_their_suggestions(tmp_path):
    game = copy(tmp_path)
    text = game.read_text(encoding="utf-8")
    cases = {
        "N301": text.replace("lead_colour or not", "lead_colur or not"),
        "S101": text.replace("  hand: {per: player, kind: hand", "  hand: {prr: player, kind: hand"),
        "F502": text.replace("choose: [play]", "choose: [ply]"),
        "N302": text.replace("max_by(players()", "max_bi(players()"),
        "N305": text.replace("options.hand_size", "options.hand_sise"),
    }
    wanted = {"N301": "lead_colour", "S101": "per", "F502": "play", "N302": "max_by", "N305": "hand_size"}
    for code, broken in cases.items():
        found = [d for d in diagnostics(tmp_path, {game: broken}) if d.code == code]
        assert found and found[0].suggestions[0] == wanted[code], code
        assert f"did you mean '{wanted[code]}'" in found[0].message


def test_a_section_misspelt_suggests_the_section(tmp_path):
    game = copy(tmp_path)
    broken = game.read_text(encoding="utf-8").replace("\nscoring:", "\nscorign:")
    [d] = [d for d in diagnostics(tmp_path, {game: broken}) if d.code == "S101"]
    assert d.suggestions == ("scoring",)


def test_which_ruleset_a_file_belongs_to(tmp_path):
    game = copy(tmp_path).resolve()
    assert ruleset_folder(game, {}) == tmp_path.resolve()
    other = (tmp_path / "more.yaml").resolve()
    other.write_text("", encoding="utf-8")
    assert ruleset_folder(other, {}) == tmp_path.resolve(), "a new, empty file of a ruleset's folder"
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    (scenarios / "basics.yaml").write_text("scenarios: []\n", encoding="utf-8")
    assert ruleset_folder((scenarios / "basics.yaml").resolve(), {}) is None
    assert ruleset_folder((tmp_path / "README.md").resolve(), {}) is None
    assert ruleset_folder(game, {game: ""}) == tmp_path.resolve(), "emptied in the editor, still its ruleset"


def test_a_diagnostic_of_the_whole_folder_goes_on_the_first_files_first_line(tmp_path):
    """Too many files (Y012) concerns the folder, not a place in a file."""
    from meeple.authoring.analysis import analyse
    from meeple.authoring.editor_diagnostics import by_file
    from meeple.dsl.source import MAX_RULESET_FILES
    copy(tmp_path)
    for i in range(MAX_RULESET_FILES):
        (tmp_path / f"extra{i:02}.yaml").write_text(f"# {i}\n", encoding="utf-8")
    analysis = analyse(tmp_path.resolve(), {})
    published = by_file(analysis)
    first = analysis.files[0]
    assert [(d.code, d.range.start.line, d.range.start.character) for d in published[first]] == [("Y012", 0, 0)]
    assert not any(published[f] for f in analysis.files[1:])
