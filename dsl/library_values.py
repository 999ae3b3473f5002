"""The library's functions of plain values: numbers, texts, lists and maps.

Each function registers itself in the table (library_core.FUNCTIONS) when this module
is imported; dsl/functions.py imports every family."""
from __future__ import annotations

import itertools
import re
from fractions import Fraction

from .compare import charge_scan, fail, kind_of, map_key, same_as, strict_key
from .eval_errors import EvalLimitError
from .types import ANY, BOOL, INT, STR, element_type, item_of, list_of
from .value_key import key_of
from .library_core import (FUNCTIONS, Function, LIST, MAP, MAX_LIST, MAX_RANGE, MAX_STR, SEQ,
                           _elem0, _fn, _pick, _same0, check_int, check_list, check_str, is_int,
                           render, truth, want_int, want_list, want_map)


@_fn("len", 1, 1, INT, [SEQ])
def _len(ctx, x):
    if isinstance(x, (tuple, list, dict, str, frozenset)):
        return len(x)
    fail(f"len needs a list, set, map or string, found {kind_of(x)}")


FUNCTIONS["count"] = Function("count", 1, 1, lambda ts, cs: INT, _len, (SEQ,))


@_fn("sum", 1, 1, INT, [list_of(INT)])
def _sum(ctx, xs):
    xs = want_list(xs, "the argument of sum")
    ctx.charge(len(xs))
    total = 0
    for x in xs:
        total = check_int(total + want_int(x, "every element of sum"))
    return total


def _minmax_type(ts, cs):
    return _elem0(ts, cs) if len(ts) == 1 else ts[0]


def _minmax(smallest):
    def impl(ctx, *args):
        xs = want_list(args[0], "the argument") if len(args) == 1 else args
        if not xs:
            fail(f"{'min' if smallest else 'max'} of an empty list")
        ctx.charge(len(xs))
        return _pick(ctx, xs, xs, smallest)
    return impl


_fn("min", 1, None, _minmax_type)(_minmax(True))
_fn("max", 1, None, _minmax_type)(_minmax(False))


def _anyall(stop_on):
    def impl(ctx, xs):
        if isinstance(xs, (tuple, list)):
            ctx.charge(len(xs))
        elif not hasattr(xs, "__next__"):
            fail(f"expected a list, found {kind_of(xs)}")
        for x in xs:
            if truth(x, "every element") is stop_on:
                return stop_on
        return not stop_on
    return impl


_fn("any", 1, 1, BOOL, [list_of(BOOL)], lazy=True)(_anyall(True))
_fn("all", 1, 1, BOOL, [list_of(BOOL)], lazy=True)(_anyall(False))


@_fn("abs", 1, 1, INT, [INT])
def _abs(ctx, x):
    return abs(want_int(x, "the argument of abs"))


@_fn("range", 1, 3, list_of(INT), [INT])
def _range(ctx, a, b=None, step=None):
    lo, hi = (0, want_int(a, "the end")) if b is None else (want_int(a, "the start"), want_int(b, "the end"))
    if step is None:
        if hi - lo > MAX_RANGE:
            raise EvalLimitError("R702", f"range of more than {MAX_RANGE:,} numbers")
        ctx.charge(max(0, hi - lo))
        return tuple(range(lo, hi))
    if want_int(step, "the step") == 0:
        fail("the step of range cannot be 0")
    numbers = range(lo, hi, step)
    if len(numbers) > MAX_RANGE:
        raise EvalLimitError("R702", f"range of more than {MAX_RANGE:,} numbers")
    ctx.charge(len(numbers))
    return tuple(numbers)


def _end(at):
    def impl(ctx, xs):
        xs = want_list(xs, "the argument")
        if not xs:
            fail("the list is empty")
        return xs[at]
    return impl


for _name, _at in (("first", 0), ("top", 0), ("last", -1)):
    _fn(_name, 1, 1, _elem0, [LIST])(_end(_at))


