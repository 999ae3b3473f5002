"""Syntax tree to nested Python closures, built once per expression.

Expressions run millions of times while legal moves are generated, so all
decisions that depend only on the tree are taken here, at compile time: names
are resolved to their reader, operators get a closure of their own with an
int fast path, constant sub-trees are folded, and calls are specialised by
arity.  At run time nothing looks at node types.  The slow paths (mixed
types, errors) share their rules with the reference evaluator through
functions.py.
"""
from __future__ import annotations

from typing import Any, Callable

from . import expr_ast as A
from .compare import charge
from .eval_errors import EvalError
from .functions import (FUNCTIONS, MAX_INT, MAX_LIST, arith, as_seq, check_list, contains, enter_call,
                        equal, fail, is_int, kind_of, less, map_key, slice_of)
from .scope import Scope
from .types import ANY
from .values import Item

Compiled = Callable[[Any], Any]
MISSING = object()
PY_ERRORS = (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError,
             OverflowError, RecursionError)
_CAUGHT = (EvalError, *PY_ERRORS)
_FLAT = frozenset({int, str, bool, type(None)})


def compile_expr(expr: A.Expr, scope: Scope) -> Compiled:
    return _compile(expr, scope)


def _compile(node, scope) -> Compiled:
    rule = _RULES.get(type(node))
    if rule is None:
        raise TypeError(f"compile_expr needs an expression node, got {type(node).__name__}")
    return rule(node, scope)


# -- helpers -------------------------------------------------------------------------

def _const(value) -> Compiled:
    def const(ctx):
        return value
    const.const_value = value
    return const


def _is_const(fn) -> bool:
    return hasattr(fn, "const_value")


def _fold(fn: Compiled, *parts: Compiled) -> Compiled:
    """Evaluate once now if every part is a constant; a failure stays a run-time failure."""
    if all(_is_const(p) for p in parts):
        try:
            return _const(fn(None))
        except EvalError:
            return fn
    return fn


def _raiser(code: str, message: str, span) -> Compiled:
    def raise_(ctx):
        raise EvalError(code, message, span)
    return raise_


def _restore(b: dict, name: str, old) -> None:
    if old is MISSING:
        b.pop(name, None)
    else:
        b[name] = old


def _bind_names(scope, names):
    return scope.bind({n: ANY for n in names})


# -- leaves and literals ----------------------------------------------------------------

def _c_const(node, scope):
    return _const(node.value)


def _c_name(node, scope):
    sym = scope.lookup(node.name)
    if sym is None:
        return _raiser("N301", f"undefined name '{node.name}'", node.span)
    if sym.kind == "function":
        return _raiser("T404", f"'{node.name}' is a function: call it", node.span)
    return sym.read


def _c_list(node, scope):
    fns = [_compile(x, scope) for x in node.items]

    def list_(ctx):
        return tuple([f(ctx) for f in fns])
    return _fold(list_, *fns)


def _c_map(node, scope):
    pairs = [(_compile(k, scope), _compile(v, scope), k.span) for k, v in node.entries]

    def map_(ctx):
        out = {}
        for kf, vf, span in pairs:
            k = map_key(kf(ctx), span)
            out[k] = vf(ctx)
        return out
    return _fold(map_, *[p for k, v, _ in pairs for p in (k, v)])


# -- operators ---------------------------------------------------------------------------

