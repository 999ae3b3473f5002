"""The player panel: the ruleset's `summary:` values for every player, in a state.

Each value reads only what every player sees (S130 checks it at load), so the panel may
be shown to anyone at the table: it is computed from the state, not from one view, and
tells nobody more than their own view does."""
from __future__ import annotations

from dataclasses import dataclass

from meeple.dsl.eval_errors import EvalError

from .context import Ctx, RuleError


@dataclass(frozen=True)
class SummaryRow:
    """One line of the panel: the ruleset's name for it and each player's value."""
    name: str
    values: tuple


def summary(game, state) -> list[SummaryRow]:
    ctx = Ctx(game, state)
    rows = []
    for row, fn in game.rules.summary_fns:
        values = []
        try:
            for p in range(game.player_count):
                ctx.bindings["player"] = p
                values.append(fn(ctx))
        except EvalError as exc:
            raise RuleError(exc.code, exc.message, exc.span or row.span) from None
        rows.append(SummaryRow(row.name, tuple(values)))
    return rows
