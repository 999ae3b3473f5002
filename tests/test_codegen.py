"""The compiled back end: what its generated module is made of, and that it fails, prunes
and plays exactly as the closure interpreter does.  (Whole games on both back ends, step
by step, are compared in test_backend_differential.py.)"""
from __future__ import annotations

import random

import pytest

from meeple.interpreter import RuleError, load_game, load_rules
from meeple.interpreter.runtime.moves import requirement_levels
from meeple.dsl.expr_parser import parse_expression as parse_expr
from ruleset_support import write_ruleset

BACKENDS = ("reference", "compiled")

QUOTES = """
game: {name: quotes, players: 2}
variables:
  said: {type: str, initial: "''"}
  n: {per: player, type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do: [{choose: [say]}]
actions:
  say:
    params: {text: "['\\"); import os #', 'a\\\\nb', '{x}']", times: "range(1, 3)"}
    require:
      - check: "times == 1 or n[player] > 0"
        reason: "twice only after once"
    effects: ["said = text", "n[player] += times"]
end:
  - when: "n[0] + n[1] >= 6"
scoring:
  score: "n[player]"
"""

PRUNE = """
game: {name: prune, players: 1}
variables:
  row: {type: "list[int]", initial: "[3, 0, 2]"}
  done: {type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do: [{choose: [pick]}]
actions:
  pick:
    # The second domain divides by the first choice: it fails on 0, which the first
    # requirement rules out before the second parameter is enumerated.
    params: {i: "range(3)", k: "range(12 // row[i])"}
    require:
      - check: "row[i] > 0"
        reason: "an empty cell"
      - check: "k < 2"
        reason: "at most two"
    effects: ["done += 1"]
end:
  - when: "done >= 3"
"""

FAILS = """
game: {name: fails, players: 1}
variables:
  xs: {type: "list[int]", initial: "[1, 2]"}
  at: {type: int, initial: 0}
define:
  pick: {params: [i], expr: "xs[i]"}
flow:
  - loop:
      - turns: "players()"
        do: [{choose: [step]}]
actions:
  step:
    effects: ["at += 1"]
end:
  - when: "pick(at) > 5"
"""


def test_user_texts_enter_the_module_only_as_literals(tmp_path):
    path = write_ruleset(tmp_path, QUOTES, "quotes")
    source = load_rules(path, backend="compiled").source()
    compile(source, "generated", "exec")  # the written module is valid Python as a whole
    assert "import os" not in source.replace("'\"); import os #'", "")
    games = [load_game(path, backend=b) for b in BACKENDS]
    states = [g.new_state(1) for g in games]
    for _ in range(4):
        texts = [[str(m) for m in g.legal_moves(s)] for g, s in zip(games, states)]
        assert texts[0] == texts[1]
        states = [g.apply(s, t[0]) for g, s, t in zip(games, states, texts)]
    assert states[0].key() == states[1].key()
    assert states[1].vars["said"] == '"); import os #'


def test_requirement_levels_split_by_the_last_parameter_read():
    conds = [parse_expr(t) for t in ("k < 2", "row[i] > 0", "player == 0", "i + k > 0")]
    assert requirement_levels([("i",), ("k",)], conds) == [[2], [1], [0, 3]]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_requirement_prunes_before_the_next_parameter_is_enumerated(tmp_path, backend):
    game = load_game(write_ruleset(tmp_path, PRUNE, "prune"), backend=backend)
    state = game.new_state(0)
    assert [str(m) for m in game.legal_moves(state)] == [
        "pick(i=0,k=0)", "pick(i=0,k=1)", "pick(i=2,k=0)", "pick(i=2,k=1)"]


def test_a_failing_expression_is_reported_the_same_by_both(tmp_path):
    path = write_ruleset(tmp_path, FAILS, "fails")
    errors = []
    for backend in BACKENDS:
        game = load_game(path, backend=backend)
        state = game.new_state(0)
        state = game.apply(state, "step")
        with pytest.raises(RuleError) as info:
            game.apply(state, "step")
        errors.append((info.value.code, str(info.value.span)))
    assert errors[0] == errors[1]
    assert errors[0][0] == "R701"


def test_normal_play_never_leaves_the_generated_code():
    game = load_game("connect-four", backend="compiled")
    game.playout(game.new_state(3), rng=random.Random(3))
    assert game.rules.module.deopts == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_playout_is_the_apply_loop_with_the_same_choices(backend):
    game = load_game("goofspiel", players=3, backend=backend)
    start = game.new_state(5)
    for _ in range(4):
        start = game.apply(start, game.legal_moves(start)[0])
    key = start.key()
    final = game.playout(start, rng=random.Random(9))
    assert start.key() == key  # the input state is not changed
    rnd, state = random.Random(9), start
    while not state.over:
        moves = game.legal_moves(state)
        state = game.apply(state, moves[rnd.randrange(len(moves))])
    assert final.key() == state.key()
    assert game.outcome(final) == game.outcome(state)


def test_a_policy_chooses_the_moves_of_a_playout():
    game = load_game("nim", backend="compiled")
    final = game.playout(game.new_state(0), policy=lambda g, s, moves, rnd: moves[-1])
    assert final.vars["heaps"] == (0, 0, 0)
    assert final.move_count == 3  # taking a whole heap each time


def test_an_unknown_back_end_is_refused():
    with pytest.raises(ValueError, match="back end"):
        load_game("nim", backend="fast")