def _arith(node, lf, rf):
    op, span = node.op, node.span
    c = rf.const_value if _is_const(rf) and type(rf.const_value) is int else None
    if op == "+" and c is not None:
        def f(ctx):
            a = lf(ctx)
            if type(a) is int:
                r = a + c
                if -MAX_INT <= r <= MAX_INT:
                    return r
            return arith("+", a, c, span, ctx)
    elif op == "-" and c is not None:
        def f(ctx):
            a = lf(ctx)
            if type(a) is int:
                r = a - c
                if -MAX_INT <= r <= MAX_INT:
                    return r
            return arith("-", a, c, span, ctx)
    elif op == "+":
        def f(ctx):
            a, b = lf(ctx), rf(ctx)
            if type(a) is int and type(b) is int:
                r = a + b
                if -MAX_INT <= r <= MAX_INT:
                    return r
            return arith("+", a, b, span, ctx)
    elif op == "-":
        def f(ctx):
            a, b = lf(ctx), rf(ctx)
            if type(a) is int and type(b) is int:
                r = a - b
                if -MAX_INT <= r <= MAX_INT:
                    return r
            return arith("-", a, b, span, ctx)
    elif op == "*":
        def f(ctx):
            a, b = lf(ctx), rf(ctx)
            if type(a) is int and type(b) is int:
                r = a * b
                if -MAX_INT <= r <= MAX_INT:
                    return r
            return arith("*", a, b, span, ctx)
    elif op == "//":
        def f(ctx):
            a, b = lf(ctx), rf(ctx)
            if type(a) is int and type(b) is int and b:
                return a // b
            return arith("//", a, b, span, ctx)
    elif op == "**":
        def f(ctx):
            return arith("**", lf(ctx), rf(ctx), span, ctx)
    else:
        def f(ctx):
            a, b = lf(ctx), rf(ctx)
            if type(a) is int and type(b) is int and b:
                return a % b
            return arith("%", a, b, span, ctx)
    return f


def _equality(node, lf, rf):
    negate, span = node.op == "!=", node.span
    if _is_const(rf) and (rf.const_value is None or type(rf.const_value) is bool):
        c = rf.const_value
        return (lambda ctx: lf(ctx) is not c) if negate else (lambda ctx: lf(ctx) is c)
    if _is_const(rf) and type(rf.const_value) in (int, str):
        c, t = rf.const_value, type(rf.const_value)

        def eq_const(ctx):
            a = lf(ctx)
            return a == c if type(a) is t else equal(a, c, ctx, span)
        return (lambda ctx: not eq_const(ctx)) if negate else eq_const

    def eq(ctx):
        a, b = lf(ctx), rf(ctx)
        t = type(a)
        if t is type(b) and t in _FLAT:
            return a == b
        return equal(a, b, ctx, span)
    return (lambda ctx: not eq(ctx)) if negate else eq


def _order_const(op, lf, c, span):
    """`x > 0`, `len(xs) >= 3`: the most common comparisons, with an int constant."""
    if op == "<":
        def f(ctx):
            a = lf(ctx)
            return a < c if type(a) is int else less(a, c, span, ctx)
    elif op == ">":
        def f(ctx):
            a = lf(ctx)
            return a > c if type(a) is int else less(c, a, span, ctx)
    elif op == "<=":
        def f(ctx):
            a = lf(ctx)
            return a <= c if type(a) is int else not less(c, a, span, ctx)
    else:
        def f(ctx):
            a = lf(ctx)
            return a >= c if type(a) is int else not less(a, c, span, ctx)
    return f


def _order(node, lf, rf):
    op, span = node.op, node.span
    if _is_const(rf) and type(rf.const_value) is int:
        return _order_const(op, lf, rf.const_value, span)
    if op == "<":
        def f(ctx):
            a, b = lf(ctx), rf(ctx)
            return a < b if type(a) is int and type(b) is int else less(a, b, span, ctx)
    elif op == ">":
        def f(ctx):
            a, b = lf(ctx), rf(ctx)
            return a > b if type(a) is int and type(b) is int else less(b, a, span, ctx)
    elif op == "<=":
        def f(ctx):
            a, b = lf(ctx), rf(ctx)
            return a <= b if type(a) is int and type(b) is int else not less(b, a, span, ctx)
    else:
        def f(ctx):
            a, b = lf(ctx), rf(ctx)
            return a >= b if type(a) is int and type(b) is int else not less(a, b, span, ctx)
    return f


def _c_binary(node, scope):
    lf, rf = _compile(node.left, scope), _compile(node.right, scope)
    op, span = node.op, node.span
    if op in ("+", "-", "*", "//", "%", "**"):
        f = _arith(node, lf, rf)
    elif op in ("==", "!="):
        f = _equality(node, lf, rf)
    elif op == "in":
        def f(ctx):
            return contains(lf(ctx), rf(ctx), span, ctx)
    elif op == "not in":
        def f(ctx):
            return not contains(lf(ctx), rf(ctx), span, ctx)
    else:
        f = _order(node, lf, rf)
    return _fold(f, lf, rf)


