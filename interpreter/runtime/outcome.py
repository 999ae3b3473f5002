"""The end of a game as data: why it ended, scores, ranks and winners."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

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
        """As JSON data: an exact fraction is written as its text, "-1/3"."""
        return {"reason": self.reason, "scores": [_plain(s) for s in self.scores], "ranks": list(self.ranks),
                "winners": list(self.winners), "tiebreaks": [[_plain(v) for v in t] for t in self.tiebreaks]}


def _plain(value):
    return str(value) if isinstance(value, Fraction) else value


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
    if state.over:
        check_utility(rules.ruleset.scoring, scores)
    return Outcome(state.end_reason if state.over else "", tuple(scores), tuple(tiebreaks), ranks, winners,
                   tuple(e[0] for e in estimates if e))


def declared_sum(scoring):
    """What the scores of every finished game add up to, as the scoring declares it
    (`utility: zero_sum` or `constant_sum` with its `total`); None for a general game."""
    if scoring is None or scoring.utility == "general":
        return None
    return 0 if scoring.utility == "zero_sum" else scoring.total


def check_utility(scoring, scores) -> None:
    """A declared utility is a promise about every finished game (OpenSpiel's CFR and
    exploitability rely on it), so a game whose scores break it stops with R712."""
    want = declared_sum(scoring)
    if want is None:
        return
    if not all(isinstance(s, (int, Fraction)) and not isinstance(s, bool) for s in scores):
        raise RuleError("R712", f"the scoring declares 'utility: {scoring.utility}', so every score must be a "
                        f"number, but they are {', '.join(map(str, scores))}", scoring.utility_span)
    total = sum(scores)
    if total != want:
        raise RuleError("R712", f"the scoring declares 'utility: {scoring.utility}', so the scores of a "
                        f"finished game add up to {want}, but these ({', '.join(map(str, scores))}) add up "
                        f"to {total}", scoring.utility_span)
