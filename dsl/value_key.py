"""`key_of(x)`: a short text that stands for a value, for rules about repeated positions.

A ruleset that forbids repeating a position keeps the positions it has seen; keeping
each whole (a board of 64 cells per move) would make every state carry all of them,
so it keeps a key per position instead.  The key must be:

- equal for values the language calls equal: a map's key order does not count
  (`{'a': 1, 'b': 2} == {'b': 2, 'a': 1}`), a set is walked in its own order, an item
  is its id;
- different for values it calls different: `1`, `true`, `'1'` and an item with id
  `1` differ, as do `[[1], 2]` and `[1, [2]]`;
- the same in every run, on every machine and in every save (Python's `hash` of a
  text changes from one run to the next, so it is not used).

So the value is written as a canonical text, each part tagged with its type and every
text preceded by its length (no part can be read as the start of another), and the
key is that text's 128-bit BLAKE2b digest in hex, as `State.key` digests a state: two
different values share a key with a chance far below any hardware error.  Writing a
list, map or set charges its length, as `strict_key` does.
"""
from __future__ import annotations

import hashlib
from fractions import Fraction

from .compare import charge, fail, kind_of
from .sets import elements
from .values import Item

MAX_KEY_DEPTH = 200  # a stored value nests at most 64 levels (functions.MAX_DEPTH)


def key_of(value, ctx=None) -> str:
    text = _text(value, ctx, 0)
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _flat(v) -> str | None:
    """The text of a value of one of the common exact types, else None."""
    t = type(v)
    if t is str:
        return f"s{len(v)}:{v}"
    if t is int:
        return f"i{v};"
    if v is None:
        return "n"
    if t is bool:
        return "t" if v else "f"
    if t is Item:
        return f"@{len(v.id)}:{v.id}"
    return None


def _text(v, ctx, depth: int) -> str:
    flat = _flat(v)
    if flat is not None:
        return flat
    if depth > MAX_KEY_DEPTH:
        fail(f"key_of: a value nested more than {MAX_KEY_DEPTH} levels deep")
    if isinstance(v, bool):
        return "t" if v else "f"
    if isinstance(v, int):  # an int read from YAML
        return f"i{int(v)};"
    if isinstance(v, str):
        return f"s{len(v)}:{v}"
    if isinstance(v, Fraction):
        return f"q{v.numerator}/{v.denominator};"
    if isinstance(v, (tuple, list)):
        charge(ctx, len(v))
        return f"[{len(v)}:" + "".join([_flat(x) or _text(x, ctx, depth + 1) for x in v])
    if isinstance(v, dict):
        charge(ctx, len(v))
        # a map's order does not count: its entries are sorted by their texts
        entries = sorted([(_flat(k) or _text(k, ctx, depth + 1)) + (_flat(x) or _text(x, ctx, depth + 1))
                          for k, x in v.items()])
        return f"{{{len(v)}:" + "".join([f"{len(e)}:{e}" for e in entries])
    if isinstance(v, frozenset):
        charge(ctx, len(v))
        return f"<{len(v)}:" + "".join([_flat(x) or _text(x, ctx, depth + 1) for x in elements(v)])
    fail(f"key_of cannot write a value of type {kind_of(v)}")
