"""The expression idioms of issue 42: `let ... in`, sets, `key_of`, `take_while` and
`drop_while`, `**`, `join`, slicing and `range` with a step.

- Every row of tests/expr/idioms.yaml runs on the reference evaluator, the closure
  compiler and the compiled back end's generated code, which must give exactly the
  row's value (the same Python types, not only equal ones) or the same error code at
  the same place.  (test_expr_eval.py and test_expr_codegen.py run the table too, with
  the checker and the cost.)  Sets, which the table's YAML cannot write, are checked
  here against frozensets.
- Syntax errors are located: codes and spans, in an expression and in a ruleset file.
- Sets and lists made by slicing, stored in variables (Pancake Duel), survive a copy,
  pickling, packing and a save; keys and set walks are the same in another process
  whose text hashes differ.
- The fused playout tier writes the idioms it takes, and names the place of those it
  leaves to the kernel.
"""
from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from expr_support import FakeCtx, scope_for, to_value
from meeple.dsl.compile_expr import compile_expr
from meeple.dsl.eval_errors import EvalError
from meeple.dsl.evaluate import evaluate
from meeple.dsl.expr_parser import ExprSyntaxError, parse_expression
from meeple.dsl.load import check_ruleset, read_ruleset
from meeple.interpreter import load_game
from meeple.interpreter.codegen.fused import reasons, unsupported
from meeple.interpreter.persistence.saves import load_state, save_state
from ruleset_support import write_ruleset
from test_expr_codegen import _ctx, _generated

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "tests" / "expr" / "idioms.yaml"
ROWS = yaml.safe_load(TABLE.read_text(encoding="utf-8"))
EVALUATED = [row for row in ROWS if not str(row.get("error", "")).startswith("X")]
PANCAKES = str(ROOT / "tests" / "games" / "pancake-duel")


def _outcome(run, values):
    ctx = _ctx(values)
    try:
        return ("ok", run(ctx))
    except EvalError as exc:
        return ("error", exc.code, exc.span)


def _three(text, values):
    """The outcome on the reference evaluator, the closures and the generated code."""
    expr = parse_expression(text)
    scope = scope_for(values)
    generated, _, _ = _generated(text, values)
    return [_outcome(lambda ctx: evaluate(expr, scope, ctx), values),
            _outcome(lambda ctx: compile_expr(expr, scope)(ctx), values), generated]


def _exactly(a, b) -> bool:
    """Equal, and of the same Python types all the way down (`1` is not `true`, a list
    is a tuple, a set a frozenset)."""
    if type(a) is not type(b):
        return False
    if type(a) is tuple:
        return len(a) == len(b) and all(_exactly(x, y) for x, y in zip(a, b))
    if type(a) is dict:
        return list(a) == list(b) and all(_exactly(a[k], b[k]) for k in a)
    if type(a) is frozenset:
        return a == b and sorted(map(repr, a)) == sorted(map(repr, b))
    return a == b


@pytest.mark.parametrize("row", EVALUATED, ids=[r["name"] for r in EVALUATED])
def test_every_row_gives_exactly_its_value_or_its_error_on_every_evaluator(row):
    values = {k: to_value(v) for k, v in (row.get("bindings") or {}).items()}
    reference, closures, generated = _three(row["expr"], values)
    if "value" in row:
        expected = to_value(row["value"])
        for outcome in (reference, closures, generated):
            assert outcome[0] == "ok", outcome
            assert _exactly(outcome[1], expected), (outcome[1], expected)
    else:
        assert reference[:2] == ("error", row["error"]), reference
        assert closures == reference and generated == reference


# What each construct is recognised by in a row's expression.
CONSTRUCTS = {
    "let": lambda t: "let " in t, "**": lambda t: "**" in t,
    "sets": lambda t: any(w in t for w in ("{", "set(", "union", "intersection", "difference")),
    "key_of": lambda t: "key_of" in t, "take_while/drop_while": lambda t: "_while" in t,
    "join": lambda t: "join(" in t, "slicing": lambda t: "[" in t and ":" in t.split("[", 1)[1],
    "range with a step": lambda t: t.startswith("range(") or "range(0, 1000000" in t,
}


@pytest.mark.parametrize("construct", sorted(CONSTRUCTS))
def test_the_table_has_values_and_errors_for_every_construct(construct):
    rows = [r for r in ROWS if CONSTRUCTS[construct](r["expr"])]
    assert sum("value" in r for r in rows) >= 4, construct
    assert sum("error" in r for r in rows) >= 2, construct


