"""Golden playthroughs: each file regenerates from its own header and must match.

A difference means behaviour changed; the failure names the step, the record (a
player's view, the variables, the legal moves...) and where inside it the two part.
If the change is intended, regenerate with the command the failure prints (the
header's fields: `meeple playthrough GAME --seed 7 -p N [--moves M] [--views-every K]
-o tests/playthroughs/GAME.txt`) and review the diff.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.cli.main import app
from meeple.interpreter import list_rulesets, load_game
from meeple.interpreter.runtime import views
from meeple.interpreter.runtime.loading import RULESETS
from meeple.interpreter.analysis.playthrough import command_of, header_of, playthrough_lines, regenerate
from meeple.interpreter.analysis.playthrough_diff import first_difference
from ruleset_support import random_states

HERE = Path(__file__).parent
FILES = sorted((HERE / "playthroughs").glob("*.txt"))
LIMIT = 2_100_000  # bytes: a golden larger than this records views every K-th step instead


def _read(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_playthrough_reproduces(path):
    recorded = _read(path)
    where = first_difference(recorded, regenerate(recorded))
    if where:
        command = command_of(header_of(recorded), f"tests/playthroughs/{path.name}")
        pytest.fail(f"{path.name} no longer reproduces, first at {where}\n"
                    f"if the change is intended: {command}", pytrace=False)


def test_every_small_game_has_a_playthrough():
    assert {f.stem for f in FILES} >= {"tic-tac-toe", "connect-four", "nim", "goofspiel"}


def _steps(lines: list[str]) -> list[list[str]]:
    """The body cut into steps, each starting at its `state` line."""
    steps: list[list[str]] = []
    for line in lines[1:]:
        if line.startswith("state "):
            steps.append([])
        steps[-1].append(line)
    return steps


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_views_are_recorded_for_every_player_at_the_steps_the_header_says(path):
    lines = _read(path)
    header = header_of(lines)
    every = header.get("views_every", 1)
    steps = _steps(lines)
    for number, step in enumerate(steps):
        seats = [line.split(" ", 2)[1] for line in step if line.startswith("view ")]
        wanted = number % every == 0 or number == len(steps) - 1
        assert seats == ([str(p) for p in range(header["players"])] if wanted else []), (path.name, number)
        if wanted:  # right after the variables, before the legal moves
            assert [line.split(" ", 1)[0] for line in step[:2 + header["players"]]] == \
                ["state", "vars"] + ["view"] * header["players"]
    size = path.stat().st_size
    assert size < LIMIT, f"{path.name}: record views less often (--views-every)"
    if every > 1:  # views at every step would make a file of about `every` times this one's views
        assert size > LIMIT // every, f"{path.name}: views every {every} steps, but every step would fit"


def test_a_view_line_is_the_players_view_as_canonical_json():
    lines = _read(HERE / "playthroughs" / "goofspiel.txt")
    game = load_game("goofspiel", 2)
    state = game.new_state(header_of(lines)["seed"])
    assert lines[3] == "view 0 " + json.dumps(game.view(state, 0), sort_keys=True)
    assert lines[4] == "view 1 " + json.dumps(game.view(state, 1), sort_keys=True)
    seen_by_1 = json.loads(lines[4].split(" ", 2)[2])
    assert seen_by_1["zones"]["hand"][0] == {"count": 13}  # player 0's hand is hidden from player 1


def _altered(monkeypatch, from_move: int, viewer: int):
    """From `from_move` on, `viewer`'s view wrongly shows one more variable."""
    real = views.player_view

    def player_view(game, state, p):
        out = real(game, state, p)
        if p == viewer and state.move_count >= from_move:
            out["vars"]["leaked"] = 1
        return out
    monkeypatch.setattr(views, "player_view", player_view)


def test_a_changed_view_fails_the_check_at_its_step_and_player(monkeypatch):
    recorded = _read(HERE / "playthroughs" / "tic-tac-toe.txt")
    assert first_difference(recorded, regenerate(recorded)) is None
    _altered(monkeypatch, from_move=3, viewer=1)
    where = first_difference(recorded, regenerate(recorded))
    assert where is not None
    first, path, old, new = where.splitlines()
    assert "step 3, player 1's view" in first
    assert path.strip() == "at vars.leaked: recorded (absent), now 1"
    assert old.startswith("  - view 1 ") and new.startswith("  + view 1 ")


def test_the_check_fails_through_pytest_with_the_step_and_player(monkeypatch):
    _altered(monkeypatch, from_move=0, viewer=0)
    with pytest.raises(pytest.fail.Exception) as failed:
        test_playthrough_reproduces(HERE / "playthroughs" / "nim.txt")
    message = str(failed.value)
    assert "nim.txt no longer reproduces, first at line 4, step 0, player 0's view" in message
    assert "meeple playthrough nim --seed 7 -p 2 -o tests/playthroughs/nim.txt" in message


