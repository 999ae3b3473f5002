"""`any`/`all` over a game constant are kept per element and tested again only where
a key they read changed (interpreter/codegen/incremental.py).  They must give the
reference's answer on every state, in whatever order states are asked about."""
from __future__ import annotations

import random
import re

import pytest

from meeple.interpreter import load_game, load_rules
from meeple.interpreter.runtime import loading
from meeple.interpreter.codegen import incremental
from meeple.interpreter.codegen.incremental_runtime import Quantifier, changed_keys
from meeple.interpreter.analysis.differential import compare_backends
from ruleset_support import write_ruleset

# Every kind of read the incremental path must follow: keys of a map variable, a
# per-player list read by a player and from the end, a variable used whole, an `if`
# clause, and tests that read other keys depending on what they find.
LAMPS = """
game: {name: lamps, players: 2}
boards:
  grid:
    grid: {rows: 2, cols: 3}
variables:
  lit: {per: "nodes('grid')", type: int, initial: 0, min: 0, max: 3}
  pts: {per: player, type: int, initial: 0}
  rounds: {type: int, initial: 0}
define:
  row_lit: "any(all(lit[n] > 0 for n in row) for row in lines('grid', 3))"
  lit_are_odd: "all(lit[n] % 2 == 1 for n in nodes('grid') if lit[n] > 0)"
  hot: "any(lit[n] == 3 or len(lit) < 0 for n in nodes('grid'))"
  ahead: "any(pts[p] > 3 and pts[-1] > 2 for p in players())"
  lit_by: {params: [k], expr: "any(lit[n] == k for n in nodes('grid'))"}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [bump, dim]
      - effects: ["rounds += 1"]
actions:
  bump:
    params: {at: "nodes('grid')"}
    require:
      - check: "lit[at] < 3"
        reason: full
    effects: ["lit[at] += 1", "pts[player] += 1"]
  dim:
    params: {at: "nodes('grid')"}
    require:
      - check: "lit[at] > 0 and not lit_are_odd"
        reason: "nothing to dim"
    effects: ["lit[at] -= 1"]
end:
  - when: "row_lit and hot"
  - when: "ahead"
  - when: "rounds >= 12 or lit_by(2) and rounds >= 10"
scoring:
  score: "pts[player] + (1 if lit_are_odd else 0)"
"""

# The first node's test decides `any` at once; every later one divides by zero.  The
# reference never tests them, so the incremental path, which tests all, must not fail.
DECIDED_FIRST = """
game: {name: decided, players: 1}
boards:
  grid:
    grid: {rows: 1, cols: 3}
variables:
  v: {per: "nodes('grid')", type: int, initial: 0}
  steps: {type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do: [{choose: [step]}]
actions:
  step:
    effects: ["steps += 1", "v['c1'] += 1"]
end:
  - when: "steps >= 3 and any(n == 'a1' or v[n] // v[n] > 5 for n in nodes('grid'))"
"""


@pytest.fixture(autouse=True)
def every_list_is_long(monkeypatch):
    """The small test boards are kept incrementally too, as long boards are."""
    monkeypatch.setattr(incremental, "FEW", 0)
    loading._cache.clear()
    yield
    loading._cache.clear()


def _quantifiers(game) -> list:
    return [q for v in game.memo.values() if isinstance(v, dict) for q in v.values() if isinstance(q, Quantifier)]


def test_quantifiers_over_game_constants_reading_variables_are_kept_incrementally(tmp_path):
    source = load_rules(write_ruleset(tmp_path, LAMPS, "lamps"), backend="compiled").source()
    for name in ("row_lit", "lit_are_odd", "hot", "ahead"):
        body = source.split(f"def D_{name}(")[1].split("\n# ")[0]
        assert "_inc(ctx" in body, name
    # A test that reads a parameter of its definition depends on more than the state.
    lit_by = source.split("def D_lit_by(")[1].split("\n# ")[0]
    assert "_inc(ctx" not in lit_by and re.search(r"\bL\d+\(ctx, l_k\)", lit_by)


def test_the_shipped_end_rules_of_line_games_are_incremental():
    for name in ("tic-tac-toe", "connect-four"):
        source = load_rules(name, backend="compiled").source()
        assert source.count("_inc(ctx") == 2, name  # any line complete; the board full


def test_only_long_lists_are_kept(monkeypatch):
    monkeypatch.setattr(incremental, "FEW", 24)
    loading._cache.clear()
    kept = {}
    for name in ("tic-tac-toe", "connect-four"):  # 8 lines and 9 cells; 69 lines and 42 cells
        game = load_game(name, backend="compiled")
        game.playout(game.new_state(1), rng=random.Random(1))
        kept[name] = len(_quantifiers(game))
    assert kept == {"tic-tac-toe": 0, "connect-four": 2}


def test_both_back_ends_agree_on_whole_games(tmp_path):
    report = compare_backends(write_ruleset(tmp_path, LAMPS, "lamps"), 2, games=30, seed=4)
    assert report.ok, str(report)
    assert report.deopts == 0


def test_states_asked_about_in_any_order_get_the_reference_answer(tmp_path):
    """A search jumps between positions; each answer must be that position's own."""
    path = write_ruleset(tmp_path, LAMPS, "lamps")
    ref, comp = load_game(path, backend="reference"), load_game(path, backend="compiled")
    rnd = random.Random(11)
    pool = [(ref.new_state(5), comp.new_state(5))]
    for _ in range(400):
        r, c = pool[rnd.randrange(len(pool))]
        r_moves, c_moves = [str(m) for m in ref.legal_moves(r)], [str(m) for m in comp.legal_moves(c)]
        assert r_moves == c_moves
        if not r_moves:
            continue
        move = r_moves[rnd.randrange(len(r_moves))]
        r, c = ref.apply(r, move), comp.apply(c, move)
        assert (r.key(), r.over, r.end_reason) == (c.key(), c.over, c.end_reason)
        pool.append((r, c))
    assert comp.rules.module.deopts == 0
    assert sum(r.over for r, _ in pool) > 10  # the end rules were met on some paths
    assert len(_quantifiers(comp)) == 4


def test_an_element_that_fails_out_of_the_reference_order_is_not_an_error(tmp_path):
    path = write_ruleset(tmp_path, DECIDED_FIRST, "decided")
    finals = []
    for backend in ("reference", "compiled"):
        game = load_game(path, backend=backend)
        game._steps_by_kernel = False  # the move-by-move functions' quantifier site is what is tried
        state = game.new_state(0)
        for _ in range(3):
            state = game.apply(state, "step")
        finals.append((state.over, state.key()))
    assert finals[0] == finals[1] and finals[0][0] is True
    # The generated test failed once, on an element the reference never reaches; the
    # site then tests in the reference's order and is not handed back again.
    assert game.rules.module.deopts == 1
    state = game.apply(game.new_state(1), "step")
    for _ in range(2):
        state = game.apply(state, "step")
    assert state.over and game.rules.module.deopts == 1


def test_changed_keys_compare_entries_by_identity():
    a = {"x": "", "y": "", "z": ""}
    b = dict(a, y="X")
    assert changed_keys(b, a) == ["y"]
    assert changed_keys(a, a) == []
    assert changed_keys(dict(a, w=""), a) is None  # another shape: everything again
    assert changed_keys((1, 2, 3), (1, 5, 3)) == [1]
    assert changed_keys((1, 2), (1, 2, 3)) is None
