"""Reading a saved state field by field against the ruleset's declarations.

A save is data from outside: every field is checked for its kind and then
against what the ruleset declares (variables with their types and bounds,
zones with their per-player or keyed shape, items, the flow's control
points), so a damaged or edited file is reported at the field concerned
instead of failing later, somewhere inside play.  What these checks cannot
see (a generator state or a deal that was changed to another possible one)
is caught by replaying the save's moves: see `saves.read_save`.
"""
from __future__ import annotations

import weakref

from meeple.dsl.values import Item

from ..runtime.state import State

U64 = 1 << 64
STATE_FIELDS = ("vars", "zones", "props", "locals", "pc", "pending", "rng", "over", "ending",
                "end_reason", "phase", "move_count")
BUILTIN_PROPS = ("face", "seen_by")


class Bad(Exception):
    """One problem found in a save: its diagnostic code, the field path and what is wrong."""

    def __init__(self, code: str, field: str, message: str):
        self.code, self.field, self.message = code, field, message
        super().__init__(f"{field}: {message}")


def is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def need(ok: bool, field: str, message: str, code: str = "D005"):
    if not ok:
        raise Bad(code, field, message)


def show(v, limit: int = 60) -> str:
    text = repr(v)
    return text if len(text) <= limit else text[:limit] + "…"


# -- values ------------------------------------------------------------------------
def value(plain, items: dict, field: str):
    """A value of the language from its JSON form (the inverse of `state.to_plain`),
    refusing what that form can never hold: floats, unknown item ids, unknown `$` forms."""
    if plain is None or isinstance(plain, (bool, str)) or is_int(plain):
        return plain
    if isinstance(plain, list):
        return tuple(value(v, items, f"{field}[{i}]") for i, v in enumerate(plain))
    if isinstance(plain, dict):
        need(len(plain) == 1, field, f"a value written as an object has one key ($item, $map, $pairs, "
             f"$set or $list), not {show(sorted(plain))}")
        (form, inner), = plain.items()
        at = f"{field}.{form}"
        if form == "$item":
            need(isinstance(inner, str) and inner in items, at, f"no item has the id {show(inner)}", "D006")
            return items[inner]
        if form == "$map":
            need(isinstance(inner, dict), at, "a map is written as an object")
            return {k: value(v, items, f"{at}.{k}") for k, v in inner.items()}
        if form == "$pairs":
            need(isinstance(inner, list), at, "a map's pairs are written as a list")
            out = {}
            for i, pair in enumerate(inner):
                need(isinstance(pair, list) and len(pair) == 2, f"{at}[{i}]", "a pair is a list of two values")
                key = hashable(value(pair[0], items, f"{at}[{i}][0]"), f"{at}[{i}][0]")
                out[key] = value(pair[1], items, f"{at}[{i}][1]")
            return out
        if form in ("$set", "$list"):
            need(isinstance(inner, list), at, f"{form} holds a list")
            elems = [value(v, items, f"{at}[{i}]") for i, v in enumerate(inner)]
            return frozenset(hashable(e, at) for e in elems) if form == "$set" else elems
        raise Bad("D005", field, f"unknown value form {show(form)}")
    raise Bad("D005", field, f"{show(plain)} is not a value of the language (a number with a fraction?)")


def hashable(v, field):
    try:
        hash(v)
    except TypeError:
        raise Bad("D005", field, "a map key or set element must not be a map") from None
    return v


def fits(v, t) -> bool:
    """Whether a value has the declared type (`any` accepts every value; an item-typed
    place may be empty, which is `none`)."""
    name = t.name
    if name == "any":
        return True
    if name == "int":
        return is_int(v)
    if name == "bool":
        return isinstance(v, bool)
    if name == "str":
        return isinstance(v, str)
    if name == "none":
        return v is None
    if name == "item":
        kind = t.args[0] if t.args else None
        return v is None or (isinstance(v, Item) and (kind is None or v.kind == kind))
    if name == "list":
        return isinstance(v, tuple) and (not t.args or all(fits(x, t.args[0]) for x in v))
    if name == "map":
        return isinstance(v, dict) and (not t.args or all(
            fits(k, t.args[0]) and fits(x, t.args[1]) for k, x in v.items()))
    if name == "set":  # only ints or only texts (docs/expressions.md, sets)
        if not isinstance(v, frozenset):
            return False
        kinds = {type(x) for x in v}
        return (kinds <= {int} or kinds <= {str}) and (not t.args or all(fits(x, t.args[0]) for x in v))
    return True


