"""Expressions and effects stay bounded, and every way past a bound is a located error.

- Each operation whose work grows with a collection is charged for it: the cost of an
  expression that repeats the operation is at least its size times the repetitions, and
  both evaluators stop at the same place (code and span) when the budget is short.
- The hostile rulesets of issue 13 (r07-r17 of the reliability corpus), written inline:
  each ends in a diagnostic at load time or a run-time error with a place, and quickly.
"""
from __future__ import annotations

import textwrap

import pytest

from expr_support import FakeCtx, run_both, scope_for
from meeple.dsl.compile_expr import compile_expr
from meeple.dsl.expr_parser import parse_expression
from meeple.dsl.functions import MAX_CALL_DEPTH, MAX_DEPTH
from meeple.dsl.load import check_ruleset, read_ruleset
from meeple.dsl.types import MAX_TYPE_DEPTH
from meeple.interpreter.runtime import context
from meeple.interpreter.runtime.context import RuleError
from meeple.interpreter.runtime.game import Game
from meeple.interpreter.runtime.rules import Rules
from meeple.interpreter.analysis.setup_check import check_setup

# A list of 8 ** 4 = 4,096 ints, built from shared parts in a few steps; `d2` is an equal
# copy made of other objects, so comparing them must walk all of it.
TREES = ("for a in [range(8)] for b in [[a for i in range(8)]] for c in [[b for i in range(8)]] "
         "for d in [[c for i in range(8)]] for a2 in [range(8)] for b2 in [[a2 for i in range(8)]] "
         "for c2 in [[b2 for i in range(8)]] for d2 in [[c2 for i in range(8)]]")

TEXT = len(str(list(range(300))))  # str(range(300)) is written as Python writes the list

# (expression, the sub-expression that is charged, the least it must cost)
CHARGED = [
    ("count(1 for xs in [range(1000)] for i in range(100) if -1 in xs)", "-1 in xs", 100_000),
    ("count(1 for xs in [range(1000)] for i in range(100) if -1 not in xs)", "-1 not in xs", 100_000),
    ("count(1 for s in [str(range(300))] for i in range(100) if 'x' in s)", "'x' in s", 100 * TEXT),
    ("count(1 for xs in [range(1000)] for ys in [range(1000)] for i in range(100) if xs == ys)",
     "xs == ys", 100_000),
    ("count(1 for xs in [range(1000)] for ys in [range(1000)] for i in range(100) if xs != ys)",
     "xs != ys", 100_000),
    ("count(1 for xs in [range(1000)] for ys in [range(1000)] for i in range(100) if xs < ys)",
     "xs < ys", 200_000),
    ("count(1 for m in [{k: 1 for k in range(1000)}] for n in [{k: 1 for k in range(1000)}] "
     "for i in range(100) if m == n)", "m == n", 100_000),
    ("count(1 for xs in [range(1000)] for i in range(100) if len(xs + xs) > 0)", "xs + xs", 200_000),
    ("count(1 for s in [str(range(300))] for i in range(100) if len(s + s) > 0)", "s + s", 2 * 100 * TEXT),
    ("sum(twice(i) for i in range(1000))", "twice(i)", 20_000),
    (f"count(1 {TREES} for i in range(30) if d == d2)", "d == d2", 30 * 4096),
    (f"count(1 {TREES} for i in range(30) if d in [0, d2])", "d in [0, d2]", 30 * 4096),
    (f"count(1 {TREES} for i in range(30) if index_of([d], d2) == 0)", "index_of([d], d2)", 30 * 4096),
    (f"count(1 {TREES} for i in range(8) if len(unique([d, d2])) == 1)", "unique([d, d2])", 8 * 4096),
    (f"count(1 {TREES} for i in range(8) if len(sort([d, d2])) == 2)", "sort([d, d2])", 8 * 4096),
]


def _cost(text: str) -> int:
    ctx = FakeCtx(limit=10**9)
    compile_expr(parse_expression(text), scope_for({}))(ctx)
    return ctx.cost


