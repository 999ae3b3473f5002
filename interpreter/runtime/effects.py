"""Effect statements compiled to closures `run(ctx)` that write into ctx.state.

After each statement the triggers are given a chance to fire, so a rule such
as "the first player with two purple craftsmen opens the workshop at once"
takes effect between two steps of the same action.
"""
from __future__ import annotations

from meeple.dsl.eval_errors import EvalError
from meeple.dsl.functions import arith, is_int, kind_of
from meeple.dsl.values import Item

from . import draws
from .context import RuleError
from .recording import narrating
from .store import check_depth, find_item, read_in, remove_item, write_prop, write_var, zone_get, zone_set
from .targets import VarPlace, compile_place

# `x += v` is `x = x + v`, by the expression language's rules (range, sizes, no bools).
OPS = {"=": None, "+=": "+", "-=": "-", "*=": "*"}


class EffectCompiler:
    def __init__(self, rules):
        self.rules = rules

    def block(self, effects, scope):
        steps = []
        for effect in effects:
            step = self.one(effect, scope)
            if effect.kind == "let":
                scope = scope.bind({n: None for n in effect.args["bindings"]})
            if effect.narrate and self.rules.backend == "reference":
                step = narrating(step, effect, scope)
            steps.append(step)
        after = self.rules.after_effect

        def run(ctx):
            for step, effect in zip(steps, effects):
                try:
                    step(ctx)
                except EvalError as exc:
                    raise RuleError(exc.code, exc.message, exc.span or effect.span, effect.rule) from None
                after(ctx)
        return run

    def one(self, effect, scope):
        return getattr(self, "e_" + effect.kind)(effect, scope)

    # -- statements --------------------------------------------------------
    def e_set(self, effect, scope):
        compiled = []
        for assign in effect.args["assignments"]:
            place = compile_place(assign.target, scope, self.rules, "var")
            value = self.rules.expr(assign.value, scope)
            compiled.append((place, value, OPS[assign.op], assign.span))

        def run(ctx):
            for place_fn, value_fn, op, span in compiled:
                place = place_fn(ctx)
                value = value_fn(ctx)
                if isinstance(place, VarPlace):
                    if op is not None:
                        current = _read(ctx, place, span)
                        value = arith(op, current, value, span, ctx)
                    write_var(ctx, place.decl, place.keys, value, span)
                else:
                    if op is not None:
                        value = arith(op, ctx.item_prop(place.item, place.name), value, span, ctx)
                    write_prop(ctx, place.item, place.name, value, span)
        return run

    def e_let(self, effect, scope):
        fns = {n: self.rules.expr(e, scope) for n, e in effect.args["bindings"].items()}

        def run(ctx):
            for name, fn in fns.items():
                ctx.bindings[name] = check_depth(ctx, fn(ctx), 0, effect.span)
        return run

    def e_if(self, effect, scope):
        cond = self.rules.expr(effect.args["cond"], scope)
        then, orelse = self.block(effect.args["then"], scope), self.block(effect.args["else"], scope)

        def run(ctx):
            if cond(ctx) is True:
                then(ctx)
            else:
                orelse(ctx)
        return run

    def e_for(self, effect, scope):
        var = effect.args["var"]
        domain = self.rules.expr(effect.args["in"], scope)
        body = self.block(effect.args["do"], scope.bind({var: None}))

        def run(ctx):
            had, old = var in ctx.bindings, ctx.bindings.get(var)
            for value in _as_list(domain(ctx), effect.span):
                ctx.charge(1)
                ctx.bindings[var] = value
                body(ctx)
            if had:
                ctx.bindings[var] = old
            else:
                ctx.bindings.pop(var, None)
        return run

    def e_while(self, effect, scope):
        """Rounds of `do` while the condition holds, tested before each round; `max` is
        worked out once, before the first test.  A round past `max` is an error (R713): the
        bound says the rules meant to stop by then, so going on would hide their mistake."""
        cond = self.rules.expr(effect.args["cond"], scope)
        most = self.rules.expr(effect.args["max"], scope)
        body = self.block(effect.args["do"], scope)

        def run(ctx):
            bound = most(ctx)
            if not is_int(bound):
                raise RuleError("R701", f"the 'max' of a 'while' must be int, found {kind_of(bound)}",
                                effect.span, effect.rule)
            rounds = 0
            while cond(ctx) is True:
                if rounds >= bound:
                    raise RuleError("R713", f"the 'while' still holds after its max of {bound} rounds",
                                    effect.span, effect.rule)
                rounds += 1
                ctx.charge(1)
                body(ctx)
        return run

    def e_move(self, effect, scope):
        a = effect.args
        items_fn = self.rules.expr(a["items"], scope) if a["items"] is not None else None
        src = compile_place(a["from"], scope, self.rules, "zone") if a["from"] is not None else None
        dst = compile_place(a["to"], scope, self.rules, "zone")
        count = self.rules.expr(a["count"], scope) if a["count"] is not None else None
        at, face = a["at"], a["face"]

        def run(ctx):
            state = ctx.state
            to = dst(ctx)
            if items_fn is not None:
                value = items_fn(ctx)
                items = (value,) if isinstance(value, Item) else _as_list(value, effect.span)
                where = None
                if src is not None:
                    s = src(ctx)
                    where = (s.name, s.key)
                for item in items:
                    if not isinstance(item, Item):
                        raise RuleError("R705", f"only items can be moved, not {item!r}", effect.span, effect.rule)
                    if not remove_item(state, item, where):
                        place = f"{where[0]}" if where else "any zone"
                        raise RuleError("R705", f"{item.id} is not in {place}", effect.span, effect.rule)
            else:
                s = src(ctx)
                n = 1 if count is None else _count(count(ctx), "move", effect)
                contents = zone_get(state, s.name, s.key)
                n = max(0, min(n, len(contents)))
                if s.decl.kind == "bag":
                    state.rng, items, remaining = draws.bag_pick(state.rng, contents, n)
                else:
                    items, remaining = contents[:n], contents[n:]
                zone_set(state, s.name, s.key, remaining)
            _put(ctx, to, items, at, face)
        return run

    def e_shuffle(self, effect, scope):
        place = compile_place(effect.args["zone"], scope, self.rules, "zone")

        def run(ctx):
            z = place(ctx)
            state = ctx.state
            state.rng, mixed = draws.shuffled(state.rng, zone_get(state, z.name, z.key))
            zone_set(state, z.name, z.key, mixed)
        return run

    def e_deal(self, effect, scope):
        a = effect.args
        count = self.rules.expr(a["count"], scope)
        src = compile_place(a["from"], scope, self.rules, "zone")
        to = a["to"]
        players = self.rules.expr(a["players"], scope) if a["players"] is not None else None
        face = a["face"]
        if to not in self.rules.zones or self.rules.zones[to].per != "player":
            raise RuleError("T408", f"'{to}' is not a per-player zone", effect.span, effect.rule)
        to_decl = self.rules.zones[to]

        from .targets import ZonePlace

        def run(ctx):
            state = ctx.state
            s = src(ctx)
            who = _players(ctx, players(ctx), effect) if players else range(ctx.player_count)
            n = _count(count(ctx), "deal", effect)
            if not who:
                return
            # Never more rounds than the source can serve: a huge count ends with the source.
            rounds = min(n, -(-len(zone_get(state, s.name, s.key)) // len(who)))
            bag = s.decl.kind == "bag"  # its items come out at random, as from a cloth bag
            for _ in range(rounds):
                for p in who:
                    contents = zone_get(state, s.name, s.key)
                    if not contents:
                        return
                    ctx.charge(1)
                    i = 0
                    if bag:
                        state.rng, i = draws.below(state.rng, len(contents))
                    zone_set(state, s.name, s.key, contents[:i] + contents[i + 1:])
                    _put(ctx, ZonePlace(to, p, to_decl), contents[i:i + 1], "bottom", face)
        return run

    def e_flip(self, effect, scope):
        items_fn = self.rules.expr(effect.args["items"], scope)
        face = effect.args["face"]

        def run(ctx):
            value = items_fn(ctx)
            for item in _items(value, effect):
                new = face or ("up" if ctx.item_prop(item, "face") == "down" else "down")
                write_prop(ctx, item, "face", new, effect.span)
        return run

    def e_reveal(self, effect, scope):
        items_fn = self.rules.expr(effect.args["items"], scope)
        to_fn = self.rules.expr(effect.args["to"], scope)

        def run(ctx):
            value = items_fn(ctx)
            who = to_fn(ctx)
            who = _players(ctx, (who,) if is_int(who) else who, effect)
            for item in _items(value, effect):
                seen = frozenset(ctx.item_prop(item, "seen_by") or ()) | frozenset(who)
                write_prop(ctx, item, "seen_by", tuple(sorted(seen)), effect.span)
        return run

    def e_pass_zones(self, effect, scope):
        name = effect.args["zone"]
        direction = self.rules.expr(effect.args["direction"], scope)
        if name not in self.rules.zones or self.rules.zones[name].per != "player":
            raise RuleError("T408", f"'{name}' is not a per-player zone", effect.span, effect.rule)

        def run(ctx):
            d = direction(ctx)
            if not is_int(d):
                raise RuleError("R701", f"the direction of 'pass_zones' must be int, found {kind_of(d)}",
                                effect.span, effect.rule)
            old = ctx.state.zones[name]
            n = len(old)
            ctx.state.zones[name] = tuple(old[(p - d) % n] for p in range(n))
        return run

    def e_emit(self, effect, scope):
        event = effect.args["event"]
        payload = {k: self.rules.expr(v, scope) for k, v in effect.args["with"].items()}
        fire = self.rules.fire_event

        def run(ctx):
            fire(ctx, event, {k: check_depth(ctx, fn(ctx), 0, effect.span) for k, fn in payload.items()})
        return run

    def e_end_game(self, effect, scope):
        reason = effect.args["reason"] or "the rules ended the game"

        def run(ctx):
            ctx.state.over = True
            ctx.state.end_reason = reason
        return run

    def e_log(self, effect, scope):
        message = self.rules.expr(effect.args["message"], scope)

        def run(ctx):
            ctx.state.log = ctx.state.log + (str(message(ctx)),)
        return run


def _put(ctx, place, items, at, face):
    state = ctx.state
    contents = zone_get(state, place.name, place.key)
    contents = tuple(items) + contents if at == "top" else contents + tuple(items)
    zone_set(state, place.name, place.key, contents)
    new_face = face or place.decl.face
    for item in items:
        if ctx.item_prop(item, "face") != new_face:
            write_prop(ctx, item, "face", new_face, None)


def _read(ctx, place: VarPlace, span):
    try:
        return read_in(ctx.state.vars[place.decl.name], place.keys)
    except (KeyError, IndexError, TypeError):
        raise RuleError("R704", f"{place.decl.name} has no element {list(place.keys)}", span) from None


def _count(n, what: str, effect) -> int:
    """How many items a `move` or `deal` hands out: an int (none if it is not positive)."""
    if not is_int(n):
        raise RuleError("R701", f"the count of a '{what}' must be int, found {kind_of(n)}",
                        effect.span, effect.rule)
    return max(0, n)


def _players(ctx, value, effect) -> tuple:
    """A list of players (`deal`'s `players`, `reveal`'s `to`): ints from 0 to the count - 1."""
    who = _as_list(value, effect.span)
    ctx.charge(len(who))
    for p in who:
        if not is_int(p) or not 0 <= p < ctx.player_count:
            raise RuleError("R701", f"{p!r} is not a player (0 to {ctx.player_count - 1})",
                            effect.span, effect.rule)
    return who


def _items(value, effect) -> tuple:
    """An item or a list of items (`flip`, `reveal`)."""
    items = (value,) if isinstance(value, Item) else _as_list(value, effect.span)
    for item in items:
        if not isinstance(item, Item):
            raise RuleError("R701", f"'{effect.kind}' needs items, not {kind_of(item)}", effect.span,
                            effect.rule)
    return items


def _as_list(value, span):
    if isinstance(value, (tuple, list)):
        return tuple(value)
    if isinstance(value, dict):
        return tuple(value)
    raise RuleError("R701", f"expected a list, found {value!r}", span)


__all__ = ["EffectCompiler", "find_item"]
