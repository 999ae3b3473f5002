"""A player's view as a vector of numbers with one fixed shape per game.

The layout comes from the declarations and the shape of the first state (which
variables, zones, keys and items exist), never from what is hidden in it; the numbers
are filled from `game.view(state, player)` alone, so nothing the player may not know
reaches the vector.  In order:

- who: the viewer, one-hot (players); who is to move (players); the game is over (1);
  the phase, one-hot over the flow's phases;
- each visible variable, flattened (per player, per key, nested maps, lists as long as
  they start): numbers and booleans as they are, none as 0, texts one-hot over the
  ruleset's texts (or as their rank in that list, scaled to 0..1, when it has more than
  TEXT_ONE_HOT of them); a part the viewer may not see stays 0;
- each zone, once per player or key: how many items it holds, then for every item of
  the game a 1 where the view names that item there (an item the viewer cannot see whole
  is counted, never placed);
- each item's numeric or boolean properties, where the view shows them.
"""
from __future__ import annotations

import numpy as np

from meeple.dsl.expr_ast import Const, Node, walk
from meeple.interpreter.runtime.flowgraph import PHASE

TEXT_ONE_HOT = 64


class ObservationLayout:
    def __init__(self, game):
        self.game = game
        n = game.player_count
        rules = game.rules
        state = game.new_state(0)
        self.phases = sorted({p.name for p in rules.points if p.code == PHASE and p.name})
        self.texts = sorted(_texts(rules.ruleset, game.boards))  # the game's boards: their size may be an option's
        self.text_index = {t: i for i, t in enumerate(self.texts)}
        self.one_hot = len(self.texts) <= TEXT_ONE_HOT
        size = 2 * n + 1 + len(self.phases)
        self.var_slots: dict = {}  # variable -> {path: offset}
        for name, decl in rules.variables.items():
            if decl.visibility == "none":
                continue
            slots = {}
            for path, _ in _flat(_plain_state(state.vars[name]), ()):
                slots[path] = size
                size += 1 + (len(self.texts) if self.one_hot else 0)
            self.var_slots[name] = slots
        self.items = sorted(game.items)
        self.item_index = {i: k for k, i in enumerate(self.items)}
        self.zone_slots: dict = {}  # (zone, key) -> offset of its count
        for name, decl in rules.zones.items():
            contents = state.zones[name]
            keys = [None] if decl.per is None else (list(contents) if isinstance(contents, dict)
                                                   else list(range(len(contents))))
            for key in keys:
                self.zone_slots[(name, key)] = size
                size += 1 + len(self.items)
        self.props = sorted({(kind.name, p) for kind in rules.ruleset.components.values()
                             for p, decl in kind.props.items() if decl.type.name in ("int", "bool")})
        self.prop_slots: dict = {}  # (item id, property) -> offset
        for item_id in self.items:
            kind = rules.items[item_id].kind
            for k, p in self.props:
                if k == kind:
                    self.prop_slots[(item_id, p)] = size
                    size += 1
        self.size = size

    def tensor(self, state, player: int) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        self.fill(self.game.view(state, player), out)
        return out

    def fill(self, view: dict, out) -> None:
        n = self.game.player_count
        out[view["viewer"]] = 1
        for p in view["to_move"]:
            if 0 <= p < n:
                out[n + p] = 1
        out[2 * n] = 1 if view["over"] else 0
        if view["phase"] in self.phases:
            out[2 * n + 1 + self.phases.index(view["phase"])] = 1
        for name, value in view["vars"].items():
            slots = self.var_slots.get(name)
            if slots is None:
                continue
            decl = self.game.rules.variables[name]
            if decl.visibility == "owner" and decl.per == "player":
                value = [value.get(str(p)) if p == view["viewer"] else _UNSEEN for p in range(n)]
            for path, scalar in _flat(value, ()):
                at = slots.get(path)
                if at is not None and scalar is not _UNSEEN:
                    self._put(out, at, scalar)
        for name, zone in view["zones"].items():
            decl = self.game.rules.zones[name]
            if decl.per is None:
                self._zone(out, (name, None), zone)
            elif isinstance(zone, list):
                for key, sub in enumerate(zone):
                    self._zone(out, (name, key), sub)
            else:
                for key, sub in zone.items():
                    self._zone(out, (name, key), sub)
                    self._zone(out, (name, _int_key(key)), sub)
        for item_id, props in view["props"].items():
            for p, v in props.items():
                at = self.prop_slots.get((item_id, p))
                if at is not None and isinstance(v, (int, float)):
                    out[at] = float(v)

    def _put(self, out, at, scalar):
        if isinstance(scalar, str):
            i = self.text_index.get(scalar)
            if i is not None:
                if self.one_hot:
                    out[at + 1 + i] = 1
                else:
                    out[at] = (i + 1) / len(self.texts)
        elif isinstance(scalar, (int, float)):
            out[at] = float(scalar)

    def _zone(self, out, key, zone):
        at = self.zone_slots.get(key)
        if at is None:
            return
        if isinstance(zone, list):
            out[at] = len(zone)
            shown = zone
        else:
            out[at] = zone.get("count", 0)
            shown = list(zone.get("known", ())) + list(zone.get("items", ()))
            if isinstance(zone.get("top"), str):
                shown.append(zone["top"])
        for item_id in shown:
            i = self.item_index.get(item_id) if isinstance(item_id, str) else None
            if i is not None:
                out[at + 1 + i] = 1


