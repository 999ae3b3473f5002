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