def _c_unary(node, scope):
    of, span = _compile(node.operand, scope), node.span
    if node.op == "not":
        def f(ctx):
            v = of(ctx)
            if v is True:
                return False
            if v is False:
                return True
            fail(f"the operand of 'not' must be bool, found {kind_of(v)}", span)
    else:
        def f(ctx):
            v = of(ctx)
            if type(v) is int:
                return -v
            if is_int(v):
                return -int(v)
            fail(f"unary '-' needs an int, found {kind_of(v)}", span)
    return _fold(f, of)


def _c_boolop(node, scope):
    lf, rf = _compile(node.left, scope), _compile(node.right, scope)
    op, span = node.op, node.span
    stop = node.op == "or"  # the left value that decides the result alone

    def f(ctx):
        a = lf(ctx)
        if a is stop:
            return stop
        if a is not (not stop):
            fail(f"the left operand of '{op}' must be bool, found {kind_of(a)}", span)
        b = rf(ctx)
        if b is True or b is False:
            return b
        fail(f"the right operand of '{op}' must be bool, found {kind_of(b)}", span)
    return _fold(f, lf, rf)


def _c_cond(node, scope):
    tf, yes, no = (_compile(n, scope) for n in (node.test, node.then, node.orelse))
    span = node.span

    def f(ctx):
        c = tf(ctx)
        if c is True:
            return yes(ctx)
        if c is False:
            return no(ctx)
        fail(f"the condition of 'if ... else' must be bool, found {kind_of(c)}", span)
    if _is_const(tf) and type(tf.const_value) is bool:
        return yes if tf.const_value else no
    return f


# -- access ---------------------------------------------------------------------------------

def index_value(o, i, span):
    if isinstance(o, (tuple, list, str)):
        if not is_int(i):
            fail(f"a {kind_of(o)} position must be int, found {kind_of(i)}", span)
        if -len(o) <= i < len(o):
            return o[i]
        fail(f"position {i} is outside a {kind_of(o)} of length {len(o)}", span)
    if isinstance(o, dict):
        k = map_key(i, span)
        if k in o:
            return o[k]
        fail(f"the map has no key {i!r}", span)
    fail(f"a value of type {kind_of(o)} cannot be indexed", span)


def member_value(ctx, o, name, span):
    if isinstance(o, Item):
        if name == "id":
            return o.id
        if name == "kind":
            return o.kind
        if name in o.fields:
            return o.fields[name]
        if name.startswith("_"):
            fail(f"items have no field '{name}'", span)
        try:
            return ctx.item_prop(o, name)
        except EvalError as exc:
            if exc.span is None:
                exc.span = span
            raise
        except PY_ERRORS:
            fail(f"items of kind '{o.kind}' have no field '{name}'", span)
    if isinstance(o, dict):
        if name in o:
            return o[name]
        fail(f"the map has no key '{name}'", span)
    fail(f"a value of type {kind_of(o)} has no fields ('.{name}')", span)


def _c_index(node, scope):
    of, xf, span = _compile(node.obj, scope), _compile(node.index, scope), node.span

    def f(ctx):
        o, i = of(ctx), xf(ctx)
        t = type(o)
        if t is tuple:
            if type(i) is int:
                try:
                    return o[i]
                except IndexError:
                    pass
        elif t is dict and (type(i) is int or type(i) is str):
            try:
                return o[i]
            except KeyError:
                pass
        return index_value(o, i, span)
    return _fold(f, of, xf)


def _c_member(node, scope):
    of, name, span = _compile(node.obj, scope), node.name, node.span
    if name == "id":
        def f(ctx):
            o = of(ctx)
            return o.id if type(o) is Item else member_value(ctx, o, name, span)
    elif name == "kind":
        def f(ctx):
            o = of(ctx)
            return o.kind if type(o) is Item else member_value(ctx, o, name, span)
    else:
        def f(ctx):
            o = of(ctx)
            if type(o) is Item:
                fields = o.fields
                if name in fields:
                    return fields[name]
            return member_value(ctx, o, name, span)
    return _fold(f, of)


