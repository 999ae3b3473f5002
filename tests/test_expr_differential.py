"""Differential testing: the compiled closures and the reference evaluator
must agree on random well-typed expressions, on values and on errors (code
and span), and the checker must accept every such expression."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from expr_support import run_both, scope_for, type_of
from meeple.dsl.expr_parser import parse_expression
from meeple.dsl.functions import equal
from meeple.dsl.typecheck import infer_type

BINDINGS = {"a": 7, "b": -3, "big": 10**17, "flag": True, "xs": [4, -2, 9, 0], "ys": []}
INT_NAMES = ["a", "b", "big"]
LIST_NAMES = ["xs", "ys"]


@st.composite
def ints(draw, depth=3, bound=()):
    leaves = [st.integers(-30, 30).map(lambda n: f"({n})" if n < 0 else str(n)),
              st.sampled_from(INT_NAMES + list(bound))]
    if depth <= 0:
        return draw(st.one_of(leaves))
    d = depth - 1
    choice = draw(st.integers(0, 14))
    if choice <= 2:
        return draw(st.one_of(leaves))
    if choice <= 5:
        op = draw(st.sampled_from(["+", "-", "*", "//", "%"]))
        return f"({draw(ints(d, bound))} {op} {draw(ints(d, bound))})"
    if choice == 6:
        return f"-{draw(ints(d, bound))}"
    if choice == 7:
        return f"({draw(ints(d, bound))} if {draw(bools(d, bound))} else {draw(ints(d, bound))})"
    if choice == 8:
        return f"{draw(lists(d, bound))}[{draw(ints(d, bound))}]"
    if choice == 9:
        fn = draw(st.sampled_from(["sum", "min", "max", "len", "first", "last", "count"]))
        return f"{fn}({draw(lists(d, bound))})"
    if choice == 10:
        fn = draw(st.sampled_from(["abs", "ceil_div", "clamp", "min", "max", "next_player"]))
        n = {"abs": 1, "ceil_div": 2, "clamp": 3, "next_player": 2}.get(fn, 2)
        return f"{fn}({', '.join(draw(ints(d, bound)) for _ in range(n))})"
    if choice == 11:
        v = draw(st.sampled_from(["v", "w"]))
        fn = draw(st.sampled_from(["count_if", "min_by", "max_by"]))
        body = draw(bools(d, bound + (v,))) if fn == "count_if" else draw(ints(d, bound + (v,)))
        return f"{fn}({draw(lists(d, bound))}, {v} => {body})"
    if choice == 12:
        v = draw(st.sampled_from(["v", "w"]))
        fn = draw(st.sampled_from(["sum", "min", "max", "count"]))
        inner = bound + (v,)
        cond = f" if {draw(bools(d, inner))}" if draw(st.booleans()) else ""
        return f"{fn}({draw(ints(d, inner))} for {v} in {draw(lists(d, bound))}{cond})"
    if choice == 13:
        return f"index_of({draw(lists(d, bound))}, {draw(ints(d, bound))})"
    return f"int(str({draw(ints(d, bound))}))"


@st.composite
def bools(draw, depth=3, bound=()):
    leaves = st.sampled_from(["true", "false", "flag"])
    if depth <= 0:
        return draw(leaves)
    d = depth - 1
    choice = draw(st.integers(0, 9))
    if choice <= 1:
        return draw(leaves)
    if choice <= 3:
        op = draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]))
        return f"({draw(ints(d, bound))} {op} {draw(ints(d, bound))})"
    if choice == 4:
        op = draw(st.sampled_from(["and", "or"]))
        return f"({draw(bools(d, bound))} {op} {draw(bools(d, bound))})"
    if choice == 5:
        return f"(not {draw(bools(d, bound))})"
    if choice == 6:
        op = draw(st.sampled_from(["in", "not in"]))
        return f"({draw(ints(d, bound))} {op} {draw(lists(d, bound))})"
    if choice == 7:
        v = draw(st.sampled_from(["v", "w"]))
        fn = draw(st.sampled_from(["any", "all"]))
        return f"{fn}({draw(bools(d, bound + (v,)))} for {v} in {draw(lists(d, bound))})"
    if choice == 8:
        op = draw(st.sampled_from(["==", "!=", "<"]))
        return f"({draw(lists(d, bound))} {op} {draw(lists(d, bound))})"
    return f"({draw(bools(d, bound))} if {draw(bools(d, bound))} else {draw(bools(d, bound))})"


@st.composite
def lists(draw, depth=3, bound=()):
    leaves = st.sampled_from(LIST_NAMES + ["[]", "[1, 2, 2]", "players()"])
    if depth <= 0:
        return draw(leaves)
    d = depth - 1
    choice = draw(st.integers(0, 9))
    if choice <= 1:
        return draw(leaves)
    if choice == 2:
        n = draw(st.integers(0, 3))
        return "[" + ", ".join(draw(ints(d, bound)) for _ in range(n)) + "]"
    if choice == 3:
        return f"range({draw(ints(d, bound))})"
    if choice == 4:
        v = draw(st.sampled_from(["v", "w"]))
        inner = bound + (v,)
        cond = f" if {draw(bools(d, inner))}" if draw(st.booleans()) else ""
        return f"[{draw(ints(d, inner))} for {v} in {draw(lists(d, bound))}{cond}]"
    if choice == 5:
        v, w = "v", "w"
        return (f"[{draw(ints(d, bound + (v, w)))} for {v} in {draw(lists(d, bound))} "
                f"for {w} in {draw(lists(d, bound + (v,)))}]")
    if choice == 6:
        v = draw(st.sampled_from(["v", "w"]))
        fn = draw(st.sampled_from(["filter", "sort", "sort_desc"]))
        body = draw(bools(d, bound + (v,))) if fn == "filter" else draw(ints(d, bound + (v,)))
        return f"{fn}({draw(lists(d, bound))}, {v} => {body})"
    if choice == 7:
        fn = draw(st.sampled_from(["sort", "sort_desc", "reverse", "unique", "clockwise"]))
        arg = draw(ints(d, bound)) if fn == "clockwise" else draw(lists(d, bound))
        return f"{fn}({arg})"
    if choice == 8:
        return f"({draw(lists(d, bound))} + {draw(lists(d, bound))})"
    return f"({draw(lists(d, bound))} if {draw(bools(d, bound))} else {draw(lists(d, bound))})"


def _agree(text):
    compiled, reference = run_both(text, BINDINGS)
    assert compiled[0] == reference[0], (text, compiled, reference)
    if compiled[0] == "ok":
        assert equal(compiled[1], reference[1]), (text, compiled, reference)
    else:
        assert compiled == reference, text
    return compiled


def _well_typed(text):
    scope = scope_for({k: tuple(v) if isinstance(v, list) else v for k, v in BINDINGS.items()})
    t, diags = infer_type(parse_expression(text), scope)
    assert diags == [], (text, [d.message for d in diags])
    return t


SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SETTINGS
@given(ints(4))
def test_int_expressions_agree(text):
    t = _well_typed(text)
    result = _agree(text)
    if result[0] == "ok":
        assert t.accepts(type_of(result[1]))
    else:
        assert result[1] in ("R701", "R702"), (text, result)


@SETTINGS
@given(bools(4))
def test_bool_expressions_agree(text):
    _well_typed(text)
    result = _agree(text)
    assert result[0] == "error" or isinstance(result[1], bool)


@SETTINGS
@given(lists(4))
def test_list_expressions_agree(text):
    _well_typed(text)
    result = _agree(text)
    assert result[0] == "error" or isinstance(result[1], tuple)


def test_some_fixed_cases_agree():
    for text in ["min([])", "xs[10]", "range(big)", "big * big", "sum(v // 0 for v in xs)",
                 "any(v // v > 0 for v in xs)", "[v for v in xs if v // v == 1]",
                 "sort(xs, v => v // 0)", "count_if(ys, v => 1 // 0 == 0)"]:
        _agree(text)
