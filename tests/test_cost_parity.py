"""The compiled back end charges the cost counter exactly what the reference charges
(issue 40), so that the cost limit stops both at the same work, with the same error.

- The expression tables (tests/expr/), each evaluated twice in one game: the second
  time the generated code finds what it keeps (game constants, definitions' values,
  a board's lines) already worked out, and must still charge what the reference
  charges for working it out again.
- Every shipped ruleset, played on both back ends: listing each decider's moves,
  playing the move and testing each end rule charge the same at every step.
- A ruleset of expensive constructs, one per option value, run with the cost limit
  lowered (every module's COST_LIMIT, so that it stays fast): both back ends stop
  with R702 at the same place, whether the work is in an initial value, the setup,
  a listing of moves or a move's effects.
"""
from __future__ import annotations

import random
import re
import sys
from types import SimpleNamespace

import pytest
import yaml

from expr_support import ITEM_KINDS, ITEM_PROPS, FakeCtx, _twice, scope_for, to_value
from meeple.dsl.compile_expr import compile_expr
from meeple.dsl.eval_errors import EvalError
from meeple.dsl.expr_parser import parse_expression
from meeple.dsl.model import DefineDecl
from meeple.dsl.source import Span
from meeple.interpreter import Game, list_rulesets
from meeple.interpreter.codegen import effects_runtime, fused, incremental_runtime, runtime  # noqa: F401
from meeple.interpreter.codegen.module import GeneratedModule
from meeple.interpreter.runtime.context import COST_LIMIT, Ctx, RuleError
from meeple.interpreter.runtime.flowgraph import DECIDE
from meeple.dsl.load import load_ruleset
from meeple.interpreter.runtime.loading import find_ruleset, load_rules, rules_for
from meeple.interpreter.runtime.moves import PASS
from meeple.interpreter.runtime.store import pay_costs
from test_expr_eval import CASES


# -- the expression tables, twice in one game --------------------------------------------------

VALUES = [(t, e) for t, e in CASES if "value" in e]


def _ruleset():
    """What the generator reads of a ruleset, for the tables' stand-in scope (as
    test_expr_codegen builds it): the kinds' fields and properties, and `twice`."""
    kinds = {k: SimpleNamespace(fields=dict(fields), props=dict(ITEM_PROPS.get(k, {})))
             for k, fields in ITEM_KINDS.items()}
    twice = DefineDecl("twice", ["n"], parse_expression("n * 2"), Span("<tables>", 1, 1, 1, 6))
    return SimpleNamespace(game=SimpleNamespace(name="cost-parity"), content_hash="0" * 64,
                           components=kinds, defines={"twice": twice})


def _costs(fn, values, times: int) -> list[int]:
    """What each of `times` evaluations of `fn` charges, on one context and one game."""
    ctx = FakeCtx(values, limit=COST_LIMIT)
    ctx.call_depth = 0
    ctx.game.memo = {}
    costs = []
    for _ in range(times):
        ctx.cost = 0
        fn(ctx)
        costs.append(ctx.cost)
    return costs


@pytest.mark.parametrize("table,entry", VALUES, ids=[f"{t}:{e['name']}" for t, e in VALUES])
def test_an_expression_charges_the_same_each_time_it_is_evaluated(table, entry):
    values = {k: to_value(v) for k, v in (entry.get("bindings") or {}).items()}
    expr, scope = parse_expression(entry["expr"]), scope_for(values)
    module = GeneratedModule(_ruleset(), scope, {"twice": _twice})
    generated = _costs(module.expression(expr, scope), values, 3)
    reference = _costs(compile_expr(expr, scope), values, 3)
    assert generated == reference
    assert module.deopts == 0


def test_the_tables_hold_expressions_whose_parts_are_kept():
    """The check above means something only if the generated code keeps parts that charge."""
    kept = 0
    for _, entry in VALUES:
        values = {k: to_value(v) for k, v in (entry.get("bindings") or {}).items()}
        expr, scope = parse_expression(entry["expr"]), scope_for(values)
        module = GeneratedModule(_ruleset(), scope, {"twice": _twice})
        ctx = FakeCtx(values, limit=COST_LIMIT)
        ctx.call_depth, ctx.game.memo = 0, {}
        module.expression(expr, scope)(ctx)
        kept += any(isinstance(k, tuple) and k[:1] == ("charged",) for k in ctx.game.memo)
    assert kept >= 20


# -- shipped rulesets: every listing, move and end test charges the same ------------------------

MOVES = 40  # per ruleset: enough for kept values to be asked for again and again


