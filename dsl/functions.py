"""The fixed function library, and the value rules every evaluator shares.

One table serves the type checker (arity, argument and result types) and both
evaluators (the implementation), so the three can never disagree about what a
function is.  Implementations take `(ctx, *args)`, charge the cost counter for
the elements they walk, and fail only with EvalError (span None: the calling
node fills it in).  Higher-order functions receive a lambda as a plain Python
callable of one argument.
"""
from __future__ import annotations

import itertools
import re
from fractions import Fraction
from dataclasses import dataclass
from typing import Any, Callable

import networkx as nx

# The value rules are re-exported: the evaluators and tests take them from here.
from .compare import (SCAN_FREE, charge_scan, contains, equal, fail, kind_of, less, map_key,  # noqa: F401
                      order_key, same_as, strict_key)
from . import board_edges, grid, sets
from .eval_errors import EvalLimitError
from .types import ANY, BOOL, INT, STR, Type, element_type, item_of, list_of, map_of, set_of
from .value_key import key_of

MAX_INT = 10**18
MAX_LIST = 100_000
MAX_STR = 10_000
MAX_RANGE = 100_000
MAX_DEPTH = 64  # lists and maps inside each other, in a value the state keeps


# -- value rules -------------------------------------------------------------------
# Equality, membership and order live in compare.py, charged for their work.

MAX_CALL_DEPTH = 64  # definitions calling definitions, nested
CALL_COST = 20  # what one call of a definition costs on the cost counter


def enter_call(ctx, name: str) -> int:
    """Charge a call of definition `name` and go one level deeper; returns the depth to
    restore in `ctx.call_depth` when the call is over."""
    depth = getattr(ctx, "call_depth", 0)
    if depth >= MAX_CALL_DEPTH:
        raise EvalLimitError("R702", f"definitions call each other more than {MAX_CALL_DEPTH} "
                             f"levels deep (in '{name}')")
    ctx.charge(CALL_COST)
    ctx.call_depth = depth + 1
    return depth


def is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_int(v, span=None):
    if -MAX_INT <= v <= MAX_INT:
        return v
    raise EvalLimitError("R702", "integer result beyond ±10**18", span)


def check_list(t, span=None):
    if len(t) > MAX_LIST:
        raise EvalLimitError("R702", f"more than {MAX_LIST:,} elements in one list or map", span)
    return t


def check_str(s, span=None):
    if len(s) > MAX_STR:
        raise EvalLimitError("R702", f"string longer than {MAX_STR:,} characters", span)
    return s


def arith(op: str, a, b, span=None, ctx=None):
    """`a op b` by the language's rules: ints within ±10**18; `+` also joins two strings
    or two lists (charged for the copy).  Shared by the compiler's slow path and effects."""
    if is_int(a) and is_int(b):
        if op == "**":
            return power(a, b, span)
        if op in ("//", "%") and b == 0:
            fail("division by zero" if op == "//" else "modulo by zero", span)
        r = a + b if op == "+" else a - b if op == "-" else a * b if op == "*" else \
            a // b if op == "//" else a % b
        return check_int(r, span)
    if op == "+":
        if isinstance(a, str) and isinstance(b, str):
            charge_scan(ctx, len(a) + len(b), span)
            return check_str(a + b, span)
        if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
            charge_scan(ctx, len(a) + len(b), span)
            return check_list(tuple(a) + tuple(b), span)
    fail(f"'{op}' cannot combine {kind_of(a)} and {kind_of(b)}", span)


# |base| >= 2 to this power is past MAX_INT (2**60 > 10**18): refused before Python works
# out a number of millions of digits.
_POWER_LIMIT = 60


def power(a: int, b: int, span=None) -> int:
    """`a ** b` for ints: a whole number, so the exponent may not be negative (R701), and
    within ±10**18 like every result (R702)."""
    if b < 0:
        fail(f"'**' needs an exponent of at least 0, found {b}", span)
    if a in (0, 1) or b == 0:
        return 1 if b == 0 else a
    if a == -1:
        return -1 if b % 2 else 1
    if b >= _POWER_LIMIT:
        raise EvalLimitError("R702", "integer result beyond ±10**18", span)
    return check_int(a ** b, span)


