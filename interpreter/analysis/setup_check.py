"""The one check that must run the rules: setup, for every allowed player
count, so that a bound broken by setup is reported before anyone plays.

It compiles the rules with the back end `meeple play` uses (the default one, unless
told otherwise), so what validates is what plays: a ruleset the compiled back end
would refuse, or stop at its cost limit, is refused here the same way.

Any failure of the rules at run time (a RuleError, or an expression's EvalError
that no caller turned into one) becomes a diagnostic here, never a traceback."""
from __future__ import annotations

from meeple.dsl.diagnostics import Diagnostic
from meeple.dsl.eval_errors import EvalError

from ..runtime.context import RuleError
from ..runtime.game import Game
from ..runtime.loading import DEFAULT_BACKEND, rules_for


def check_setup(rs, backend: str | None = None) -> list[Diagnostic]:
    try:
        rules = rules_for(rs, backend or DEFAULT_BACKEND)
    except (RuleError, EvalError) as exc:
        return [_diagnostic(exc, exc.message, rs)]
    out = []
    for n in range(rs.game.min_players, rs.game.max_players + 1):
        try:
            Game(rules, n).new_state(0)
        except (RuleError, EvalError) as exc:
            out.append(_diagnostic(exc, f"with {n} players, setup fails: {exc.message}", rs))
    return out


def _diagnostic(exc, message: str, rs) -> Diagnostic:
    code = "B601" if exc.code == "R703" else exc.code
    span = exc.span if exc.span is not None else rs.game.span
    return Diagnostic(code, message, span, rule=getattr(exc, "rule", None))
