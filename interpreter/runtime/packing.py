"""Packed states: a position as one small hashable tuple, for searches that keep many.

A `State` is made to be played from: a slotted object holding a dict per part, with
maps keyed by node or item id.  A search tree or a transposition table keeps thousands
of positions it will mostly never play from again, and pays for every dict.  A packed
state keeps the same data in the leanest form plain Python offers:

- a map whose keys are the ones the game started with, in the same order (every
  per-node or per-item variable), keeps only its values, as a tuple: the keys are the
  game's, stored once;
- any other map or list becomes a tuple marked as such, so the whole is hashable and
  equal positions are equal tuples;
- parts that repeat from one position to the next (the flow's locals, an item's
  properties) are interned: equal ones are one object, shared by every packed state;
- a container that did not change since the last position packed (states share them,
  writes replace them) is converted once.

`Game.unpack(packed)` rebuilds a State that plays exactly as the one packed: same key,
same legal moves, same views.  Packing never changes the state.
"""
from __future__ import annotations

from .state import State

INTERN_LIMIT = 65_536  # entries kept for sharing; past it sharing starts again (no effect on values)
_FORMAT = "meeple-packed-1"


class PackError(ValueError):
    """What was given to unpack is not a packed state of this game."""


class _Row(tuple):
    """A map's values in the order of the keys the game started with."""
    __slots__ = ()


class _Map(tuple):
    """Any other map, as its (key, value) pairs in its own order."""
    __slots__ = ()


class _List(tuple):
    """A language list held as a Python list."""
    __slots__ = ()


class _Set(tuple):
    __slots__ = ()


class Packer:
    def __init__(self, first: State, game_tag: str):
        self.tag = game_tag  # which game and player count made a packed state
        # The key layout of every top-level map the game starts with, vars and zones.
        self.var_names = tuple(sorted(first.vars))
        self.zone_names = tuple(sorted(first.zones))
        self.layouts = {("vars", n): tuple(v) for n, v in first.vars.items() if type(v) is dict}
        self.layouts.update({("zones", n): tuple(v) for n, v in first.zones.items() if type(v) is dict})
        self.interned: dict = {}
        self.converted: dict = {}  # id(container) -> (container, packed): unchanged parts convert once

    # -- packing ---------------------------------------------------------------------------
    def pack(self, state: State) -> tuple:
        if len(state.vars) != len(self.var_names) or len(state.zones) != len(self.zone_names) \
                or any(n not in state.vars for n in self.var_names) or any(n not in state.zones for n in self.zone_names):
            raise PackError("the state's variables or zones are not this game's")
        vars_ = tuple(self._top(("vars", n), state.vars[n]) for n in self.var_names)
        zones = tuple(self._top(("zones", n), state.zones[n]) for n in self.zone_names)
        props = tuple(sorted(self._intern((item_id, self._intern(self._freeze_map(p))))
                             for item_id, p in state.props.items()))
        local = self._intern(tuple(sorted(((k, self._freeze(v)) for k, v in state.locals.items()),
                                          key=lambda kv: kv[0])))
        flow = (_FORMAT, self.tag, state.pc, state.pending, state.over, state.ending, state.end_reason, state.phase)
        if state.drawing is not None:  # a chance point inside a step (draw_points.py): plain, hashable data
            flow += (state.drawing,)
        flow = self._intern(flow)
        return (flow, state.rng, self._freeze(state.log), state.move_count, props, local, *vars_, *zones)

    def _top(self, where, value):
        hit = self.converted.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        keys = self.layouts.get(where)
        if keys is not None and type(value) is dict and len(value) == len(keys) and tuple(value) == keys:
            packed = _Row(self._freeze(v) for v in value.values())
        else:
            packed = self._freeze(value)
        if type(value) is not int and type(value) is not str:
            if len(self.converted) >= INTERN_LIMIT:
                self.converted.clear()
            self.converted[id(value)] = (value, packed)  # the value is kept: its id stays its own
        return packed

    def _freeze(self, value):
        t = type(value)
        if t is tuple:
            frozen = [self._freeze(v) for v in value]
            return value if all(a is b for a, b in zip(frozen, value)) else tuple(frozen)
        if t is dict:
            return self._freeze_map(value)
        if t is list:
            return _List(self._freeze(v) for v in value)
        if t is frozenset or t is set:
            return _Set(sorted(value, key=_order))
        return value

    def _freeze_map(self, value: dict):
        return _Map((k, self._freeze(v)) for k, v in value.items())

    def _intern(self, value):
        if len(self.interned) >= INTERN_LIMIT:
            self.interned.clear()
        return self.interned.setdefault(value, value)

    # -- unpacking -----------------------------------------------------------------------------
    def unpack(self, packed) -> State:
        if type(packed) is not tuple or len(packed) < 6 or type(packed[0]) is not tuple \
                or not packed[0] or packed[0][0] != _FORMAT:
            raise PackError("not a packed meeple state (Game.pack makes them)")
        if len(packed[0]) < 2 or packed[0][1] != self.tag:
            raise PackError(f"a packed state of another game (made by {packed[0][1:2]}, this is {self.tag!r})"[:300])
        if len(packed) != 6 + len(self.var_names) + len(self.zone_names):
            raise PackError("a corrupt packed state: its variables or zones differ from the game's")
        try:
            return self._rebuild(packed)
        except (ValueError, TypeError, KeyError) as exc:
            raise PackError(f"a corrupt packed state ({type(exc).__name__}: {exc})"[:300]) from None

    def _rebuild(self, packed) -> State:
        (_, _, pc, pending, over, ending, end_reason, phase, *drawing), rng, log, move_count, props, local = packed[:6]
        vars_, zones = packed[6:6 + len(self.var_names)], packed[6 + len(self.var_names):]
        state = State()
        state.vars = {n: self._thaw_top(("vars", n), v) for n, v in zip(self.var_names, vars_)}
        state.zones = {n: self._thaw_top(("zones", n), v) for n, v in zip(self.zone_names, zones)}
        state.props = {item_id: _thaw(p) for item_id, p in props}
        state.locals = {k: _thaw(v) for k, v in local}
        state.pc, state.pending, state.rng, state.over = pc, pending, rng, over
        state.ending, state.end_reason, state.phase = ending, end_reason, phase
        state.log, state.move_count = _thaw(log), move_count
        state.drawing = drawing[0] if drawing else None
        return state

    def _thaw_top(self, where, value):
        if type(value) is _Row:
            return dict(zip(self.layouts[where], (_thaw(v) for v in value)))
        return _thaw(value)


def _thaw(value):
    t = type(value)
    if t is _Map:
        return {k: _thaw(v) for k, v in value}
    if t is _List:
        return [_thaw(v) for v in value]
    if t is _Set:
        return frozenset(value)
    if t is tuple:
        thawed = [_thaw(v) for v in value]
        return value if all(a is b for a, b in zip(thawed, value)) else tuple(thawed)
    return value


def _order(v):
    return (type(v).__name__, str(v))
