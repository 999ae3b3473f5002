"""The parser: tree shapes, precedence, spans, and where syntax errors point."""
from __future__ import annotations

import pytest

from meeple.dsl import expr_ast as A
from meeple.dsl.expr_ast import functions_called, iter_children, names_read, walk
from meeple.dsl.expr_parser import ExprSyntaxError, parse_assignment, parse_expression, parse_target
from meeple.dsl.source import TextOrigin


def shape(node):
    """A compact, span-free rendering of a tree, for comparing shapes."""
    if isinstance(node, A.Const):
        return repr(node.value)
    if isinstance(node, A.Name):
        return node.name
    if isinstance(node, A.Binary):
        return f"({shape(node.left)} {node.op} {shape(node.right)})"
    if isinstance(node, A.BoolOp):
        return f"({shape(node.left)} {node.op} {shape(node.right)})"
    if isinstance(node, A.Unary):
        return f"({node.op} {shape(node.operand)})"
    if isinstance(node, A.Cond):
        return f"({shape(node.then)} if {shape(node.test)} else {shape(node.orelse)})"
    if isinstance(node, A.Index):
        return f"{shape(node.obj)}[{shape(node.index)}]"
    if isinstance(node, A.Member):
        return f"{shape(node.obj)}.{node.name}"
    if isinstance(node, A.Call):
        return f"{node.func}({', '.join(shape(a) for a in node.args)})"
    if isinstance(node, A.Lambda):
        return f"({node.param} => {shape(node.body)})"
    if isinstance(node, A.ListLit):
        return "[" + ", ".join(shape(x) for x in node.items) + "]"
    if isinstance(node, A.MapLit):
        return "{" + ", ".join(f"{shape(k)}: {shape(v)}" for k, v in node.entries) + "}"
    if isinstance(node, (A.ListComp, A.Generator, A.MapComp)):
        head = (f"{shape(node.key)}: {shape(node.value)}" if isinstance(node, A.MapComp)
                else shape(node.element))
        return f"<{type(node).__name__} {head} {' '.join(shape(c) for c in node.clauses)}>"
    if isinstance(node, A.For):
        return f"for {','.join(node.names)} in {shape(node.iter)}"
    if isinstance(node, A.If):
        return f"if {shape(node.cond)}"
    raise AssertionError(node)


@pytest.mark.parametrize("text,expected", [
    ("1 + 2 * 3", "(1 + (2 * 3))"),
    ("1 - 2 - 3", "((1 - 2) - 3)"),
    ("a // b % c", "((a // b) % c)"),
    ("-a * b", "((- a) * b)"),
    ("not a == b", "(not (a == b))"),
    ("a or b and c", "(a or (b and c))"),
    ("not a and b", "((not a) and b)"),
    ("a + 1 < b", "((a + 1) < b)"),
    ("x in xs and y not in ys", "((x in xs) and (y not in ys))"),
    ("a if c else b if d else e", "(a if c else (b if d else e))"),
    ("a or b if c else d", "((a or b) if c else d)"),
    ("a.b[c].d", "a.b[c].d"),
    ("m['k'][0]", "m['k'][0]"),
    ("len(xs) + 1", "(len(xs) + 1)"),
    ("f()", "f()"),
    ("f(a, b,)", "f(a, b)"),
    ("[]", "[]"),
    ("[1, 'a', true, false, none]", "[1, 'a', True, False, None]"),
    ("{}", "{}"),
    ("{'a': 1, 2: x}", "{'a': 1, 2: x}"),
    ("[x for x in xs if x > 0]", "<ListComp x for x in xs if (x > 0)>"),
    ("[x for x in xs for y in x if y]", "<ListComp x for x in xs for y in x if y>"),
    ("{k: v for k, v in items(m)}", "<MapComp k: v for k,v in items(m)>"),
    ("sum(v for v in vs)", "sum(<Generator v for v in vs>)"),
    ("filter(xs, x => x.a > 1)", "filter(xs, (x => (x.a > 1)))"),
    ("sort(xs, x => -x)", "sort(xs, (x => (- x)))"),
    ("[a if c else b for a in xs]", "<ListComp (a if c else b) for a in xs>"),
    ("x =>\n  x + 1", "(x => (x + 1))"),
    ("'it\\'s' + \"q\"", "(\"it's\" + 'q')"),
    ("(((1)))", "1"),
])
def test_shapes(text, expected):
    assert shape(parse_expression(text)) == expected


