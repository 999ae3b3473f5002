"""What the language must NOT do.

Expressions come from rulebooks, not from trusted code: they must never reach
Python objects, methods or builtins, and every refusal must be a clean
diagnostic or EvalError, never a Python exception.  Each case pins the stage
that refuses it and the code it refuses with.
"""
from __future__ import annotations

import pytest

from expr_support import FakeCtx, make_item, scope_for
from meeple.dsl.compile_expr import compile_expr
from meeple.dsl.eval_errors import EvalError
from meeple.dsl.evaluate import evaluate
from meeple.dsl.expr_parser import ExprSyntaxError, parse_assignment, parse_expression
from meeple.dsl.typecheck import infer_type

CARD = make_item("c9", "card", value=1, suit="red")
BINDINGS = {"x": 3, "s": "abc", "xs": (1, 2, 3), "m": {"a": 1}, "c": CARD, "f": 1}


def outcome(text):
    """('syntax', code) or (checker codes, compiled result code, reference result code)."""
    try:
        expr = parse_expression(text)
    except ExprSyntaxError as exc:
        return ("syntax", exc.diagnostic.code)
    scope = scope_for(BINDINGS)
    _, diags = infer_type(expr, scope)
    results = []
    for run in (lambda ctx: compile_expr(expr, scope)(ctx), lambda ctx: evaluate(expr, scope, ctx)):
        try:
            run(FakeCtx(BINDINGS))
            results.append("ok")
        except EvalError as exc:
            results.append(exc.code)
    return (sorted({d.code for d in diags}), *results)


SYNTAX = [
    # Python syntax that simply is not there
    ("'a'.upper()", "X201"), ("xs.append(1)", "X201"), ("(x => x)(1)", "X201"),
    ("lambda x: x", "X201"), ("import os", "X201"), ("from os import path", "X201"),
    ("x = 1", "X201"), ("(x := 1)", "X201"), ("x[0] = 1", "X201"), ("x.y = 1", "X201"),
    ("x += 1", "X201"), ("del x", "X201"), ("yield x", "X201"), ("await x", "X201"),
    ("xs[1:2:3:4]", "X201"), ("xs[1, 2]", "X201"), ("let x = 1", "X202"), ("let x = y < 1 in x", "X201"),
    ("1 < 2 < 3", "X201"), ("x is none", "X201"), ("x is not none", "X201"),
    ("1.0", "X201"), ("1e3", "X201"), ("0x10", "X201"), ("2 **= 3", "X201"), ("4 / 2", "X201"),
    ("1 | 2", "X201"), ("1 & 2", "X201"), ("~1", "X201"), ("1 << 2", "X201"), ("1 ^ 2", "X201"),
    ("f(*xs)", "X201"), ("f(**m)", "X201"), ("len(xs=1)", "X201"), ("{**m}", "X201"),
    ("f'{x}'", "X201"), ("b'x'", "X201"), ("x # comment", "X201"), ("1; 2", "X201"),
    ("(x for x in xs)", "X201"), ("(1, 2)", "X201"), ("{1, 2: 3}", "X201"), ("x if x > 1", "X202"),
    ("`x`", "X201"), ("x!", "X201"), ("@x", "X201"), ("x.0", "X201"), ("$x", "X201"),
]


@pytest.mark.parametrize("text,code", SYNTAX)
def test_refused_by_the_parser(text, code):
    assert outcome(text) == ("syntax", code)