_UNSEEN = object()


def _int_key(key):
    """Keys of keyed zones reach the view as texts; the layout keeps them as declared."""
    try:
        return int(key)
    except (TypeError, ValueError):
        return key


def _plain_state(value):
    """A state's value shaped as a view writes it (tuples as lists, maps as $map)."""
    if isinstance(value, tuple):
        return [_plain_state(v) for v in value]
    if isinstance(value, dict):
        return {"$map": {str(k): _plain_state(v) for k, v in value.items()}}
    return value


def _flat(value, path):
    """(path, scalar) for each number, boolean, text or none in a view value."""
    if isinstance(value, list):
        for i, v in enumerate(value):
            yield from _flat(v, path + (i,))
    elif isinstance(value, dict):
        if "$map" in value:
            for k, v in sorted(value["$map"].items()):
                yield from _flat(v, path + (k,))
        elif "$pairs" in value:
            for k, v in value["$pairs"]:
                yield from _flat(v, path + (repr(k),))
        # items ($item, $hidden), sets and lists of unknown length take no slot
    elif value is None or isinstance(value, (bool, int, float, str)) or value is _UNSEEN:
        yield path, value


def _texts(ruleset, boards: dict) -> set:
    """Every text the ruleset can write into a variable: its expressions' text constants,
    board nodes and attributes, item fields, option values."""
    out: set = set()
    seen: set = set()

    def visit(obj):
        if id(obj) in seen:
            return
        seen.add(id(obj))
        if isinstance(obj, Node):
            for node in walk(obj):
                if isinstance(node, Const) and isinstance(node.value, str):
                    out.add(node.value)
            return
        if isinstance(obj, dict):
            for v in obj.values():
                visit(v)
        elif isinstance(obj, (list, tuple)):
            for v in obj:
                visit(v)
        elif hasattr(obj, "__dataclass_fields__"):
            for f in obj.__dataclass_fields__:
                visit(getattr(obj, f))
    for part in (ruleset.variables, ruleset.actions, ruleset.flow, ruleset.setup, ruleset.triggers,
                 ruleset.defines, ruleset.end):
        visit(part)
    for graph in boards.values():
        out.update(graph.nodes)
        out.update(v for _, attrs in graph.nodes(data=True) for v in attrs.values() if isinstance(v, str))
    for kind in ruleset.components.values():
        out.update(v for item in kind.items for v in item.values() if isinstance(v, str))
    return out