def _c_slice(node, scope):
    of, span = _compile(node.obj, scope), node.span
    parts = [None if p is None else _compile(p, scope) for p in (node.start, node.stop, node.step)]
    sf, ef, tf = (p or _const(None) for p in parts)

    def f(ctx):
        return slice_of(of(ctx), sf(ctx), ef(ctx), tf(ctx), span, ctx)
    return _fold(f, of, sf, ef, tf)


def _c_let(node, scope):
    """The value first, then the body with the name bound in ctx.bindings (restored after,
    as a comprehension's names are)."""
    vf, name = _compile(node.value, scope), node.name
    body = _compile(node.body, _bind_names(scope, [name]))

    def f(ctx):
        v = vf(ctx)
        b = ctx.bindings
        old = b.get(name, MISSING)
        b[name] = v
        try:
            return body(ctx)
        finally:
            _restore(b, name, old)
    return f


def _c_lambda(node, scope):
    return _raiser("T404", "a function `x => ...` can only be an argument of a higher-order "
                   "function", node.span)


# -- calls ------------------------------------------------------------------------------------

def _call_errors(exc, span, name):
    """A library failure carries no span; the call that made it gives one."""
    if isinstance(exc, EvalError):
        if exc.span is None:
            exc.span = span
        return exc
    return EvalError("R701", f"{name}: invalid argument ({exc})", span)


def _c_call(node, scope):
    fn = FUNCTIONS.get(node.func)
    span, name, n = node.span, node.func, len(node.args)
    if fn is None:
        sym = scope.lookup(name)
        if sym is not None and sym.kind == "function":
            return _define_call(node, sym, scope)
        return _raiser("N302", f"unknown function '{name}'", node.func_span)
    if n < fn.min_args or (fn.max_args is not None and n > fn.max_args):
        return _raiser("T402", f"{name} does not take {n} arguments", span)
    if n == 1 and isinstance(node.args[0], A.Generator) and fn.lazy:
        return _lazy_generator_call(node, fn, scope)
    if fn.lambdas:
        return _hof_call(node, fn, scope)
    impl = fn.impl
    args = [_compile(a, scope) for a in node.args]
    if n == 0:
        def f(ctx):
            try:
                return impl(ctx)
            except _CAUGHT as exc:
                raise _call_errors(exc, span, name) from None
    elif n == 1:
        a0 = args[0]

        def f(ctx):
            try:
                return impl(ctx, a0(ctx))
            except _CAUGHT as exc:
                raise _call_errors(exc, span, name) from None
    elif n == 2:
        a0, a1 = args

        def f(ctx):
            try:
                return impl(ctx, a0(ctx), a1(ctx))
            except _CAUGHT as exc:
                raise _call_errors(exc, span, name) from None
    else:
        def f(ctx):
            try:
                return impl(ctx, *[a(ctx) for a in args])
            except _CAUGHT as exc:
                raise _call_errors(exc, span, name) from None
    return f


def _define_call(node, sym, scope):
    """A function the ruleset defines: its reader yields `call(ctx, *args)`.  Each call is
    charged, and calls nested deeper than MAX_CALL_DEPTH stop (a definition may recurse)."""
    span, name, read = node.span, node.func, sym.read
    params = sym.meta.get("params")
    if params is not None and len(params) != len(node.args):
        return _raiser("T402", f"{name} takes {len(params)} arguments, found {len(node.args)}", span)
    args = [_compile(a, scope) for a in node.args]
    if len(args) == 1:
        a0 = args[0]

        def f(ctx):
            try:
                v = a0(ctx)
                depth = enter_call(ctx, name)
                try:
                    return read(ctx)(ctx, v)
                finally:
                    ctx.call_depth = depth
            except _CAUGHT as exc:
                raise _call_errors(exc, span, name) from None
    else:
        def f(ctx):
            try:
                vs = [a(ctx) for a in args]
                depth = enter_call(ctx, name)
                try:
                    return read(ctx)(ctx, *vs)
                finally:
                    ctx.call_depth = depth
            except _CAUGHT as exc:
                raise _call_errors(exc, span, name) from None
    return f


