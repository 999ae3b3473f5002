"""The documentation's examples are real: they are checked like rulesets.

- Every ```yaml block of docs/language.md and docs/tutorial.md must be valid YAML.
- A block that is a complete ruleset (a mapping with a `game` section) must
  validate with no errors, its setup must run for every allowed player count,
  and a few random games of it must play to the end without a run-time error.
- A block that shows a deliberate mistake is preceded by the comment
  `<!-- expect-errors: CODE ... -->`; it must fail with exactly those codes, so
  the error shown next to it in the docs is the one meeple really reports.
- Blocks without a `game` section are fragments and are only parsed.
- The ```python blocks of docs/language.md run from the repository root.
- The rulesets under examples/ validate cleanly and their scenarios pass, and
  the tutorial's final listing is exactly examples/high-card/game.yaml.
"""
from __future__ import annotations

import contextlib
import io
import random
import re
from pathlib import Path

import pytest
import yaml

from meeple.dsl.load import check_ruleset, read_ruleset
from meeple.interpreter.runtime.game import Game
from meeple.interpreter.runtime.rules import Rules
from meeple.interpreter.analysis.scenario import load_scenarios, run_scenario
from meeple.interpreter.analysis.setup_check import check_setup

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "docs" / "language.md", ROOT / "docs" / "tutorial.md"]
EXAMPLES = ROOT / "examples"

_FENCE = re.compile(r"^```(?P<lang>[A-Za-z]*)[^\n]*\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)
_MARKER = re.compile(r"<!--\s*expect-errors:\s*(?P<codes>[A-Z0-9 ,]+?)\s*-->\s*$")


def _blocks(path: Path, lang: str):
    """(line number, body, expected error codes or None) of each fenced block in `lang`."""
    text = path.read_text(encoding="utf-8")
    for m in _FENCE.finditer(text):
        if m.group("lang") != lang:
            continue
        line = text.count("\n", 0, m.start()) + 1
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        marker = _MARKER.search(before)
        codes = sorted(set(re.split(r"[ ,]+", marker.group("codes").strip()))) if marker else None
        yield line, m.group("body"), codes


def _yaml_cases():
    for doc in DOCS:
        for line, body, codes in _blocks(doc, "yaml"):
            yield pytest.param(body, codes, id=f"{doc.name}:{line}")


def _is_ruleset(body: str) -> bool:
    data = yaml.safe_load(body)
    return isinstance(data, dict) and "game" in data


def _diagnostics(path: Path):
    rs, diags = read_ruleset(path)
    if rs is not None:
        diags += check_ruleset(rs)
        if not any(d.severity == "error" for d in diags):
            diags += check_setup(rs)
    return rs, diags


def _play_random_games(rs, games: int = 3, max_moves: int = 2000):
    rules = Rules(rs)
    for players in range(rs.game.min_players, rs.game.max_players + 1):
        game = Game(rules, players)
        for seed in range(games):
            bot = random.Random(seed)
            state = game.new_state(seed)
            for _ in range(max_moves):
                if game.is_terminal(state):
                    break
                moves = game.legal_moves(state)
                assert moves, f"{players} players, seed {seed}: not over, but nobody can move"
                state = game.apply(state, moves[bot.randrange(len(moves))])
            if game.is_terminal(state):
                game.outcome(state)


def test_the_docs_have_yaml_examples():
    found = {doc.name: sum(1 for _ in _blocks(doc, "yaml")) for doc in DOCS}
    assert all(n > 0 for n in found.values()), found


@pytest.mark.parametrize("body,codes", list(_yaml_cases()))
def test_yaml_block(body, codes, tmp_path):
    try:
        data = yaml.safe_load(body)
    except yaml.YAMLError as exc:
        pytest.fail(f"not valid YAML: {exc}")
    if not (isinstance(data, dict) and "game" in data):
        assert codes is None, "an expect-errors marker stands before a fragment"
        return  # a fragment: parsing it is all that can be checked
    path = tmp_path / "game.yaml"
    path.write_text(body, encoding="utf-8")
    rs, diags = _diagnostics(path)
    errors = [d for d in diags if d.severity == "error"]
    if codes is not None:
        assert sorted({d.code for d in errors}) == codes, "\n".join(d.render() for d in errors)
        return
    assert not errors, "\n".join(d.render() for d in errors)
    _play_random_games(rs)


def test_python_api_example(monkeypatch):
    blocks = [body for _, body, _ in _blocks(ROOT / "docs" / "language.md", "python")]
    assert blocks, "docs/language.md has no Python example"
    monkeypatch.chdir(ROOT)
    for body in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(body, "docs/language.md", "exec"), {"__name__": "docs_example"})
        assert out.getvalue().strip()


def test_tutorial_builds_exactly_the_example():
    complete = [body for _, body, codes in _blocks(ROOT / "docs" / "tutorial.md", "yaml")
                if codes is None and _is_ruleset(body)]
    shipped = (EXAMPLES / "high-card" / "game.yaml").read_text(encoding="utf-8")
    assert complete[-1] == shipped


def test_every_diagnostic_code_is_documented():
    """Each code string in the source ("S101", "M804", "R703", ...) has a row in the
    reference's tables, and the tables list no code the source does not use."""
    in_code = set()
    for folder in ("dsl", "interpreter", "cli"):
        for f in (ROOT / folder).rglob("*.py"):
            in_code |= set(re.findall(r"""["']([A-Z][0-9]{3})["']""", f.read_text(encoding="utf-8")))
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    in_docs = set(re.findall(r"^\| ([A-Z][0-9]{3}) \|", text, re.M))
    assert not in_code - in_docs, f"codes missing from docs/language.md: {sorted(in_code - in_docs)}"
    assert not in_docs - in_code, f"documented codes no longer used: {sorted(in_docs - in_code)}"


def _example_rulesets():
    return sorted(p for p in EXAMPLES.iterdir() if p.is_dir() and any(p.glob("*.yaml")))


@pytest.mark.parametrize("folder", _example_rulesets(), ids=lambda p: p.name)
def test_example_validates_cleanly(folder):
    rs, diags = _diagnostics(folder)
    assert rs is not None
    assert not diags, "\n".join(d.render() for d in diags)


def _scenario_cases():
    for f in sorted(EXAMPLES.glob("*/scenarios/*.yaml")):
        for sc in load_scenarios(f):
            yield pytest.param(sc, id=f"{f.parent.parent.name}/{f.stem}: {sc.name}")


def test_examples_have_scenarios():
    assert list(_scenario_cases())


@pytest.mark.parametrize("scenario", list(_scenario_cases()))
def test_example_scenario(scenario):
    result = run_scenario(scenario)
    assert result.passed, "\n".join(d.render() for d in result.failures)
