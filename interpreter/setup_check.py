"""The one check that must run the rules: setup, for every allowed player
count, so that a bound broken by setup is reported before anyone plays."""
from __future__ import annotations

from meeple.dsl.diagnostics import Diagnostic

from .context import RuleError
from .game import Game
from .rules import Rules


def check_setup(rs) -> list[Diagnostic]:
    try:
        rules = Rules(rs)
    except RuleError as exc:
        return [Diagnostic(exc.code, exc.message, exc.span, rule=exc.rule)]
    out = []
    for n in range(rs.game.min_players, rs.game.max_players + 1):
        try:
            Game(rules, n).new_state(0)
        except RuleError as exc:
            code = "B601" if exc.code == "R703" else exc.code
            out.append(Diagnostic(code, f"with {n} players, setup fails: {exc.message}", exc.span, rule=exc.rule))
    return out
