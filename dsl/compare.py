"""Equality, membership, ordering and strict keys of values, charged for their work.

Comparing two lists walks them, and values can share structure (a list holding
the same list many times), so an unguarded comparison can do work out of all
proportion to the expression that asked for it.  Every walk here is charged to
the evaluation's cost counter (`ctx.charge`) once it is longer than SCAN_FREE
elements, and every step into a nested list or map costs at least 1: whatever
is not charged is then at most SCAN_FREE steps per charged unit.

`ctx` may be None where no evaluation is running (tests, the interpreter's own
bookkeeping); nothing is charged then.
"""
from __future__ import annotations

from .eval_errors import EvalError
from .values import Item

# A walk of at most this many flat elements is not charged: its work is covered by the
# step (a loop iteration, a call) that led to it, and charging it would cost as much.
SCAN_FREE = 32

_FLAT = frozenset({int, str, bool, type(None), Item})
_SEQ = (tuple, list)
# A set is a frozenset of ints or of texts (dsl/sets.py), so Python's equality and
# membership on it are the language's.
# The language's type of a Python type: values read from YAML are subclasses (LInt, LStr,
# LList, LDict carry their place in the file), and a list may be a Python list.
_KINDS: dict = {int: int, str: str, bool: bool, type(None): type(None), Item: Item,
                tuple: tuple, list: tuple, dict: dict, frozenset: frozenset}


def _kind(v):
    t = type(v)
    k = _KINDS.get(t)
    if k is None:
        k = next((base for base in (bool, int, str, tuple, dict, Item, frozenset) if isinstance(v, base)), None)
        k = tuple if k is None and isinstance(v, list) else (k or t)
        _KINDS[t] = k
    return k


def fail(message: str, span=None):
    raise EvalError("R701", message, span)


def charge(ctx, n: int, span=None) -> None:
    """Charge n steps; a limit error without a place gets `span`."""
    if ctx is None:
        return
    try:
        ctx.charge(n)
    except EvalError as exc:
        if exc.span is None:
            exc.span = span
        raise


def charge_scan(ctx, n: int, span=None) -> None:
    """Charge a walk of n flat elements, unless it is short."""
    if n > SCAN_FREE and ctx is not None:
        charge(ctx, n, span)


_NAMES = {type(None): "none", bool: "bool", int: "int", str: "str", tuple: "list", dict: "map",
          Item: "item", frozenset: "set"}


def kind_of(v) -> str:
    """The language's name for a value's type, for messages and checks."""
    return _NAMES.get(_kind(v)) or type(v).__name__


# -- equality ----------------------------------------------------------------------

def equal(a, b, ctx=None, span=None) -> bool:
    """The language's equality: by content, and values of different types differ
    (true is not 1).  Values never change in place, so a value equals itself."""
    try:
        return _equal(a, b, ctx)
    except EvalError as exc:
        if exc.span is None:
            exc.span = span
        raise


def _equal(a, b, ctx) -> bool:
    if a is b:
        return True
    t = type(a)
    if t is type(b):
        if t in _FLAT:
            return a == b
        if t is tuple:
            return _equal_seq(a, b, ctx)
        if t is dict:
            return _equal_map(a, b, ctx)
    k = _kind(a)
    if k is not _kind(b):
        return False
    if k is tuple:
        return _equal_seq(tuple(a), tuple(b), ctx)
    if k is dict:
        return _equal_map(a, b, ctx)
    if k is frozenset:
        charge_scan(ctx, min(len(a), len(b)))
    return a == b


def _equal_one(x, y, ctx) -> bool:
    if x is y:
        return True
    tx = type(x)
    if tx in _FLAT and type(y) is tx:
        return x == y
    k = _kind(x)
    if k is not _kind(y):
        return False
    if k is tuple or k is dict:
        if ctx is not None:
            ctx.charge(len(x) + 1)  # inside a value, every element costs, however short the list
        return _equal(x, y, None) if ctx is None else _equal_nested(x, y, ctx)
    if k is frozenset and ctx is not None:
        ctx.charge(len(x) + 1)
    return x == y


def _equal_nested(a, b, ctx) -> bool:
    """Equality one level down: already charged by the caller, so no free scan."""
    t = _kind(a)
    if t is tuple:
        a, b = tuple(a), tuple(b)
        if len(a) != len(b):
            return False
        return all(x is y or _equal_one(x, y, ctx) for x, y in zip(a, b))
    if t is dict:
        if len(a) != len(b):
            return False
        missing = object()
        return all((w := b.get(k, missing)) is not missing and _equal_one(v, w, ctx)
                   for k, v in a.items())
    return a == b