def slice_of(o, start, stop, step, span=None, ctx=None):
    """`o[start:stop:step]` of a list or a text, as Python slices (positions past either
    end are clamped, negative ones count from the end); a part left out is None.  The
    copy is charged for its length, as `+` is."""
    if not isinstance(o, (tuple, list, str)):
        fail(f"only a list or a text can be sliced, found {kind_of(o)}", span)
    for bound, what in ((start, "start"), (stop, "end"), (step, "step")):
        if bound is not None and not is_int(bound):
            fail(f"the {what} of a slice must be int, found {kind_of(bound)}", span)
    if step == 0:
        fail("the step of a slice cannot be 0", span)
    part = o[start:stop:step]
    charge_scan(ctx, len(part), span)
    return part if isinstance(o, str) else tuple(part)


def want_int(v, what: str):
    if not is_int(v):
        fail(f"{what} must be int, found {kind_of(v)}")
    return v


def want_list(v, what: str) -> tuple:
    if type(v) is tuple:
        return v
    if isinstance(v, (tuple, list)):
        return tuple(v)
    fail(f"{what} must be a list, found {kind_of(v)}")


def want_map(v, what: str) -> dict:
    if isinstance(v, dict):
        return v
    fail(f"{what} must be a map, found {kind_of(v)}")


def _sorted(ctx, xs, keys, reverse=False):
    """Stable sort of xs by keys, with errors in the language's terms."""
    ks = [order_key(k, None, ctx) for k in keys]
    try:
        order = sorted(range(len(xs)), key=ks.__getitem__, reverse=reverse)
    except (TypeError, AttributeError):
        fail("cannot sort values of different types")
    return tuple(xs[i] for i in order)


def _pick(ctx, xs, keys, smallest: bool):
    ks = [order_key(k, None, ctx) for k in keys]
    try:
        i = (min if smallest else max)(range(len(xs)), key=ks.__getitem__)
    except (TypeError, AttributeError):
        fail("cannot compare values of different types")
    return xs[i]


def as_seq(v, span=None) -> tuple:
    """What a `for` walks: list elements, map keys, string characters, a set's elements
    in ascending order."""
    if type(v) is tuple:
        return v
    if isinstance(v, (tuple, list)):
        return tuple(v)
    if isinstance(v, dict):
        return tuple(v)
    if isinstance(v, str):
        return tuple(v)
    if isinstance(v, frozenset):
        return sets.elements(v)
    fail(f"cannot iterate over {kind_of(v)}", span)


def truth(v, what: str, span=None) -> bool:
    if v is True or v is False:
        return v
    fail(f"{what} must be bool, found {kind_of(v)}", span)


def render(v, top: bool = True) -> str:
    """The text form of a value, as `str(x)` shows it; refuses to build huge text."""
    if isinstance(v, (tuple, list, dict, frozenset)):
        parts: list[str] = []
        _render_into(v, parts, [0])
        return "".join(parts)
    return _render_flat(v, top)


def _render_into(v, parts: list, size: list) -> None:
    if isinstance(v, frozenset):
        text = sets.render(v, lambda x: _render_flat(x, False))
        parts.append(text)
        size[0] += len(text)
    elif isinstance(v, (tuple, list, dict)):
        pairs = v.items() if isinstance(v, dict) else ((None, x) for x in v)
        parts.append("{" if isinstance(v, dict) else "[")
        for i, (k, x) in enumerate(pairs):
            if i:
                parts.append(", ")
            if isinstance(v, dict):
                _render_into(k, parts, size)
                parts.append(": ")
            _render_into(x, parts, size)
        parts.append("}" if isinstance(v, dict) else "]")
        size[0] += 2
    else:
        text = _render_flat(v, False)
        parts.append(text)
        size[0] += len(text) + 2
    if size[0] > MAX_STR:
        raise EvalLimitError("R702", f"string longer than {MAX_STR:,} characters")