def check_declared(decl, v, field: str):
    """A variable's or property's value: its type, and its bounds and choices anywhere inside."""
    need(fits(v, decl.type), field, f"{show(v)} is not a {decl.type}", "D006")
    for n in _ints_in(v):
        need(decl.min is None or n >= decl.min, field, f"{n} is below the minimum {decl.min}", "D006")
        need(decl.max is None or n <= decl.max, field, f"{n} is above the maximum {decl.max}", "D006")
    if decl.choices is not None and isinstance(v, (str, bool, int)):
        need(any(type(c) is type(v) and c == v for c in decl.choices), field,
             f"{show(v)} is not one of {list(decl.choices)}", "D006")


def _ints_in(v):
    if is_int(v):
        yield v
    elif isinstance(v, (tuple, list, frozenset)):
        for x in v:
            yield from _ints_in(x)
    elif isinstance(v, dict):
        for k, x in v.items():
            yield from _ints_in(k)
            yield from _ints_in(x)


# -- the state -------------------------------------------------------------------------
def read_state(game, plain, log, fresh: State) -> State:
    """The State a save's `state` object describes, checked against `game`'s declarations;
    `fresh` is a new game's state, which gives the keys of keyed variables and zones and
    the set of items that lie in zones (play moves items, it never adds or removes any)."""
    need(isinstance(plain, dict), "state", "must be an object")
    missing = [k for k in STATE_FIELDS if k not in plain]
    need(not missing, "state", f"missing field(s): {', '.join(missing)}")
    extra = sorted(set(plain) - set(STATE_FIELDS))
    need(not extra, "state", f"unknown field(s): {', '.join(map(str, extra))}")
    state = State()
    state.vars = _vars(game, plain["vars"], fresh)
    state.zones = _zones(game, plain["zones"], fresh)
    state.props = _props(game, plain["props"])
    _scalars(game, plain, state)
    state.locals = _locals(game, plain["locals"], state)
    need(isinstance(log, list) and all(isinstance(x, str) for x in log), "log", "must be a list of texts")
    state.log = tuple(log)
    return state


def _object(plain, field):
    need(isinstance(plain, dict), field, "must be an object")
    return plain


def _same_names(plain, declared, field, what):
    missing = sorted(set(declared) - set(plain))
    extra = sorted(set(plain) - set(declared))
    need(not missing, field, f"the ruleset's {what} missing here: {', '.join(missing)}", "D006")
    need(not extra, field, f"{what} the ruleset does not declare: {', '.join(map(show, extra))}", "D006")


def _shaped(game, decl, plain, fresh_value, field, one):
    """A global, per-player or keyed declaration's value, each part checked by `one`."""
    v = value(plain, game.items, field)
    if decl.per is None:
        return one(v, field)
    if decl.per == "player":
        need(isinstance(v, tuple) and len(v) == game.player_count, field,
             f"a per-player value is a list of {game.player_count}", "D006")
        return tuple(one(x, f"{field}[{p}]") for p, x in enumerate(v))
    need(isinstance(v, dict) and set(v) == set(fresh_value), field,
         f"keyed by {show(sorted(map(str, fresh_value)))} in this game", "D006")
    return {k: one(x, f"{field}[{show(k)}]") for k, x in v.items()}


def _vars(game, plain, fresh):
    _object(plain, "state.vars")
    declared = game.rules.variables
    _same_names(plain, declared, "state.vars", "variables")
    out = {}
    for name, decl in declared.items():
        def one(v, field, decl=decl):
            check_declared(decl, v, field)
            return v
        out[name] = _shaped(game, decl, plain[name], fresh.vars[name], f"state.vars.{name}", one)
    return out


