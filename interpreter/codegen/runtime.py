"""What generated code calls besides Python itself: the language's slow paths
(shared with the closure interpreter, so both give the same values) and the
cost charges of loops.

Generated code takes a fast path only when the operand types make Python's
meaning the language's meaning (two ints, two texts of one type...); anything
else goes to these helpers.  A helper either returns the language's value or
raises; a raise sends the whole expression back to the reference evaluator
(module.py), which then reports it with the YAML position, so the helpers need
no spans of their own.
"""
from __future__ import annotations

from itertools import chain

from meeple.dsl.compare import SCAN_FREE, contains, equal, less, map_key
from meeple.dsl.compile_expr import index_value, member_value
from meeple.dsl.functions import (CALL_COST, FUNCTIONS, MAX_CALL_DEPTH, MAX_INT, MAX_LIST, MAX_RANGE,
                                  arith, as_seq, power, slice_of, want_list)
from meeple.dsl.values import Item

from ..runtime.context import COST_LIMIT
from ..runtime.memo_keys import memo_keyable
from ..runtime.moves import Move, cost_shortfall


class Deopt(Exception):
    """Generated code met a value its fast path does not cover and that the
    language may refuse: the reference evaluator decides."""


def deopt(*_):
    raise Deopt()


def seq(ctx, v):
    """What a `for` walks, charged for its length as the reference charges it."""
    if type(v) is not tuple:
        v = as_seq(v)
    ctx.cost += len(v)
    if ctx.cost > COST_LIMIT:
        raise Deopt()
    return v


def unpacked(ctx, v, n):
    """A `for a, b in xs` walk: every element must be a list of exactly n values."""
    v = seq(ctx, v)
    for e in v:
        if type(e) is not tuple or len(e) != n:
            raise Deopt()
    return v


def domain(ctx, v):
    """A parameter's choices: a list, charged one step per choice as the reference does."""
    if type(v) is not tuple:
        v = want_list(v, "the choices of a parameter")
    ctx.charge(len(v))
    return v


def unaffordable(ctx, costs) -> bool:
    for place_fn, amount_fn, _ in costs:
        if cost_shortfall(ctx, place_fn, amount_fn) is not None:
            return True
    return False


def truth(v):
    if v is True or v is False:
        return v
    raise Deopt()


def listed(t):
    if len(t) > MAX_LIST:
        raise Deopt()
    return t


def key(k):
    t = type(k)
    if t is str or t is int:
        return k
    return map_key(k)


def ovf(v):
    """An int result beyond the language's range."""
    raise Deopt()


def neg(v):
    if type(v) is int:
        return -v
    raise Deopt()


def not_(v):
    if v is True:
        return False
    if v is False:
        return True
    raise Deopt()


def eq(ctx, a, b):
    return equal(a, b, ctx)


def lt(ctx, a, b):
    return less(a, b, None, ctx)


def member(ctx, o, name):
    if type(o) is Item:
        fields = o.fields
        if name in fields:
            return fields[name]
    elif type(o) is dict and name in o:
        return o[name]
    return member_value(ctx, o, name, None)


def index(o, i):
    t = type(i)
    if t is int:
        if type(o) is tuple:
            return o[i]
    elif t is str and type(o) is dict:
        return o[i]
    return index_value(o, i, None)


def isin(ctx, x, c):
    """`x in c`: for a text or an item in a list, Python's membership is the language's."""
    if type(c) is tuple:
        tx = type(x)
        if tx is str or tx is Item:
            if len(c) > SCAN_FREE:
                ctx.cost += len(c)
                if ctx.cost > COST_LIMIT:
                    raise Deopt()
            return x in c
    return contains(x, c, None, ctx)


def calc(ctx, op, a, b):
    """`a op b` where the operator's fast path could not be written inline."""
    if type(a) is int and type(b) is int:
        if op == "**":
            return int_power(a, b)
        if op == "+":
            r = a + b
        elif op == "-":
            r = a - b
        elif op == "*":
            r = a * b
        elif b and op == "//":
            r = a // b
        elif b:
            r = a % b
        else:
            return arith(op, a, b, None, ctx)
        if -MAX_INT <= r <= MAX_INT:
            return r
    return arith(op, a, b, None, ctx)


def int_power(a, b):
    """`a ** b` of two ints (functions.power, which refuses a huge exponent before working
    it out); anything else, or a result the language refuses, goes to the reference."""
    if type(a) is int and type(b) is int and b >= 0:
        r = power(a, b) if b > 2 else (1 if b == 0 else a if b == 1 else a * a)
        if -MAX_INT <= r <= MAX_INT:
            return r
    raise Deopt()


def sliced(ctx, o, start, stop, step):
    """`o[start:stop:step]` of a tuple or a text with int (or left out) bounds, charged for
    the copy as the reference charges it; anything else through functions.slice_of."""
    t = type(o)
    if (t is tuple or t is str) and (start is None or type(start) is int) and (stop is None or type(stop) is int) \
            and (step is None or (type(step) is int and step)):
        part = o[start:stop:step]
        if len(part) > SCAN_FREE:
            ctx.cost += len(part)
            if ctx.cost > COST_LIMIT:
                raise Deopt()
        return part
    return slice_of(o, start, stop, step, None, ctx)


# -- library functions whose usual arguments need no general checks ---------------------

