"""The expression tables (tests/expr/*.yaml) run through the code generator of the
compiled back end (interpreter/codegen): every entry the parser accepts is turned
into a generated function and evaluated, and must give the closure compiler's
value (the same Python value: a tuple stays a tuple, `true` is not 1) or its error
(the same code at the same place), leaving the bindings as they were.

Generated code hands an evaluation back to the reference when its fast path meets
something it does not cover (module.deopts counts it), so agreement alone could
hide a generator that always gives up: every value of the tables must come from
the fast path alone, charged the same cost as the reference charges (the cost
limit must stop both back ends at the same work).

The tables evaluate against expr_support's stand-in context; the generator needs
two things a real ruleset gives it: the component kinds (which names are fields,
which are properties) and the body of the ruleset function `twice`, whose
reference closure is expr_support's `_twice`."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from expr_support import ITEM_KINDS, ITEM_PROPS, FakeCtx, _twice, scope_for, to_value
from meeple.dsl.compile_expr import compile_expr
from meeple.dsl.eval_errors import EvalError
from meeple.dsl.expr_parser import parse_expression
from meeple.dsl.model import DefineDecl
from meeple.dsl.source import Span
from meeple.interpreter.codegen.module import GeneratedModule
from meeple.interpreter.runtime.context import COST_LIMIT
from test_expr_eval import CASES

EVALUATED = [(t, e) for t, e in CASES if not str(e.get("error", "")).startswith("X")]


def _ruleset():
    kinds = {k: SimpleNamespace(fields=dict(fields), props=dict(ITEM_PROPS.get(k, {})))
             for k, fields in ITEM_KINDS.items()}
    twice = DefineDecl("twice", ["n"], parse_expression("n * 2"), Span("<tables>", 1, 1, 1, 6))
    return SimpleNamespace(game=SimpleNamespace(name="expression-tables"), content_hash="0" * 64,
                           components=kinds, defines={"twice": twice})


def _ctx(values):
    """expr_support's stand-in, with what generated code reads of the interpreter's Ctx:
    the call depth, the game's memo, and the interpreter's cost limit."""
    ctx = FakeCtx(values, limit=COST_LIMIT)
    ctx.call_depth = 0
    ctx.game.memo = {}  # where generated code keeps what depends on the game only
    return ctx


def _outcome(fn, values):
    """(("ok", value) or ("error", code, span), the cost charged)."""
    ctx = _ctx(values)
    try:
        result = ("ok", fn(ctx))
    except EvalError as exc:
        result = ("error", exc.code, exc.span)
    assert ctx.bindings == values, "bindings were not restored"
    return result, ctx.cost


def _generated(text, values):
    """(outcome, cost, deopts) of the entry's expression run as generated code."""
    expr = parse_expression(text)
    scope = scope_for(values)
    module = GeneratedModule(_ruleset(), scope, {"twice": _twice})
    fn = module.expression(expr, scope)
    return (*_outcome(fn, values), module.deopts)


def _reference(text, values):
    """(outcome, cost) of the entry's expression run by the closure compiler."""
    expr = parse_expression(text)
    return _outcome(compile_expr(expr, scope_for(values)), values)


@pytest.mark.parametrize("table,entry", EVALUATED, ids=[f"{t}:{e['name']}" for t, e in EVALUATED])
def test_generated_code_agrees_with_the_closure_compiler(table, entry):
    values = {k: to_value(v) for k, v in (entry.get("bindings") or {}).items()}
    generated, cost, deopts = _generated(entry["expr"], values)
    reference, reference_cost = _reference(entry["expr"], values)
    if "value" in entry:
        assert reference[0] == "ok"
        assert generated[0] == "ok", generated
        assert repr(generated[1]) == repr(reference[1])
        assert deopts == 0, "the value came from the reference, not from generated code"
        assert cost == reference_cost
    else:
        assert reference[:2] == ("error", entry["error"]), reference
        assert generated == reference


def test_a_table_of_values_and_errors_is_run():
    assert sum("value" in e for _, e in EVALUATED) > 200
    assert sum("error" in e for _, e in EVALUATED) > 50


def test_an_error_is_reported_by_the_reference_at_its_place():
    """Generated code has no error handling: a failure goes back to the reference."""
    (kind, code, span), _, deopts = _generated("1 + xs[5]", {"xs": (1,)})
    assert (kind, code, (span.line, span.col, span.end_col)) == ("error", "R701", (1, 5, 10))
    assert deopts == 1