def _render_flat(v, top: bool) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return str(v) if top else "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return str(v)


# -- the table ---------------------------------------------------------------------

@dataclass(frozen=True)
class Function:
    name: str
    min_args: int
    max_args: int | None  # None: any number
    returns: Callable[[list, list], Type]  # (argument types, constant argument values) -> type
    impl: Callable[..., Any]
    params: tuple = ()  # per position: a Type, a tuple of Types (any of), or None; last repeats
    lambdas: tuple[int, ...] = ()  # positions that take `x => ...`
    lambda_result: Type | None = None
    lazy: bool = False  # a generator argument is passed unevaluated (any/all stop early)
    # True for the few functions that read the game's state beyond their arguments
    # (has_move): the caches that keep a library call's value per argument must not keep it.
    reads_state: bool = False
    # True for those that read the move counter (move_count): no variable, zone or property
    # holds it, so a cache keyed by what an expression reads must not keep their value.
    reads_moves: bool = False


FUNCTIONS: dict[str, Function] = {}
LIST, MAP, SET = list_of(ANY), map_of(ANY, ANY), set_of(ANY)
SEQ = (LIST, MAP, STR, SET)
NO_CONST = object()


def _fn(name, lo, hi, returns, params=(), lambdas=(), lambda_result=None, lazy=False, reads_state=False,
        reads_moves=False):
    if isinstance(returns, Type):
        fixed = returns
        returns = lambda ts, cs: fixed  # noqa: E731
    def register(impl):
        FUNCTIONS[name] = Function(name, lo, hi, returns, impl, tuple(params), tuple(lambdas),
                                   lambda_result, lazy, reads_state, reads_moves)
        return impl
    return register


def is_pure_library(name: str) -> bool:
    """A library function whose value depends on its arguments and the game alone."""
    fn = FUNCTIONS.get(name)
    return fn is not None and not fn.reads_state


def _elem0(ts, cs):
    return element_type(ts[0]) if ts else ANY


def _same0(ts, cs):
    return ts[0] if ts and ts[0].name == "list" else LIST


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


# -- players -------------------------------------------------------------------------

@_fn("players", 0, 0, list_of(INT))
def _players(ctx):
    return tuple(range(ctx.player_count))


@_fn("player_count", 0, 0, INT)
def _player_count(ctx):
    return ctx.player_count


@_fn("next_player", 1, 2, INT, [INT, INT])
def _next_player(ctx, p, k=1):
    n = ctx.player_count
    if n <= 0:
        fail("there are no players")
    return (want_int(p, "the player") + want_int(k, "the step")) % n


def _around(step):
    def impl(ctx, p):
        n = ctx.player_count
        p = want_int(p, "the player")
        ctx.charge(n)
        return tuple((p + step * i) % n for i in range(n))
    return impl


_fn("clockwise", 1, 1, list_of(INT), [INT])(_around(1))
_fn("counterclockwise", 1, 1, list_of(INT), [INT])(_around(-1))


@_fn("move_count", 0, 0, INT, reads_state=True, reads_moves=True)
def _move_count(ctx):
    """The moves the players have made so far (every decision, a pass included; chance
    outcomes are not moves), as the state counts them: a move limit needs no counter of
    the author's own.  Inside a move's costs and effects it is the count before that move;
    an end rule, checked after the move, sees it counted.  An initial value is the value
    before the first move: 0 (an item property's default has no state to read)."""
    state = getattr(ctx, "state", None)
    return 0 if state is None else state.move_count


@_fn("has_move", 2, 2, BOOL, [INT, LIST], reads_state=True)
def _has_move(ctx, p, actions):
    """Could player p make a move of one of these actions now?  The actions' own
    parameters, requirements and costs decide (Game.has_move), so a rule such as "a
    player who cannot move loses" needs no second copy of the move rules."""
    p = want_int(p, "the player")
    if not 0 <= p < ctx.player_count:
        fail(f"has_move: there is no player {p}")
    names = want_list(actions, "the actions")
    if any(not isinstance(n, str) for n in names):
        fail("has_move takes a list of action names")
    return ctx.game.has_move(ctx, p, names)


