"""Which generated playout plays each game the project ships or tests (issue 43): every
shipped ruleset, example and feature game plays in the fused tier.  A game the tier may
not take yet would be listed below, with a part of each reason `meeple compile --explain`
gives; the test fails when a game falls out of the tier, when a listed one is kept out by
something else, and when a listed one gets in (then it leaves the list).  Since
battleship (lists of lists, a definition that calls itself) and chess (a map of
direction lists of two kinds, records of constants) got in, the list is empty."""
from __future__ import annotations

from pathlib import Path

import pytest

from meeple.interpreter import load_game
from meeple.interpreter.codegen.fused import reasons

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted([p for p in (ROOT / "rulesets").iterdir() if (p / "game.yaml").is_file()]
               + [p for p in (ROOT / "examples").iterdir() if (p / "game.yaml").is_file()]
               + [p for p in (ROOT / "tests" / "games").iterdir() if (p / "game.yaml").is_file()])

# game -> a part of each reason that keeps it out (the fused tier does not take these yet)
OUTSIDE: dict[str, tuple[str, ...]] = {}


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_each_game_plays_in_the_fused_tier_or_is_kept_out_by_what_is_known(path):
    game = load_game(path, backend="compiled")
    why = reasons(game.rules)
    if path.name not in OUTSIDE:
        assert why == [], f"{path.name} fell out of the fused tier: {why}"
        assert game.rules.playout_tier() == "fused"
        return
    assert game.rules.playout_tier() == "kernel"
    for part in OUTSIDE[path.name]:
        assert any(part in reason for reason in why), (part, why)


def test_the_list_names_only_games_that_exist():
    assert set(OUTSIDE) <= {p.name for p in GAMES}