SETS = [
    ("{3, 1, 2}", frozenset({1, 2, 3})),
    ("set()", frozenset()),
    ("set('abca')", frozenset({"a", "b", "c"})),
    ("set({'b': 1, 'a': 2})", frozenset({"a", "b"})),
    ("set(xs)", frozenset({2, 3})),
    ("{x % 3 for x in range(7)}", frozenset({0, 1, 2})),
    ("union({1}, [3, 2], {1})", frozenset({1, 2, 3})),
    ("intersection({1, 2, 3}, [2, 3, 4])", frozenset({2, 3})),
    ("difference(set(xs), {2})", frozenset({3})),
    ("let s = {'b', 'a'} in union(s, {'c'})", frozenset({"a", "b", "c"})),
    ("{c.id for c in items('card')}", frozenset({"c1", "c2", "c3"})),
    ("[{1}, set()]", (frozenset({1}), frozenset())),
]


@pytest.mark.parametrize("text,expected", SETS, ids=[t for t, _ in SETS])
def test_sets_are_frozensets_of_ints_or_texts_on_every_evaluator(text, expected):
    for outcome in _three(text, {"xs": (3, 2, 3)}):
        assert outcome[0] == "ok", outcome
        assert _exactly(outcome[1], expected), outcome[1]


@pytest.mark.parametrize("text,cost", [
    ("take_while(range(100), x => x < 3)", 200),     # the range, then the whole list, as filter
    ("drop_while(range(100), x => x < 3)", 200),
    ("len(range(100)[10:90])", 180),                # a slice: its length, past 32
    ("range(100)[:5]", 100),                        # a short slice is covered by the step before
    ("key_of([[1, 2], [3], {'a': [4]}])", 3 + 2 + 1 + 1 + 1),  # every list and map in it
    ("len(range(0, 100, 7))", 15),
    ("union(range(40), range(30, 60))", 40 + 30 + 40 + 30),  # the ranges, then each made a set
    ("5 in set(range(50))", 50 + 50),               # membership of a set: one step
])
def test_each_idiom_is_charged_what_the_limits_say(text, cost):
    expr = parse_expression(text)
    scope = scope_for({})
    for run in (lambda ctx: evaluate(expr, scope, ctx), lambda ctx: compile_expr(expr, scope)(ctx)):
        ctx = FakeCtx()
        run(ctx)
        assert ctx.cost == cost, (text, ctx.cost)


# -- syntax errors, located ------------------------------------------------------------------

@pytest.mark.parametrize("text,code,col,end_col", [
    ("let ok = x < 3 in ok", "X201", 12, 13),      # a let's value: the comparison needs parentheses
    ("let a = x and y in a", "X201", 11, 14),
    ("let a = 1", "X202", 10, 11),                 # no `in`
    ("let 3 = 1 in 3", "X201", 5, 6),              # a let names a name
    ("let = 1 in 2", "X201", 5, 6),
    ("x + let", "X201", 5, 8),                     # `let` is a keyword, not a name
    ("xs[1:2:3:4]", "X201", 9, 10),                # a slice has three parts at most
    ("xs[1:2", "X202", 7, 8),
    ("2 ** ", "X202", 5, 6),
    ("2 *** 3", "X201", 5, 6),
    ("{1, 2: 3}", "X201", 6, 7),                   # a set and a map at once
])
def test_syntax_errors_of_the_idioms_point_at_the_character(text, code, col, end_col):
    with pytest.raises(ExprSyntaxError) as info:
        parse_expression(text, file="rules.yaml")
    d = info.value.diagnostic
    assert (d.code, d.span.file, d.span.line, d.span.col, d.span.end_col) == (code, "rules.yaml", 1, col, end_col)


def test_a_let_value_that_needs_parentheses_says_so():
    with pytest.raises(ExprSyntaxError) as info:
        parse_expression("let ok = x > 2 in ok")
    assert info.value.diagnostic.notes  # the note on parentheses (its wording is the docs')
    with pytest.raises(ExprSyntaxError) as info:
        parse_expression("[y for y < 2]")
    assert not info.value.diagnostic.notes


RULESET = """\
game: {name: idiom-errors, players: 2}
variables:
  score: {per: player, type: int, initial: 0}
  marks: {type: "set[str]", initial: "set()"}
  cards: {type: "set[item]", initial: "set()"}
zones:
  hand: {per: player}
flow:
  - turns: "players()"
    do: [{choose: [go]}]
actions:
  go:
    params: {n: "range(1, 4)"}
    require:
      - "let hand = n * 2 in hand > 2"
      - "let ok = n > 1 in ok"
      - "{true} != set()"
      - "len([1, 2, 3][::0]) > n"
      - "'a' in {1, 2}"
    effects:
      - set: "score[player] += let twice = n + n in twice ** 2"
"""


