"""A move's arguments as one player may name them: *atoms*, small hashable tuples.

An item the mover sees whole is ("item", id); any other item is its handle,
("handle", zone, key, index, mark), mark "@" for a position the mover sees and "#"
for a rank where the order is hidden, so an action id never carries the identity or
the dealt order of an item its mover cannot see (the same rule as
`Game.move_text`, knowledge.py).
Numbers, texts, booleans and none are ("int", n), ("str", s), ("bool", b),
("none",); a list is ("list", (atom, ...)).
"""
from __future__ import annotations

from meeple.dsl.values import Item
from meeple.interpreter.knowledge import WHOLE, handle_text


class Unencodable(Exception):
    """A value no action table can hold (a mapping, a set...)."""


def atom_of(value, namer=None):
    """The atom of one argument; `namer` (Game.namer) names items for their mover."""
    if isinstance(value, Item):
        if namer is None or namer.sight(value) == WHOLE:
            return ("item", value.id)
        zone, key, index, mark = namer.handle(value)
        return ("handle", zone, key, index, mark)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, str):
        return ("str", value)
    if value is None:
        return ("none",)
    if isinstance(value, (tuple, list)):
        return ("list", tuple(atom_of(v, namer) for v in value))
    raise Unencodable(f"a value of type {type(value).__name__} ({value!r:.60})")


def has_items(value) -> bool:
    if isinstance(value, Item):
        return True
    return isinstance(value, (tuple, list)) and any(has_items(v) for v in value)


def atom_text(atom) -> str:
    """An atom as a person reads it, for error messages and action strings."""
    tag = atom[0]
    if tag == "item":
        return atom[1]
    if tag == "handle":
        _, zone, key, index, mark = atom
        return handle_text((zone, key, index), mark)
    if tag == "list":
        return "[" + ",".join(atom_text(a) for a in atom[1]) + "]"
    if tag == "none":
        return "none"
    if tag == "bool":
        return "true" if atom[1] else "false"
    return str(atom[1])


def sort_key(atom) -> str:
    """Atoms of different kinds sort together, the same way in every process."""
    return repr(atom)