def test_keywords_are_not_names_but_prefixes_are():
    assert shape(parse_expression("truex + nonex + iffy + forty")) == "(((truex + nonex) + iffy) + forty)"
    for text in ("if + 1", "x.for", "a and or b", "[x for in in xs]"):
        with pytest.raises(ExprSyntaxError):
            parse_expression(text)


def test_node_spans_cover_their_text():
    text = "len(xs) + items[2].value"
    tree = parse_expression(text)
    for node in walk(tree):
        s = node.span
        assert s.line == s.end_line == 1
    assert (tree.span.col, tree.span.end_col) == (1, len(text) + 1)
    call, member = tree.left, tree.right
    assert (call.span.col, call.span.end_col) == (1, 8)
    assert (call.func_span.col, call.func_span.end_col) == (1, 4)
    assert (member.span.col, member.span.end_col) == (11, 25)
    assert (member.name_span.col, member.name_span.end_col) == (20, 25)
    assert (member.obj.index.span.col, member.obj.index.span.end_col) == (17, 18)


def test_list_and_comprehension_spans_include_brackets():
    tree = parse_expression("  [x for x in xs]  ")
    assert (tree.span.col, tree.span.end_col) == (3, 18)
    clause = tree.clauses[0]
    assert (clause.iter.span.col, clause.iter.span.end_col) == (15, 17)


def errors(text, parse=parse_expression, origin=None):
    with pytest.raises(ExprSyntaxError) as info:
        parse(text, origin) if origin else parse(text)
    d = info.value.diagnostic
    return d.code, (d.span.file, d.span.line, d.span.col, d.span.end_line, d.span.end_col)


@pytest.mark.parametrize("text,code,col,end_col", [
    ("silver[player] >= )", "X201", 19, 20),
    ("a + * b", "X201", 5, 6),
    ("1 < 2 < 3", "X201", 7, 8),
    ("xs[1:2:3:4]", "X201", 9, 10),
    ("x = 3", "X201", 3, 4),
    ("a && b", "X201", 3, 4),
    ("'abc", "X201", 1, 2),
    ("'a\\qb'", "X201", 3, 5),
    ("x.y()", "X201", 1, 6),
    ("3(1)", "X201", 1, 5),
    ("1.5", "X201", 3, 4),
    ("lambda x: x", "X201", 8, 9),
    ("import os", "X201", 8, 10),
    ("99999999999999999999", "X201", 1, 21),
    ("[x for x, x in y]", "X201", 4, 17),
    ("f(x for x in y, 2)", "X201", 15, 16),
    ("", "X202", 1, 2),
    ("a +", "X202", 4, 5),
    ("len(xs", "X202", 7, 8),
    ("a if b", "X202", 7, 8),
    ("a +   ", "X202", 4, 5),
])
def test_error_positions_without_origin(text, code, col, end_col):
    assert errors(text) == (code, ("<expr>", 1, col, 1, end_col))


def test_error_position_on_a_later_line_without_origin():
    assert errors("a +\n  b +\n  )") == ("X201", ("<expr>", 3, 3, 3, 4))


def test_messages_name_what_was_expected():
    with pytest.raises(ExprSyntaxError) as info:
        parse_expression("f(1, ]")
    assert "expected an expression" in info.value.diagnostic.message
    assert "')'" in info.value.diagnostic.message


def test_plain_yaml_scalar_maps_to_its_column():
    # rules.yaml line 7:   require: silver[player] >= )
    origin = TextOrigin("rules.yaml", ((7, 14),))
    assert errors("silver[player] >= )", origin=origin) == ("X201", ("rules.yaml", 7, 32, 7, 33))


def test_quoted_yaml_scalar_is_shifted_by_the_quote():
    # rules.yaml line 3:   cond: "a + * b"    -- the quote is at column 9, the text at 10
    origin = TextOrigin("rules.yaml", ((3, 10),))
    assert errors("a + * b", origin=origin) == ("X201", ("rules.yaml", 3, 14, 3, 15))


def test_block_yaml_scalar_maps_each_line():
    # rules.yaml:
    # 11:  when: |
    # 12:    sum(x for x in xs)
    # 13:      + )
    text = "sum(x for x in xs)\n  + )\n"
    origin = TextOrigin("rules.yaml", ((12, 5), (13, 5), (14, 1)))
    assert errors(text, origin=origin) == ("X201", ("rules.yaml", 13, 9, 13, 10))
    # end of input inside a block points just past the last character
    origin = TextOrigin("rules.yaml", ((12, 5), (13, 5), (14, 1)))
    assert errors("sum(x for x in xs)\n  + \n", origin=origin) == ("X202", ("rules.yaml", 13, 8, 13, 9))


