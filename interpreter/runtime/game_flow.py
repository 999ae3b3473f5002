"""The flow between decisions: after a move, the end rules, and the walk on to the next
point where someone decides (mixed into game.Game)."""
from __future__ import annotations

from meeple.dsl.eval_errors import EvalError
from meeple.dsl.functions import want_list
from . import rng
from .context import Ctx, RuleError, Stalled
from .flowgraph import (ASSIGN, BRANCH, CHANCE as CHANCE_STEP, CHECKPOINT, COUNT_DOWN, COUNT_TEST, DECIDE, DROP,
                        END, EXEC, LOOP_BIND, LOOP_STEP, LOOP_TEST, NOP, PHASE, RESPOND_START, RESTORE, SIM_START)
from .moves import PASS, Move
from .state import State

STEP_LIMIT = 100_000
MAX_KEYS = 10_000  # keys of one keyed variable or zone: every state copy carries them all
MAX_ASKING = 4  # has_move inside the rules of an action has_move asks about, nested
_UNKNOWN = object()


class GameFlow:
    def _after_move(self, state, point, move):
        if point.kind == "choose":
            state.pc = point.cont[move.action] if move.action != PASS else point.next
        elif point.kind == "simultaneous":
            state.pending = tuple(p for p in state.pending if p != move.player)
        elif point.kind == "respond":
            order, who, passes = state.locals[point.var]
            passes = passes + 1 if move.action == PASS else 0
            state.locals[point.var] = (order, (who + 1) % len(order), passes)
            if passes >= len(order):
                del state.locals[point.var]
                state.pc = point.next

    def _check_end(self, ctx):
        state = ctx.state
        if state.over:
            return
        cache = self._end_cache
        if cache is None:
            from .invariant_deps import ReadsCache, cache_reads
            cache = self._end_cache = ReadsCache([cache_reads(rule.when, self.rules.ruleset)
                                                  for _, rule in self.rules.end_rules])
        i = -1
        for fn, rule in self.rules.end_rules:
            i += 1
            hit = cache.lookup(i, state)
            if hit is None:  # something it reads changed since it was last evaluated
                try:
                    hit = fn(ctx) is True
                except EvalError as exc:
                    raise RuleError(exc.code, exc.message, exc.span or rule.span, rule.rule) from None
                cache.store(i, hit)
            if hit:
                if rule.after == "now":
                    state.over = True
                    state.end_reason = rule.reason or "an end condition was met"
                    return
                if state.ending is None:
                    state.ending = rule.after
                    state.end_reason = rule.reason or f"an end condition was met; the {rule.after} is finished"

    def _advance(self, state: State, ctx: Ctx | None = None):
        """Run automatic control points until a decision, or the end.

        One context serves the whole walk, its bindings mirroring the flow's locals;
        `ctx` may hand over the context of an evaluation that is over (the move's), which
        is then reset to what a fresh one would be.  Points are dispatched on their
        small-int `code`, most frequent first; the bookkeeping of `for`, `turns` and
        `times` loops is done here inline, as the functions of those points would."""
        points, within = self.rules.points, self._within
        if ctx is None:
            ctx = Ctx(self, state)
        else:
            ctx.bindings = state.locals.copy()
            ctx.cost = ctx.trigger_depth = ctx.event_depth = ctx.call_depth = 0
        passed = None  # the last decision nobody could act at: what a stalled flow goes round
        for _ in range(STEP_LIMIT):
            if state.over or (within is not None and state.pc not in within):
                return
            point = points[state.pc]
            code = point.code
            if code == DECIDE:
                if self._stop_at(state, point, ctx):
                    return
                passed = point
                continue
            try:
                if code >= LOOP_TEST:
                    b = ctx.bindings
                    if code == DROP:  # the names a scope bound end with it
                        for name in point.names:
                            state.locals.pop(name, None)
                            b.pop(name, None)
                        state.pc = point.next
                        continue
                    if code == LOOP_TEST:
                        state.pc = point.next if (b[point.index] < len(b[point.seq])) is True else point.alt
                        continue
                    if code == COUNT_TEST:
                        state.pc = point.next if (b[point.index] > 0) is True else point.alt
                        continue
                    if code == LOOP_BIND:
                        value = b[point.seq][b[point.index]]
                    elif code == LOOP_STEP:
                        value = b[point.var] + 1
                    elif code == COUNT_DOWN:
                        value = b[point.var] - 1
                    else:  # LOOP_ZERO
                        value = 0
                    state.locals[point.var] = value
                    b[point.var] = value
                    state.pc = point.next
                elif code == ASSIGN:
                    value = point.fn(ctx)
                    state.locals[point.var] = value
                    ctx.bindings[point.var] = value
                    state.pc = point.next
                elif code == BRANCH:
                    state.pc = point.next if point.fn(ctx) is True else point.alt
                elif code == EXEC:
                    point.fn(ctx)
                    self._check_end(ctx)
                    ctx.bindings = state.locals.copy()  # drop names an effect's `let` bound
                    state.pc = point.next
                elif code == PHASE:
                    state.phase = point.name
                    state.pc = point.next
                elif code == CHECKPOINT:
                    if state.ending == point.label:
                        state.over = True
                        return
                    state.pc = point.next
                elif code == SIM_START:
                    state.pending = self._players_of(point.fn(ctx), point)
                    state.pc = point.next
                elif code == RESPOND_START:
                    order = self._players_of(point.fn(ctx), point)
                    state.locals[point.var] = (order, 0, 0)
                    ctx.bindings[point.var] = (order, 0, 0)
                    state.pc = point.next
                    if not order:
                        del state.locals[point.var]
                        state.pc = points[point.next].next
                elif code == CHANCE_STEP:
                    if self.explicit_chance:
                        state._moves = state._shown = None
                        return
                    outcomes = want_list(point.fn(ctx), "the outcomes of a chance step")
                    if not outcomes:
                        raise RuleError("R708", "a chance step has no outcomes", point.span, point.rule)
                    state.rng, i = rng.below(state.rng, len(outcomes))
                    state.locals[point.var] = outcomes[i]
                    ctx.bindings[point.var] = outcomes[i]
                    state.pc = point.next
                elif code == RESTORE:
                    for entry in state.locals.pop(point.var):
                        if len(entry) == 2:
                            state.locals[entry[0]] = entry[1]
                        else:
                            state.locals.pop(entry[0], None)
                    ctx.bindings = state.locals.copy()
                    state.pc = point.next
                elif code == NOP:
                    state.pc = point.next
                elif code == END:
                    state.over = True
                    state.end_reason = state.end_reason or "the flow of play is complete"
                    return
            except EvalError as exc:
                raise RuleError(exc.code, exc.message, exc.span or point.span, point.rule) from None
        if passed is not None:
            raise Stalled(f"nobody could move: the flow ran {STEP_LIMIT} automatic steps, passing "
                          f"over this decision ({passed.kind}: {', '.join(passed.actions) or 'pass'}) "
                          "because no player had a legal move there; end the game, or let a player "
                          "pass, when nobody can move", passed.span, passed.rule, state.move_count)
        raise RuleError("R709", f"the flow ran {STEP_LIMIT} automatic steps without a decision",
                        _span_near(points, state.pc))

    def _stop_at(self, state: State, point, ctx: Ctx) -> bool:
        """At a decision: list its moves (charged to the walk `ctx`) and say whether play
        waits here; when nobody can act, move on past it (and tell `on_skip`)."""
        if point.kind == "simultaneous":
            if state.pending:
                # Those with nothing they can do are not waited for.
                moves = self._list_moves(state, ctx)
                movers = {m.player for m in moves}
                able = tuple(p for p in state.pending if p in movers)
                if able != state.pending:
                    if self.on_skip is not None:
                        self.on_skip(state, point)
                    state.pending = able
                    state._moves = state._shown = None
                if able:
                    return True
            state.pc = point.next
            return False
        moves = self._list_moves(state, ctx)
        # A responder whose only move is `pass` is still asked: skipping them
        # would tell everyone that they hold nothing playable.
        if moves:
            return True
        # Nobody can act here: a choose is skipped, a responder passes.
        state._moves = state._shown = None
        if self.on_skip is not None:
            self.on_skip(state, point)
        if point.kind == "respond":
            self._after_move(state, point, Move(self._decider(state, point), PASS))
            ctx.bindings = state.locals.copy()
        else:
            state.pc = point.next
        return False


def _span_near(points, pc: int):
    """The first located step from `pc` on: the flow is going round a cycle of steps, and
    the bookkeeping ones (jumps, restores) carry no position of their own."""
    seen = set()
    while pc not in seen and 0 <= pc < len(points):
        seen.add(pc)
        if points[pc].span is not None:
            return points[pc].span
        pc = getattr(points[pc], "next", None)
        if pc is None:
            break
    return next((p.span for p in points if p.span is not None), None)
