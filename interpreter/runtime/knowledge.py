"""What a player can tell apart: the one place that decides whether an item's id
may reach a player.

An item's id names it exactly: whoever reads an id can look up everything the
ruleset says about that item, both sides of a two-sided card included.  So an
id reaches a player only for an item that player sees whole.  Any other item
is named by a *handle*.  Where the player sees the order of the items around it
(a row of face-down tiles, a pile whose top shows), the handle is where it lies,
`row@3` (zone, key, position from the top), which everyone at the table knows.
Where the player does not (another's hand, a face-down deck, anything in a bag),
a position would tell what the player cannot know: the order items came in,
which a deal from a known deck or a card seen going into a hand gives away.
There the handle is `hand[2]#1`: a *rank*, from a relabelling of the zone's hidden
places drawn afresh for each state and each viewer, keyed by the game's generator
(which no player sees) and the move count.  It is the same in every text and view
that one state gives one player, so a move text can be typed back; it reads no item,
so exchanging hidden items within or between the places the player cannot see
changes no text at all; and a fresh key per state means a rank learnt in one state
(a card revealed after it was played as `hand[1]#2`) says nothing of the next.
A two-sided item seen from one side also shows that side's printed fields.

Views, move texts, refusal messages and the CLI all name items through
`Namer`, so a leak cannot come from one of them forgetting a rule.
"""
from __future__ import annotations

import hashlib
import re

from meeple.dsl.values import Item

from .draws import generator
from .store import zone_get

WHOLE, SIDE, NOTHING = "whole", "side", "nothing"
_RANK = re.compile(r"#[0-9]+")


def ranks_erased(value):
    """`value` (a text, or plain data holding texts) with each handle's rank as `#?`.

    Exchanging hidden items changes no rank (ranks are keyed by places), but two
    histories a player cannot tell apart may have moved the generator differently (a
    draw the player did not see), and the generator keys the relabelling.  Where a text
    must be the same for all of them (an information-state string), the ranks are
    erased; a rank only matters to pick one of the unseen items, and each is as good as
    another."""
    if isinstance(value, str):
        return _RANK.sub("#?", value)
    if isinstance(value, (list, tuple)):
        return type(value)(ranks_erased(v) for v in value)
    if isinstance(value, dict):
        return {k: ranks_erased(v) for k, v in value.items()}
    return value


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


def relabelling_key(state, viewer: int) -> bytes:
    """The key of one state's relabelling of hidden places for one viewer: from the
    generator's state, which no view shows (so nobody can work the ranks back to places),
    the move count (so a state the generator did not move from still relabels afresh) and
    the viewer (so two players' ranks for one item tell nothing of each other)."""
    seed = f"{generator(state.rng)}|{state.move_count}|{viewer}".encode()
    return hashlib.blake2b(seed, digest_size=16, person=b"meeple-ranks").digest()


def handle_text(place, mark: str = "@") -> str:
    """`zone@i`, `zone[key]@i`; with mark "#", a rank where the order is hidden."""
    name, key, index = place
    return f"{name}{mark}{index}" if key is None else f"{name}[{key}]{mark}{index}"


class Namer:
    """How one player names items in one state."""

    def __init__(self, game, state, viewer: int):
        self.game, self.state, self.viewer = game, state, viewer
        self.where = locate(game, state)
        self.sides = game.rules.sides
        self._ranks: dict = {}  # (zone, key) -> {item id: its rank among the hidden items there}
        self._key = None  # relabelling_key, worked out when a rank is first asked for

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
        place = self.handle(item)
        if place is None:
            return f"{item.kind}@?"
        return handle_text(place[:3], place[3])

    def handle(self, item: Item):
        """(zone, key, index, mark) of an item the player cannot name: its position ("@")
        where the player sees the order of its zone, else its rank ("#"); None when it
        lies in no zone."""
        place = self.where.get(item.id)
        if place is None:
            return None
        name, key, index = place
        if not self.order_hidden(name, key, index):
            return (name, key, index, "@")
        ranks = self._ranks.get((name, key))
        if ranks is None:
            ranks = self._ranks[(name, key)] = self._rank(name, key)
        return (name, key, ranks[item.id], "#")

    def order_hidden(self, name: str, key, index: int) -> bool:
        """Does the player not see where this item lies among the others of its zone?"""
        decl = self.game.rules.zones[name]
        vis = decl.visibility
        return decl.kind == "bag" or vis == "none" or (vis == "owner" and not (
            decl.per == "player" and key == self.viewer)) or (vis == "top" and index != 0)

    def _rank(self, name: str, key) -> dict:
        """The hidden items of one zone, each with its rank: the places they lie in, put in
        an order keyed by this state's relabelling key.  Places, not items: two states that
        differ only in which hidden item lies where give the same ranks place by place, so
        every text made from them is the same."""
        if self._key is None:
            self._key = relabelling_key(self.state, self.viewer)
        group = zone_get(self.state, name, key)
        places = [n for n, i in enumerate(group) if self.sight(i) != WHOLE and self.order_hidden(name, key, n)]
        where = f"{name}|{key}|".encode()
        places.sort(key=lambda n: hashlib.blake2b(where + str(n).encode(), key=self._key, digest_size=8).digest())
        return {group[n].id: rank for rank, n in enumerate(places)}

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


def chosen_from_own_zones(rules) -> frozenset:
    """The actions whose every parameter is chosen from the mover's own zone of a kind
    they may look into (`hand[player]`, the zone per player, visibility not `none` or
    `top`): what such a move names is always in that zone, which `Namer.sight` shows its
    owner whole, so its text needs no handle and naming its moves can be skipped."""
    from meeple.dsl import expr_ast as A
    zones = rules.zones
    found = set()
    for name, action in rules.ruleset.actions.items():
        params = action.params
        if params and all(isinstance(domain, A.Index) and isinstance(domain.obj, A.Name)
                          and isinstance(domain.index, A.Name) and domain.index.name == "player"
                          and domain.obj.name in zones and zones[domain.obj.name].per == "player"
                          and zones[domain.obj.name].visibility not in ("none", "top")
                          for _, domain, _ in params):
            found.add(name)
    return frozenset(found)