# -- boards --------------------------------------------------------------------------

# The functions whose first argument names a board: a name given as text is checked
# against the ruleset's boards when it is loaded (dsl/typecheck.py).
BOARD_FUNCTIONS = frozenset({"nodes", "nodes_where", "neighbours", "has_edge", "attr", "edge_attr",
                             "path", "distance", "reachable", "lines", "hop_targets", "within",
                             "cell", "row_of", "col_of", "step", "ray", "edges", "edges_of", "ends", "edge"})

def _board(ctx, b):
    if isinstance(b, nx.Graph):
        return b
    g = ctx.game.boards.get(b) if isinstance(b, str) else None
    if g is None:
        fail(f"there is no board {render(b, False)}")
    return g


def _node(g, n):
    if not isinstance(n, str) or n not in g:
        fail(f"the board has no node {render(n, False)}")
    return n


def _node_list(nodes) -> tuple:
    try:
        return tuple(sorted(nodes))
    except TypeError:
        return tuple(sorted(nodes, key=repr))


@_fn("nodes", 1, 1, list_of(STR))
def _nodes(ctx, b):
    g = _board(ctx, b)
    ctx.charge(len(g))
    cached = g.graph.get("_meeple_nodes")
    if cached is None:  # boards never change during a game, so the tuple is kept
        cached = g.graph["_meeple_nodes"] = tuple(g.nodes)
    return cached


@_fn("nodes_where", 3, 3, list_of(STR), [None, STR, None])
def _nodes_where(ctx, b, key, value):
    g = _board(ctx, b)
    ctx.charge(len(g))
    k = strict_key(value, ctx)
    cache = g.graph.setdefault("_meeple_where", {})
    hit = cache.get((key, k))
    if hit is None:
        hit = cache[(key, k)] = tuple(n for n, data in g.nodes(data=True)
                                      if key in data and strict_key(data[key]) == k)
    return hit


@_fn("neighbours", 2, 2, list_of(STR), [None, STR])
def _neighbours(ctx, b, n):
    g = _board(ctx, b)
    out = _node_list(g.neighbors(_node(g, n)))
    ctx.charge(len(out))
    return out


@_fn("has_edge", 3, 3, BOOL, [None, STR, STR])
def _has_edge(ctx, b, x, y):
    g = _board(ctx, b)
    return g.has_edge(_node(g, x), _node(g, y))


@_fn("attr", 3, 3, ANY, [None, STR, STR])
def _attr(ctx, b, n, key):
    """A missing attribute reads as none: boards often mark only some nodes."""
    g = _board(ctx, b)
    return g.nodes[_node(g, n)].get(key)


@_fn("edge_attr", 4, 4, ANY, [None, STR, STR, STR])
def _edge_attr(ctx, b, x, y, key):
    g = _board(ctx, b)
    if not g.has_edge(_node(g, x), _node(g, y)):
        fail(f"the board has no edge from {x} to {y}")
    return g.edges[x, y].get(key)


@_fn("path", 3, 3, list_of(STR), [None, STR, STR])
def _path(ctx, b, x, y):
    g = _board(ctx, b)
    ctx.charge(len(g))
    try:
        return tuple(nx.shortest_path(g, _node(g, x), _node(g, y)))
    except nx.NetworkXNoPath:
        return ()


@_fn("distance", 3, 3, INT, [None, STR, STR])
def _distance(ctx, b, x, y):
    g = _board(ctx, b)
    ctx.charge(len(g))
    try:
        return nx.shortest_path_length(g, _node(g, x), _node(g, y))
    except nx.NetworkXNoPath:
        return -1


@_fn("reachable", 3, 3, list_of(STR), [None, STR, LIST])
def _reachable(ctx, b, start, allowed):
    g = _board(ctx, b)
    start = _node(g, start)
    allowed = want_list(allowed, "the allowed nodes")
    charge_scan(ctx, len(allowed))
    adjacent = _adjacent(g)
    keep = _text_set(allowed) & adjacent.keys()
    keep.add(start)
    ctx.charge(len(keep))
    return _node_list(_walk_within(adjacent, start, keep))


