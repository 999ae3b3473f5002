"""The library's table (`_fn` registers a function with its arity and types) and the
value rules every evaluator shares: checked ints and texts, arithmetic, slices, truth and
how a value prints.  The why of the table is in functions.py's docstring."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import sets
from .compare import charge_scan, fail, kind_of, order_key
from .eval_errors import EvalLimitError
from .types import ANY, STR, Type, element_type, list_of, map_of, set_of

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