def _listing_costs(game, state) -> list[int]:
    """What listing each decider's moves charges, as Game._all_moves lists them."""
    point = game.rules.points[state.pc]
    if state.over or point.code != DECIDE:
        return []
    players = state.pending if point.kind == "simultaneous" else (game._decider(state, point),)
    costs = []
    for player in players:
        ctx = Ctx(game, state)
        for action, _ in game._offers[point.id]:
            action.enumerate(ctx, player, [])
        costs.append(ctx.cost)
    return costs


def _move_cost(game, state, move) -> int:
    """What playing `move` charges: its costs and effects (triggers included), as
    Game._play_in_place plays them, on a copy of the state."""
    if move.action == PASS or move.action not in game.rules.actions:
        return 0
    action = game.rules.actions[move.action]
    ctx = Ctx(game, state.copy())
    ctx.bindings["player"] = move.player
    ctx.bindings.update(move.args)
    if action.costs:
        pay_costs(ctx, action)
    action.effects(ctx)
    return ctx.cost


def _end_costs(game, state) -> list[int]:
    costs = []
    for fn, _ in game.rules.end_rules:
        ctx = Ctx(game, state.copy())
        fn(ctx)
        costs.append(ctx.cost)
    return costs


def _charges(name: str, backend: str) -> list:
    # Rules of its own: a board keeps the lines it has worked out, which the reference
    # charges for only the first time, so both sides start from boards that kept none.
    rules = rules_for(load_ruleset(find_ruleset(name)), backend)
    game = Game(rules, rules.ruleset.game.min_players)
    # The charges compared are the move-by-move functions' (a step played by the playout
    # function charges nothing, and gives a step up to them where it would pass the limit).
    game._steps_by_kernel = False
    deopts = game.rules.module.deopts if backend == "compiled" else 0
    draw = random.Random(40)

    def new_state(seed):
        # The moves a new game's walk listed by the playout function are listed again
        # move by move, where the reference's walk lists them (a definition worked out
        # there for the first time is charged there, on both sides).
        state = game.new_state(seed=seed)
        state._moves = None
        return state
    state = new_state(40)
    seen = [("setup", _end_costs(game, state))]
    for _ in range(MOVES):
        moves = game.legal_moves(state)
        if state.over or not moves:  # a short game (blackjack: a few decisions): the next one
            state = new_state(40 + len(seen))
            seen.append(("setup", _end_costs(game, state)))
            continue
        move = moves[draw.randrange(len(moves))]
        seen.append((str(move), _listing_costs(game, state), _move_cost(game, state, move)))
        state = game.apply(state, move)
        seen.append(("end", _end_costs(game, state)))
    if backend == "compiled":  # every charge above came from generated code
        assert game.rules.module.deopts == deopts
    return seen


@pytest.mark.parametrize("name", list_rulesets())
def test_a_shipped_game_is_charged_the_same_on_both_back_ends(name):
    compiled, reference = _charges(name, "compiled"), _charges(name, "reference")
    assert len(compiled) > 10
    for step, (c, r) in enumerate(zip(compiled, reference)):
        assert c == r, f"step {step}"
    assert len(compiled) == len(reference)


# -- expensive constructs stop both back ends at the same place --------------------------------

LIMIT = 5_000  # the cost limit in these tests: each construct passes it within a few milliseconds