def test_idiom_errors_in_a_ruleset_are_reported_at_their_place_in_the_file(tmp_path):
    path = write_ruleset(tmp_path, RULESET, "idiom-errors")
    rs, read = read_ruleset(path)
    found = [(d.code, d.span.line, d.span.col) for d in read if d.severity == "error"]
    assert found == [("T405", 5, 17), ("X201", 16, 21)]  # set[item] is no type; the bare comparison
    checked = [(d.code, d.span.line, d.span.col) for d in check_ruleset(rs) if d.severity == "error"]
    assert checked == [("N311", 15, 14),   # `hand` is a zone
                       ("T401", 17, 10),   # a set of bools
                       ("T401", 18, 26),   # a slice's step of 0
                       ("T401", 19, 10)]   # a text is never in a set of ints
    assert all(d.span.file == path for d in check_ruleset(rs))


# -- sets and slices kept in the state -----------------------------------------------------

def _played(game, moves):
    state = game.new_state(0)
    for text in moves:
        (move,) = [m for m in game.legal_moves(state) if str(m) == text]
        state = game.apply(state, move)
    return state


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_a_set_and_a_sliced_list_in_variables_survive_copies_pickles_packs_and_saves(tmp_path, backend):
    game = load_game(PANCAKES, backend=backend)
    state = _played(game, ["flip(k=6)", "flip(k=2)", "flip(k=3)"])
    assert state.vars["stack"] == (5, 4, 2, 1, 6, 3) and type(state.vars["stack"]) is tuple
    seen = state.vars["seen"]
    assert type(seen) is frozenset and len(seen) == 4 and all(type(k) is str and len(k) == 32 for k in seen)

    copies = [state.copy(), pickle.loads(pickle.dumps(state)), game.unpack(game.pack(state))]
    save_state(game, state, tmp_path / "saved.json")
    copies.append(load_state(game, tmp_path / "saved.json"))
    for copy in copies:
        assert copy.vars["seen"] == seen and type(copy.vars["seen"]) is frozenset
        assert copy.vars["stack"] == state.vars["stack"] and type(copy.vars["stack"]) is tuple
        assert copy.key() == state.key() and copy.to_data() == state.to_data()
        # and the copy plays on as the original: the same moves are refused as repeats
        assert [str(m) for m in game.legal_moves(copy)] == [str(m) for m in game.legal_moves(state)]
    assert "flip(k=3)" not in [str(m) for m in game.legal_moves(state)]  # it would remake a stack seen
    saved = json.loads((tmp_path / "saved.json").read_text())
    assert saved["state"]["vars"]["seen"] == {"$set": sorted(seen)}  # a set is saved as its sorted elements


PROBE = """
import json, sys
sys.path.insert(0, {tests!r})
from expr_support import run_both
from meeple.interpreter import load_game
texts = ["key_of({{'pear', 'fig', 'apple'}})", "[s for s in {{'pear', 'fig', 'apple', 'kiwi', 'lime'}}]",
         "str({{'pear', 'fig', 'apple'}})", "sort(union({{'b'}}, ['a', 'c']))"]
out = [repr(run_both(t)[0][1]) for t in texts]
game = load_game({game!r})
state = game.new_state(0)
for _ in range(3):
    state = game.apply(state, game.legal_moves(state)[-1])
out.append(state.key())
print(json.dumps(out))
"""


def test_keys_set_walks_and_state_keys_do_not_depend_on_the_runs_text_hashes():
    """Python's hash of a text changes from one run to the next, and with it a frozenset's
    own order: what a ruleset sees of a set (its walk, its text, its key) must not."""
    code = PROBE.format(tests=str(ROOT / "tests"), game=PANCAKES)
    runs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout))
    assert runs[0] == runs[1]
    assert runs[0][1] == repr(("apple", "fig", "kiwi", "lime", "pear"))


# -- the fused tier ---------------------------------------------------------------------------