@pytest.mark.parametrize("text,charged,least", CHARGED, ids=[c[1] for c in CHARGED])
def test_an_operation_over_a_collection_is_charged(text, charged, least):
    cost = _cost(text)
    assert cost >= least
    compiled, reference = run_both(text, limit=cost)
    assert compiled[0] == reference[0] == "ok"
    # Short of the budget, both stop inside the charged operation, in the same place.
    compiled, reference = run_both(text, limit=least // 2)
    assert compiled == reference
    code, span = compiled[1], compiled[2]
    assert code == "R702"
    assert text[span.col - 1:span.end_col - 1] == charged


def test_small_membership_tests_are_free():
    """A list of a few elements is not charged for `in`: playouts test those all the time."""
    assert _cost("count(1 for xs in [range(30)] for i in range(100) if -1 in xs)") < 30 * 100


# -- the hostile rulesets ---------------------------------------------------------------

def _write(tmp_path, text: str):
    """The ruleset `text` (indented like the test), played by PLAY."""
    path = tmp_path / "game.yaml"
    path.write_text(textwrap.dedent(text).lstrip() + PLAY.lstrip())
    return path


def _validate(tmp_path, text: str) -> list[tuple[str, int, int]]:
    """What `meeple validate` reports as errors: (code, line, column)."""
    rs, diags = read_ruleset(_write(tmp_path, text))
    assert rs is not None, [d.render() for d in diags]
    diags += check_ruleset(rs)
    if not any(d.severity == "error" for d in diags):
        diags += check_setup(rs)
    return sorted((d.code, d.span.line, d.span.col) for d in diags if d.severity == "error")


PLAY = """
flow: [{loop: [{turns: "players()", do: [{choose: [go]}]}]}]
end: [{when: "n >= 3"}]
"""


def test_r07_definitions_without_parameters_in_a_cycle(tmp_path):
    found = _validate(tmp_path, """
        game: {name: r, players: 2}
        variables: {n: {type: int, initial: "x"}}
        actions: {go: {effects: ["n += 1"]}}
        define:
          x: {expr: "y"}
          y: {expr: "x"}
          z: {expr: "z + 1"}
        """)
    assert found == [("N308", 5, 3), ("N308", 7, 3)]


def test_a_definition_with_parameters_may_call_itself(tmp_path):
    assert _validate(tmp_path, """
        game: {name: r, players: 2}
        define: {fact: {params: [k], expr: "1 if k <= 1 else k * fact(k - 1)"}}
        variables: {n: {type: int, initial: "fact(15) - fact(15)"}}
        actions: {go: {effects: ["n += 1"]}}
        """) == []


@pytest.mark.parametrize("keys,found", [
    ("nodes('grid')", ("N307", 4, 22)),  # r08: the checker sees the name
    # A name the checker cannot see fails in setup: a located diagnostic, no traceback.
    ("nodes('gr' + 'id')", ("R701", 4, 16)),
])
def test_r08_a_board_that_does_not_exist(tmp_path, keys, found):
    assert _validate(tmp_path, f"""
        game: {{name: r, players: 2}}
        variables:
          n: {{type: int, initial: 0}}
          cell: {{per: "{keys}", type: int}}
        actions: {{go: {{effects: ["n += 1"]}}}}
        """) == [found]


def test_r09_a_deal_count_must_be_an_int(tmp_path):
    found = _validate(tmp_path, """
        game: {name: r, players: 2}
        zones: {deck: {}, hand: {per: player}}
        setup:
          - deal: "'abc'"
            from: deck
            to: hand
        variables: {n: {type: int, initial: 0}}
        actions: {go: {effects: ["n += 1"]}}
        """)
    assert found == [("T403", 4, 12)]


def test_r10_a_type_nested_too_deeply(tmp_path):
    deep = "list[" * (MAX_TYPE_DEPTH + 1) + "int" + "]" * (MAX_TYPE_DEPTH + 1)
    ok = "list[" * MAX_TYPE_DEPTH + "int" + "]" * MAX_TYPE_DEPTH
    found = _validate(tmp_path, f"""
        game: {{name: r, players: 2}}
        variables:
          n: {{type: int, initial: 0}}
          ok: {{type: "{ok}"}}
          deep: {{type: "{deep}"}}
        actions: {{go: {{effects: ["n += 1"]}}}}
        """)
    assert found == [("T405", 5, 16)]
    long = "list[" * 2000 + "int" + "]" * 2000
    assert _validate(tmp_path, f"""
        game: {{name: r, players: 2}}
        variables: {{n: {{type: int, initial: 0}}, deep: {{type: "{long}"}}}}
        actions: {{go: {{effects: ["n += 1"]}}}}
        """) == [("T405", 2, 54)]


def test_r11_lines_longer_than_the_board(tmp_path):
    assert _validate(tmp_path, """
        game: {name: r, players: 2}
        boards: {grid: {grid: {rows: 3, cols: 3}}}
        variables:
          n: {type: int, initial: "len(lines('grid', 100000000))"}
        actions: {go: {effects: ["n += 1"]}}
        """) == []


@pytest.fixture
def small_budget(monkeypatch):
    """A smaller cost budget, so that running into it takes a moment."""
    monkeypatch.setattr(context, "COST_LIMIT", 200_000)


def test_r12_membership_over_a_large_list(tmp_path, small_budget):
    found = _validate(tmp_path, """
        game: {name: r, players: 2}
        define: {big: {expr: "range(100000)"}}
        variables:
          n: {type: int, initial: 0}
          x: {type: any, initial: "count(i for i in big if (0 - i - 1) in big)"}
        actions: {go: {effects: ["n += 1"]}}
        """)
    assert found == [("R702", 5, 52)]


def test_r13_a_definition_calling_itself_twice(tmp_path, small_budget):
    found = _validate(tmp_path, """
        game: {name: r, players: 2}
        define: {f: {params: [k], expr: "n if k == 0 else f(k - 1) + f(k - 1)"}}
        variables:
          n: {type: int, initial: 0}
          x: {type: any, initial: "f(40)"}
        actions: {go: {effects: ["n += 1"]}}
        """)
    assert found == [("R702", 2, 51)]


def test_definitions_nest_only_so_deep(tmp_path):
    text = """
        game: {name: r, players: 2}
        define: {down: {params: [k], expr: "n if k == 0 else down(k - 1)"}}
        variables:
          n: {type: int, initial: 0}
          x: {type: int, initial: "down(DEPTH)"}
        actions: {go: {effects: ["n += 1"]}}
        """
    assert _validate(tmp_path, text.replace("DEPTH", str(MAX_CALL_DEPTH - 1))) == []
    assert _validate(tmp_path, text.replace("DEPTH", str(MAX_CALL_DEPTH))) == [("R702", 2, 54)]


def test_r14_a_huge_deal_ends_with_its_source(tmp_path):
    path = _write(tmp_path, """
        game: {name: r, players: 2}
        components: {card: {items: [{id: a}, {id: b}, {id: c}]}}
        zones: {deck: {initial: "items('card')"}, hand: {per: player}, void: {per: player}}
        setup:
          - {deal: "1000000000000000000", from: deck, to: void, players: "[]"}
          - {deal: "1000000000000000000", from: deck, to: hand}
        variables: {n: {type: int, initial: 0}}
        actions: {go: {effects: ["n += 1"]}}
        """)
    rs, diags = read_ruleset(path)
    assert not [d for d in diags + check_ruleset(rs) if d.severity == "error"]
    state = Game(Rules(rs), 2).new_state(0)
    assert [len(h) for h in state.zones["hand"]] == [2, 1]
    assert state.zones["deck"] == () and state.zones["void"] == ((), ())


def _run_first_move(tmp_path, text: str) -> RuleError:
    rs, diags = read_ruleset(_write(tmp_path, text))
    assert not [d for d in diags + check_ruleset(rs) if d.severity == "error"]
    game = Game(Rules(rs), 2)
    state = game.new_state(0)
    with pytest.raises(RuleError) as info:
        game.apply(state, game.legal_moves(state)[0])
    return info.value


@pytest.mark.parametrize("declared", ["any", "list[int]"])
def test_r17_a_value_nested_too_deeply_is_not_stored(tmp_path, declared):
    """The declared type does not protect: a value typed `any` may go anywhere."""
    err = _run_first_move(tmp_path, f"""
        game: {{name: r, players: 2}}
        variables: {{n: {{type: int, initial: 0}}, out: {{type: "{declared}", initial: "[]"}}}}
        actions: {{go: {{effects: [{{for: i, in: "range(1000)", do: ["out = [out]"]}}, "n += 1"]}}}}
        """)
    assert (err.code, err.span.line, err.span.col) == ("R702", 3, 60)
    assert str(MAX_DEPTH) in err.message


def test_a_value_as_deep_as_allowed_is_stored(tmp_path):
    rs, _ = read_ruleset(_write(tmp_path, f"""
        game: {{name: r, players: 2}}
        variables: {{n: {{type: int, initial: 0}}, out: {{type: any, initial: "[]"}}}}
        actions: {{go: {{effects: [{{for: i, in: "range({MAX_DEPTH - 1})", do: ["out = [out]"]}}, "n += 1"]}}}}
        """))
    game = Game(Rules(rs), 2)
    state = game.new_state(0)
    state = game.apply(state, game.legal_moves(state)[0])
    depth, v = 0, state.vars["out"]
    while v:
        depth, v = depth + 1, v[0]
    assert depth == MAX_DEPTH - 1


@pytest.mark.parametrize("effect,code,col", [
    ('"word *= 3"', "R701", 27),  # `*` repeats no text: ints only
    ('"big += 1"', "R702", 27),  # past the integer range
    ('{move: {from: hand, to: deck, count: "many"}}', "R701", 26),  # not an int (`any` passes the checker)
])
def test_effects_follow_the_expression_rules(tmp_path, effect, code, col):
    err = _run_first_move(tmp_path, f"""
        game: {{name: r, players: 2}}
        zones: {{deck: {{}}, hand: {{}}}}
        variables: {{n: {{type: int, initial: 0}}, word: {{type: str, initial: "'ab'"}},
                    big: {{type: int, initial: "1000000000000000000"}}, many: {{type: any, initial: "'x'"}}}}
        actions: {{go: {{effects: [{effect}, "n += 1"]}}}}
        """)
    assert (err.code, err.span.line, err.span.col) == (code, 5, col)


def _definitions_game(tmp_path, defines: str, effect: str):
    """A game whose one action sets `x = effect` with the definitions `defines` (YAML
    lines of the `define` section), on the compiled back end or the reference."""
    path = _write(tmp_path, f"""
        game: {{name: r, players: 2}}
        define:
{textwrap.indent(defines, ' ' * 10)}
        variables:
          n: {{type: int, initial: 0}}
          x: {{type: int, initial: 0}}
        actions: {{go: {{effects: ["x = {effect}", "n += 1"]}}}}
        """)
    from meeple.interpreter.runtime.loading import load_game
    return lambda backend: load_game(path, backend=backend)


@pytest.mark.parametrize("depth, code", [(MAX_CALL_DEPTH - 1, None), (MAX_CALL_DEPTH, "R702")])
def test_the_compiled_back_end_counts_the_depth_of_a_definition_that_calls_itself(tmp_path, depth, code):
    """A chain of definitions that cannot reach the depth limit is not counted in the
    generated code; one that calls itself is, and stops where the reference stops."""
    game_on = _definitions_game(tmp_path, 'down: {params: [k], expr: "n if k == 0 else down(k - 1)"}\n'
                                          'twice: {params: [k], expr: "k + k"}', f"down({depth}) + twice(n)")
    outcomes = []
    for backend in ("reference", "compiled"):
        game = game_on(backend)
        state = game.new_state(0)
        try:
            game.apply(state, game.legal_moves(state)[0])
            outcomes.append(None)
        except RuleError as exc:
            outcomes.append(exc.code)
    assert outcomes == [code, code]
    source = game_on("compiled").rules.source()
    down = source[source.index("def D_down"):source.index("\n\n", source.index("def D_down"))]
    assert "MAX_CALL_DEPTH" in down


def test_definitions_that_cannot_nest_deeply_are_not_counted(tmp_path):
    game = _definitions_game(tmp_path, 'twice: {params: [k], expr: "k + k"}\n'
                                       'four: {params: [k], expr: "twice(twice(k))"}', "four(n)")("compiled")
    state = game.apply(game.apply(game.new_state(0), "go"), "go")
    assert state.vars["x"] == 4
    source = game.rules.source()
    assert "def D_four" in source and "MAX_CALL_DEPTH" not in source
