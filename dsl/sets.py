"""Set values: what a set may hold, how one is made, and the order it is walked in.

A set is a Python frozenset of ints or of texts, never both and never anything else:

- a bool is refused because Python's `True == 1` would merge `true` with `1`, which
  the language keeps apart (the rule map keys follow, compare.map_key);
- one type per set because a state keeps a set as its sorted elements
  (interpreter/state.py `to_plain`), and ints and texts have no order between them;
  items and lists have none there either, so a set of cards is a set of their ids.

A frozenset has no order of its own (text hashes change from one run to the next), so
whatever walks or shows a set goes through `elements`: ascending, ints by value and
texts by character codes, the same in every run.
"""
from __future__ import annotations

from .compare import charge, fail, kind_of
from .eval_errors import EvalLimitError

MAX_SET = 100_000  # as a list or a map (functions.MAX_LIST)
EMPTY = frozenset()


def _rank(v):
    """A total order over what a set holds (a set read from elsewhere may mix them)."""
    return (0, v) if type(v) is int else (1, str(v))


def elements(s: frozenset) -> tuple:
    """The elements in ascending order: what a `for` walks and `str` writes."""
    if len(s) < 2:
        return tuple(s)
    try:
        return tuple(sorted(s))
    except TypeError:
        return tuple(sorted(s, key=_rank))


def element(v, span=None):
    """`v` as a set element: an int or a text (a bool, an item, a list... is refused)."""
    t = type(v)
    if t is int or t is str:
        return v
    if isinstance(v, (int, str)) and not isinstance(v, bool):  # a value read from YAML
        return int(v) if isinstance(v, int) else str(v)
    fail(f"a set holds ints or texts, found {kind_of(v)}", span)


def make(values, ctx=None, span=None) -> frozenset:
    """The set of `values` (any iterable), each checked, all of one type, charged one step
    per value."""
    values = tuple(values)
    charge(ctx, len(values), span)
    if len(values) > MAX_SET:
        raise EvalLimitError("R702", f"more than {MAX_SET:,} elements in one set", span)
    out = frozenset(element(v, span) for v in values)
    return checked(out, span)


def checked(s: frozenset, span=None) -> frozenset:
    """Refuse a set that mixes ints and texts (see the module)."""
    if len(s) > MAX_SET:
        raise EvalLimitError("R702", f"more than {MAX_SET:,} elements in one set", span)
    kinds = {type(v) for v in s}
    if len(kinds) > 1:
        fail("a set holds ints or texts, not both", span)
    return s


def union(parts: list, span=None) -> frozenset:
    """The union of sets, each of one kind already: they must be of the same kind (one
    element of each tells), and no larger than a set may be."""
    if len({type(next(iter(p))) for p in parts if p}) > 1:
        fail("a set holds ints or texts, not both", span)
    out = frozenset().union(*parts)
    if len(out) > MAX_SET:
        raise EvalLimitError("R702", f"more than {MAX_SET:,} elements in one set", span)
    return out


def render(s: frozenset, item_text) -> str:
    """`{1, 2}` in ascending order; the empty set is `set()` (`{}` is the empty map)."""
    if not s:
        return "set()"
    return "{" + ", ".join(item_text(v) for v in elements(s)) + "}"
