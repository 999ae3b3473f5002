"""The library's set functions (the values themselves are dsl/sets.py's).

Each function registers itself in the table (library_core.FUNCTIONS) when this module
is imported; dsl/functions.py imports every family."""
from __future__ import annotations

from . import sets
from .compare import fail, kind_of
from .types import ANY, INT, STR, element_type, set_of
from .library_core import LIST, MAP, SET, _fn, as_seq


# -- sets --------------------------------------------------------------------------------

def _set_type(ts, cs):
    elem = element_type(ts[0]) if ts else ANY
    return set_of(elem if elem in (INT, STR) else ANY)


@_fn("set", 0, 1, _set_type, [(LIST, SET, MAP, STR)])
def _set(ctx, xs=None):
    """The distinct elements of what a `for` walks (a list, a set, a map's keys, a text's
    characters); with no argument, the empty set."""
    if xs is None:
        return sets.EMPTY
    if isinstance(xs, frozenset):
        return xs
    return sets.make(as_seq(xs), ctx)


def _as_set(ctx, v, what: str) -> frozenset:
    if isinstance(v, frozenset):
        ctx.charge(len(v))
        return v
    if isinstance(v, (tuple, list)):
        return sets.make(v, ctx)
    fail(f"{what} must be a set or a list, found {kind_of(v)}")


def _sets_type(ts, cs):
    elems = {element_type(t) for t in ts}
    elem = elems.pop() if len(elems) == 1 else ANY
    return set_of(elem if elem in (INT, STR) else ANY)


@_fn("union", 1, None, _sets_type, [(SET, LIST)])
def _union(ctx, *parts):
    return sets.union([_as_set(ctx, p, "every argument of union") for p in parts])


@_fn("intersection", 1, None, _sets_type, [(SET, LIST)])
def _intersection(ctx, first, *rest):
    out = _as_set(ctx, first, "every argument of intersection")
    return out.intersection(*(_as_set(ctx, p, "every argument of intersection") for p in rest))


@_fn("difference", 2, 2, lambda ts, cs: _set_type(ts[:1], cs), [(SET, LIST)])
def _difference(ctx, a, b):
    return _as_set(ctx, a, "the first argument of difference") - \
        _as_set(ctx, b, "the second argument of difference")
