"""A plain tree-walking evaluator, kept only as the reference for tests.

It is written for obviousness, not speed, and independently of the
compiler's fast paths, so that differential tests can catch a closure that
disagrees with the language's meaning.  Both share functions.py: the library
and the value rules (equality, ordering, limits).
"""
from __future__ import annotations

from contextlib import closing

from . import expr_ast as A
from .eval_errors import EvalError
from .functions import (FUNCTIONS, as_seq, charge_scan, check_int, check_list, check_str, contains,
                        enter_call, equal, fail, is_int, kind_of, less, map_key, power, slice_of, truth)
from .scope import Scope
from .types import ANY
from .values import Item

_PY_ERRORS = (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError,
              OverflowError, RecursionError)
_MISSING = object()


def evaluate(expr: A.Expr, scope: Scope, ctx):
    return _ev(expr, scope, ctx)


def _ev(node, scope, ctx):
    if isinstance(node, A.Const):
        return node.value
    if isinstance(node, A.Name):
        sym = scope.lookup(node.name)
        if sym is None:
            raise EvalError("N301", f"undefined name '{node.name}'", node.span)
        if sym.kind == "function":
            raise EvalError("T404", f"'{node.name}' is a function: call it", node.span)
        return sym.read(ctx)
    if isinstance(node, A.ListLit):
        return tuple(_ev(x, scope, ctx) for x in node.items)
    if isinstance(node, A.MapLit):
        out = {}
        for k, v in node.entries:
            key = map_key(_ev(k, scope, ctx), k.span)
            out[key] = _ev(v, scope, ctx)
        return out
    if isinstance(node, A.Unary):
        return _unary(node, _ev(node.operand, scope, ctx))
    if isinstance(node, A.BoolOp):
        what = f"operand of '{node.op}'"
        left = truth(_ev(node.left, scope, ctx), "the left " + what, node.span)
        if left == (node.op == "or"):
            return left
        return truth(_ev(node.right, scope, ctx), "the right " + what, node.span)
    if isinstance(node, A.Binary):
        return _binary(node, _ev(node.left, scope, ctx), _ev(node.right, scope, ctx), ctx)
    if isinstance(node, A.Cond):
        test = truth(_ev(node.test, scope, ctx), "the condition of 'if ... else'", node.span)
        return _ev(node.then if test else node.orelse, scope, ctx)
    if isinstance(node, A.Index):
        return _index(_ev(node.obj, scope, ctx), _ev(node.index, scope, ctx), node.span)
    if isinstance(node, A.Slice):
        obj = _ev(node.obj, scope, ctx)
        start, stop, step = (None if p is None else _ev(p, scope, ctx) for p in (node.start, node.stop, node.step))
        return slice_of(obj, start, stop, step, node.span, ctx)
    if isinstance(node, A.Let):
        return _let(node, scope, ctx)
    if isinstance(node, A.Member):
        return _member(ctx, _ev(node.obj, scope, ctx), node.name, node.span)
    if isinstance(node, A.Call):
        return _call(node, scope, ctx)
    if isinstance(node, (A.ListComp, A.Generator)):
        fors = sum(isinstance(c, A.For) for c in node.clauses)
        out = []
        with closing(_combinations(node.clauses, scope, ctx)) as combos:
            for inner in combos:
                out.append(_ev(node.element, inner, ctx))
                if fors > 1:
                    check_list(out, node.span)
        return check_list(tuple(out), node.span)
    if isinstance(node, A.MapComp):
        out = {}
        with closing(_combinations(node.clauses, scope, ctx)) as combos:
            for inner in combos:
                key = map_key(_ev(node.key, inner, ctx), node.key.span)
                out[key] = _ev(node.value, inner, ctx)
        return check_list(out, node.span)
    if isinstance(node, A.Lambda):
        raise EvalError("T404", "a function can only be an argument of a higher-order function",
                        node.span)
    raise AssertionError(f"unknown node {type(node).__name__}")


def _unary(node, v):
    if node.op == "not":
        return not truth(v, "the operand of 'not'", node.span)
    if not is_int(v):
        fail(f"unary '-' needs an int, found {kind_of(v)}", node.span)
    return -v


def _let(node, scope, ctx):
    """The value is worked out first, then the body sees it under the name, which is
    forgotten after (as a comprehension's names are)."""
    value = _ev(node.value, scope, ctx)
    bindings = ctx.bindings
    old = bindings.get(node.name, _MISSING)
    bindings[node.name] = value
    try:
        return _ev(node.body, scope.bind({node.name: ANY}), ctx)
    finally:
        if old is _MISSING:
            bindings.pop(node.name, None)
        else:
            bindings[node.name] = old


