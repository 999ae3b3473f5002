"""The evaluation context handed to every compiled expression and effect."""
from __future__ import annotations

from meeple.dsl.eval_errors import EvalError, EvalLimitError
from meeple.dsl.source import Span

COST_LIMIT = 5_000_000


class RuleError(Exception):
    """The ruleset itself went wrong at run time (not the player): a bound was
    broken, a trigger looped, an expression failed.  Carries the span."""

    def __init__(self, code: str, message: str, span: Span | None, rule: str | None = None):
        self.code, self.message, self.span, self.rule = code, message, span, rule
        where = f"{span}: " if span else ""
        cite = f" (rule {rule})" if rule else ""
        super().__init__(f"{where}error[{code}]: {message}{cite}")


class Stalled(RuleError):
    """R709 at a decision nobody could act at, the flow going round it for ever: the game
    is stuck there, which a batch of random games counts (simulate) rather than fails on."""

    def __init__(self, message: str, span: Span | None, rule: str | None, move_count: int):
        super().__init__("R709", message, span, rule)
        self.move_count = move_count  # the moves played before the stall


class Ctx:
    __slots__ = ("game", "state", "bindings", "player_count", "options", "cost", "trigger_depth",
                 "event_depth", "call_depth")

    def __init__(self, game, state, bindings=None):
        self.game = game
        self.state = state
        self.player_count = game.player_count
        self.options = game.options
        self.bindings = state.locals.copy()
        if bindings:
            self.bindings.update(bindings)
        # The evaluation's cost so far; triggers firing, events emitted from inside event
        # triggers and definitions calling definitions (functions.enter_call), each nested.
        self.cost = self.trigger_depth = self.event_depth = self.call_depth = 0

    @classmethod
    def over(cls, game, state, bindings: dict) -> "Ctx":
        """A context whose bindings are `bindings` itself, not a copy: a generated playout
        reads and writes the flow's locals in place (codegen/fused.py)."""
        ctx = cls.__new__(cls)
        ctx.game, ctx.state, ctx.bindings = game, state, bindings
        ctx.player_count, ctx.options = game.player_count, game.options
        ctx.cost = ctx.trigger_depth = ctx.event_depth = ctx.call_depth = 0
        return ctx

    def charge(self, n: int = 1) -> None:
        self.cost += n
        if self.cost > COST_LIMIT:
            raise EvalLimitError("R702", f"evaluation cost limit of {COST_LIMIT:,} steps exceeded", None)

    def item_prop(self, item, name):
        props = self.state.props.get(item.id)
        if props is not None and name in props:
            return props[name]
        return self.game.prop_default(item, name)


def run_guarded(fn, ctx, span, rule=None):
    """Call compiled code; turn an expression failure into a RuleError with a place."""
    try:
        return fn(ctx)
    except EvalError as exc:
        raise RuleError(exc.code, exc.message, exc.span or span, rule) from None