def _hof_call(node, fn, scope):
    """filter(xs, x => ...): the lambda becomes a Python callable that binds x."""
    span, name, impl = node.span, node.func, fn.impl
    getters, params = [], []
    for i, arg in enumerate(node.args):
        if i not in fn.lambdas:
            getters.append(_compile(arg, scope))
        elif not isinstance(arg, A.Lambda):
            return _raiser("T401", f"argument {i + 1} of {name} must be a function x => ...", arg.span)
        else:
            getters.append(_lambda_maker(arg.param, _compile(arg.body, _bind_names(scope, [arg.param]))))
            params.append(arg.param)

    def f(ctx):
        b = ctx.bindings
        olds = [b.get(p, MISSING) for p in params]
        try:
            return impl(ctx, *[g(ctx) for g in getters])
        except _CAUGHT as exc:
            raise _call_errors(exc, span, name) from None
        finally:
            for p, old in zip(params, olds):
                _restore(b, p, old)
    return f


def _lambda_maker(param, body):
    def make(ctx):
        b = ctx.bindings

        def call(v):
            b[param] = v
            return body(ctx)
        return call
    return make


# -- comprehensions ------------------------------------------------------------------------

def _clauses(clauses, scope):
    """Compile `for`/`if` clauses into run(ctx, visit) -> stopped?, calling
    visit(ctx) with the variables bound for every combination that passes."""
    levels = []  # [names, iter_fn, [cond_fn], span]
    for clause in clauses:
        if isinstance(clause, A.For):
            levels.append([clause.names, _compile(clause.iter, scope), [], clause.iter.span])
            scope = _bind_names(scope, clause.names)
        else:
            levels[-1][2].append((_compile(clause.cond, scope), clause.cond.span))
    run = None
    for names, it, conds, span in reversed(levels):
        run = _for_level(names, it, tuple(conds), run, span)
    return run, scope, len(levels)


def _passes(ctx, conds) -> bool:
    for cond, span in conds:
        c = cond(ctx)
        if c is not True:
            if c is False:
                return False
            fail(f"the condition of a comprehension must be bool, found {kind_of(c)}", span)
    return True


def _for_level(names, it, conds, inner, span):
    single = names[0] if len(names) == 1 else None

    def run(ctx, visit):
        seq = it(ctx)
        if type(seq) is not tuple:
            seq = as_seq(seq, span)
        charge(ctx, len(seq), span)
        b = ctx.bindings
        olds = [b.get(n, MISSING) for n in names]
        try:
            for v in seq:
                if single is not None:
                    b[single] = v
                else:
                    _unpack(b, names, v, span)
                if conds and not _passes(ctx, conds):
                    continue
                if (visit(ctx) if inner is None else inner(ctx, visit)):
                    return True
            return False
        finally:
            for n, old in zip(names, olds):
                _restore(b, n, old)
    return run


def _unpack(b, names, v, span):
    if not isinstance(v, (tuple, list)) or len(v) != len(names):
        fail(f"cannot unpack {kind_of(v)} into {len(names)} names", span)
    for n, x in zip(names, v):
        b[n] = x


def _is_simple(clauses) -> bool:
    """One `for` over one name, then at most one `if`."""
    return len(clauses) <= 2 and len(clauses[0].names) == 1 and all(
        isinstance(c, A.If) for c in clauses[1:])


def _c_listcomp(node, scope):
    if _is_simple(node.clauses):
        return _simple_listcomp(node, scope)
    run, inner, fors = _clauses(node.clauses, scope)
    elem, span = _compile(node.element, inner), node.span

    def f(ctx):
        out = []
        append = out.append
        if fors > 1:
            def visit(ctx):
                append(elem(ctx))
                if len(out) > MAX_LIST:
                    check_list(out, span)
        else:
            def visit(ctx):
                append(elem(ctx))
        run(ctx, visit)
        return check_list(tuple(out), span)
    return f