def _walk_within(adjacent: dict, start, keep: set) -> set:
    """The nodes of `keep` reachable from `start` through nodes of `keep`, start excluded:
    what networkx's descendants of the kept subgraph give, without building a subgraph view
    per call (a wall check in a maze game walks the board hundreds of times a move)."""
    seen = {start}
    frontier = seen
    while frontier:
        ahead = set()
        for node in frontier:
            ahead.update(adjacent[node])
        ahead &= keep
        ahead -= seen
        seen |= ahead
        frontier = ahead
    seen.discard(start)
    return seen


_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
# On a hex grid (a rhombus, `shape: hex`) the straight lines run along rows, along columns
# and along the third axis, where the row goes up as the column goes down.
_HEX_DIRECTIONS = ((0, 1), (1, 0), (1, -1))


def _line_directions(g) -> tuple:
    return _HEX_DIRECTIONS if grid.is_hex(g) else _DIRECTIONS


@_fn("lines", 2, 2, list_of(list_of(STR)), [None, INT])
def _lines(ctx, b, k):
    """Straight runs of k nodes, computed once per board and length: along the lines the
    board declares (`lines:`), else along a grid's rows, columns and diagonals.  On a grid
    how far a run goes from each cell is counted first, so the work is the board's size
    and the answer's, whatever k is (a line longer than the board is simply not there)."""
    g = _board(ctx, b)
    k = want_int(k, "the line length")
    if k < 1:
        fail("lines need a length of at least 1")
    cache = g.graph.setdefault("_meeple_lines", {})
    declared = g.graph.get(board_edges.DECLARED_LINES)
    if k not in cache and declared is not None:
        ctx.charge(sum(len(line) for line in declared))
        cache[k] = board_edges.declared_runs(declared, k)
    if k not in cache:
        ctx.charge(len(g))
        runs = _grid_runs(g)
        at, directions = runs[0], _line_directions(g) if k > 1 else _DIRECTIONS[:1]
        starts = [(r, c, d) for (r, c) in sorted(at) for d in directions
                  if runs[1][d].get((r, c), 0) >= k]
        check_list(starts)
        ctx.charge(len(starts) * k)
        cache[k] = tuple(tuple(at[(r + i * dr, c + i * dc)] for i in range(k))
                         for r, c, (dr, dc) in starts)
    ctx.charge(len(cache[k]))
    return cache[k]


@_fn("edges", 1, 1, list_of(STR))
def _edges(ctx, b):
    """Every edge's id (`a1-b1`), in the order the board declares them: the keys of state
    kept on edges, `per: "edges('board')"`."""
    g = _board(ctx, b)
    ids = board_edges.edge_table(g)[0]
    ctx.charge(len(ids))
    return ids


@_fn("edges_of", 2, 2, list_of(STR), [None, STR])
def _edges_of(ctx, b, n):
    """The ids of the edges at a node (leaving or entering it, on a one-way board)."""
    g = _board(ctx, b)
    out = board_edges.edge_table(g)[2][_node(g, n)]
    ctx.charge(len(out))
    return out


@_fn("ends", 2, 2, list_of(STR), [None, STR])
def _ends(ctx, b, e):
    """An edge's two nodes, as the board declares them."""
    g = _board(ctx, b)
    found = board_edges.edge_table(g)[1].get(e) if isinstance(e, str) else None
    if found is None:
        fail(f"the board has no edge {render(e, False)}")
    return found


@_fn("edge", 3, 3, ANY, [None, STR, STR])
def _edge(ctx, b, x, y):
    """The id of the edge joining x to y (either way on a board that is not one-way), or none."""
    g = _board(ctx, b)
    return board_edges.edge_table(g)[3].get((_node(g, x), _node(g, y)))


