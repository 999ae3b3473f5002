"""The library's functions that take a lambda (`x => ...`): filter, sort, take_while and the like.

Each function registers itself in the table (library_core.FUNCTIONS) when this module
is imported; dsl/functions.py imports every family."""
from __future__ import annotations

from . import sets
from .compare import fail
from .types import BOOL, INT, list_of
from .library_core import LIST, SET, _elem0, _fn, _pick, _same0, _sorted, truth, want_list


# -- higher-order --------------------------------------------------------------------

@_fn("filter", 2, 2, _same0, [LIST], lambdas=(1,), lambda_result=BOOL)
def _filter(ctx, xs, f):
    xs = want_list(xs, "the first argument of filter")
    ctx.charge(len(xs))
    return tuple(x for x in xs if truth(f(x), "the condition of filter"))


@_fn("count_if", 2, 2, INT, [LIST], lambdas=(1,), lambda_result=BOOL)
def _count_if(ctx, xs, f):
    xs = want_list(xs, "the first argument of count_if")
    ctx.charge(len(xs))
    return sum(1 for x in xs if truth(f(x), "the condition of count_if"))


def _sorter(reverse):
    def impl(ctx, xs, f=None):
        xs = sets.elements(xs) if isinstance(xs, frozenset) else want_list(xs, "the first argument")
        ctx.charge(len(xs))
        return _sorted(ctx, xs, xs if f is None else [f(x) for x in xs], reverse)
    return impl


def _sorted_type(ts, cs):
    return list_of(ts[0].args[0]) if ts and ts[0].name == "set" else _same0(ts, cs)


_fn("sort", 1, 2, _sorted_type, [(LIST, SET)], lambdas=(1,))(_sorter(False))
_fn("sort_desc", 1, 2, _sorted_type, [(LIST, SET)], lambdas=(1,))(_sorter(True))


def _while(taking: bool):
    """take_while / drop_while: the elements before the first that fails the condition,
    or those from it on.  Charged the list's length, as filter is."""
    def impl(ctx, xs, f):
        xs = want_list(xs, "the first argument")
        ctx.charge(len(xs))
        what = "the condition of " + ("take_while" if taking else "drop_while")
        at = next((i for i, x in enumerate(xs) if not truth(f(x), what)), len(xs))
        return xs[:at] if taking else xs[at:]
    return impl


_fn("take_while", 2, 2, _same0, [LIST], lambdas=(1,), lambda_result=BOOL)(_while(True))
_fn("drop_while", 2, 2, _same0, [LIST], lambdas=(1,), lambda_result=BOOL)(_while(False))


def _by(smallest):
    def impl(ctx, xs, f):
        xs = want_list(xs, "the first argument")
        if not xs:
            fail("the list is empty")
        ctx.charge(len(xs))
        return _pick(ctx, xs, [f(x) for x in xs], smallest)
    return impl


_fn("min_by", 2, 2, _elem0, [LIST], lambdas=(1,))(_by(True))
_fn("max_by", 2, 2, _elem0, [LIST], lambdas=(1,))(_by(False))
