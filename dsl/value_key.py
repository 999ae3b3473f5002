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
    parts: list[str] = []
    _write(value, parts, ctx, 0)
    text = "".join(parts)
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _write(v, out: list, ctx, depth: int) -> None:
    if depth > MAX_KEY_DEPTH:
        fail(f"key_of: a value nested more than {MAX_KEY_DEPTH} levels deep")
    if v is None:
        out.append("n")
    elif v is True or v is False:
        out.append("t" if v else "f")
    elif isinstance(v, bool):
        out.append("t" if v else "f")
    elif isinstance(v, int):
        out.append(f"i{int(v)};")
    elif isinstance(v, str):
        out.append(f"s{len(v)}:{v}")
    elif isinstance(v, Item):
        out.append(f"@{len(v.id)}:{v.id}")
    elif isinstance(v, Fraction):
        out.append(f"q{v.numerator}/{v.denominator};")
    elif isinstance(v, (tuple, list)):
        charge(ctx, len(v))
        out.append(f"[{len(v)}:")
        for x in v:
            _write(x, out, ctx, depth + 1)
    elif isinstance(v, dict):
        charge(ctx, len(v))
        entries = []
        for k, x in v.items():  # a map's order does not count: its entries are sorted by their texts
            written: list[str] = []
            _write(k, written, ctx, depth + 1)
            _write(x, written, ctx, depth + 1)
            entries.append("".join(written))
        out.append(f"{{{len(v)}:")
        out.extend(f"{len(e)}:{e}" for e in sorted(entries))
    elif isinstance(v, frozenset):
        charge(ctx, len(v))
        out.append(f"<{len(v)}:")
        for x in elements(v):
            _write(x, out, ctx, depth + 1)
    else:
        fail(f"key_of cannot write a value of type {kind_of(v)}")
