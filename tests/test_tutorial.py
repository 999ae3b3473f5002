"""docs/tutorial.md cannot go stale: every command it shows is run, step by step, on the
ruleset the reader has built by then, and its output must be the one printed.

The reader's folder is rebuilt from the tutorial itself.  Directives in HTML comments (not
shown on the page) say what a reader does to `high-card/` between two blocks:

- `<!-- tutorial: write PATH -->`: the next ```yaml block becomes the file PATH.
- `<!-- tutorial: merge PATH -->`: the next ```yaml block is added to PATH section by
  section, as the text says ("add a variable ...", "rewrite the flow ..."): an entry of a
  mapping section (`zones`, `actions`, ...) replaces the one of the same name or is added
  at the section's end; a list section (`flow`, `end`, ...) is replaced whole; a section
  the file lacks is put where the finished ruleset has it.
- `<!-- tutorial: copy SOURCE PATH -->`: PATH becomes the repository's file SOURCE (the
  step that adds what the text only describes, such as citations on every element).
- `<!-- tutorial: edit "OLD" -> "NEW" -->`: the one place OLD is in the game file becomes NEW.
- `<!-- tutorial: try "OLD" -> "NEW" -->`: the same, for the next ```text block only.

Each ```text block is a transcript: `$ meeple ...` lines, each followed by what it prints
(stdout and stderr as a terminal shows them).  What a player types after a `player N> `
prompt is fed to the command.  A line `...` stands for any number of lines left out.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "docs" / "tutorial.md"
GAME = "high-card/game.yaml"
# Where the finished ruleset puts each section (examples/high-card/game.yaml).
SECTION_ORDER = ("game", "components", "zones", "variables", "define", "setup", "flow", "actions", "end",
                 "scoring", "invariants")
MAPPING_SECTIONS = {"components", "zones", "variables", "define", "actions"}

_PIECE = re.compile(r"<!--\s*tutorial:\s*(?P<directive>.*?)\s*-->|^```(?P<lang>\w*)[^\n]*\n(?P<body>.*?)^```[ \t]*$",
                    re.M | re.S)
_EDIT = re.compile(r'^(?P<verb>edit|try)\s+"(?P<old>(?:[^"\\]|\\.)*)"\s*->\s*"(?P<new>(?:[^"\\]|\\.)*)"$')
_PROMPT = re.compile(r"^player \d+> (?P<answer>.*)$")

# Runs the command line with `input` echoing what it reads, as a terminal shows it.
_RUNNER = """
import builtins, sys
_read = builtins.input
def _echoed(prompt=""):
    line = _read(prompt)
    print(line)
    return line
builtins.input = _echoed
sys.argv = ["meeple", *sys.argv[1:]]
from meeple.cli.main import main
main()
"""


def _sections(text: str) -> list[tuple[str, str]]:
    """A YAML file's top-level sections, in order, as (key, text) with comments kept."""
    found, current = [], None
    for line in text.splitlines():
        m = re.match(r"^([A-Za-z_]\w*):", line)
        if m:
            current = [m.group(1), [line]]
            found.append(current)
        elif current is not None:
            current[1].append(line)
    return [(key, "\n".join(lines).rstrip()) for key, lines in found]


def _entries(section: str) -> tuple[str, list[tuple[str, str]]]:
    """A mapping section's head line and its entries (name, text), split at two-space keys."""
    head, *rest = section.splitlines()
    entries = []
    for line in rest:
        m = re.match(r"^  ([A-Za-z_][\w-]*):", line)
        if m:
            entries.append([m.group(1), [line]])
        elif entries:
            entries[-1][1].append(line)
    return head, [(name, "\n".join(lines).rstrip()) for name, lines in entries]


def merge(file_text: str, fragment: str) -> str:
    """The game file after a reader adds `fragment` to it, as the module docstring says."""
    sections = dict(_sections(file_text))
    for key, text in _sections(fragment):
        if key in MAPPING_SECTIONS and key in sections:
            head, old = _entries(sections[key])
            merged = dict(old)
            merged.update(_entries(text)[1])
            sections[key] = "\n".join([head, *merged.values()])
        else:
            sections[key] = text
    order = sorted(sections, key=lambda k: SECTION_ORDER.index(k) if k in SECTION_ORDER else len(SECTION_ORDER))
    return "\n\n".join(sections[k] for k in order) + "\n"


def _unquoted(text: str) -> str:
    """A directive's quoted text: `\\"` is a quote and `\\n` a line break."""
    return text.replace('\\"', '"').replace("\\n", "\n")


