"""Runs the expression tables in tests/expr/*.yaml.

Each entry is `{name, expr, value}` or `{name, expr, error: CODE}`, with
optional `bindings`.  Every entry runs through the parser, the checker, the
compiled evaluator and the reference evaluator:
  - an X code is expected from the parser;
  - `check: [codes]` lists the checker's expected codes; without it, an entry
    with a value must pass the checker cleanly (no false alarms), and an
    N/T error code is expected from the checker;
  - the two evaluators must agree with the entry and with each other.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from expr_support import FakeCtx, run_both, scope_for, to_value, type_of
from meeple.dsl.compile_expr import compile_expr
from meeple.dsl.eval_errors import EvalError, EvalLimitError
from meeple.dsl.expr_parser import ExprSyntaxError, parse_expression
from meeple.dsl.functions import equal
from meeple.dsl.typecheck import infer_type

TABLES = sorted((Path(__file__).parent / "expr").glob("*.yaml"))
CASES = [(path.stem, entry) for path in TABLES for entry in yaml.safe_load(path.read_text())]


def test_tables_are_well_formed():
    names = set()
    for table, entry in CASES:
        assert set(entry) <= {"name", "expr", "value", "error", "bindings", "check"}, entry
        assert ("value" in entry) != ("error" in entry), entry
        assert (table, entry["name"]) not in names, entry["name"]
        names.add((table, entry["name"]))
    assert len(CASES) >= 250


@pytest.mark.parametrize("table,entry", CASES, ids=[f"{t}:{e['name']}" for t, e in CASES])
def test_table_entry(table, entry):
    text, bindings = entry["expr"], entry.get("bindings") or {}
    error = entry.get("error")
    if error and error.startswith("X"):
        with pytest.raises(ExprSyntaxError) as info:
            parse_expression(text)
        assert info.value.diagnostic.code == error
        return
    expr = parse_expression(text)
    values = {k: to_value(v) for k, v in bindings.items()}
    inferred, diags = infer_type(expr, scope_for(values))
    codes = sorted(d.code for d in diags)
    if "check" in entry:
        assert codes == sorted(entry["check"]), [d.message for d in diags]
    elif error and error[0] in "NT":
        assert error in codes, [d.message for d in diags]
    elif "value" in entry:
        assert codes == [], [d.message for d in diags]
    compiled, reference = run_both(text, bindings)
    assert compiled == reference or _same(compiled, reference)
    if "value" in entry:
        assert compiled[0] == "ok", compiled
        expected = to_value(entry["value"])
        assert equal(compiled[1], expected), (compiled[1], expected)
        assert inferred.accepts(type_of(compiled[1])), (str(inferred), compiled[1])
    else:
        assert compiled[:2] == ("error", error), compiled


def _same(a, b) -> bool:
    return a[0] == b[0] == "ok" and equal(a[1], b[1])


def test_cost_is_charged_for_iteration():
    expr = parse_expression("[x for x in range(50)]")
    ctx = FakeCtx()
    compile_expr(expr, scope_for({}))(ctx)
    assert ctx.cost >= 50


def test_cost_limit_stops_a_long_evaluation_with_its_span():
    expr = parse_expression("sum(x * y for x in range(3000) for y in range(3000))")
    ctx = FakeCtx(limit=100_000)
    with pytest.raises(EvalLimitError) as info:
        compile_expr(expr, scope_for({}))(ctx)
    assert info.value.code == "R702"
    assert info.value.span is not None


def test_bindings_are_restored_after_an_error():
    expr = parse_expression("[10 // (x - 2) for x in range(5)]")
    ctx = FakeCtx({"x": "outer"})
    with pytest.raises(EvalError):
        compile_expr(expr, scope_for({"x": "outer"}))(ctx)
    assert ctx.bindings == {"x": "outer"}


def test_bindings_are_restored_after_an_early_exit():
    for text in ("any(x > 1 for x in range(5))", "all(x < 1 for x in range(5))"):
        ctx = FakeCtx({})
        compile_expr(parse_expression(text), scope_for({}))(ctx)
        assert ctx.bindings == {}


def test_runtime_error_points_at_the_failing_subexpression():
    expr = parse_expression("1 + xs[5]")
    with pytest.raises(EvalError) as info:
        compile_expr(expr, scope_for({"xs": (1,)}))(FakeCtx({"xs": (1,)}))
    span = info.value.span
    assert (span.line, span.col, span.end_col) == (1, 5, 10)


def test_library_error_points_at_the_call():
    expr = parse_expression("1 + first([])")
    with pytest.raises(EvalError) as info:
        compile_expr(expr, scope_for({}))(FakeCtx())
    assert (info.value.code, info.value.span.col, info.value.span.end_col) == ("R701", 5, 14)


def test_a_compiled_closure_is_reusable():
    expr = parse_expression("sum(v for v in xs if v > t)")
    scope = scope_for({"xs": (1,), "t": 0})
    fn = compile_expr(expr, scope)
    assert fn(FakeCtx({"xs": (1, 2, 3), "t": 1})) == 5
    assert fn(FakeCtx({"xs": (4, 5), "t": 4})) == 5


def test_constant_subexpressions_are_folded():
    fn = compile_expr(parse_expression("[1 + 2, 'a' + 'b', not false]"), scope_for({}))
    assert fn.const_value == (3, "ab", True)
    failing = compile_expr(parse_expression("1 // 0"), scope_for({}))
    with pytest.raises(EvalError):
        failing(None)


def test_lines_are_cached_on_the_board():
    ctx = FakeCtx()
    fn = compile_expr(parse_expression("lines('grid', 3)"), scope_for({}))
    first = fn(ctx)
    assert fn(ctx) is first
    assert 3 in ctx.game.boards["grid"].graph["_meeple_lines"]
