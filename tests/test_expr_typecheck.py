"""The static checker: inferred types, and the code and span of each diagnostic."""
from __future__ import annotations

import pytest

from expr_support import ITEM_KINDS, ITEM_PROPS
from meeple.dsl.expr_parser import parse_expression
from meeple.dsl.scope import Scope, Symbol
from meeple.dsl.typecheck import expect_type, infer_type, join
from meeple.dsl.types import ANY, BOOL, INT, STR, item_of, list_of, map_of


def scope():
    def sym(name, t):
        return Symbol(name, t, lambda ctx: None, "var")
    symbols = {
        "silver": sym("silver", map_of(INT, INT)),
        "player": sym("player", INT),
        "hand": sym("hand", list_of(item_of("card"))),
        "card": sym("card", item_of("card")),
        "name": sym("name", STR),
        "flag": sym("flag", BOOL),
        "stuff": sym("stuff", ANY),
        "gems": sym("gems", map_of(INT, map_of(STR, INT))),
        "scores": sym("scores", list_of(INT)),
        "totals": sym("totals", None),
    }
    return Scope(symbols, item_kinds=ITEM_KINDS, item_props=ITEM_PROPS)


def check(text):
    return infer_type(parse_expression(text), scope())


def codes(text):
    return [d.code for d in check(text)[1]]


def where(d):
    return (d.span.line, d.span.col, d.span.end_col)


@pytest.mark.parametrize("text,expected", [
    ("1 + 2", INT),
    ("'a' + name", STR),
    ("silver[player] >= 3", BOOL),
    ("silver[player]", INT),
    ("gems[player]['ruby']", INT),
    ("gems[player].ruby", INT),
    ("card.value", INT),
    ("card.suit", STR),
    ("card.load", INT),
    ("card.id", STR),
    ("hand[0].value", INT),
    ("[c.value for c in hand]", list_of(INT)),
    ("{c.id: c.value for c in hand}", map_of(STR, INT)),
    ("sum(c.value for c in hand)", INT),
    ("filter(hand, c => c.value > 2)", list_of(item_of("card"))),
    ("max_by(hand, c => c.value)", item_of("card")),
    ("sort(scores)", list_of(INT)),
    ("first(scores)", INT),
    ("min(scores)", INT),
    ("min(3, player)", INT),
    ("keys(silver)", list_of(INT)),
    ("values(gems[0])", list_of(INT)),
    ("items('card')", list_of(item_of("card"))),
    ("range(3)", list_of(INT)),
    ("players()", list_of(INT)),
    ("[1, 2] + [3]", list_of(INT)),
    ("[1, 'a']", list_of(ANY)),
    ("[]", list_of(ANY)),
    ("1 if flag else 2", INT),
    ("1 if flag else 'a'", ANY),
    ("stuff + 1", INT),
    ("stuff.anything", ANY),
    ("stuff[0]", ANY),
    ("totals", ANY),
    ("len(hand) > 0 and not flag", BOOL),
    ("[a + b for a, b in zip(scores, scores)]", list_of(ANY)),
    ("subsets(scores, 2)", list_of(list_of(INT))),
])
def test_inferred_types(text, expected):
    t, diags = check(text)
    assert diags == [], [d.message for d in diags]
    assert t == expected, str(t)


def test_undefined_name_points_at_the_name_and_suggests():
    t, diags = check("silvr[player] + 1")
    assert t == INT
    [d] = diags
    assert d.code == "N301" and where(d) == (1, 1, 6)
    assert "silver" in d.message


def test_python_spelling_of_booleans_gets_a_note():
    [d] = check("flag == True")[1]
    assert d.code == "N301" and d.notes


def test_function_name_used_as_a_value():
    [d] = check("len(players)")[1]
    assert d.code == "N301" and where(d) == (1, 5, 12) and d.notes


def test_unknown_function_points_at_its_name():
    [d] = check("1 + lenght(hand)")[1]
    assert d.code == "N302" and where(d) == (1, 5, 11)
    assert "len" in d.message


def test_unknown_function_still_checks_its_arguments():
    assert sorted(codes("frob(nope, x => x + 'a' + 1)")) == ["N301", "N302", "T401"]


def test_unknown_field_points_at_the_field_name():
    [d] = check("card.valeu > 2")[1]
    assert d.code == "N303" and where(d) == (1, 6, 11)
    assert "value" in d.message