def _simple_listcomp(node, scope):
    """`[e for x in xs if c]`, the common case, as one flat loop."""
    first = node.clauses[0]
    name, it, ispan, span = first.names[0], _compile(first.iter, scope), first.iter.span, node.span
    inner = _bind_names(scope, [name])
    elem = _compile(node.element, inner)
    cond = _compile(node.clauses[1].cond, inner) if len(node.clauses) == 2 else None
    cspan = node.clauses[1].cond.span if cond else None

    def f(ctx):
        seq = it(ctx)
        if type(seq) is not tuple:
            seq = as_seq(seq, ispan)
        charge(ctx, len(seq), ispan)
        b = ctx.bindings
        old = b.get(name, MISSING)
        out = []
        try:
            for v in seq:
                b[name] = v
                if cond is not None:
                    c = cond(ctx)
                    if c is not True:
                        if c is False:
                            continue
                        fail(f"the condition of a comprehension must be bool, found {kind_of(c)}", cspan)
                out.append(elem(ctx))
        finally:
            _restore(b, name, old)
        return check_list(tuple(out), span)
    return f


def _c_mapcomp(node, scope):
    run, inner, _ = _clauses(node.clauses, scope)
    kf, vf, kspan, span = _compile(node.key, inner), _compile(node.value, inner), node.key.span, node.span

    def f(ctx):
        out = {}

        def visit(ctx):
            k = map_key(kf(ctx), kspan)
            out[k] = vf(ctx)
        run(ctx, visit)
        return check_list(out, span)
    return f


def _lazy_generator_call(node, fn, scope):
    """any(...)/all(...) over a generator stop at the first deciding element."""
    gen, span, name = node.args[0], node.span, node.func
    if _is_simple(gen.clauses):
        return _simple_lazy_call(node, scope)
    run, inner, _ = _clauses(gen.clauses, scope)
    elem = _compile(gen.element, inner)
    stop = name == "any"

    def f(ctx):
        decided = []

        def visit(ctx):
            v = elem(ctx)
            if v is stop:
                decided.append(v)
                return True
            if v is not (not stop):
                fail(f"every element must be bool, found {kind_of(v)}", span)
            return False
        try:
            run(ctx, visit)
        except _CAUGHT as exc:
            raise _call_errors(exc, span, name) from None
        return stop if decided else not stop
    return f


_RULES = {
    A.Const: _c_const, A.Name: _c_name, A.ListLit: _c_list, A.MapLit: _c_map,
    A.Binary: _c_binary, A.Unary: _c_unary, A.BoolOp: _c_boolop, A.Cond: _c_cond,
    A.Index: _c_index, A.Slice: _c_slice, A.Member: _c_member, A.Lambda: _c_lambda, A.Let: _c_let,
    A.Call: _c_call, A.ListComp: _c_listcomp, A.Generator: _c_listcomp, A.MapComp: _c_mapcomp,
}


def _simple_lazy_call(node, scope):
    """any(c for x in xs if d) / all(...) as one flat loop that stops early."""
    gen, span = node.args[0], node.span
    first = gen.clauses[0]
    name, it, ispan = first.names[0], _compile(first.iter, scope), first.iter.span
    inner = _bind_names(scope, [name])
    elem = _compile(gen.element, inner)
    cond = _compile(gen.clauses[1].cond, inner) if len(gen.clauses) == 2 else None
    cspan = gen.clauses[1].cond.span if cond else None
    stop = node.func == "any"
    go_on = not stop

    def f(ctx):
        seq = it(ctx)
        if type(seq) is not tuple:
            seq = as_seq(seq, ispan)
        charge(ctx, len(seq), ispan)
        b = ctx.bindings
        old = b.get(name, MISSING)
        try:
            for v in seq:
                b[name] = v
                if cond is not None:
                    c = cond(ctx)
                    if c is not True:
                        if c is False:
                            continue
                        fail(f"the condition of a comprehension must be bool, found {kind_of(c)}", cspan)
                r = elem(ctx)
                if r is stop:
                    return stop
                if r is not go_on:
                    fail(f"every element must be bool, found {kind_of(r)}", span)
            return go_on
        except PY_ERRORS as exc:
            raise _call_errors(exc, span, node.func) from None
        finally:
            _restore(b, name, old)
    return f
