"""The reproducers of issue 40 (tests/hostile/r22-r28), from every way in: each command
that loads a ruleset, on both back ends, `load_game`, what the language server reports,
and the web lobby's setup page.  Each names something with Python text and is refused
with a located N310, or (r27: a valid game in a folder whose name holds Python text) plays;
and the code in them, which would create a file named INJECTED, never runs."""
from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

import pytest

from meeple.authoring.checking import validate
from meeple.dsl.diagnostics import RulesetError
from meeple.interpreter import load_game

CORPUS = Path(__file__).parent / "hostile"
REFUSED = {  # file -> the line of its first N310
    "r22_param_name_code.yaml": 11, "r23_action_name_code.yaml": 4, "r24_let_name_code.yaml": 8,
    "r25_for_name_code.yaml": 8, "r26_phase_name_code.yaml": 6, "r28_name_bare_newline.yaml": 4}
FOLDER = "r27\n__import__('os').system('touch INJECTED')\n#"
BACKENDS = ("compiled", "reference")
COMMANDS = [("validate",), ("explain",), ("compile",),
            *[(c, *extra, "--backend", b) for b in BACKENDS
              for c, *extra in (("play", "--bots", "all", "--seed", "1"), ("simulate", "-n", "2"), ("lint",))]]


def meeple(capsys, monkeypatch, *args) -> tuple[int, str]:
    """`meeple ARGS` in this process: (exit status, what it printed)."""
    from meeple.cli.main import main
    monkeypatch.setattr(sys, "argv", ["meeple", *args])
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.fixture
def here(tmp_path, monkeypatch):
    """An empty folder to run in: where planted code would leave INJECTED."""
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    assert not (tmp_path / "INJECTED").exists(), "the ruleset's text ran as code"


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_every_command_refuses_a_name_with_code_at_its_place(name, command, here, capsys, monkeypatch):
    path = shutil.copy(CORPUS / name, here / name)
    code, printed = meeple(capsys, monkeypatch, command[0], str(path), *command[1:])
    assert code == 2, printed
    assert f"{name}:{REFUSED[name]}:" in printed and "error[N310]" in printed
    assert "internal error" not in printed and "Traceback" not in printed


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_load_game_and_the_language_server_refuse_it(name, backend, here):
    path = shutil.copy(CORPUS / name, here / name)
    with pytest.raises(RulesetError) as refused:
        load_game(path, backend=backend)
    assert ("N310", REFUSED[name]) in {(d.code, d.span.line) for d in refused.value.diagnostics}
    _, diagnostics = validate(Path(path))  # what `meeple lsp` publishes
    assert ("N310", REFUSED[name]) in {(d.code, d.span.line) for d in diagnostics}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_the_lobby_shows_the_refusal_of_a_ruleset_it_was_given(name, here):
    pytest.importorskip("starlette")
    from web_support import web_client
    folder = here / "given"
    folder.mkdir()
    shutil.copy(CORPUS / name, folder / "game.yaml")
    with web_client(folders=[str(folder)]) as client:
        page = client.get("/new", params={"ruleset": str(folder.resolve())})
    assert page.status_code == 400 and "N310" in page.text


@pytest.fixture
def r27(here) -> Path:
    folder = here / FOLDER
    folder.mkdir()
    shutil.copy(CORPUS / "r27_path_newline" / "game.yaml", folder / "game.yaml")
    return folder / "game.yaml"


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_folder_named_with_code_plays_and_runs_nothing(command, r27, capsys, monkeypatch):
    code, printed = meeple(capsys, monkeypatch, command[0], str(r27), *command[1:])
    assert code == 0, printed
    if command[0] == "compile":
        assert "INJECTED" not in printed and "r27" not in printed  # the module names no path


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_folder_named_with_code_loads_and_plays_through_the_api(backend, r27):
    game = load_game(r27, backend=backend)
    state = game.playout(game.new_state(1))
    assert game.is_terminal(state)
