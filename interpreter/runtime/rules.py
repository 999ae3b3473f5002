"""A checked Ruleset compiled once into callables: the scope, the component
items, boards as networkx graphs, actions, triggers, end rules, scoring and
the flow graph.  Player count and options are not needed here; a `Game`
binds them.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass

import networkx as nx

from meeple.dsl.board_edges import DECLARED_LINES, EDGE_ORDER
from meeple.dsl.build_grid import BoardSizeError, sized_board
from meeple.dsl.checks.flow import all_flow_nodes
from meeple.dsl.compile_expr import compile_expr
from meeple.dsl.eval_errors import EvalError
from meeple.dsl.model import Effect, Ruleset
from meeple.dsl.names import global_scope
from meeple.dsl.schema.limits import MAX_TOTAL_NODES
from meeple.dsl.types import INT
from meeple.dsl.values import Item

from .context import RuleError
from .effects import EffectCompiler
from .flowgraph import FlowBuilder
from .item_sets import ItemSets
from .knowledge import Sides
from .memo_keys import memo_keyable
from .moves import enumerate_action, requirement_levels
from .targets import compile_place

TRIGGER_LIMIT = 200
MAX_SIZED_BOARDS = 16  # sets of boards made for options that change a grid's size, kept at once
EVENT_DEPTH_LIMIT = 50


@dataclass
class CompiledAction:
    name: str
    params: list  # [(name, domain_fn)]
    checks: list  # [(fn, reason, rule, span)]
    levels: list  # per parameter position: the check functions tested there (moves.requirement_levels)
    costs: list  # [(place_fn, amount_fn, span)]
    effects: object
    decl: object
    has_then: bool
    then_required: bool = False
    enumerate: object = None  # fn(ctx, player, out): appends the legal moves (moves.enumerate_action)

    @property
    def rule(self):
        return self.decl.rule


class Rules:
    backend = "reference"

    def __init__(self, ruleset: Ruleset):
        self.ruleset = rs = ruleset
        self.variables = rs.variables
        self.zones = rs.zones
        self._define_fns: dict = {}
        self.scope = global_scope(rs, self._define_readers())
        # The items by id of every game of these rules (a generate may follow a game's options
        # or player count: item_sets.py), and those of a game with the defaults and the fewest
        # players; a game lists its own (Game.items, items_for).
        self.item_sets = ItemSets(rs)
        self.items: dict[str, Item] = self.item_sets.known
        self.items_by_kind: dict[str, tuple] = self.item_sets.default[1]
        # Two-sided components, and whether any item could be hidden from a player at all
        # (a game without items has nothing whose identity could leak).
        self.sides = {k.name: Sides(k.sides, k.fields) for k in rs.components.values() if k.sides}
        self.may_hide = bool(self.items) or self.item_sets.depend_on_the_game
        # action -> True (the whole move) or the names of its secret parameters (Game.seen_move)
        self.secret = {name: a.secret for name, a in rs.actions.items() if a.secret}
        # the names `chance` steps bind: what they draw is nobody's to know unless a step says
        self.drawn_names = frozenset(n.args["var"] for n in all_flow_nodes(rs) if n.kind == "chance")
        self.zone_order = tuple(rs.zones)
        # Whether players can know different things at all (the CLI hands the seat over
        # between humans only then).
        self.hides_information = bool(self.sides) or any(
            z.visibility != "all" or z.face == "down" for z in rs.zones.values()) or any(
            v.visibility != "all" for v in rs.variables.values()) or _reveals_or_flips(rs) or bool(self.secret) or \
            any(n.kind == "chance" for n in all_flow_nodes(rs))  # what a chance step draws is private
        self.boards = {name: self._board(b) for name, b in rs.boards.items()}
        self.effects = EffectCompiler(self)
        self.triggers = []
        self.event_triggers: dict[str, list] = {}
        self._compile_defines()
        self.actions = {name: self._action(a) for name, a in rs.actions.items()}
        self._compile_triggers()
        self.setup = self.effects.block(rs.setup, self.scope)
        self.end_rules = [(self.expr(e.when, self.scope), e) for e in rs.end]
        self.invariants = [(self.expr(c.cond, self.scope), c) for c in rs.invariants]
        self._compile_scoring()
        self._compile_initials()
        self.flow = FlowBuilder(self)
        self.start = self.flow.build(rs.flow, self.scope)
        self.points = self.flow.points

    def expr(self, node, scope):
        """An expression compiled for this back end: closures here; generated code in
        codegen.backend.CompiledRules.  Definitions' bodies stay closures in both (the
        reference), since generated code calls its own copies of them."""
        return compile_expr(node, scope)

    # -- pieces ----------------------------------------------------------------
    def boards_for(self, options: dict) -> dict:
        """The boards of a game with these options: `self.boards` unless a grid's size is an
        expression the options change.  Such boards are made once per size and shared by the
        games of that size (they never change, and keep what board functions work out).
        BoardSizeError (a ValueError) when the options give a grid a size it cannot have."""
        sized = {name: sized_board(decl, options) for name, decl in self.ruleset.boards.items()}
        changed = tuple((name, decl.grid.built) for name, decl in sized.items()
                        if decl is not self.ruleset.boards[name])
        if not changed:
            return self.boards
        made = self.__dict__.setdefault("_sized_boards", {})
        if changed not in made:
            total = sum(len(decl.nodes) for decl in sized.values())
            if total > MAX_TOTAL_NODES.value:
                raise BoardSizeError(f"with these options the boards have {total:,} nodes; at most "
                                     f"{MAX_TOTAL_NODES.value:,}")
            if len(made) >= MAX_SIZED_BOARDS:  # a server offering many sizes keeps the latest only
                made.clear()
            made[changed] = {name: self.boards[name] if decl is self.ruleset.boards[name] else self._board(decl)
                             for name, decl in sized.items()}
        return made[changed]

    def items_for(self, options: dict, players: int) -> tuple[dict, dict]:
        """(id -> item, kind -> its items) of a game with these options and player count;
        GenerateError (a ValueError) when a generate cannot make them."""
        return self.item_sets.for_game(options, players)

    def _board(self, decl):
        g = nx.DiGraph() if decl.directed else nx.Graph()
        g.graph["name"] = decl.name
        g.graph["shape"] = decl.grid.shape if decl.grid is not None else None
        for node, attrs in decl.nodes.items():
            g.add_node(node, **attrs)
        for a, b, attrs in decl.edges:
            g.add_edge(a, b, **attrs)
        g.graph[EDGE_ORDER] = tuple((a, b) for a, b, _ in decl.edges)  # the edges' ids follow it
        if decl.lines:  # what lines(b, k) walks instead of a grid's rows, columns and diagonals
            g.graph[DECLARED_LINES] = tuple(decl.lines)
        return g

    def _define_readers(self):
        readers = {}
        for name, decl in self.ruleset.defines.items():
            if decl.params:
                readers[name] = (lambda n: (lambda ctx: self._define_fns[n]))(name)
            else:
                readers[name] = (lambda n: (lambda ctx: self._define_fns[n](ctx)))(name)
        return readers

    def _compile_defines(self):
        from .invariant_deps import state_reads
        for name, decl in self.ruleset.defines.items():
            variables, zones, props = state_reads(decl.expr, self.ruleset)
            pure = not (variables or zones or props)  # depends on its arguments and the game only
            if decl.params:
                inner = self.scope.bind({p: None for p in decl.params})
                body = compile_expr(decl.expr, inner)
                fn = _function(body, decl.params)
                self._define_fns[name] = _memo_call(name, fn) if pure else fn
            else:
                fn = compile_expr(decl.expr, self.scope)
                self._define_fns[name] = _memo_value(name, fn) if pure else fn

    def action_scope(self, decl, scope=None):
        inner = (scope or self.scope).bind({"player": INT}, kind="param")
        for name, _, _ in decl.params:
            inner = inner.bind({name: None}, kind="param")
        return inner

    def _action(self, decl) -> CompiledAction:
        scope = self.scope.bind({"player": INT}, kind="param")
        params = []
        for name, domain, _ in decl.params:
            params.append((name, self.expr(domain, scope)))
            scope = scope.bind({name: None}, kind="param")
        checks = [(self.expr(c.cond, scope), c.reason, c.rule or decl.rule, c.span) for c in decl.require]
        levels = [[checks[j][0] for j in level]
                  for level in requirement_levels(decl.params, [c.cond for c in decl.require])]
        costs = []
        for target, amount, span in decl.cost:
            costs.append((compile_place(target, scope, self, "var"), self.expr(amount, scope), span))
        action = CompiledAction(decl.name, params, checks, levels, costs, self.effects.block(decl.effects, scope),
                                decl, bool(decl.then), decl.then_required and bool(decl.then))
        action.enumerate = lambda ctx, player, out: enumerate_action(ctx, action, player, out)
        return action

    def _compile_triggers(self):
        for t in self.ruleset.triggers.values():
            scope = self.scope
            if t.on:
                from meeple.dsl.walk import event_payloads
                scope = scope.bind({n: None for n in event_payloads(self.ruleset).get(t.on, ())})
            each = []
            for name, domain in t.each:
                each.append((name, self.expr(domain, scope)))
                scope = scope.bind({name: None})
            when = self.expr(t.when, scope) if t.when is not None else None
            compiled = (t, each, when, None)
            target = self.event_triggers.setdefault(t.on, []) if t.on else self.triggers
            target.append(compiled)
        # Effects are compiled after every trigger is registered, since they may fire others.
        for group in [self.triggers, *self.event_triggers.values()]:
            for i, (t, each, when, _) in enumerate(group):
                scope = self.scope
                if t.on:
                    from meeple.dsl.walk import event_payloads
                    scope = scope.bind({n: None for n in event_payloads(self.ruleset).get(t.on, ())})
                scope = scope.bind({n: None for n, _ in each}) if each else scope
                group[i] = (t, each, when, self.effects.block(t.effects, scope))

    def _compile_scoring(self):
        sc = self.ruleset.scoring
        pscope = self.scope.bind({"player": INT})
        self.score_fn = self.expr(sc.score, pscope) if sc and sc.score is not None else None
        self.tiebreak_fns = [self.expr(t, pscope) for t in (sc.tiebreak if sc else [])]
        self.winners_fn = self.expr(sc.winners, self.scope) if sc and sc.winners is not None else None
        self.estimate_fn = self.expr(sc.estimate, pscope) if sc and sc.estimate is not None else None
        self.summary_fns = [(row, self.expr(row.expr, pscope)) for row in self.ruleset.summary if row.expr is not None]

    def _compile_initials(self):
        from meeple.dsl.expr_ast import names_read
        # Keyed or per-player starting values that read neither `player` nor `key`.
        self.initial_shared = {d.name for d in [*self.ruleset.variables.values(), *self.ruleset.zones.values()]
                               if d.initial is not None and not {"player", "key"} & names_read(d.initial)}
        self.initials = {}
        pscope = self.scope.bind({"player": INT})
        kscope = self.scope.bind({"key": None})
        for v in self.ruleset.variables.values():
            per = None if v.per in (None, "player") else self.expr(v.per, self.scope)
            init = self.expr(v.initial, pscope if v.per == "player" else kscope) if v.initial else None
            self.initials[v.name] = (v, per, init)
        self.zone_initials = {}
        for z in self.ruleset.zones.values():
            per = None if z.per in (None, "player") else self.expr(z.per, self.scope)
            init = self.expr(z.initial, pscope if z.per == "player" else kscope) if z.initial else None
            self.zone_initials[z.name] = (z, per, init)
        iscope = self.scope.bind({"item": None})
        self.prop_defaults = {}
        for kind in self.ruleset.components.values():
            for name, decl in kind.props.items():
                fn = self.expr(decl.initial, iscope) if decl.initial is not None else None
                self.prop_defaults[(kind.name, name)] = (decl, fn)

    def prop_decl(self, kind: str, name: str):
        entry = self.prop_defaults.get((kind, name))
        return entry[0] if entry else None

    # -- triggers ----------------------------------------------------------------
    def after_effect(self, ctx):
        if not self.triggers or ctx.trigger_depth:
            return
        ctx.trigger_depth += 1
        try:
            for _ in range(TRIGGER_LIMIT):
                # Once the game is over nothing more reacts, so `end_game` quiets a trigger.
                if ctx.state.over or not self._fire_once(ctx, self.triggers, {}):
                    return
            t = self.triggers[0][0]
            raise RuleError("R706", f"triggers kept firing {TRIGGER_LIMIT} times in a row; a trigger's "
                            "effects must make its condition false", t.span, t.rule)
        finally:
            ctx.trigger_depth -= 1

    def fire_event(self, ctx, event, payload):
        group = self.event_triggers.get(event)
        if not group:
            return
        if ctx.event_depth >= EVENT_DEPTH_LIMIT:
            t = group[0][0]
            raise RuleError("R706", f"event '{event}' was emitted {EVENT_DEPTH_LIMIT} times inside its own "
                            "triggers; an event trigger must not keep emitting the events that fire it",
                            t.span, t.rule)
        ctx.event_depth += 1
        try:
            self._fire_once(ctx, group, payload)
        finally:
            ctx.event_depth -= 1

    def _fire_once(self, ctx, group, payload) -> bool:
        fired = False
        saved = dict(ctx.bindings)
        try:
            for t, each, when, effects in group:
                ctx.bindings.update(payload)
                for combo in _combos(ctx, each):
                    ctx.bindings.update(combo)
                    try:
                        ok = when is None or when(ctx) is True
                    except EvalError as exc:
                        raise RuleError(exc.code, exc.message, exc.span or t.span, t.rule) from None
                    if ok:
                        effects(ctx)
                        fired = True
        finally:
            ctx.bindings.clear()
            ctx.bindings.update(saved)
        return fired


def _combos(ctx, each):
    if not each:
        yield {}
        return
    names = [n for n, _ in each]

    def rec(i, acc):
        if i == len(each):
            yield dict(zip(names, acc))
            return
        ctx.bindings[names[i]] = None
        for v in each[i][1](ctx):
            ctx.bindings[names[i]] = v
            yield from rec(i + 1, acc + (v,))
    yield from rec(0, ())


def _function(body, params):
    """A `define` with parameters: binds its arguments around the compiled body."""
    if len(params) == 1:
        (name,) = params

        def call1(ctx, arg):
            b = ctx.bindings
            old = b.get(name, _MISSING)
            b[name] = arg
            try:
                return body(ctx)
            finally:
                if old is _MISSING:
                    del b[name]
                else:
                    b[name] = old
        return call1

    def call(ctx, *args):
        b = ctx.bindings
        saved = [b.get(p, _MISSING) for p in params]
        b.update(zip(params, args))
        try:
            return body(ctx)
        finally:
            for p, v in zip(params, saved):
                if v is _MISSING:
                    b.pop(p, None)
                else:
                    b[p] = v
    return call


_MISSING = object()


def _memo_value(name, fn):
    """A definition that reads no state has one value per game: computed once."""
    def read(ctx):
        memo = ctx.game.memo
        try:
            return memo[name]
        except KeyError:
            value = memo[name] = fn(ctx)
            return value
    return read


def _memo_call(name, fn):
    """A function that reads no state gives one result per game and set of arguments
    (ints, texts and lists of them: memo_keys)."""
    def call(ctx, *args):
        for a in args:
            t = type(a)
            if t is not str and t is not int and not memo_keyable(a):
                return fn(ctx, *args)
        key = (name, *args)
        memo = ctx.game.memo
        try:
            return memo[key]
        except KeyError:
            value = memo[key] = fn(ctx, *args)
            return value
    return call


def _reveals_or_flips(rs) -> bool:
    """Does any effect turn items face down, flip them or show them to some players?"""
    stack, seen = [rs.setup, rs.actions, rs.flow, rs.triggers], set()
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (str, int, float, bool)) or obj is None:
            continue
        seen.add(id(obj))
        if isinstance(obj, Effect):
            if obj.kind in ("flip", "reveal") or obj.args.get("face") == "down":
                return True
            stack.extend(obj.args.values())
        elif isinstance(obj, dict):
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple)):
            stack.extend(obj)
        elif is_dataclass(obj):
            stack.extend(getattr(obj, f.name) for f in fields(obj))
    return False