def test_unknown_field_through_a_lambda_and_a_comprehension():
    assert codes("filter(hand, c => c.colour == 'red')") == ["N303"]
    assert codes("[c.shape for c in hand]") == ["N303"]
    assert codes("[t.shape for t in items('tile')]") == []


def test_unknown_item_kind():
    [d] = check("items('cards')")[1]
    assert d.code == "N303" and where(d) == (1, 7, 14)


@pytest.mark.parametrize("text,span", [
    ("silver[player] + 'x'", (1, 1, 21)),
    ("not 3", (1, 5, 6)),
    ("-name", (1, 2, 6)),
    ("flag and 1", (1, 10, 11)),
    ("1 if player else 2", (1, 6, 12)),
    ("player < 'a'", (1, 1, 13)),
    ("flag < flag", (1, 1, 12)),
    ("player == 'a'", (1, 1, 14)),
    ("'a' in scores", (1, 1, 14)),
    ("1 in name", (1, 1, 10)),
    ("1 in player", (1, 1, 12)),
    ("scores['a']", (1, 8, 11)),
    ("silver['a']", (1, 8, 11)),
    ("player[0]", (1, 1, 10)),
    ("player.x", (1, 1, 9)),
    ("name.upper", (1, 1, 11)),
    ("len(player)", (1, 5, 11)),
    ("range('a')", (1, 7, 10)),
    ("filter(hand, c => c.value)", (1, 19, 26)),
    ("filter(hand, 3)", (1, 14, 15)),
    ("[x for x in player]", (1, 13, 19)),
    ("[x for x in scores if x]", (1, 23, 24)),
    ("{[1]: 2}", (1, 2, 5)),
    ("{s: 1 for s in [scores]}", (1, 2, 3)),
    ("hand + 1", (1, 1, 9)),
    ("card + 1", (1, 1, 9)),
])
def test_type_mismatch_code_and_span(text, span):
    diags = check(text)[1]
    assert [d.code for d in diags] == ["T401"], [d.message for d in diags]
    assert where(diags[0]) == span


@pytest.mark.parametrize("text", ["len()", "len(hand, hand)", "clamp(1, 2)", "range(1, 2, 3, 4)",
                                  "players(1)", "min()", "next_player()"])
def test_wrong_number_of_arguments(text):
    diags = check(text)[1]
    assert [d.code for d in diags] == ["T402"]
    assert where(diags[0]) == (1, 1, len(text) + 1)


@pytest.mark.parametrize("text,span", [
    ("x => x", (1, 1, 7)),
    ("[x => 1]", (1, 2, 8)),
    ("len(x => x)", (1, 5, 11)),
    ("filter(hand, c => c => 1)", (1, 19, 25)),
    ("1 if flag else (y => y)", (1, 17, 23)),
])
def test_lambda_outside_a_higher_order_argument(text, span):
    diags = [d for d in check(text)[1] if d.code == "T404"]
    assert len(diags) == 1 and where(diags[0]) == span


def test_every_problem_is_reported():
    diags = check("nope + card.zz + lenn(1) + (x => x) + len([1], 2) + ('a' - 1)")[1]
    assert sorted(d.code for d in diags) == ["N301", "N302", "N303", "T401", "T402", "T404"]


def test_expect_type_reports_t403_on_the_whole_expression():
    expr = parse_expression("silver[player] + 1")
    [d] = expect_type(expr, scope(), BOOL, "a requirement")
    assert d.code == "T403" and where(d) == (1, 1, 19)
    assert "requirement" in d.message
    assert expect_type(parse_expression("silver[player] > 1"), scope(), BOOL, "a requirement") == []
    assert expect_type(parse_expression("stuff"), scope(), BOOL, "a requirement") == []


def test_expect_type_keeps_the_inner_diagnostics():
    diags = expect_type(parse_expression("nope + 1"), scope(), BOOL, "a requirement")
    assert sorted(d.code for d in diags) == ["N301", "T403"]


def test_comprehension_variables_do_not_leak():
    assert codes("[c for c in hand] + [c]") == ["N301"]


def test_join():
    assert join(INT, INT) == INT
    assert join(INT, STR) == ANY
    assert join(list_of(INT), list_of(STR)) == list_of(ANY)
    assert join(item_of("card"), item_of("tile")) == item_of(None)