def _grid_runs(g):
    """(cell -> node, {direction: {cell: cells in a row from it, itself included}})."""
    cached = g.graph.get("_meeple_runs")
    if cached is not None:
        return cached
    at = grid.cells(g)
    runs = {}
    for dr, dc in _line_directions(g):
        run: dict = {}
        for cell in at:  # each run is walked once, from the cell where it starts
            r, c = cell
            if (r - dr, c - dc) in at:
                continue
            line = []
            while (r, c) in at:
                line.append((r, c))
                r, c = r + dr, c + dc
            for i, x in enumerate(line):
                run[x] = len(line) - i
        runs[(dr, dc)] = run
    cached = g.graph["_meeple_runs"] = (at, runs)
    return cached


def _adjacent(g) -> dict:
    """node -> its neighbours (successors on a one-way board), as a tuple: boards never
    change during a game, so the walks of hop_targets read them from here."""
    cached = g.graph.get("_meeple_adjacent")
    if cached is None:
        cached = g.graph["_meeple_adjacent"] = {n: tuple(g.neighbors(n)) for n in g}
    return cached


def _text_set(xs) -> set:
    """The texts among xs, as a set (a node is a text; nothing else can equal one)."""
    try:
        found = set(xs)
    except TypeError:  # an unhashable value (a map) among them
        return {n for n in xs if isinstance(n, str)}
    return found


@_fn("hop_targets", 5, 5, list_of(STR), [None, STR, LIST, LIST, INT])
def _hop_targets(ctx, b, start, over, blocked, k):
    """The first free nodes beyond runs of occupied nodes: every node reachable from `start`
    along a path whose inner nodes all lie in `over` (at most `k` of them), that is itself
    neither in `over` nor in `blocked`, nor `start`.  A node in both lists may be passed.
    Sorted."""
    g = _board(ctx, b)
    start = _node(g, start)
    k = want_int(k, "the number of nodes that may be passed")
    over, blocked = want_list(over, "the nodes that may be passed"), want_list(blocked, "the blocked nodes")
    return hop_walk(ctx, _adjacent(g), start, over, blocked, k)


def board_adjacency(ctx, b) -> dict:
    """Board `b`'s nodes and their neighbours, as hop_walk reads them."""
    return _adjacent(_board(ctx, b))


def hop_walk(ctx, adjacent: dict, start, over, blocked, k: int) -> tuple:
    """hop_targets' walk, for a caller that knows `over` and `blocked` are lists and `k`
    an int (generated code that proved their types calls it without the checks)."""
    if not isinstance(start, str) or start not in adjacent:
        _node({}, start)  # reports the missing node as hop_targets does
    scanned = len(over) + len(blocked)
    if scanned > SCAN_FREE:  # charge_scan's rule, without its call for the short lists of a walk
        charge_scan(ctx, scanned)
    # A listing walks from every piece past the same list of occupied nodes: the set made
    # of the last such list (a tuple, which cannot change) is made once.
    last = _last_passed[0]
    if last[0] is over:
        passed = last[1]
    else:
        passed = _text_set(over)
        if type(over) is tuple:
            _last_passed[0] = (over, passed)
    if k < 0:  # no level to walk
        ctx.charge(0)
        return ()
    stopped = passed if blocked is over else _text_set(blocked)
    seen, frontier, out = {start}, (start,), []
    steps = depth = 0  # charged once at the end: the walk has no effect a failure part-way would show
    while True:  # a level at a time; the pieces on the k-th level are passed no further
        nxt = []
        for n in frontier:
            for m in adjacent[n]:
                if m not in seen:
                    seen.add(m)
                    if m in passed:
                        nxt.append(m)
                    elif m not in stopped:
                        out.append(m)
        steps += len(frontier) + 1
        if not nxt or depth == k:
            break
        frontier = nxt
        depth += 1
    ctx.charge(steps)
    return tuple(out) if len(out) < 2 else _node_list(out)


_last_passed = [((), set())]  # (the last tuple of passable nodes, its set), replaced whole