# (case, the construct): an initial value, a setup effect, a requirement or an effect.
# Each is at least a few times the lowered limit, and charged step by step.
VALUE_CASES = {
    "a definition calling itself twice per level": "f(20)",
    "a definition that reads no state, called again and again": "sum([pf(1) for i in range(300)])",
    "a definition remembered by what it reads, called again and again": "sum([h(5) for i in range(300)])",
    "a sort key that costs": "len(sort(range(100), x => len(range(100))))",
    "a min_by key that costs": "min_by(range(100), x => len(range(100)))",
    "a count_if test that costs": "count_if(range(100), x => len(range(100)) > 0)",
    "a filter test that costs": "len(filter(range(100), x => len(range(100)) > 0))",
    "an any that costs": "any(len(range(100)) < 0 for x in range(100))",
    "an all that costs": "all(len(range(100)) > 0 for x in range(100))",
    "a sum that costs": "sum(len(range(100)) for x in range(100))",
    "a nested comprehension": "len([1 for a in range(100) for b in range(100)])",
    "a map comprehension": "len({a: len(range(100)) for a in range(100)})",
    "texts built again and again": "len([s + s for s in [str(range(100))] for i in range(100)])",
    "a list written out again and again": "len([str(xs) for i in range(300)])",
    "a membership test again and again": "count(1 for i in range(300) if -1 in xs)",
    "an any over a board kept per key": "count_if(range(300), i => any(cell[n] == 'x' for n in nodes('b')))",
    "a game constant read again and again": "sum([len(nodes('b')) for i in range(300)])",
}
SETUP_CASES = {
    "a log written in a loop": [{"for": "i", "in": "range(3000)", "do": [{"log": "str(range(40))"}]}],
    "loops inside loops": [{"for": "a", "in": "range(100)",
                            "do": [{"for": "b", "in": "range(100)", "do": ["zero = zero"]}]}],
    "a deal of many items": [{"for": "i", "in": "range(2000)", "do": ["zero = zero"]},
                             {"deal": 3000, "from": "pile", "to": "hand"}],
    "a move in a long loop": [{"for": "i", "in": "range(6000)",
                               "do": [{"if": "len(pile) > 0", "then": [{"move": {"from": "pile", "to": "hand[0]"}}]}]}],
}
LISTING_CASE = "a requirement that costs"
EFFECT_CASE = "a move's effect that costs"
COSTLY = "len([1 for a in range(100) for b in range(100)])"
CASE_NUMBERS = {name: n for n, name in enumerate([*VALUE_CASES, *SETUP_CASES, LISTING_CASE, EFFECT_CASE], 1)}


def _costly_ruleset() -> str:
    """One ruleset holding every construct, each run only when option `case` names it."""
    variables = {"zero": {"type": "int", "initial": 0}, "xs": {"type": "list[int]", "initial": "range(40)"},
                 "cell": {"per": "nodes('b')", "type": "str", "initial": "''"}}
    for name, expr in VALUE_CASES.items():
        variables[f"v{CASE_NUMBERS[name]}"] = {"type": "any",
                                               "initial": f"({expr}) if options.case == {CASE_NUMBERS[name]} else 0"}
    setup = [{"if": f"options.case == {CASE_NUMBERS[name]}", "then": effects} for name, effects in SETUP_CASES.items()]
    doc = {
        "game": {"name": "costly", "players": 2, "options": {"case": {"default": 0}}},
        "components": {"chip": {"items": [{"id": "chip", "count": 4000}]}},
        "boards": {"b": {"grid": {"rows": 6, "cols": 6}}},
        "zones": {"pile": {"initial": "items('chip')"}, "hand": {"per": "player"}},
        "variables": variables,
        "define": {"f": {"params": ["n"], "expr": "zero if n == 0 else len([f(n - 1), f(n - 1)])"},
                   "pf": {"params": ["n"], "expr": "len(range(200)) + n"},
                   "h": {"params": ["p"], "expr": "len([x for x in xs if x > p])"}},
        "setup": setup,
        "flow": [{"loop": [{"turns": "players()", "do": [{"choose": ["go"]}]}]}],
        "actions": {"go": {
            "require": [f"options.case != {CASE_NUMBERS[LISTING_CASE]} or {COSTLY} > 0"],
            "effects": [{"if": f"options.case == {CASE_NUMBERS[EFFECT_CASE]}", "then": [f"zero = {COSTLY} * 0"]}]}},
        "end": [{"when": "zero == 1"}],
    }
    return yaml.safe_dump(doc, sort_keys=False, width=1000)


@pytest.fixture
def lowered_limit(monkeypatch):
    """The cost limit lowered everywhere it is read: every module that holds COST_LIMIT,
    and the names generated modules are made with (their COST_LIMIT is a global of theirs)."""
    patched = 0
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("meeple.") and getattr(module, "COST_LIMIT", None) == COST_LIMIT:
            monkeypatch.setattr(module, "COST_LIMIT", LIMIT)
            patched += 1
    monkeypatch.setitem(runtime.NAMES, "COST_LIMIT", LIMIT)
    assert patched >= 5
    return LIMIT


def _stopped(rules, case: int):
    """Where the game with option `case` stops: ((code, line, col), the step that stopped)."""
    game = Game(rules, 2, {"case": case})
    try:
        state = game.new_state(seed=1)
        moves = game.legal_moves(state)
        game.apply(state, moves[0])
    except RuleError as exc:
        return (exc.code, exc.span.line, exc.span.col) if exc.span else (exc.code, None, None)
    return None


@pytest.fixture
def costly(tmp_path, lowered_limit):
    path = tmp_path / "game.yaml"
    path.write_text(_costly_ruleset())
    return path, {backend: load_rules(path, backend) for backend in ("reference", "compiled")}


