"""The game state: plain data with a stable key.

Layout: `vars[name]` is a value (global), a tuple indexed by player (per
player) or a dict (keyed by another domain); `zones[name]` is a tuple of
items, or a tuple/dict of such tuples; `props[item_id]` holds the item's
mutable properties that differ from their defaults.  `locals` are the flow's
loop variables and the parameters of an action whose sub-decisions are open.
`pc` is the control point in the flow graph.  `rng` is the generator's state,
so a seed and a list of moves replay a game exactly.  `drawing` is None but at a chance
point inside a step (draw_points.py, chance explicit): then the rest is the state before
that step.

States are treated as immutable once returned; `copy()` is shallow, and every
write replaces a container instead of mutating it.
"""
from __future__ import annotations

import hashlib
import json

from meeple.dsl.values import Item


class State:
    __slots__ = ("vars", "zones", "props", "locals", "pc", "pending", "rng", "over", "ending",
                 "end_reason", "phase", "log", "move_count", "drawing", "_moves", "_shown", "_where", "_settled",
                 "_listing")

    def __init__(self):
        self.vars: dict = {}
        self.zones: dict = {}
        self.props: dict = {}
        self.locals: dict = {}
        self.pc = 0
        self.pending: tuple = ()
        self.rng = 0
        self.over = False
        self.ending: str | None = None
        self.end_reason = ""
        self.phase = ""
        self.log: tuple = ()
        self.move_count = 0
        self.drawing = None  # a draw_points.Drawing at a chance point inside a step
        self._moves = None  # cache of legal moves (or moves.UnmadeMoves); not part of the state's identity
        self._shown = None  # the same moves, named as their movers may name them
        self._where = None  # (zone contents, item id -> place): knowledge.locate
        self._settled = None  # what a step by the playout function left (kernel_step.py)
        self._listing = None  # that function's own listing of `_moves` (kernel_step.py)

    def copy(self) -> "State":
        new = State.__new__(State)
        new.vars = dict(self.vars)
        new.zones = dict(self.zones)
        new.props = dict(self.props)
        new.locals = dict(self.locals)
        new.pc = self.pc
        new.pending = self.pending
        new.rng = self.rng
        new.over = self.over
        new.ending = self.ending
        new.end_reason = self.end_reason
        new.phase = self.phase
        new.log = self.log
        new.move_count = self.move_count
        new.drawing = self.drawing
        new._moves = None
        new._shown = None
        new._where = self._where  # checked against the zones before use
        new._settled = None
        new._listing = None
        return new

    # -- identity ----------------------------------------------------------
    def to_data(self) -> dict:
        """Plain JSON-able data; items become their ids.  A chance point inside a step
        adds what it holds (states elsewhere keep the data they always had)."""
        data = {
            "vars": {k: to_plain(v) for k, v in sorted(self.vars.items())},
            "zones": {k: to_plain(v) for k, v in sorted(self.zones.items())},
            "props": {k: to_plain(v) for k, v in sorted(self.props.items())},
            "locals": {k: to_plain(v) for k, v in sorted(self.locals.items())},
            "pc": self.pc,
            "pending": list(self.pending),
            "rng": self.rng,
            "over": self.over,
            "ending": self.ending,
            "end_reason": self.end_reason,
            "phase": self.phase,
            "move_count": self.move_count,
        }
        if self.drawing is not None:
            data["drawing"] = self.drawing.to_data()
        return data

    def key(self) -> str:
        """A stable digest: equal for states that play identically from here."""
        data = self.to_data()
        del data["move_count"]
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
        return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()

    def __eq__(self, other):
        return isinstance(other, State) and self.to_data() == other.to_data() and self.log == other.log

    __hash__ = None

    def __repr__(self) -> str:
        """A one-line summary for a console or a debugger.  It holds the whole state (a
        state is the referee's, not a player's): `Game.render(state, p)` is a player's."""
        where = f"over ({self.end_reason})" if self.over else f"pc={self.pc}" + (f" phase={self.phase}" if self.phase else "")
        shown = ", ".join(f"{k}={_brief(v)}" for k, v in sorted(self.vars.items()))
        return f"<State {where}, move {self.move_count}: {_cut(shown, 400)}>"


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _brief(value) -> str:
    return _cut(repr(value), 60)


_AS_IS = frozenset({int, str, bool, float, type(None)})


def to_plain(value):
    """JSON-able data for a state's value.  Keys and digests of every state go through
    here, so the common shapes (a scalar, a list of scalars or of items) take short paths
    before the general ones, with the same results."""
    t = type(value)
    if t in _AS_IS:
        return value
    if t is tuple:
        return [v if type(v) in _AS_IS else {"$item": v.id} if type(v) is Item else to_plain(v) for v in value]
    if t is Item:
        return {"$item": value.id}
    if isinstance(value, Item):
        return {"$item": value.id}
    if isinstance(value, tuple):
        return [to_plain(v) for v in value]
    if isinstance(value, list):
        return {"$list": [to_plain(v) for v in value]}
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {"$map": {k: to_plain(v) for k, v in sorted(value.items())}}
        return {"$pairs": [[to_plain(k), to_plain(v)] for k, v in sorted(value.items(), key=_sort_key)]}
    if isinstance(value, (frozenset, set)):
        return {"$set": sorted(to_plain(v) for v in value)}
    return value


def _sort_key(kv):
    k = kv[0]
    return (type(k).__name__, str(k))


def from_plain(value, items: dict):
    if isinstance(value, list):
        return tuple(from_plain(v, items) for v in value)
    if isinstance(value, dict):
        if "$item" in value:
            return items[value["$item"]]
        if "$map" in value:
            return {k: from_plain(v, items) for k, v in value["$map"].items()}
        if "$pairs" in value:
            return {_hashable(from_plain(k, items)): from_plain(v, items) for k, v in value["$pairs"]}
        if "$list" in value:
            return [from_plain(v, items) for v in value["$list"]]
        if "$set" in value:
            return frozenset(from_plain(v, items) for v in value["$set"])
        raise ValueError(f"unknown value form {sorted(value)}")
    return value


def _hashable(v):
    return v