@_fn("reverse", 1, 1, _same0, [LIST])
def _reverse(ctx, xs):
    xs = want_list(xs, "the argument of reverse")
    ctx.charge(len(xs))
    return xs[::-1]


@_fn("unique", 1, 1, _same0, [LIST])
def _unique(ctx, xs):
    xs = want_list(xs, "the argument of unique")
    ctx.charge(len(xs))
    seen, out = set(), []
    for x in xs:
        k = strict_key(x, ctx)
        if k not in seen:
            seen.add(k)
            out.append(x)
    return tuple(out)


@_fn("keys", 1, 1, lambda ts, cs: list_of(ts[0].args[0] if ts[0].name == "map" else ANY), [MAP])
def _keys(ctx, m):
    m = want_map(m, "the argument of keys")
    ctx.charge(len(m))
    return tuple(m)


@_fn("values", 1, 1, lambda ts, cs: list_of(ts[0].args[1] if ts[0].name == "map" else ANY), [MAP])
def _values(ctx, m):
    m = want_map(m, "the argument of values")
    ctx.charge(len(m))
    return tuple(m.values())


def _items_type(ts, cs):
    if ts[0].name == "str" or isinstance(cs[0], str):
        return list_of(item_of(cs[0] if isinstance(cs[0], str) else None))
    return list_of(LIST)


@_fn("items", 1, 1, _items_type, [(MAP, STR)])
def _items(ctx, x):
    """items(map) lists its [key, value] pairs; items('kind') lists the components of a kind."""
    if isinstance(x, str):
        found = tuple(ctx.game.items_of(x))
        ctx.charge(len(found))
        return found
    m = want_map(x, "the argument of items")
    ctx.charge(len(m))
    return tuple((k, v) for k, v in m.items())


@_fn("concat", 1, None, lambda ts, cs: ts[0] if all(t == ts[0] for t in ts) else LIST, [LIST])
def _concat(ctx, *lists):
    parts = [want_list(x, "every argument of concat") for x in lists]
    out = tuple(itertools.chain.from_iterable(parts))
    ctx.charge(len(out))
    return check_list(out)


@_fn("index_of", 2, 2, INT, [LIST, None])
def _index_of(ctx, xs, v):
    xs = want_list(xs, "the first argument of index_of")
    ctx.charge(len(xs))
    same = same_as(v, ctx)
    return next((i for i, x in enumerate(xs) if same(x)), -1)


@_fn("count_of", 2, 2, INT, [LIST, None])
def _count_of(ctx, xs, v):
    xs = want_list(xs, "the first argument of count_of")
    ctx.charge(len(xs))
    same = same_as(v, ctx)
    return sum(1 for x in xs if same(x))


@_fn("str", 1, 1, STR, [None])
def _str(ctx, x):
    text = check_str(render(x))
    if isinstance(x, (tuple, list, dict, frozenset)):  # a list or map is walked to write it: charged for what it builds
        charge_scan(ctx, len(text))
    return text


_INT_TEXT = re.compile(r"\s*[-+]?[0-9]+\s*")


@_fn("int", 1, 1, INT, [(INT, STR, BOOL)])
def _int(ctx, x):
    if isinstance(x, bool):
        return int(x)
    if isinstance(x, int):
        return x
    if isinstance(x, str) and _INT_TEXT.fullmatch(x) and len(x) < 40:
        return check_int(int(x))
    fail(f"cannot read an int from {render(x, False)}")