def length(ctx, x):
    t = type(x)
    if t is tuple or t is dict or t is str:
        return len(x)
    return FUNCTIONS["len"].impl(ctx, x)


def int_range(ctx, a, b=None, step=None):
    lo, hi = (0, a) if b is None else (a, b)
    if type(lo) is not int or type(hi) is not int:
        raise Deopt()
    if step is not None:
        if type(step) is not int or not step:
            raise Deopt()
        numbers = range(lo, hi, step)
        if len(numbers) > MAX_RANGE:
            raise Deopt()
        ctx.cost += len(numbers)
        if ctx.cost > COST_LIMIT:
            raise Deopt()
        return tuple(numbers)
    if hi - lo > MAX_RANGE:
        raise Deopt()
    if hi > lo:
        ctx.cost += hi - lo
        if ctx.cost > COST_LIMIT:
            raise Deopt()
    return tuple(range(lo, hi))


def int_sum(ctx, xs):
    if type(xs) is not tuple:
        raise Deopt()
    ctx.cost += len(xs)
    if ctx.cost > COST_LIMIT:
        raise Deopt()
    total = 0
    for x in xs:
        if type(x) is not int:
            raise Deopt()
        total += x
        if not -MAX_INT <= total <= MAX_INT:
            raise Deopt()
    return total


def _charged(ctx, n: int) -> None:
    ctx.cost += n
    if ctx.cost > COST_LIMIT:
        raise Deopt()


def _flat_of_one_type(xs) -> bool:
    """A non-empty list of ints only or texts only: Python orders them as the language does."""
    if not xs:
        return False
    t = type(xs[0])
    return (t is int or t is str) and all(type(x) is t for x in xs)


def _extreme(name: str, pick):
    def fast(ctx, *args):
        xs = args[0] if len(args) == 1 else args
        if type(xs) is tuple and _flat_of_one_type(xs):
            _charged(ctx, len(xs))
            return pick(xs)
        return FUNCTIONS[name].impl(ctx, *args)
    return fast


int_min, int_max = _extreme("min", min), _extreme("max", max)


def count_text(ctx, xs, v):
    """count_of: Python's count is the language's for a text (no other value equals one)."""
    if type(xs) is tuple and type(v) is str:
        _charged(ctx, len(xs))
        return xs.count(v)
    return FUNCTIONS["count_of"].impl(ctx, xs, v)


def concat_lists(ctx, *lists):
    for x in lists:
        if type(x) is not tuple:
            return FUNCTIONS["concat"].impl(ctx, *lists)
    out = tuple(chain.from_iterable(lists))
    _charged(ctx, len(out))
    if len(out) > MAX_LIST:
        raise Deopt()
    return out


# -- definitions remembered by the containers they read (module.state_memo_lookup) -------------

MEMO_TRIAL = 2000  # misses after which a definition's memo is kept only if it had a quarter as many hits


class MemoSite(dict):
    """One definition's remembered values in one game, with how often they were asked for."""
    __slots__ = ("misses", "hits")

    def __init__(self):
        super().__init__()
        self.misses = self.hits = 0

    def tried(self, memo: dict, site) -> bool:
        """Count a call that missed; True when the memo was just given up (`memo[site]`
        is then None)."""
        self.misses += 1
        if self.misses == MEMO_TRIAL and self.hits * 4 < MEMO_TRIAL:
            memo[site] = None
            self.clear()
            return True
        if len(self) > 100_000:
            self.clear()
        return False


def memo_site(name: str) -> tuple:
    """A definition's key in Game.memo (MemoSite, or None once given up)."""
    return ("state memo", name)


_NEW_SITE = object()


def from_reference(exc) -> bool:
    """Did this error come from the reference already (emit_effects.py: passed on as it is)?"""
    return getattr(exc, "meeple_reference", False)


def answered(exc) -> bool:
    """Has the reference already answered for a part inside (module.PASS_ON: passed up)?"""
    return getattr(exc, "meeple_answered", False)


# The names generated code may use, bound in every generated module's namespace.
NAMES = {
    "Deopt": Deopt, "_deopt": deopt, "_seq": seq, "_as_seq": as_seq, "_unpacked": unpacked, "_truth": truth,
    "_listed": listed, "_key": key, "_ovf": ovf, "_neg": neg, "_not": not_, "_eq": eq, "_lt": lt,
    "_member": member, "_index": index, "_in": isin, "_calc": calc, "_pow": int_power, "_slice": sliced, "MAX_CALL_DEPTH": MAX_CALL_DEPTH,
    "CALL_COST": CALL_COST, "COST_LIMIT": COST_LIMIT,
    "_min_": int_min, "_max_": int_max, "_count_of_": count_text, "_concat_": concat_lists,
    "_len_": length, "_range_": int_range, "_sum_": int_sum,
    "_dom": domain, "_unaffordable": unaffordable, "_from_reference": from_reference, "_answered": answered, "Move": Move, "Item": Item, "MAX_INT": MAX_INT,
    "_KEYABLE": frozenset({int, str, Item}), "_memo_keyable": memo_keyable, "MEMO_LIMIT": 100_000, "_NEW_SITE": _NEW_SITE, "_MemoSite": MemoSite, "_FLAT": frozenset({int, str, bool, type(None)}),
}
