"""Writes into the state: variables (with bounds), item properties and zones.

Containers are replaced, never mutated, so states handed out earlier stay intact.
"""
from __future__ import annotations

from meeple.dsl.eval_errors import EvalError
from meeple.dsl.functions import MAX_DEPTH, arith, charge_scan
from meeple.dsl.values import Item

from .context import RuleError


def replace_in(container, keys, value):
    """A copy of `container` with the element at the key path set to `value`."""
    if not keys:
        return value
    key, rest = keys[0], keys[1:]
    if isinstance(container, tuple):
        if not isinstance(key, int) or isinstance(key, bool) or not -len(container) <= key < len(container):
            raise KeyError(key)
        lst = list(container)
        lst[key] = replace_in(lst[key], rest, value)
        return tuple(lst)
    if isinstance(container, dict):
        new = dict(container)
        if rest and key not in new:
            raise KeyError(key)
        new[key] = replace_in(new.get(key), rest, value)
        return new
    raise KeyError(key)


def read_in(container, keys):
    for key in keys:
        if isinstance(container, tuple):
            container = container[key]
        elif isinstance(container, dict):
            container = container[key]
        else:
            raise KeyError(key)
    return container


class _TooDeep(Exception):
    pass


def check_depth(ctx, value, used: int, span, rule=None):
    """Refuse to store a value nested deeper than MAX_DEPTH (counting the `used` levels of
    the place it goes to), so saves, logs and every later walk of the state stay shallow.
    Flat values cost nothing; a list or map is walked once per distinct inner list or map."""
    t = type(value)
    if t is not tuple and t is not dict:
        return value
    try:
        _height(value, {}, MAX_DEPTH - used, ctx)
    except _TooDeep:
        raise RuleError("R702", f"a value nested more than {MAX_DEPTH} levels deep cannot be stored",
                        span, rule) from None
    return value


def _height(v, memo: dict, budget: int, ctx) -> int:
    """How many levels of lists and maps v has; _TooDeep once that passes `budget`."""
    h = memo.get(id(v))
    if h is None:
        if budget <= 0:
            raise _TooDeep
        charge_scan(ctx, len(v))
        h = 0
        for x in (v.values() if type(v) is dict else v):
            tx = type(x)
            if tx is tuple or tx is dict:
                h = max(h, _height(x, memo, budget - 1, ctx))
        h = memo[id(v)] = h + 1
    if h > budget:
        raise _TooDeep
    return h


def check_bounds(decl, value, where, span, ctx=None, used: int = 0):
    """Apply a variable's declared bounds to an int written anywhere inside it, and its
    `choices` to any single value (text and booleans as well as numbers); refuse a value
    nested too deeply (check_depth)."""
    check_depth(ctx, value, used, span, decl.rule if decl is not None else None)
    if decl is None:
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        lo, hi = decl.min, decl.max
        if lo is not None and value < lo:
            if decl.bounds != "clamp":
                raise RuleError("R703", f"{_named(where)} would become {value}, below its minimum {lo}", span,
                                decl.rule)
            value = lo
        if hi is not None and value > hi:
            if decl.bounds != "clamp":
                raise RuleError("R703", f"{_named(where)} would become {value}, above its maximum {hi}", span,
                                decl.rule)
            value = hi
    if decl.choices is not None and isinstance(value, (str, bool, int)) \
            and not any(type(c) is type(value) and c == value for c in decl.choices):
        raise RuleError("R703", f"{_named(where)} would become {value!r}, not one of {list(decl.choices)}",
                        span, decl.rule)
    return value


def _named(where) -> str:
    """A written place's name for a message; built only when there is one to write."""
    return where() if callable(where) else where


def write_var(ctx, decl, keys: tuple, value, span):
    state = ctx.state

    def where():
        return decl.name + "".join(f"[{k!r}]" for k in keys)
    value = check_bounds(decl, value, where, span, ctx, len(keys))
    old = state.vars[decl.name]
    try:
        new = state.vars[decl.name] = replace_in(old, keys, value)
    except (KeyError, IndexError, TypeError):
        raise RuleError("R704", f"cannot write {where()}: no such element", span, decl.rule) from None
    if keys:
        note_write(new, old, keys[0])


# The latest writes, by the container each made: id(new) -> (new, old, the key written
# at the top level).  A cache that kept results for `old` learns from it which entry of
# `new` differs without comparing them all (codegen/incremental_runtime.py).  Entries
# hold both containers, so an id stays their own; past the limit it starts again, and a
# container it has forgotten is simply compared entry by entry.
WRITES: dict = {}
WRITES_LIMIT = 4096


def note_write(new, old, key) -> None:
    if len(WRITES) >= WRITES_LIMIT:
        WRITES.clear()
    WRITES[id(new)] = (new, old, key)


def write_prop(ctx, item: Item, name: str, value, span):
    decl = ctx.game.rules.prop_decl(item.kind, name)
    value = check_bounds(decl, value, f"{item.id}.{name}", span, ctx)
    props = dict(ctx.state.props.get(item.id, ()))
    props[name] = value
    ctx.state.props[item.id] = props


# -- zones ----------------------------------------------------------------
def zone_get(state, name: str, key):
    z = state.zones[name]
    if key is None:
        return z
    if isinstance(z, dict):
        if type(key) in (str, int) and key in z:
            return z[key]
    elif type(key) is int and 0 <= key < len(z):
        return z[key]
    # A place computed at run time (`site[space]`, `hand[p]`) that the zone does not have.
    raise EvalError("R701", f"zone '{name}' has no place {key!r}"[:200])


def zone_set(state, name: str, key, contents: tuple):
    if key is None:
        state.zones[name] = contents
    else:
        state.zones[name] = replace_in(state.zones[name], (key,), contents)


def find_item(state, item: Item):
    """Where an item lies, as (zone, key); None if it is in no zone.

    A game has one Item object per id, so the item is looked for by identity first (a
    scan in C); equality by id, which calls Python for every element, is the fallback
    for an item that is not the game's own object."""
    return _find(state, item, _same) or _find(state, item, _equal)


def _same(item, group) -> bool:
    return id(item) in map(id, group)


def _equal(item, group) -> bool:
    return item in group


def _find(state, item, holds):
    for name, z in state.zones.items():
        if isinstance(z, tuple) and z and isinstance(z[0], Item):
            if holds(item, z):
                return name, None
        elif isinstance(z, tuple):
            for k, sub in enumerate(z):
                if holds(item, sub):
                    return name, k
        elif isinstance(z, dict):
            for k, sub in z.items():
                if holds(item, sub):
                    return name, k
    return None


def remove_item(state, item: Item, where=None):
    where = where or find_item(state, item)
    if where is None:
        return False
    name, key = where
    contents = zone_get(state, name, key)
    ids = [id(x) for x in contents]
    if id(item) in ids:
        at = ids.index(id(item))
    elif item in contents:
        at = contents.index(item)
    else:
        return False
    zone_set(state, name, key, contents[:at] + contents[at + 1:])
    return True


def pay_costs(ctx, action) -> None:
    """Take an action's costs from the places its `cost` names (ctx binds the move)."""
    for place_fn, amount_fn, span in action.costs:
        place = place_fn(ctx)
        current = read_in(ctx.state.vars[place.decl.name], place.keys)
        write_var(ctx, place.decl, place.keys, arith("-", current, amount_fn(ctx), span), span)
