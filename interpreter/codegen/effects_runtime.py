"""What generated effect blocks (emit_effects.py) call besides Python itself.

Each helper either does what the reference statement does (interpreter/effects.py,
store.py) or raises; a raise puts the block's state back and hands the whole block
to the reference, which then reports the error with its YAML position, so these
helpers carry no spans.  Properties are written with an undo list: a block keeps
the old property map of every item it touches, to put back if it fails.
"""
from __future__ import annotations

from itertools import repeat
from operator import is_

from meeple.dsl.values import Item

from ..runtime import draws
from ..runtime.store import check_bounds, check_depth, read_in, remove_item, replace_in, zone_set
from ..runtime.context import COST_LIMIT
from .runtime import Deopt


def each(v):
    """What an effect's `for` walks: a list, or a map's keys (effects._as_list)."""
    if type(v) is tuple:
        return v
    if isinstance(v, (list, dict)):
        return tuple(v)
    raise Deopt()


def items_of(v):
    """An item or a list of items (`move`, `flip`)."""
    if type(v) is Item:
        return (v,)
    v = each(v)
    for item in v:
        if type(item) is not Item:
            raise Deopt()
    return v


def depth(ctx, v, used):
    """check_depth for a value about to be stored `used` levels deep; flat values pass."""
    if type(v) is tuple or type(v) is dict:
        check_depth(ctx, v, used, None)
    return v


def check_var(ctx, name, v, used):
    """A declared variable's bounds and choices where they have no inline form."""
    return check_bounds(ctx.game.rules.variables[name], v, name, None, ctx, used)


def put_prop(ctx, item, name, value, undo):
    """store.write_prop, keeping the item's old properties in `undo`."""
    value = check_bounds(ctx.game.rules.prop_decl(item.kind, name), value, name, None, ctx)
    props = ctx.state.props
    old = props.get(item.id)
    undo.append((item.id, old))
    new = dict(old) if old else {}
    new[name] = value
    props[item.id] = new


def set_prop(ctx, item, name, value, undo):
    """`item.name = value`: the place must be an item with that property (or `face`)."""
    if type(item) is not Item or (name != "face" and ctx.game.rules.prop_decl(item.kind, name) is None):
        raise Deopt()
    put_prop(ctx, item, name, value, undo)


def faces(ctx, items, face, undo):
    """Items entering a zone take its face (or the move's), written only where it differs.
    For rulesets that declare no property named `face`, whose writes check nothing."""
    props = ctx.state.props
    for item in items:
        p = props.get(item.id)
        current = p["face"] if p is not None and "face" in p else ctx.game.prop_default(item, "face")
        if current != face:
            put_face(props, item, face, undo)


def faces_checked(ctx, items, face, undo):
    """`faces` where some kind declares `face` as a property: its writes are checked."""
    for item in items:
        if ctx.item_prop(item, "face") != face:
            put_prop(ctx, item, "face", face, undo)


def put_face(props, item, face, undo):
    """An item's face written where no kind declares `face`, so nothing is checked."""
    old = props.get(item.id)
    undo.append((item.id, old))
    new = dict(old) if old else {}
    new["face"] = face
    props[item.id] = new


def flip(ctx, value, face, undo):
    props = ctx.state.props
    for item in items_of(value):
        new = face or ("up" if ctx.item_prop(item, "face") == "down" else "down")
        put_face(props, item, new, undo)


def flip_checked(ctx, value, face, undo):
    for item in items_of(value):
        new = face or ("up" if ctx.item_prop(item, "face") == "down" else "down")
        put_prop(ctx, item, "face", new, undo)


def undo_props(props, undo):
    for item_id, old in reversed(undo):
        if old is None:
            props.pop(item_id, None)
        else:
            props[item_id] = old


def without(contents, items):
    """A zone's contents less the moved items (store.remove_item's rule: the first equal
    one), found by identity first since each item is one object in one place."""
    lst = list(contents)
    for item in items:
        hits = list(map(is_, lst, repeat(item)))
        if True in hits:
            del lst[hits.index(True)]
        else:
            lst.remove(item)
    return tuple(lst)


def take_out(state, items):
    """Items moved without a `from`: each is taken from wherever it lies.  Each item is
    one object in one place, so several are found in one walk over the zones (by
    identity) and taking them out together is taking them out one by one; anything
    else (an object found twice or not at all) is taken out one by one, as the
    reference does (store.remove_item)."""
    if len(items) > 1:
        wanted = set(map(id, items))
        found, changes = 0, []
        if len(wanted) == len(items):
            for name, z in state.zones.items():
                places = ((None, z),) if type(z) is tuple and z and type(z[0]) is Item else \
                    (enumerate(z) if type(z) is tuple else z.items())
                for key, contents in places:
                    kept = tuple([x for x in contents if id(x) not in wanted])
                    if len(kept) != len(contents):
                        found += len(contents) - len(kept)
                        changes.append((name, key, kept))
        if found == len(items):
            for name, key, kept in changes:
                zone_set(state, name, key, kept)
            return
    for item in items:
        if not remove_item(state, item):
            raise Deopt()


def players_of(ctx, value):
    """`deal`'s players: a list of ints from 0 to the count - 1, charged for its length."""
    who = each(value)
    ctx.cost += len(who)
    if ctx.cost > COST_LIMIT:
        raise Deopt()
    for p in who:
        if type(p) is not int or not 0 <= p < ctx.player_count:
            raise Deopt()
    return who


def deal(ctx, contents, who, n, to, bag=False):
    """`n` rounds of one item from the top of `contents` to each of `who` in turn, at the
    bottom of their zone `to`, until the items run out: (what is left, the items dealt).
    From a bag (`bag`) each item is drawn at random instead, one draw of the generator (or
    of the tape, chance explicit) per item in the order the reference draws them
    (effects.e_deal).  The source is another zone than `to`, so its contents are written
    once, at the end."""
    if not who:
        return contents, ()
    state = ctx.state
    hands = list(state.zones[to])
    dealt = []
    rounds = min(n, -(-len(contents) // len(who)))
    for _ in range(rounds):
        for p in who:
            if not contents:
                break
            ctx.cost += 1
            if ctx.cost > COST_LIMIT:
                raise Deopt()
            i = 0
            if bag:
                state.rng, i = draws.below(state.rng, len(contents))
            hands[p] = hands[p] + contents[i:i + 1]
            dealt.append(contents[i])
            contents = contents[:i] + contents[i + 1:]
    state.zones[to] = tuple(hands)
    return contents, dealt


def restore(target: dict, saved: dict):
    target.clear()
    target.update(saved)


def names(face_declared: bool) -> dict:
    """The helpers bound into a generated module's namespace."""
    return {
        "_each": each, "_items": items_of, "_depth": depth, "_check_var": check_var, "_set_prop": set_prop,
        "_faces": faces_checked if face_declared else faces, "_flip": flip_checked if face_declared else flip,
        "_players": players_of, "_deal": deal, "_undo_props": undo_props, "_take_out": take_out,
        "_without": without, "_bag": draws.bag_pick, "_shuffled": draws.shuffled, "_restore": restore,
        "_read_in": read_in, "_replace_in": replace_in,
        "_CHOOSABLE": frozenset({str, bool, int}),
    }