# Pancake Duel with the stack as a text (of four pancakes, so that random play sorts it
# about half the time) and the stacks seen as a list: every idiom the fused tier takes
# (let, slices with a negative step, take_while over a range with a step, join of
# numbers, key_of, `**`, drop_while), so that it plays inside the tier.
PANCAKE_TEXT = """
game: {name: pancake-text, players: 2}
variables:
  stack: {type: str, initial: "'3142'"}
  seen: {type: "list[str]", initial: "[key_of(stack)]"}
  flips: {type: int, initial: 0, min: 0, max: 12}
  points: {per: player, type: int, initial: 0}
define:
  flipped: {params: [k], expr: "stack[:k][::-1] + stack[k:]"}
  settled: "len(take_while(range(len(stack) - 1, -1, -1), i => stack[i] == str(i + 1)))"
  sorted_now: "stack == join(range(1, len(stack) + 1), '')"
  can_flip: "any(key_of(flipped(k)) not in seen for k in range(2, len(stack) + 1))"
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [flip]
actions:
  flip:
    params: {k: "range(2, len(stack) + 1)"}
    require: ["let after = flipped(k) in key_of(after) not in seen"]
    effects:
      - set: "stack = flipped(k)"
      - set: "seen = seen + [key_of(stack)]"
      - set: "flips += 1"
      - if: "sorted_now"
        then:
          - set: "points[player] += 2 ** (12 - flips) + len(drop_while([1, 2, 0], x => x > 0))"
end:
  - when: "sorted_now"
  - when: "flips >= 12"
  - when: "not can_flip"
scoring:
  score: "points[player]"
  estimate: "settled"
"""


def _loop(game, state, moves, rng):
    return moves[rng._randbelow(len(moves))]


def test_the_fused_tier_plays_the_idioms_it_takes_as_the_loop_plays_them(tmp_path):
    game = load_game(write_ruleset(tmp_path, PANCAKE_TEXT, "pancake-text"), backend="compiled")
    assert unsupported(game.rules) is None
    assert game.rules.playout_kernel(False)[0].__name__ == "FUSED"
    ends = set()
    for seed in range(40):
        start = game.new_state(seed)
        for limit in (None, seed % 7):
            fast_rng, loop_rng = random.Random(seed), random.Random(seed)
            fast = game.playout(start, rng=fast_rng, max_moves=limit)
            loop = game.playout(start, policy=_loop, rng=loop_rng, max_moves=limit)
            assert fast.to_data() == loop.to_data(), (seed, limit)
            if limit is None:
                ends.add("sorted" if fast.vars["points"] != (0, 0) else "twelve flips")
    assert ends == {"sorted", "twelve flips"}  # the scoring `**` ran in the tier, and the other end
    assert game.kernel_fallbacks == 0


def test_sets_play_in_the_fused_tier_and_a_set_per_player_is_named_with_its_place(tmp_path):
    """Sets of ints or texts held whole are among the fused tier's types (issue 43): the
    pancake game remembering every stack it saw, and a requirement testing `k in {...}`,
    play there as the loop plays them; a set per player is named where it is declared."""
    assert reasons(load_game(PANCAKES, backend="compiled").rules) == []
    text = PANCAKE_TEXT.replace('require: ["let after', 'require: ["k in {2, 3, 4, 5, 6}", "let after')
    game = load_game(write_ruleset(tmp_path, text, "pancake-set"), backend="compiled")
    assert reasons(game.rules) == []
    for seed in range(20):
        fast_rng, loop_rng = random.Random(seed), random.Random(seed)
        fast = game.playout(game.new_state(seed), rng=fast_rng)
        assert fast.to_data() == game.playout(game.new_state(seed), policy=_loop, rng=loop_rng).to_data()
    assert game.kernel_fallbacks == 0
    apart = ("game: {name: marks, players: 2}\nvariables:\n  marks: {per: player, type: \"set[str]\", initial: \"set()\"}\n"
             "flow:\n  - turns: \"players()\"\n    do: [{choose: [mark]}]\nactions:\n  mark:\n    effects:\n"
             "      - set: \"marks[player] = union(marks[player], {'a'})\"\n")
    why = reasons(load_game(write_ruleset(tmp_path, apart, "marks-apart"), backend="compiled").rules)
    assert why[:1] == ["variable 'marks' of type set[str] (only a set of ints or texts held whole is among the "
                       "tier's types), at file 1, line 3, column 3"]


@pytest.mark.parametrize("effect,found", [
    ("marks += {'a'}", [("T410", 9, 16)]),          # a set grows by union, not `+=`
    ("marks = union(marks, {'a'})", []),
    ("marks = {1}", [("T410", 9, 24)]),             # a set of ints into a set of texts
    ("marks = set()", []),
])
def test_assignments_to_a_set_variable_are_checked(tmp_path, effect, found):
    text = ("game: {name: marks, players: 2}\nvariables:\n  marks: {type: \"set[str]\", initial: \"set()\"}\n"
            "flow:\n  - turns: \"players()\"\n    do: [{choose: [go]}]\nactions:\n  go:\n"
            f"    effects: [\"{effect}\"]\n")
    rs, read = read_ruleset(write_ruleset(tmp_path, text, "marks"))
    assert read == []
    assert [(d.code, d.span.line, d.span.col) for d in check_ruleset(rs) if d.severity == "error"] == found