def _binary(node, a, b, ctx):
    op, span = node.op, node.span
    if op in ("+", "-", "*", "//", "%", "**"):
        if is_int(a) and is_int(b):
            if op == "**":
                return power(a, b, span)
            if op == "+":
                return check_int(a + b, span)
            if op == "-":
                return check_int(a - b, span)
            if op == "*":
                return check_int(a * b, span)
            if b == 0:
                fail("division by zero", span)
            return check_int(a // b if op == "//" else a % b, span)
        if op == "+" and isinstance(a, str) and isinstance(b, str):
            charge_scan(ctx, len(a) + len(b), span)
            return check_str(a + b, span)
        if op == "+" and isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
            charge_scan(ctx, len(a) + len(b), span)
            return check_list(tuple(a) + tuple(b), span)
        fail(f"'{op}' cannot combine {kind_of(a)} and {kind_of(b)}", span)
    if op == "==":
        return equal(a, b, ctx, span)
    if op == "!=":
        return not equal(a, b, ctx, span)
    if op == "in":
        return contains(a, b, span, ctx)
    if op == "not in":
        return not contains(a, b, span, ctx)
    if op == "<":
        return less(a, b, span, ctx)
    if op == ">":
        return less(b, a, span, ctx)
    if op == "<=":
        return not less(b, a, span, ctx)
    return not less(a, b, span, ctx)


def _index(o, i, span):
    if isinstance(o, dict):
        key = map_key(i, span)
        if key not in o:
            fail(f"the map has no key {i!r}", span)
        return o[key]
    if not isinstance(o, (tuple, list, str)):
        fail(f"a value of type {kind_of(o)} cannot be indexed", span)
    if not is_int(i):
        fail(f"a position must be int, found {kind_of(i)}", span)
    if i >= len(o) or i < -len(o):
        fail(f"position {i} is outside the {kind_of(o)}", span)
    return o[i]


def _member(ctx, o, name, span):
    if isinstance(o, dict):
        if name not in o:
            fail(f"the map has no key '{name}'", span)
        return o[name]
    if not isinstance(o, Item):
        fail(f"a value of type {kind_of(o)} has no fields", span)
    if name in ("id", "kind"):
        return getattr(o, name)
    if name in o.fields:
        return o.fields[name]
    if name.startswith("_"):
        fail(f"items have no field '{name}'", span)
    try:
        return ctx.item_prop(o, name)
    except EvalError as exc:
        exc.span = exc.span or span
        raise
    except _PY_ERRORS:
        fail(f"items have no field '{name}'", span)


def _call(node, scope, ctx):
    fn = FUNCTIONS.get(node.func)
    if fn is None:
        sym = scope.lookup(node.func)
        if sym is not None and sym.kind == "function":
            return _define_call(node, sym, scope, ctx)
        raise EvalError("N302", f"unknown function '{node.func}'", node.func_span)
    n = len(node.args)
    if n < fn.min_args or (fn.max_args is not None and n > fn.max_args):
        raise EvalError("T402", f"{node.func} does not take {n} arguments", node.span)
    for i in fn.lambdas:
        if i < n and not isinstance(node.args[i], A.Lambda):
            raise EvalError("T401", "expected a function x => ...", node.args[i].span)
    bindings = ctx.bindings
    saved = {a.param: bindings.get(a.param, _MISSING) for i, a in enumerate(node.args)
             if isinstance(a, A.Lambda) and i in fn.lambdas}
    gens = []
    try:
        args = []
        for i, arg in enumerate(node.args):
            if isinstance(arg, A.Lambda) and i in fn.lambdas:
                args.append(_as_function(arg, scope, ctx))
            elif isinstance(arg, A.Generator) and fn.lazy:
                gens.append(_lazy(arg, scope, ctx))
                args.append(gens[-1])
            else:
                args.append(_ev(arg, scope, ctx))
        return fn.impl(ctx, *args)
    except EvalError as exc:
        exc.span = exc.span or node.span
        raise
    except _PY_ERRORS as exc:
        raise EvalError("R701", f"{node.func}: invalid argument ({exc})", node.span) from None
    finally:
        for g in gens:
            g.close()
        for name, old in saved.items():
            if old is _MISSING:
                bindings.pop(name, None)
            else:
                bindings[name] = old


def _define_call(node, sym, scope, ctx):
    params = sym.meta.get("params")
    if params is not None and len(params) != len(node.args):
        raise EvalError("T402", f"{node.func} takes {len(params)} arguments", node.span)
    try:
        args = [_ev(a, scope, ctx) for a in node.args]
        depth = enter_call(ctx, node.func)
        try:
            return sym.read(ctx)(ctx, *args)
        finally:
            ctx.call_depth = depth
    except EvalError as exc:
        exc.span = exc.span or node.span
        raise
    except _PY_ERRORS as exc:
        raise EvalError("R701", f"{node.func}: invalid argument ({exc})", node.span) from None


def _as_function(lam, scope, ctx):
    inner = scope.bind({lam.param: ANY})

    def call(value):
        ctx.bindings[lam.param] = value
        return _ev(lam.body, inner, ctx)
    return call


def _lazy(gen, scope, ctx):
    with closing(_combinations(gen.clauses, scope, ctx)) as combos:
        for inner in combos:
            yield _ev(gen.element, inner, ctx)


def _combinations(clauses, scope, ctx):
    """Yield the scope of every combination of `for` values that passes the `if`s."""
    if not clauses:
        yield scope
        return
    clause, rest = clauses[0], clauses[1:]
    if isinstance(clause, A.If):
        c = _ev(clause.cond, scope, ctx)
        if truth(c, "the condition of a comprehension", clause.cond.span):
            yield from _combinations(rest, scope, ctx)
        return
    seq = as_seq(_ev(clause.iter, scope, ctx), clause.iter.span)
    try:
        ctx.charge(len(seq))
    except EvalError as exc:
        exc.span = exc.span or clause.iter.span
        raise
    bindings = ctx.bindings
    saved = {n: bindings.get(n, _MISSING) for n in clause.names}
    inner = scope.bind({n: ANY for n in clause.names})
    try:
        for value in seq:
            if len(clause.names) == 1:
                bindings[clause.names[0]] = value
            else:
                if not isinstance(value, (tuple, list)) or len(value) != len(clause.names):
                    fail(f"cannot unpack {kind_of(value)} into {len(clause.names)} names",
                         clause.iter.span)
                for n, v in zip(clause.names, value):
                    bindings[n] = v
            yield from _combinations(rest, inner, ctx)
    finally:
        for n, old in saved.items():
            if old is _MISSING:
                bindings.pop(n, None)
            else:
                bindings[n] = old