@_fn("within", 3, 3, list_of(STR), [None, STR, INT])
def _within(ctx, b, start, k):
    """The nodes at 1 to k steps from `start` (following edge directions on a one-way board),
    sorted.  Boards never change, so each (start, k) is computed once per board."""
    g = _board(ctx, b)
    start = _node(g, start)
    k = want_int(k, "the number of steps")
    if k < 0:
        fail("within needs a number of steps of at least 0")
    cache = g.graph.setdefault("_meeple_within", {})
    key = (start, k)
    if key not in cache:
        ctx.charge(len(g))
        dist = nx.single_source_shortest_path_length(g, start, cutoff=k)
        cache[key] = _node_list(n for n, d in dist.items() if 0 < d)
    ctx.charge(len(cache[key]))
    return cache[key]


# -- grid geometry: cells by row and column, steps and rays (the geometry is grid.py's)

DIRECTION = (STR, LIST)  # a compass name or a [drow, dcol] step
# Arguments that name one of a fixed set of words: (function, position) -> (the words, what
# one is called).  Written as a literal text, such an argument is checked when the ruleset
# is loaded (N313 in dsl/typecheck.py), so `step(b, n, 'north')` is caught before a game.
WORD_ARGUMENTS = {("directions", 0): (frozenset(grid.DIRECTION_SETS), "set of directions"),
                  ("step", 2): (grid.DIRECTION_NAMES, "direction"),
                  ("ray", 2): (grid.DIRECTION_NAMES, "direction")}


@_fn("cell", 3, 3, ANY, [None, INT, INT])
def _cell(ctx, b, row, col):
    """The node at (row, col), or none off the board: a move's target is often off it."""
    g = _board(ctx, b)
    return grid.cells(g).get((want_int(row, "the row"), want_int(col, "the column")))


@_fn("row_of", 2, 2, INT, [None, STR])
def _row_of(ctx, b, n):
    g = _board(ctx, b)
    return grid.coordinates(g, _node(g, n))[0]


@_fn("col_of", 2, 2, INT, [None, STR])
def _col_of(ctx, b, n):
    g = _board(ctx, b)
    return grid.coordinates(g, _node(g, n))[1]


@_fn("step", 3, 4, ANY, [None, STR, DIRECTION, INT])
def _step(ctx, b, n, d, k=1):
    g = _board(ctx, b)
    return grid.step(g, _node(g, n), d, want_int(k, "the number of steps"))


@_fn("ray", 3, 3, list_of(STR), [None, STR, DIRECTION])
def _ray(ctx, b, n, d):
    """Charged its length each time, kept or not, so that the cost of a move does not
    depend on what earlier moves asked."""
    g = _board(ctx, b)
    out = grid.ray(g, _node(g, n), d)
    ctx.charge(len(out))
    return out


def _directions_type(ts, cs):
    if cs and cs[0] == "knight":
        return list_of(list_of(INT))
    return list_of(STR) if cs and isinstance(cs[0], str) and cs[0] in grid.DIRECTION_SETS else LIST


@_fn("directions", 1, 1, _directions_type, [STR])
def _directions(ctx, kind):
    found = grid.DIRECTION_SETS.get(kind) if isinstance(kind, str) else None
    if found is None:
        fail(f"there is no set of directions {render(kind, False)}; sets: {', '.join(grid.DIRECTION_SETS)}")
    ctx.charge(len(found))
    return found


@_fn("sum_maps", 1, 1, map_of(ANY, INT), [LIST])
def _sum_maps(ctx, ms):
    """Maps of counts added key by key: `sum_maps([{'a': 1}, {'a': 2, 'b': 1}])` is
    `{'a': 3, 'b': 1}`; keys keep the order in which they first appear."""
    out: dict = {}
    ms = want_list(ms, "the maps to add")
    ctx.charge(len(ms))
    for m in ms:
        m = want_map(m, "each element")
        ctx.charge(len(m))
        for k, v in m.items():
            if type(v) is not int:
                want_int(v, "a count")
            k = map_key(k)
            out[k] = check_int(out.get(k, 0) + v)
    return out