def test_every_expensive_construct_stops_both_back_ends_at_the_same_place(costly):
    path, rules = costly
    lines = path.read_text().splitlines()
    for name, case in CASE_NUMBERS.items():
        compiled, reference = _stopped(rules["compiled"], case), _stopped(rules["reference"], case)
        assert reference is not None and reference[0] == "R702", (name, reference)
        assert compiled == reference, name
        assert _inside_case(lines, reference[1], case), (name, lines[reference[1] - 1])
    assert _stopped(rules["compiled"], 0) is None and _stopped(rules["reference"], 0) is None


def _inside_case(lines: list[str], line: int, case: int) -> bool:
    """Is line `line` (1-based) the construct of `case`: a line that tests `options.case`
    against it, one of the effects below such a test, or a definition it calls?"""
    for i in range(line - 1, -1, -1):
        found = re.search(r"options\.case [!=]= (\d+)", lines[i])
        if found:
            return int(found.group(1)) == case
        if lines[i] == "define:":
            return True
    return False


def test_a_spent_budget_is_handed_back_once(costly):
    """A definition calling itself twice per level hands its expression back to the
    reference once, from the expression (not once more at each level above the one
    that ran out), so it costs about what the reference's own run costs."""
    _, rules = costly
    module = rules["compiled"].module
    before = module.deopts
    assert _stopped(rules["compiled"], CASE_NUMBERS["a definition calling itself twice per level"])[0] == "R702"
    assert module.deopts - before == 1


# -- the fused tier's random playouts stop before the work the reference refuses ------------------

# (case, effects of the one action): each walks lists inside loops, far past the lowered limit.
PLAYOUT_CASES = {
    "a comprehension over two lists": ["n = len([1 for a in xs for b in xs if a < 0])"],
    "membership in a count_if": ["n = count_if(xs, a => a in xs)"],
    "index_of in a comprehension": ["n = sum([index_of(xs, a) for a in xs])"],
    "count_of in a max_by key": ["n = max_by(xs, a => count_of(xs, a))"],
    "texts joined in a comprehension": ["n = len([t + t for a in xs])"],
    "effect loops inside effect loops": [{"for": "a", "in": "xs", "do": [{"for": "b", "in": "xs", "do": ["n = 0"]}]}],
    "an any over two lists": [{"if": "any(b < 0 for a in xs for b in xs)", "then": ["n = 1"]}],
}


def _walking_ruleset() -> str:
    """A ruleset inside the fused tier whose one action, under option `case`, walks lists in loops."""
    effects = [{"if": f"options.case == {n}", "then": body} for n, body in enumerate(PLAYOUT_CASES.values(), 1)]
    doc = {
        "game": {"name": "walking", "players": 2, "options": {"case": {"default": 0}}},
        "variables": {"xs": {"type": "list[int]", "initial": "range(100)"}, "n": {"type": "int", "initial": 0},
                      "t": {"type": "str", "initial": "str(range(300))"}},
        "flow": [{"loop": [{"turns": "players()", "do": [{"choose": ["go"]}]}]}],
        "actions": {"go": {"effects": effects}},
        "end": [{"when": "n > 5"}],
    }
    return yaml.safe_dump(doc, sort_keys=False, width=1000)


def _playout_stops(rules, case: int):
    """(code, line, col) where a random playout of the game with option `case` stops, and
    how often the generated playout handed the playout to the move-by-move loop."""
    game = Game(rules, 2, {"case": case})
    state = game.new_state(seed=1)
    try:
        game.playout(state, rng=random.Random(1), max_moves=4)
    except RuleError as exc:
        return (exc.code, exc.span.line, exc.span.col), getattr(game, "kernel_fallbacks", 0)
    return None, getattr(game, "kernel_fallbacks", 0)


def test_a_fused_playout_stops_where_the_reference_stops(tmp_path, lowered_limit):
    path = tmp_path / "game.yaml"
    path.write_text(_walking_ruleset())
    compiled, reference = load_rules(path, "compiled"), load_rules(path, "reference")
    assert compiled.playout_tier() == "fused"
    for case, name in enumerate(PLAYOUT_CASES, 1):
        stopped, _ = _playout_stops(reference, case)
        assert stopped is not None and stopped[0] == "R702", (name, stopped)
        assert _playout_stops(compiled, case) == (stopped, 1), name  # the fused tier gave up, the loop reported
    assert _playout_stops(compiled, 0) == (None, 0)