def test_a_zone_made_visible_to_all_changes_the_view_lines_and_nothing_else(tmp_path):
    """Goofspiel with the hands shown to everyone: the golden's first difference is
    player 0 seeing player 1's hand at step 0, and every non-view line is unchanged."""
    folder = tmp_path / "goofspiel"
    shutil.copytree(RULESETS / "goofspiel", folder)
    rules = folder / "game.yaml"
    text = rules.read_text(encoding="utf-8")
    assert text.count("kind: hand, visibility: owner") == 1
    rules.write_text(text.replace("kind: hand, visibility: owner", "kind: hand, visibility: all"), encoding="utf-8")
    recorded = _read(HERE / "playthroughs" / "goofspiel.txt")
    header = header_of(recorded)
    fresh = playthrough_lines(str(folder), header["players"], header["seed"], header["options"])
    where = first_difference(recorded[1:], fresh[1:]).splitlines()
    assert "step 0, player 0's view" in where[0]
    assert where[1].startswith('  at zones.hand[1]: recorded {"count": 13}, now ["S1-1", "S1-2"')
    assert [x for x in recorded[1:] if not x.startswith("view ")] == [x for x in fresh[1:] if not x.startswith("view ")]


def test_views_every_k_steps_and_at_the_last(monkeypatch):
    lines = playthrough_lines("tic-tac-toe", 2, 7, views_every=4)
    assert header_of(lines)["views_every"] == 4
    steps = _steps(lines)
    with_views = [n for n, step in enumerate(steps) if any(x.startswith("view ") for x in step)]
    assert len(steps) == 10 and with_views == [0, 4, 8, 9]
    assert regenerate(lines) == lines
    every_step = playthrough_lines("tic-tac-toe", 2, 7)
    assert "views_every" not in every_step[0]
    assert [x for x in every_step[1:] if not x.startswith("view ")] == [x for x in lines[1:] if not x.startswith("view ")]
    assert set(lines[1:]) < set(every_step[1:])
    with pytest.raises(ValueError, match="at least 1"):
        playthrough_lines("tic-tac-toe", 2, 7, views_every=0)


def test_cli_views_every(tmp_path):
    runner = CliRunner()
    out = tmp_path / "t.txt"
    result = runner.invoke(app, ["playthrough", "tic-tac-toe", "--seed", "7", "--views-every", "3", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert _read(out) == playthrough_lines("tic-tac-toe", 2, 7, views_every=3)
    refused = runner.invoke(app, ["playthrough", "tic-tac-toe", "--views-every", "0"])
    assert refused.exit_code == 2
    assert "--views-every must be at least 1, not 0" in refused.output
    assert "Traceback" not in refused.output


@pytest.mark.parametrize("name", list_rulesets())
def test_each_legal_move_is_written_as_its_mover_reads_it(name):
    """Why the `legal` line needs no per-player copy: every move in it is already its
    mover's own reading, handles for the items the mover cannot see whole."""
    game = load_game(name)
    handles = []
    for _, state in random_states(game, 3, 60):
        for move in game.legal_moves(state):
            if move.player >= 0:
                assert str(move) == game.move_text(state, move, move.player)
                if "@" in str(move):
                    handles.append(str(move))
    if name == "valdora":  # a book's top page bought from its up side: the mover does not know its id
        assert "buy_equipment(card=right[A]@0,pay=pan)" in handles


def test_first_difference_says_where_the_files_part():
    assert first_difference(["a", "b"], ["a", "b"]) is None
    recorded = ["# meeple playthrough {}", "state k1 phase=- to_move=[0]", 'vars {"x": 1}', "legal 0:go", "# apply 0:go",
                "state k2 phase=- to_move=[]", 'vars {"x": 2}']
    cut = first_difference(recorded, recorded[:5])
    assert cut.splitlines() == ["line 6, step 1, the state", "  - state k2 phase=- to_move=[]",
                                "  + (the fresh run ends here)"]
    changed = first_difference(recorded, recorded[:6] + ['vars {"x": 3}'])
    assert changed.splitlines()[:2] == ["line 7, step 1, the variables", "  at x: recorded 2, now 3"]
    assert first_difference(recorded, recorded[:3] + ["legal 0:stay"] + recorded[4:]).startswith(
        "line 4, step 0, the legal moves")


def test_a_long_view_line_is_cut_around_where_it_differs():
    old = "view 2 " + json.dumps({"a": list(range(500)), "b": 1})
    new = "view 2 " + json.dumps({"a": list(range(500)), "b": 2})
    lines = first_difference(["state k", old], ["state k", new]).splitlines()
    assert lines[0] == "line 2, step 0, player 2's view"
    assert lines[1] == "  at b: recorded 1, now 2"
    assert lines[2].startswith("  - view 2 ...") and lines[2].endswith('"b": 1}')
    assert lines[3].startswith("  + view 2 ...") and len(lines[3]) < 200
