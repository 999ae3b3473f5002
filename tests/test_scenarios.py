"""Every scenario file under rulesets/*/scenarios/ and tests/scenarios/ runs as tests."""
from __future__ import annotations

from pathlib import Path

import pytest

from meeple.interpreter.analysis.scenario import load_scenarios, run_scenario

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(ROOT.glob("rulesets/*/scenarios/*.yaml")) + sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))


def _cases():
    for f in FILES:
        for sc in load_scenarios(f):
            yield pytest.param(sc, id=f"{f.parent.parent.name}/{f.stem}: {sc.name}")


@pytest.mark.parametrize("scenario", list(_cases()))
def test_scenario(scenario):
    result = run_scenario(scenario)
    assert result.passed, "\n".join(d.render() for d in result.failures)


def test_scenarios_exist_for_every_shipped_ruleset():
    shipped = {p.name for p in (ROOT / "rulesets").iterdir() if p.is_dir()}
    with_scenarios = {f.parent.parent.name for f in FILES if f.parent.parent.parent.name == "rulesets"}
    assert shipped <= with_scenarios, f"rulesets without scenarios: {sorted(shipped - with_scenarios)}"


def test_a_scenarios_given_effects_get_the_rulesets_shape_checks(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text("ruleset: tic-tac-toe\nscenarios:\n  - name: bad given\n    players: 2\n"
                 "    given: [{move: {from: x, to: y, fase: up}}, {shuffle: null}]\n    expect: {}\n")
    (sc,) = load_scenarios(f)
    result = run_scenario(sc)
    assert [(d.code, d.span.line, d.span.col) for d in result.failures] == [("S101", 5, 37), ("S103", 5, 59)]


@pytest.mark.parametrize("entry,col", [
    ("{over: true, scores: [3, 6]}", 22),        # a key no kind of expectation holds beside `over`
    ("{outcome: {scores: [0, 0], winner: [0]}}", 36),  # `winner` for `winners`
    ("{to_mov: [1]}", 10),                        # no kind at all
])
def test_an_expectation_with_a_key_nobody_checks_is_S101_at_the_key(tmp_path, entry, col):
    """Before, `{over: true, scores: [3, 6]}` passed whatever the scores were."""
    f = tmp_path / "s.yaml"
    f.write_text("ruleset: tic-tac-toe\nscenarios:\n  - name: unchecked\n    players: 2\n"
                 f"    expect:\n      - {entry}\n")
    (sc,) = load_scenarios(f)
    assert [(d.code, d.span.line, d.span.col) for d in run_scenario(sc).failures] == [("S101", 6, col)]