def _zones(game, plain, fresh):
    _object(plain, "state.zones")
    declared = game.rules.zones
    _same_names(plain, declared, "state.zones", "zones")
    where: dict = {}
    out = {}
    for name, decl in declared.items():
        def one(contents, field):
            need(isinstance(contents, tuple), field, "a zone's contents are a list of items", "D006")
            for i, item in enumerate(contents):
                need(isinstance(item, Item), f"{field}[{i}]", f"{show(item)} is not an item", "D006")
                need(item.id not in where, f"{field}[{i}]", f"item '{item.id}' is also in {where.get(item.id)}",
                     "D006")
                where[item.id] = field
            return contents
        out[name] = _shaped(game, decl, plain[name], fresh.zones[name], f"state.zones.{name}", one)
    placed = {i.id for z in fresh.zones.values() for i in _zone_items(z)}
    lost = sorted(placed - set(where))
    need(not lost, "state.zones", f"item(s) in no zone, though play never takes an item out of the zones: "
         f"{', '.join(lost[:5])}{'…' if len(lost) > 5 else ''}", "D006")
    for item_id, field in where.items():
        need(item_id in placed, field, f"item '{item_id}' lies in a zone, but this game never places it", "D006")
    return out


def _zone_items(z):
    if isinstance(z, dict):
        for group in z.values():
            yield from group
    else:
        for x in z:
            if isinstance(x, tuple):
                yield from x
            else:
                yield x


def _props(game, plain):
    _object(plain, "state.props")
    out = {}
    for item_id, p in plain.items():
        field = f"state.props.{item_id}"
        need(item_id in game.items, field, f"no item has the id {show(item_id)}", "D006")
        item = game.items[item_id]
        props = value(p, game.items, field)
        need(isinstance(props, dict), field, "an item's properties are a map", "D006")
        for name, v in props.items():
            at = f"{field}.{name}"
            if name == "face":
                need(v in ("up", "down"), at, f"a face is 'up' or 'down', not {show(v)}", "D006")
            elif name == "seen_by":
                need(isinstance(v, tuple) and all(is_int(x) and 0 <= x < game.player_count for x in v)
                     and list(v) == sorted(set(v)), at, "seen_by lists players, in order, once each", "D006")
            else:
                decl = game.rules.prop_decl(item.kind, name)
                need(decl is not None, at, f"items of kind '{item.kind}' have no property {show(name)}", "D006")
                check_declared(decl, v, at)
        out[item_id] = props
    return out


def _scalars(game, plain, state):
    points = game.rules.points
    n = game.player_count
    pc = plain["pc"]
    need(is_int(pc) and 0 <= pc < len(points), "state.pc",
         f"{show(pc)} is not a control point of the flow (0..{len(points) - 1})", "D006")
    over = plain["over"]
    need(isinstance(over, bool), "state.over", f"must be true or false, not {show(over)}")
    point = points[pc]
    need(over or point.op == "decide", "state.pc",
         f"play never rests at control point {pc} ({point.op}) of an unfinished game", "D006")
    pending = plain["pending"]
    need(isinstance(pending, list) and all(is_int(p) and 0 <= p < n for p in pending)
         and len(set(pending)) == len(pending), "state.pending",
         f"must list distinct players 0..{n - 1}, not {show(pending)}")
    if not over:
        waiting = point.kind == "simultaneous"
        need(bool(pending) == waiting, "state.pending",
             "a simultaneous choice waits for at least one player" if waiting else
             "only a simultaneous choice waits for players", "D006")
    rng = plain["rng"]
    need(is_int(rng) and 0 <= rng < U64, "state.rng", "the generator's state is a whole number in 0..2**64-1")
    ending = plain["ending"]
    labels = {r.after for r in game.rules.ruleset.end if r.after != "now"}
    need(ending is None or (isinstance(ending, str) and ending in labels), "state.ending",
         f"must be null or one of the end rules' labels {sorted(labels)}, not {show(ending)}", "D006")
    for name in ("end_reason", "phase"):
        need(isinstance(plain[name], str), f"state.{name}", "must be a text")
    phases = {p.name for p in points if p.op == "phase"} | {""}
    need(plain["phase"] in phases, "state.phase", f"the flow has no phase {show(plain['phase'])}", "D006")
    count = plain["move_count"]
    need(is_int(count) and count >= 0, "state.move_count", "must be a whole number, 0 or more")
    state.pc, state.pending, state.rng, state.over = pc, tuple(pending), rng, over
    state.ending, state.end_reason, state.phase, state.move_count = \
        ending, plain["end_reason"], plain["phase"], count