REMEMBERED = """
game: {name: remembered, players: 2}
variables:
  stock: {per: player, type: int, initial: 2, min: 0}
  round: {type: int, initial: 0}
define:
  # Walks a list and reads one variable: kept while `stock` is the same container.
  buys: {params: [p, limit], expr: "[n for n in range(min(stock[p], limit) + 1)]"}
flow:
  - loop:
      - turns: "players()"
        do: [{choose: [buy, wait]}]
      - effects: [{set: "round += 1"}]
    while: "round < 6"
actions:
  buy:
    params: {n: "buys(player, 3)"}
    effects: [{set: "stock[player] = stock[player] - n + 1"}]
  wait:
    effects: [{set: "stock[player] += 1"}]
scoring:
  score: "stock[player]"
"""


def test_a_definition_is_remembered_while_what_it_reads_is_the_same(tmp_path):
    from meeple.interpreter.codegen.runtime import memo_site
    path = write_ruleset(tmp_path, REMEMBERED, "remembered")
    fast, ref = load_game(path, backend="compiled"), load_game(path, backend="reference")
    fast._steps_by_kernel = False  # the move-by-move listing's memo is asked (kernel_step.py lists otherwise)
    assert repr(memo_site("buys")) in fast.rules.source()
    rnd = random.Random(4)
    for seed in range(30):
        a, b = fast.new_state(seed), ref.new_state(seed)
        while not a.over:
            moves = [str(m) for m in fast.legal_moves(a)]
            assert moves == [str(m) for m in ref.legal_moves(b)]
            # The same question again, on a copy: answered from the memo.
            assert [str(m) for m in fast.legal_moves(a.copy())] == moves
            pick = moves[rnd.randrange(len(moves))]
            a, b = fast.apply(a, pick), ref.apply(b, pick)
        assert a.to_data() == b.to_data()
    site = fast.memo[memo_site("buys")]
    assert site.hits > 0 and fast.rules.module.deopts == 0


def test_a_definition_remembered_in_vain_is_given_up(tmp_path):
    from meeple.interpreter.codegen import runtime
    site, memo = runtime.MemoSite(), {}
    memo[runtime.memo_site("d")] = site
    given_up = [site.tried(memo, runtime.memo_site("d")) for _ in range(runtime.MEMO_TRIAL)]
    assert given_up == [False] * (runtime.MEMO_TRIAL - 1) + [True]
    assert memo[runtime.memo_site("d")] is None
    kept, memo2 = runtime.MemoSite(), {}
    kept.hits = runtime.MEMO_TRIAL // 4
    assert not any(kept.tried(memo2, runtime.memo_site("e")) for _ in range(runtime.MEMO_TRIAL))


def test_a_fused_memo_is_kept_only_if_it_finds_a_quarter_as_many_values_as_it_misses():
    """The fused tier's memos are judged once asked MEMO_TRIAL times, by the rule of the
    module's own memos (above): one that found too few values is let go for the rest of
    the game, one that found enough becomes a plain dict; until then it is on trial."""
    from meeple.interpreter.codegen import fused_runtime as fused
    from meeple.interpreter.codegen.runtime import MEMO_TRIAL

    def ask(memo, key):  # as the generated playout asks: look, and remember what is missing
        if memo.get(key, fused._MISSING) is fused._MISSING:
            fused._remember(memo, key, str(key))

    keys = {"seldom": lambda i: i - 5 if i % 6 == 5 else i,  # 1 ask in 6 finds its value
            "often": lambda i: i // 4}  # 3 asks in 4 do
    game_memo = {}
    for name, key_of in keys.items():
        memo = fused._memo_on_trial(game_memo, name)
        for i in range(MEMO_TRIAL - 1):
            ask(memo, key_of(i))
        assert fused._memo_on_trial(game_memo, name) is memo and type(memo) is fused._OnTrial
        ask(memo, -1)
    seldom, often = fused._memo_on_trial(game_memo, "seldom"), fused._memo_on_trial(game_memo, "often")
    assert seldom is fused._NOT_REMEMBERED and game_memo["seldom"] is fused._NOT_REMEMBERED
    assert type(often) is dict and "1" in often.values() and fused._memo_on_trial(game_memo, "often") is often
    # a memo let go stays empty: what is remembered into it is not kept
    assert fused._remember(seldom, "k", 1) == 1 and not seldom


COSTS = """
game: {name: costs, players: 2}
variables:
  coins: {per: player, type: int, initial: "1 - player", min: 0}
  big: {type: bool, initial: false}
flow:
  - loop:
      - turns: "players()"
        do: [{choose: [buy, stretch]}]
actions:
  buy:
    params: {n: "[0, 1, 2]"}
    cost: {"coins[player]": "n"}
  stretch:
    require: [{check: "big"}]
    cost: {"coins[player]": "0 - 1000000000000000000"}
"""


def test_costs_are_tested_in_line_and_as_the_reference_tests_them(tmp_path):
    """A cost paid from a variable with a `min` is tested in the generated listing itself;
    what it allows, and the error of a difference past the language's ints, are the
    reference's."""
    path = write_ruleset(tmp_path, COSTS, "costs")
    assert "_have0 = " in load_rules(path, "compiled").source()
    found = []
    for backend in BACKENDS:
        game = load_game(path, backend=backend)
        state = game.new_state(0)
        first = [str(m) for m in game.legal_moves(state)]
        second = [str(m) for m in game.legal_moves(game.apply(state, "buy(n=1)"))]
        state.vars["big"] = True
        with pytest.raises(RuleError) as info:
            game.legal_moves(state.copy())
        found.append((first, second, info.value.code))
    assert found[0] == found[1]
    assert found[0] == (["buy(n=0)", "buy(n=1)"], ["buy(n=0)"], "R702")
