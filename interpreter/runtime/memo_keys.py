"""Which arguments a definition's per-game memo may key on, for both back ends alike.

A definition that reads nothing of the state gives one value per set of arguments, so it
is worked out once per game.  Ints and texts are keys as they are; a list (a tuple at run
time) of them, nested or not, is one too: `ray(n, [dr, dc])` called from every cell
of a board would otherwise be worked out again at every call.  Booleans are not
keys: `[1]` and `[true]` are equal tuples in Python but different values in the language.
"""
from __future__ import annotations


def memo_keyable(value) -> bool:
    """Whether `value` may be part of a memo key: an int, a text, or a list of such."""
    t = type(value)
    if t is int or t is str:
        return True
    return t is tuple and all(memo_keyable(v) for v in value)