def _locals(game, plain, state):
    """Loop counters and the flow's saved bindings: names the flow can bind, with the
    shapes the interpreter gives its own bookkeeping."""
    _object(plain, "state.locals")
    known = _local_names(game.rules)
    out = {}
    for name, p in plain.items():
        field = f"state.locals.{name}"
        need(name in known, field, "the flow never binds this name", "D006")
        v = value(p, game.items, field)
        if name.startswith(("__loop", "__index")):
            need(is_int(v) and v >= 0, field, "a loop counter is a whole number, 0 or more", "D006")
        elif name.startswith("__list"):
            need(isinstance(v, tuple), field, "a loop's list is a list", "D006")
        elif name.startswith("__respond"):
            need(isinstance(v, tuple) and len(v) == 3 and isinstance(v[0], tuple) and v[0]
                 and all(is_int(p) and 0 <= p < game.player_count for p in v[0])
                 and is_int(v[1]) and 0 <= v[1] < len(v[0]) and is_int(v[2]) and v[2] >= 0,
                 field, "a response window is [players, whose turn, passes]", "D006")
        elif name.startswith("__saved"):
            need(isinstance(v, tuple) and all(isinstance(e, tuple) and len(e) in (1, 2)
                                              and isinstance(e[0], str) for e in v),
                 field, "saved bindings are [name] or [name, value] entries", "D006")
        out[name] = v
    for name in list(out):
        if name.startswith("__index"):
            lst = out.get("__list" + name[len("__index"):])
            need(isinstance(lst, tuple) and out[name] <= len(lst), f"state.locals.{name}",
                 "a loop's position lies within its list", "D006")
    missing = sorted(must_bind(game.rules)[state.pc] - set(out))
    need(state.over or not missing, "state.locals",
         f"the flow has always bound {', '.join(missing)} by this point", "D006")
    point = game.rules.points[state.pc]
    if not state.over and point.op == "decide":
        if point.kind == "respond":
            need(point.var in out, "state.locals", f"the response window's '{point.var}' is missing", "D006")
        elif point.kind == "choose" and point.turn_var:
            need(is_int(out.get(point.turn_var)) and 0 <= out[point.turn_var] < game.player_count,
                 f"state.locals.{point.turn_var}", "the player whose turn it is must be bound", "D006")
    return out


def _local_names(rules) -> set:
    names = {"player"}
    for p in rules.points:
        if p.var:
            names.add(p.var)
    for action in rules.ruleset.actions.values():
        names.update(n for n, _, _ in action.params)
    return names


_MUST_BIND: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def must_bind(rules) -> list:
    """For each control point, the locals that every way of reaching it has bound (a
    forward must-analysis of the flow graph).  Play reads them there or after, so a
    state that lacks one cannot have come from play."""
    if rules in _MUST_BIND:
        return _MUST_BIND[rules]
    points = rules.points
    universe = frozenset(_local_names(rules))
    bound = [universe] * len(points)
    bound[rules.start] = frozenset()
    seen, work = {rules.start}, [rules.start]
    while work:
        p = points[work.pop()]
        for target, out in _edges(rules, p, bound[p.id]):
            merged = bound[target] & out
            if merged != bound[target] or target not in seen:
                bound[target] = merged
                seen.add(target)
                work.append(target)
    _MUST_BIND[rules] = bound
    return bound


def _edges(rules, p, here):
    """(successor, locals bound on arriving there) for each way play leaves point `p`."""
    op, points = p.op, rules.points
    if op in ("assign", "chance"):
        return [(p.next, here | {p.var})]
    if op == "respond_start":
        # No responders: the window is skipped, its variable deleted again.
        return [(p.next, here | {p.var}), (points[p.next].next, here)]
    if op == "restore":
        # What the action bound is put back as it was before: gone, unless bound outside.
        params = {n for a in rules.actions.values() for n, _ in a.params}
        return [(p.next, here - {p.var, "player"} - params)]
    if op == "decide":
        out = [(p.next, here - {p.var} if p.kind == "respond" else here)]
        for name, target in p.cont.items():
            action = rules.actions[name]
            if p.kind == "choose" and action.has_then:
                out.append((target, here | {p.var, "player"} | {n for n, _ in action.params}))
            else:
                out.append((target, here))
        return out
    if op == "branch":
        return [(p.next, here), (p.alt, here)]
    if op == "drop":  # the names a scope bound end with it
        return [(p.next, here - set(p.names))]
    if op == "end":
        return []
    return [(p.next, here)]
