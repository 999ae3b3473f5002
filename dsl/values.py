"""Runtime values that are not plain Python data: component items.

Everything else an expression sees is an int, bool, str, None, tuple (a list)
or dict (a map, never mutated in place).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True, eq=False)
class Item:
    """One physical component (a card, tile, token).  Identity is its id."""

    id: str
    kind: str
    fields: MappingProxyType = field(repr=False)

    def __eq__(self, other):
        # Each id has one Item per game, so `is` settles most comparisons; membership
        # tests and list searches call this for every element.
        return other is self or (type(other) is Item and other.id == self.id)

    def __hash__(self):
        return hash(self.id)

    def __lt__(self, other):
        return self.id < other.id

    def __repr__(self):
        return self.id

    def __str__(self):
        return self.id


def option_value(v):
    """An option's value as the language holds it: options come from YAML or the command
    line, where a list is a Python list; the language's lists are tuples."""
    if isinstance(v, list):
        return tuple(option_value(x) for x in v)
    if isinstance(v, dict):
        return {k: option_value(x) for k, x in v.items()}
    return v
