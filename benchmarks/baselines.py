"""Hand-written Python playout loops, the baselines the interpreter is measured
against, by ruleset name.  Same rules, same policy (uniform random over the legal
moves), no interpreter: what a competent programmer writes for that one game, in plain
lists and ints.  Each game's module also has a step-by-step class that
`tests/test_baselines.py` follows next to the interpreter on the same seeded games,
so a baseline that drifts from its ruleset is caught."""
from __future__ import annotations

from . import baseline_connect_four, baseline_goofspiel, baseline_nim, baseline_tic_tac_toe
from .baseline_treasure_hunter import playout as treasure_hunter_playout

BASELINES = {
    "tic-tac-toe": baseline_tic_tac_toe.playout,
    "connect-four": baseline_connect_four.playout,
    "nim": baseline_nim.playout,
    "goofspiel": baseline_goofspiel.playout,
    "treasure-hunter": treasure_hunter_playout,  # 2 players, as load_game('treasure-hunter')
}