def test_node_spans_use_the_origin():
    origin = TextOrigin("rules.yaml", ((12, 5), (13, 5)))
    tree = parse_expression("a +\n  bb", origin)
    assert (tree.right.span.line, tree.right.span.col, tree.right.span.end_col) == (13, 7, 9)
    assert (tree.span.line, tree.span.col, tree.span.end_line, tree.span.end_col) == (12, 5, 13, 9)


def test_origin_file_wins_over_the_file_argument():
    origin = TextOrigin("real.yaml", ((2, 3),))
    tree = parse_expression("x", origin, file="other.yaml")
    assert tree.span.file == "real.yaml"
    assert parse_expression("x", file="given.yaml").span.file == "given.yaml"


# -- targets and assignments ---------------------------------------------------------

@pytest.mark.parametrize("text,expected", [
    ("silver[player]", "silver[player]"),
    ("gems[p]['ruby']", "gems[p]['ruby']"),
    ("card.load", "card.load"),
    ("score", "score"),
    ("board[f(x)].cell", "board[f(x)].cell"),
])
def test_targets(text, expected):
    assert shape(parse_target(text)) == expected


@pytest.mark.parametrize("text,col,end_col", [
    ("f(x)", 1, 5),
    ("a + 1", 1, 6),
    ("len(xs)[0]", 1, 8),
    ("[a][0]", 1, 4),
    ("3", 1, 2),
    ("x if c else y", 1, 14),
])
def test_bad_targets(text, col, end_col):
    assert errors(text, parse_target) == ("X203", ("<expr>", 1, col, 1, end_col))


@pytest.mark.parametrize("op", ["=", "+=", "-=", "*="])
def test_assignment_operators(op):
    node = parse_assignment(f"silver[player] {op} silver[player] + 1")
    assert isinstance(node, A.Assign) and node.op == op
    assert shape(node.target) == "silver[player]"
    assert shape(node.value) == "(silver[player] + 1)"
    assert (node.span.col, node.span.end_col) == (1, 35 + len(op))


def test_assignment_value_may_compare():
    node = parse_assignment("done = a == b")
    assert shape(node.value) == "(a == b)"


def test_assignment_errors():
    assert errors("f(x) = 1", parse_assignment)[0] == "X203"
    assert errors("a = = 1", parse_assignment)[0] == "X201"
    assert errors("a", parse_assignment)[0] == "X202"
    assert errors("a == 1", parse_assignment)[0] == "X202"
    assert errors("a = 1 = 2", parse_assignment)[0] == "X201"


def test_an_assignment_is_not_an_expression():
    assert errors("a = 1")[0] == "X201"
    assert errors("a += 1")[0] == "X201"


def test_deep_nesting_is_a_diagnostic_not_a_crash():
    assert errors("-" * 1000 + "1")[0] == "X201"
    assert errors("[" * 400 + "]" * 400)[0] == "X201"
    assert shape(parse_expression("(" * 1000 + "1" + ")" * 1000)) == "1"
    assert shape(parse_expression("- " * 40 + "1")).count("-") == 40


# -- tree helpers ----------------------------------------------------------------------

def test_names_read_excludes_bound_names():
    tree = parse_expression("[x + y for x in xs if x > lo] + filter(zs, z => z == w) + [z]")
    assert names_read(tree) == {"y", "xs", "lo", "zs", "w", "z"}


def test_names_read_scopes_clauses_left_to_right():
    tree = parse_expression("[y for x in x for y in f(x)]")
    assert names_read(tree) == {"x"}
    tree = parse_expression("{k: v for k, v in items(m) if k != kk}")
    assert names_read(tree) == {"m", "kk"}


def test_functions_called():
    tree = parse_expression("sum(len(x) for x in xs) + max(a, abs(b))")
    assert functions_called(tree) == {"sum", "len", "max", "abs"}


def test_iter_children_in_source_order():
    tree = parse_expression("{'a': b, c: d}")
    assert [shape(c) for c in iter_children(tree)] == ["'a'", "b", "c", "d"]
    assert [shape(c) for c in iter_children(parse_expression("x if c else y"))] == ["c", "x", "y"]
