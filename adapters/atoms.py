"""A move's arguments as one player may name them: *atoms*, small hashable tuples.

An item the mover sees whole is ("item", id); any other item is its handle,
("handle", zone, key, index, mark), mark "@" for a position the mover sees and "#"
for a rank where the order is hidden, so an action id never carries the identity or
the dealt order of an item its mover cannot see (the same rule as
`Game.move_text`, knowledge.py).
Numbers, texts, booleans and none are ("int", n), ("str", s), ("bool", b),
("none",); an exact fraction ("frac", numerator, denominator); a list is
("list", (atom, ...)) and a map ("map", ((key atom, value atom), ...)) in key order.
A map has an atom so that a move outside the table can still be ranked among the
others (action_table.py); no table numbers maps.
"""
from __future__ import annotations

from fractions import Fraction

from meeple.dsl.values import Item
from meeple.interpreter.runtime.knowledge import WHOLE, handle_text


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
    if isinstance(value, Fraction):
        return ("frac", value.numerator, value.denominator)
    if isinstance(value, (tuple, list)):
        return ("list", tuple(atom_of(v, namer) for v in value))
    if isinstance(value, dict):
        return ("map", tuple(sorted(((atom_of(k), atom_of(v, namer)) for k, v in value.items()), key=repr)))
    raise Unencodable(f"a value of type {type(value).__name__} ({value!r:.60})")


def has_items(value) -> bool:
    if isinstance(value, Item):
        return True
    if isinstance(value, dict):
        return any(has_items(v) for v in value.values())
    return isinstance(value, (tuple, list)) and any(has_items(v) for v in value)


def holds_map(atom) -> bool:
    """Whether a map is in the atom (no table numbers maps)."""
    if atom[0] == "map":
        return True
    return atom[0] == "list" and any(holds_map(a) for a in atom[1])


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
    if tag == "map":
        return "{" + ",".join(f"{atom_text(k)}:{atom_text(v)}" for k, v in atom[1]) + "}"
    if tag == "frac":
        return f"{atom[1]}/{atom[2]}"
    if tag == "none":
        return "none"
    if tag == "bool":
        return "true" if atom[1] else "false"
    return str(atom[1])


def sort_key(atom) -> str:
    """Atoms of different kinds sort together, the same way in every process."""
    return repr(atom)
