"""Golden playthroughs: each file regenerates from its own header and must match.

A difference means behaviour changed.  If the change is intended, regenerate with
`meeple playthrough GAME --seed 7 -o tests/playthroughs/GAME.txt` and review the diff.
"""
from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from meeple.interpreter.playthrough import regenerate

FILES = sorted((Path(__file__).parent / "playthroughs").glob("*.txt"))


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_playthrough_reproduces(path):
    recorded = path.read_text(encoding="utf-8").splitlines()
    fresh = regenerate(recorded)
    if fresh != recorded:
        diff = "\n".join(list(difflib.unified_diff(recorded, fresh, "recorded", "now", lineterm=""))[:40])
        pytest.fail(f"{path.name} no longer reproduces:\n{diff}")


def test_every_small_game_has_a_playthrough():
    assert {f.stem for f in FILES} >= {"tic-tac-toe", "connect-four", "nim", "goofspiel"}
