"""What a player can tell apart: the one place that decides whether an item's id
may reach a player.

An item's id names it exactly: whoever reads an id can look up everything the
ruleset says about that item, both sides of a two-sided card included.  So an
id reaches a player only for an item that player sees whole.  Any other item
is named by where it lies, a *handle* such as `hand[2]@0` or `deck@3` (zone,
key, position from the top), which everyone at the table already knows; a
two-sided item seen from one side also shows that side's printed fields.

Views, move texts, refusal messages and the CLI all name items through
`Namer`, so a leak cannot come from one of them forgetting a rule.
"""
from __future__ import annotations

from meeple.dsl.values import Item

WHOLE, SIDE, NOTHING = "whole", "side", "nothing"


class Sides:
    """A component's `sides`, compiled: for each side value, the fields that side
    does not show."""

    def __init__(self, decl, fields):
        self.by = decl.by
        listed = {f for names in decl.shows.values() for f in names}
        common = tuple(f for f in fields if f not in listed)
        self.shown = {side: common + tuple(names) for side, names in decl.shows.items()}
        self.hidden = {side: frozenset(listed - set(names)) for side, names in decl.shows.items()}
        self.common = common
        self.listed = frozenset(listed)


def locate(game, state) -> dict:
    """item id -> (zone, key, index).

    Kept with the state together with the zone contents it was built from; a state
    copied from another starts from its parent's, and only the zones whose contents
    were replaced since (writes never change a zone in place) are looked at again.
    So the index is never stale, even while the flow is still moving items."""
    names = game.rules.zone_order
    current = tuple(state.zones[n] for n in names)
    cached = state._where
    if cached is not None:
        snapshot, where = cached
        changed = [i for i, (a, b) in enumerate(zip(snapshot, current)) if a is not b]
        if not changed:
            return where
        where = dict(where)
        for i in changed:
            _replace(where, names[i], snapshot[i], current[i], game.rules.zones[names[i]].per)
    else:
        where = {}
        for name, contents in zip(names, current):
            _replace(where, name, _EMPTY, contents, game.rules.zones[name].per)
    state._where = (current, where)
    return where


_EMPTY = ()


def _groups(contents, per):
    if per is None:
        return ((None, contents),)
    return contents.items() if isinstance(contents, dict) else enumerate(contents)


def _replace(where, name, old, new, per):
    """Move the index of zone `name` from its old contents to its new ones."""
    before = dict(_groups(old, per)) if old is not _EMPTY else {}
    for key, group in _groups(new, per):
        was = before.pop(key, _EMPTY)
        if group is was:
            continue
        for item in was:
            if where.get(item.id, (None, None))[:2] == (name, key):
                del where[item.id]
        for i, item in enumerate(group):
            where[item.id] = (name, key, i)
    for key, group in before.items():  # keys that are gone
        for item in group:
            if where.get(item.id, (None, None))[:2] == (name, key):
                del where[item.id]


def handle_text(place) -> str:
    name, key, index = place
    return f"{name}@{index}" if key is None else f"{name}[{key}]@{index}"


class Namer:
    """How one player names items in one state."""

    def __init__(self, game, state, viewer: int):
        self.game, self.state, self.viewer = game, state, viewer
        self.where = locate(game, state)
        self.sides = game.rules.sides

    def sight(self, item: Item) -> str:
        """WHOLE (the player may know its id), SIDE (one side's fields) or NOTHING."""
        props = self.state.props.get(item.id) or {}
        viewer = self.viewer
        if viewer in (props.get("seen_by") or ()):
            return WHOLE
        place = self.where.get(item.id)
        face_up = props.get("face", "up") == "up"
        if place is not None:
            decl = self.game.rules.zones[place[0]]
            vis = decl.visibility
            own = decl.per == "player" and place[1] == viewer and vis != "top"
            if vis == "none" or (vis == "owner" and not own) or (vis == "top" and place[2] != 0):
                return NOTHING
            if own:
                return WHOLE
        sides = self.sides.get(item.kind)
        if sides is None:
            return WHOLE if face_up else NOTHING
        if sides.by != "face" and not face_up:
            return NOTHING
        side = self._side_up(item, sides)
        if not sides.hidden.get(side, sides.listed):
            return WHOLE
        return SIDE if sides.shown.get(side, sides.common) else NOTHING

    def _side_up(self, item: Item, sides: Sides):
        props = self.state.props.get(item.id) or {}
        if sides.by == "face":
            return props.get("face", "up")
        return props[sides.by] if sides.by in props else self.game.prop_default(item, sides.by)

    def name(self, item: Item) -> str:
        """The item's id if the player may know it, else its handle."""
        if self.sight(item) == WHOLE:
            return item.id
        place = self.where.get(item.id)
        return handle_text(place) if place is not None else f"{item.kind}@?"

    def face(self, item: Item) -> dict:
        """What the player sees of an item they cannot name: the fields printed on its
        visible side and its public properties (empty when nothing shows)."""
        sides = self.sides.get(item.kind)
        if sides is None or self.sight(item) != SIDE:
            return {}
        side = self._side_up(item, sides)
        out = {"side": side}
        for f in sides.shown.get(side, sides.common):
            out[f] = item.fields.get(f)
        for k, v in sorted((self.state.props.get(item.id) or {}).items()):
            if k not in ("face", "seen_by", sides.by):
                out[k] = v
        return out

    def plain(self, value):
        """A value as JSON-like view data, each item named as this player may name it."""
        if isinstance(value, Item):
            if self.sight(value) == WHOLE:
                return {"$item": value.id}
            return {"$hidden": self.name(value), **self.face(value)}
        if isinstance(value, tuple):
            return [self.plain(v) for v in value]
        if isinstance(value, list):
            return {"$list": [self.plain(v) for v in value]}
        if isinstance(value, dict):
            if all(isinstance(k, str) for k in value):
                return {"$map": {k: self.plain(v) for k, v in sorted(value.items())}}
            pairs = [[self.plain(k), self.plain(v)] for k, v in value.items()]
            return {"$pairs": sorted(pairs, key=lambda kv: str(kv[0]))}
        if isinstance(value, (frozenset, set)):
            return {"$set": sorted((self.plain(v) for v in value), key=str)}
        return value