def _equal_seq(a: tuple, b: tuple, ctx) -> bool:
    n = len(a)
    if n != len(b):
        return False
    charge_scan(ctx, n)
    for x, y in zip(a, b):
        if x is not y and not _equal_one(x, y, ctx):
            return False
    return True


def _equal_map(a: dict, b: dict, ctx) -> bool:
    # Map keys are str or int only (map_key), so Python's key lookup is the language's.
    n = len(a)
    if n != len(b):
        return False
    charge_scan(ctx, n)
    missing = object()
    for k, v in a.items():
        w = b.get(k, missing)
        if w is missing or not _equal_one(v, w, ctx):
            return False
    return True


def same_as(v, ctx=None):
    """A predicate true exactly for the values the language calls equal to `v`."""
    t = _kind(v)
    if t in _FLAT:
        return lambda x: _kind(x) is t and x == v
    return lambda x: _equal(v, x, ctx)


# -- membership ---------------------------------------------------------------------

def contains(x, container, span=None, ctx=None) -> bool:
    """`x in container`: list membership, a map's keys, or a substring."""
    tc = _kind(container)
    if tc is tuple:
        n = len(container)
        tx = _kind(x)
        if tx is str or tx is Item or x is None:
            charge_scan(ctx, n, span)
            return x in container  # Python's equality is the language's for these
        if tx is int:
            charge_scan(ctx, n, span)
            if x not in container:
                return False
            if x != 0 and x != 1:
                return True  # only 0 and 1 are == to a bool in Python
            return any(_kind(e) is int and e == x for e in container)
        if tx is bool:
            charge_scan(ctx, n, span)
            return any(e is x for e in container)
        charge(ctx, n, span)  # a list or map is looked for element by element
        try:
            return any(_equal_one(x, e, ctx) for e in container)
        except EvalError as exc:
            if exc.span is None:
                exc.span = span
            raise
    if tc is dict:
        return map_key(x, span) in container
    if tc is frozenset:
        t = _kind(x)
        if t is not int and t is not str:
            fail(f"a set holds ints or texts, so a {kind_of(x)} is never in one", span)
        return x in container
    if tc is str:
        if _kind(x) is not str:
            fail(f"'in' a string needs a string on the left, found {kind_of(x)}", span)
        charge_scan(ctx, len(container), span)
        return x in container
    fail(f"'in' needs a list, set, map or string on the right, found {kind_of(container)}", span)


def map_key(k, span=None):
    """Map keys are str or int.  A bool is refused rather than silently merged with
    1 or 0 (Python's True == 1 would make `{true: 'a', 1: 'b'}` one entry)."""
    t = _kind(k)
    if t is str or t is int:
        return k
    fail(f"map keys are str or int, found {kind_of(k)}", span)


def map_has(m: dict, k, span=None) -> bool:
    return map_key(k, span) in m


# -- order and strict keys ------------------------------------------------------------

def order_key(v, span=None, ctx=None):
    """A Python-comparable form of v; refuses values that have no order.  A list's key
    is built element by element, so it is charged for every element."""
    t = _kind(v)
    if t is int or t is str or t is Item:
        return v
    if t is tuple:
        charge(ctx, len(v), span)
        return tuple(order_key(x, span, ctx) for x in v)
    fail(f"values of type {kind_of(v)} cannot be ordered", span)


def less(a, b, span=None, ctx=None) -> bool:
    try:
        return order_key(a, span, ctx) < order_key(b, span, ctx)
    except (TypeError, AttributeError):
        fail(f"cannot order {kind_of(a)} against {kind_of(b)}", span)


def strict_key(v, ctx=None):
    """A hashable stand-in under which two values are equal exactly when the
    language says so (unlike Python, true is not 1).  Charged per list or map."""
    t = _kind(v)
    if t is bool:
        return ("b", v)
    if t is int:
        return ("i", int(v))
    if t is str:
        return ("s", str(v))
    if v is None:
        return ("n",)
    if t is Item:
        return ("t", v.id)
    if t is tuple:
        charge(ctx, len(v))
        return ("l",) + tuple(strict_key(x, ctx) for x in v)
    if t is dict:
        charge(ctx, len(v))
        return ("m", frozenset((strict_key(k, ctx), strict_key(x, ctx)) for k, x in v.items()))
    if t is frozenset:
        charge(ctx, len(v))
        return ("e", frozenset(strict_key(x, ctx) for x in v))
    return ("o", id(v))
