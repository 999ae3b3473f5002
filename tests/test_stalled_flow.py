"""A flow that goes round with nobody able to move (issue 42): R709 points at the
decision nobody could act at, on both back ends, rather than at the loop."""
from __future__ import annotations

import pytest

from meeple.interpreter import RuleError, load_game

STALL = """game: {name: stall, players: 2}
variables:
  n: {type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do: [{choose: [add]}]
    until: "n >= 5"
actions:
  add:
    require: [{check: "n < 3", reason: "only three"}]
    effects: ["n += 1"]
end: [{when: "n >= 5"}]
"""


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_a_stalled_flow_names_the_decision_nobody_could_act_at(tmp_path, backend):
    path = tmp_path / "game.yaml"
    path.write_text(STALL, encoding="utf-8")
    game = load_game(path, backend=backend)
    state = game.new_state(0)
    for _ in range(2):
        state = game.apply(state, "add")
    with pytest.raises(RuleError) as info:
        game.apply(state, "add")  # the third: from now on nobody can add, and nothing ends the game
    error = info.value
    assert (error.code, error.span.line, error.span.col) == ("R709", 7, 14)


def test_simulate_counts_stalled_games_as_stuck_and_lint_warns(tmp_path):
    import subprocess
    import sys

    from meeple.interpreter.analysis.lint import sampled_diagnostics
    path = tmp_path / "game.yaml"
    path.write_text(STALL, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "meeple.cli", "simulate", str(path), "--games", "3"],
                          capture_output=True, text=True, env={**__import__("os").environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    assert "stuck (no legal move): 3" in done.stdout and "Traceback" not in done.stderr
    diagnostics, report = sampled_diagnostics(load_game(path), 3)
    assert report["stalled"] == 3 and report["unfinished"] == 0
    assert [d.code for d in diagnostics if d.code in ("L303", "L304")] == ["L304"]
