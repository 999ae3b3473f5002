"""Static types of the expression language (gradual: ANY matches everything).

The checker uses them to reject what can be known wrong before a game runs —
a precondition that is not a boolean, `silver + "x"` — and to let the rest through.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Type:
    name: str  # int, bool, str, none, any, list, set, map, item, zone
    args: tuple = ()

    def __str__(self) -> str:
        if self.name == "list":
            return f"list[{self.args[0]}]"
        if self.name == "set":
            return f"set[{self.args[0]}]"
        if self.name == "map":
            return f"map[{self.args[0]}, {self.args[1]}]"
        if self.name == "item":
            return f"item[{self.args[0]}]" if self.args and self.args[0] else "item"
        return self.name

    def accepts(self, other: "Type") -> bool:
        """True if a value of type `other` may be used where `self` is expected."""
        if self.name == "any" or other.name == "any":
            return True
        if self.name != other.name:
            return False
        if not self.args or not other.args:
            return True
        return all(a.accepts(b) if isinstance(a, Type) else (a is None or b is None or a == b)
                   for a, b in zip(self.args, other.args))


ANY = Type("any")
INT = Type("int")
BOOL = Type("bool")
STR = Type("str")
NONE = Type("none")


def list_of(t: Type = ANY) -> Type:
    return Type("list", (t,))


def set_of(t: Type = ANY) -> Type:
    """A set's elements are ints or texts (functions.set_element), so T is int, str or any."""
    return Type("set", (t,))


def map_of(k: Type = ANY, v: Type = ANY) -> Type:
    return Type("map", (k, v))


def item_of(kind: str | None = None) -> Type:
    return Type("item", (kind,))


def element_type(t: Type) -> Type:
    """What iterating over a value of type t yields."""
    if t.name in ("list", "set") and t.args:
        return t.args[0]
    if t.name == "map" and t.args:
        return t.args[0]
    if t.name == "str":
        return STR
    return ANY


MAX_TYPE_DEPTH = 32  # list[list[...]] nested deeper is refused (T405)


def type_depth(text: str) -> int:
    """How deeply the brackets of a type's text nest."""
    depth = deepest = 0
    for ch in text:
        if ch == "[":
            depth += 1
            deepest = max(deepest, depth)
        elif ch == "]":
            depth -= 1
    return deepest


def parse_type_name(text: str) -> Type | None:
    """Read a declared type such as `int`, `list[int]`, `map[str, int]`, `item[card]`;
    None if it is not one, or nests deeper than MAX_TYPE_DEPTH."""
    if type_depth(text) > MAX_TYPE_DEPTH:
        return None
    return _parse(text)


def _parse(text: str) -> Type | None:
    text = text.strip()
    simple = {"int": INT, "bool": BOOL, "str": STR, "any": ANY, "player": INT, "item": item_of()}
    if text in simple:
        return simple[text]
    if text.endswith("]") and "[" in text:
        head, inner = text[:-1].split("[", 1)
        parts = _split_top(inner)
        if head == "list" and len(parts) == 1:
            arg = _parse(parts[0])
            return list_of(arg) if arg else None
        if head == "set" and len(parts) == 1:
            arg = _parse(parts[0])
            return set_of(arg) if arg in (INT, STR, ANY) else None
        if head == "map" and len(parts) == 2:
            k, v = _parse(parts[0]), _parse(parts[1])
            return map_of(k, v) if k and v else None
        if head == "item" and len(parts) == 1:
            return item_of(parts[0].strip())
    return None


def _split_top(text: str) -> list[str]:
    depth, start, out = 0, 0, []
    for i, ch in enumerate(text):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return [p.strip() for p in out]