def _edited(text: str, old: str, new: str) -> str:
    old, new = _unquoted(old), _unquoted(new)
    assert text.count(old) == 1, f"the tutorial's edit {old!r} must name one place of the game file"
    return text.replace(old, new)


def steps():
    """(line, kind, payload) in the tutorial's order: directives, yaml and text blocks."""
    text = TUTORIAL.read_text(encoding="utf-8")
    for m in _PIECE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        if m.group("directive") is not None:
            yield line, "directive", m.group("directive")
        elif m.group("lang") in ("yaml", "text"):
            yield line, m.group("lang"), m.group("body")


def transcripts(body: str):
    """A text block's commands: (argv, answers typed at prompts, expected output lines)."""
    runs = []
    for line in body.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            runs.append((shlex.split(line[2:]), [], []))
            continue
        assert runs, f"a transcript starts with a '$ ' command, not {line!r}"
        prompt = _PROMPT.match(line)
        if prompt:
            runs[-1][1].append(prompt.group("answer"))
        runs[-1][2].append(line.rstrip())
    return runs


def matches(expected: list[str], actual: list[str]) -> bool:
    """`expected` with each `...` line standing for any run of lines, against `actual`."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


def run(argv: list[str], answers: list[str], folder: Path) -> list[str]:
    assert argv[0] == "meeple", f"a tutorial command starts with meeple, not {argv[0]}"
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["PYTHONUNBUFFERED"] = "1"  # stdout and stderr in the order they were written
    done = subprocess.run([sys.executable, "-c", _RUNNER, *argv[1:]], cwd=folder, env=env, text=True,
                          input="".join(a + "\n" for a in answers), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=600)
    return [line.rstrip() for line in done.stdout.rstrip("\n").split("\n")]


def test_every_command_of_the_tutorial_prints_what_the_tutorial_shows(tmp_path):
    (tmp_path / "high-card").mkdir()
    game = tmp_path / GAME
    pending, trying, checked = None, None, 0
    for line, kind, payload in steps():
        if kind == "directive":
            edit = _EDIT.match(payload)
            verb, *args = payload.split()
            if edit and edit.group("verb") == "edit":
                game.write_text(_edited(game.read_text(), edit.group("old"), edit.group("new")))
            elif edit:
                trying = (edit.group("old"), edit.group("new"))
            elif verb in ("write", "merge"):
                pending = (verb, tmp_path / args[0])
            elif verb == "copy":
                target = tmp_path / args[1]
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(ROOT / args[0], target)
            else:
                pytest.fail(f"tutorial.md:{line}: unknown directive {payload!r}")
        elif kind == "yaml" and pending is not None:
            verb, path = pending
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(payload if verb == "write" else merge(path.read_text(), payload))
            pending = None
        elif kind == "text":
            kept = game.read_text()
            if trying:
                game.write_text(_edited(kept, *trying))
            for argv, answers, expected in transcripts(payload):
                actual = run(argv, answers, tmp_path)
                assert matches(expected, actual), (
                    f"tutorial.md:{line}: `{shlex.join(argv)}` now prints:\n" + "\n".join(actual))
                checked += 1
            game.write_text(kept)
            trying = None
    assert checked >= 15  # every step's commands, not a tutorial whose directives went missing


def test_a_section_merge_replaces_entries_and_keeps_the_finished_order():
    start = "game:\n  name: g\n\nzones:\n  a: {kind: row}\n\nflow:\n  - choose: [x]\n"
    merged = merge(start, "zones:\n  b: {kind: row}\n  a: {kind: hand}\n\nvariables:\n  v: {type: int}\n"
                          "\nflow:\n  - choose: [y]\n")
    assert merged == ("game:\n  name: g\n\nzones:\n  a: {kind: hand}\n  b: {kind: row}\n\n"
                      "variables:\n  v: {type: int}\n\nflow:\n  - choose: [y]\n")


def test_ellipsis_stands_for_any_run_of_lines():
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"]) and matches(["a", "...", "b"], ["a", "b"])
    assert not matches(["a", "...", "d"], ["a", "b"]) and not matches(["a"], ["a", "b"])


def test_the_readme_test_command_falls_back_to_the_systems_browser():
    """The README's second command is CI's script, whose browser comes from the system's
    packages where Playwright's download is blocked, before the whole suite runs."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.search(r"```sh\n(.*?)```", readme, re.S).group(1).strip().splitlines()
    assert commands[1] == "bash .ci/run"
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    fallback = re.search(r"if ! python -m playwright install chromium.*?\n(.*?)\nfi\n", script, re.S)
    assert fallback and "apt-get install" in fallback.group(1)
    assert script.rstrip().endswith("python -m pytest -n auto")