REFUSED_LATER = [
    # text, checker codes, run-time code (both evaluators)
    ("x.__class__", ["T401"], "R701"),
    ("s.__class__", ["T401"], "R701"),
    ("xs.__len__", ["T401"], "R701"),
    ("m.__class__", [], "R701"),
    ("c.__class__", ["N303"], "R701"),
    ("c.__dict__", ["N303"], "R701"),
    ("c.fields", ["N303"], "R701"),
    ("c.__eq__", ["N303"], "R701"),
    ("s.upper", ["T401"], "R701"),
    ("xs.count", ["T401"], "R701"),
    ("x.real", ["T401"], "R701"),
    ("m.keys", [], "R701"),
    ("exec('1')", ["N302"], "N302"),
    ("eval('1 + 1')", ["N302"], "N302"),
    ("__import__('os')", ["N302"], "N302"),
    ("open('/etc/passwd')", ["N302"], "N302"),
    ("getattr(c, 'id')", ["N302"], "N302"),
    ("type(x)", ["N302"], "N302"),
    ("print(x)", ["N302"], "N302"),
    ("sorted(xs)", ["N302"], "N302"),
    ("f(1)", ["N302"], "N302"),
    ("x(1)", ["N302"], "N302"),
    ("True", ["N301"], "N301"),
    ("None", ["N301"], "N301"),
    ("__builtins__", ["N301"], "N301"),
    ("x => x", ["T404"], "T404"),
    ("xs * 2", ["T401"], "R701"),
    ("'ab' * 2", ["T401"], "R701"),
    ("'%d' % x", ["T401"], "R701"),
    ("xs + (1)", ["T401"], "R701"),
    ("s[True]", ["N301"], "N301"),
    ("xs[true]", ["T401"], "R701"),
    ("m[xs]", ["T401"], "R701"),
    ("-s", ["T401"], "R701"),
    ("not xs", ["T401"], "R701"),
    ("xs and true", ["T401"], "R701"),
    ("[y for y in x]", ["T401"], "R701"),
    ("range(1000000)", [], "R702"),
    ("x * 1000000000 * 1000000000 * 10", [], "R702"),
    ("len(xs, xs)", ["T402"], "T402"),
    ("filter(xs, 1)", ["T401"], "T401"),
    ("{xs}", ["T401"], "R701"),
    ("{c}", ["T401"], "R701"),
    ("{1} < {2}", ["T401"], "R701"),
    ("xs[m:]", ["T401"], "R701"),
    ("x ** -1", [], "R701"),
    ("x ** 1000000000000", [], "R702"),
]


@pytest.mark.parametrize("text,check,run", REFUSED_LATER)
def test_refused_by_the_checker_and_at_run_time(text, check, run):
    assert outcome(text) == (check, run, run)


def test_item_props_are_never_asked_for_python_names():
    asked = []

    class Spy(FakeCtx):
        def item_prop(self, item, name):
            asked.append(name)
            return super().item_prop(item, name)

    scope = scope_for(BINDINGS)
    for text in ("c.__class__", "c.__init__", "c._private"):
        with pytest.raises(EvalError):
            compile_expr(parse_expression(text), scope)(Spy(BINDINGS))
        with pytest.raises(EvalError):
            evaluate(parse_expression(text), scope, Spy(BINDINGS))
    assert asked == []


def test_values_never_expose_python_objects():
    scope = scope_for(BINDINGS)
    for text in ("str(c)", "str(m)", "str(xs)", "str(none)"):
        value = compile_expr(parse_expression(text), scope)(FakeCtx(BINDINGS))
        assert "<" not in value and "object" not in value


def test_assignment_is_only_a_statement():
    assert parse_assignment("x = 1").op == "="
    with pytest.raises(ExprSyntaxError):
        parse_assignment("x = y = 1")
    with pytest.raises(ExprSyntaxError):
        parse_assignment("x := 1")


def test_library_functions_never_leak_python_exceptions():
    """Every function with nonsense arguments: an EvalError or a value, nothing else."""
    from meeple.dsl.functions import FUNCTIONS
    junk = ["none", "true", "-1", "'zz'", "[]", "[none]", "{}", "c", "[[1], 'a']", "xs"]
    scope = scope_for(BINDINGS)
    for name, fn in FUNCTIONS.items():
        if fn.lambdas:
            continue
        arity = min(max(fn.min_args, 1), fn.max_args if fn.max_args is not None else 3)
        for j in junk:
            args = ", ".join([j] * arity) if fn.min_args else ""
            expr = parse_expression(f"{name}({args})")
            for run in (lambda ctx: compile_expr(expr, scope)(ctx),
                        lambda ctx: evaluate(expr, scope, ctx)):
                try:
                    run(FakeCtx(BINDINGS))
                except EvalError:
                    pass
