"""The end of a game as data: why it ended, scores, ranks and winners."""
from __future__ import annotations

from dataclasses import dataclass

from meeple.dsl.eval_errors import EvalError

from .context import Ctx, RuleError


@dataclass(frozen=True)
class Outcome:
    reason: str
    scores: tuple  # per player (None when the ruleset has no score)
    tiebreaks: tuple  # per player: tuple of tie-break values
    ranks: tuple  # per player, 1 = best; equal ranks are ties
    winners: tuple  # players; empty for a draw
    estimates: tuple = ()  # per player, for a game not over whose scoring has an `estimate`

    def to_data(self) -> dict:
        return {"reason": self.reason, "scores": list(self.scores), "ranks": list(self.ranks),
                "winners": list(self.winners), "tiebreaks": [list(t) for t in self.tiebreaks]}


def compute_outcome(game, state) -> Outcome | None:
    if not state.over:
        return None
    return standings(game, state)


def estimates(game, state) -> tuple | None:
    fn = game.rules.estimate_fn
    if fn is None:
        return None
    ctx = Ctx(game, state)
    out = []
    try:
        for p in range(game.player_count):
            ctx.bindings["player"] = p
            out.append(fn(ctx))
    except EvalError as exc:
        raise RuleError(exc.code, exc.message, exc.span or game.rules.ruleset.scoring.span) from None
    return tuple(out)


def standings(game, state) -> Outcome:
    """The scores, tie-breaks, ranks and winners as the rules would give them if the game
    ended here; for a game not over, a search's estimate of who is ahead (the reason is
    then empty): ranked by the ruleset's `estimate` first where it has one, then as at
    the end."""
    rules = game.rules
    n = game.player_count
    ctx = Ctx(game, state)
    span = rules.ruleset.scoring.span if rules.ruleset.scoring else None
    try:
        scores, tiebreaks, estimates = [], [], []
        guess = rules.estimate_fn if not state.over else None
        for p in range(n):
            ctx.bindings["player"] = p
            scores.append(rules.score_fn(ctx) if rules.score_fn else 0)
            tiebreaks.append(tuple(fn(ctx) for fn in rules.tiebreak_fns))
            estimates.append((guess(ctx),) if guess is not None else ())
        keys = [estimates[p] + (scores[p],) + tiebreaks[p] for p in range(n)]
        ranks = tuple(1 + sum(1 for q in range(n) if keys[q] > keys[p]) for p in range(n))
        if rules.winners_fn is not None:
            ctx.bindings.pop("player", None)
            winners = tuple(sorted(rules.winners_fn(ctx)))
        else:
            winners = tuple(p for p in range(n) if ranks[p] == 1)
    except EvalError as exc:
        raise RuleError(exc.code, exc.message, exc.span or span) from None
    except TypeError:
        raise RuleError("R701", "scores and tie-breakers must be comparable values", span) from None
    return Outcome(state.end_reason if state.over else "", tuple(scores), tuple(tiebreaks), ranks, winners,
                   tuple(e[0] for e in estimates if e))