@_fn("ceil_div", 2, 2, INT, [INT, INT])
def _ceil_div(ctx, a, b):
    if want_int(b, "the divisor") == 0:
        fail("division by zero")
    return -(-want_int(a, "the dividend") // b)


@_fn("fraction", 2, 2, ANY, [INT, INT])
def _fraction(ctx, a, b):
    """a/b exactly, in lowest terms: an int when b divides a, else a fraction.  A fraction
    is a finished value (a score, a tie-breaker, an estimate, compared with `==`): the
    operators take ints, so the arithmetic is done on ints before the one division."""
    if want_int(b, "the denominator") == 0:
        fail("division by zero")
    q = Fraction(want_int(a, "the numerator"), b)
    return q.numerator if q.denominator == 1 else q


@_fn("clamp", 3, 3, INT, [INT, INT, INT])
def _clamp(ctx, x, lo, hi):
    x, lo, hi = (want_int(v, "every argument of clamp") for v in (x, lo, hi))
    if lo > hi:
        fail(f"clamp bounds are reversed: {lo} > {hi}")
    return max(lo, min(x, hi))


def _comb_capped(n: int, k: int) -> int:
    """n choose k, but stops growing once past the list limit (huge n must stay cheap)."""
    c = 1
    for i in range(min(k, n - k)):
        c = c * (n - i) // (i + 1)
        if c > MAX_LIST:
            return c
    return c


@_fn("subsets", 2, 3, lambda ts, cs: list_of(_same0(ts, cs)), [LIST, INT, INT])
def _subsets(ctx, xs, kmin, kmax=None):
    xs = want_list(xs, "the first argument of subsets")
    kmin = want_int(kmin, "the size")
    kmax = kmin if kmax is None else want_int(kmax, "the largest size")
    sizes = range(max(0, kmin), min(len(xs), kmax) + 1)
    total = 0
    for k in sizes:
        total += _comb_capped(len(xs), k)
        if total > MAX_LIST:
            raise EvalLimitError("R702", f"more than {MAX_LIST:,} subsets")
    ctx.charge(total)
    return tuple(c for k in sizes for c in itertools.combinations(xs, k))


@_fn("get", 3, 3, lambda ts, cs: element_type(ts[0]) if ts[0].name == "list"
     else (ts[0].args[1] if ts[0].name == "map" else ANY), [(MAP, LIST), None, None])
def _get(ctx, m, key, default):
    if isinstance(m, dict):
        return m.get(map_key(key), default)
    xs = want_list(m, "the first argument of get")
    i = want_int(key, "a list position")
    return xs[i] if -len(xs) <= i < len(xs) else default


@_fn("with_key", 3, 3, lambda ts, cs: ts[0] if ts[0].name == "map" else MAP, [MAP, (STR, INT), None])
def _with_key(ctx, m, key, value):
    out = dict(want_map(m, "the first argument of with_key"))
    out[map_key(key)] = value
    ctx.charge(len(out))
    if len(out) > MAX_LIST:
        raise EvalLimitError("R702", f"map larger than {MAX_LIST:,} entries")
    return out


@_fn("zip", 2, 2, list_of(LIST), [LIST, LIST])
def _zip(ctx, a, b):
    a, b = want_list(a, "the first argument of zip"), want_list(b, "the second argument of zip")
    ctx.charge(min(len(a), len(b)))
    return tuple(zip(a, b))


@_fn("join", 2, 2, STR, [LIST, STR])
def _join(ctx, xs, sep):
    """The texts of a list joined by `sep`; numbers are written as digits.  Anything else
    (a bool, an item, a list) is refused: `str` says how it wants it written."""
    xs = want_list(xs, "the first argument of join")
    if not isinstance(sep, str):
        fail(f"the separator of join must be a text, found {kind_of(sep)}")
    ctx.charge(len(xs))
    parts, size = [], -len(sep)
    for x in xs:
        if isinstance(x, str):
            parts.append(x)
        elif is_int(x):
            parts.append(str(int(x)))
        else:
            fail(f"join writes texts and numbers, found {kind_of(x)}")
        size += len(sep) + len(parts[-1])
        if size > MAX_STR:  # said before the text is made
            raise EvalLimitError("R702", f"string longer than {MAX_STR:,} characters")
    return sep.join(parts)


@_fn("key_of", 1, 1, STR, [None])
def _key_of(ctx, x):
    return key_of(x, ctx)
