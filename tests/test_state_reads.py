"""What an expression reads of the state decides two shortcuts: invariants are re-checked
only when something they read changed, and definitions that read no state are computed once
per game.  Both must see reads made through called definitions and item properties."""
from __future__ import annotations

import pytest

from meeple.interpreter import load_game, load_rules
from meeple.interpreter.runtime.invariant_deps import state_reads

RULESET = """
game: {name: reads, players: 2}
components:
  token: {items: [{id: t1}], props: {shine: {type: int, initial: 0}}}
variables:
  coins: {per: player, type: int, initial: "3"}
zones:
  pile: {kind: row, initial: "items('token')"}
define:
  names: "['a', 'b']"
  double: {params: [n], expr: "n * 2"}
  purse: {params: [p], expr: "coins[p]"}
  rich: {params: [p], expr: "purse(p) >= double(2)"}
  shiny: "sum(t.shine for t in pile)"
flow:
  - loop:
      - turns: "players()"
        do: [{choose: [spend, polish]}]
actions:
  spend:
    effects: ["coins[player] -= 2"]
  polish:
    effects:
      - for: t
        in: pile
        do: ["t.shine += 1"]
invariants:
  - check: "not rich(0)"
    reason: "only through a function"
  - check: "shiny < 2"
    reason: "only through a property"
"""


@pytest.fixture
def path(tmp_path):
    p = tmp_path / "reads.yaml"
    p.write_text(RULESET, encoding="utf-8")
    return p


def test_reads_follow_called_definitions_and_properties(path):
    rs = load_rules(str(path)).ruleset
    assert state_reads(rs.invariants[0].cond, rs) == (("coins",), (), False)
    assert state_reads(rs.invariants[1].cond, rs) == ((), ("pile",), True)
    assert state_reads(rs.defines["double"].expr, rs) == ((), (), False)
    assert state_reads(rs.defines["names"].expr, rs) == ((), (), False)


def test_invariants_are_rechecked_when_a_read_changes(path):
    game = load_game(str(path), 2)
    state = game.new_state(0)
    assert game.invariant_failures(state) == []
    polished = game.apply(game.apply(state, "polish"), "polish")
    assert [f.reason for f in game.invariant_failures(polished)] == ["only through a property"]
    assert game.invariant_failures(state) == []  # an older state, checked again
    # coins[0] = 5 breaks the first invariant only through rich() -> purse() -> coins.
    rich = state.copy()
    rich.vars["coins"] = (5, 3)
    assert [f.reason for f in game.invariant_failures(rich)] == ["only through a function"]
    poor = state.copy()
    poor.vars["coins"] = (3, 3)
    assert game.invariant_failures(poor) == []


def test_definitions_reading_no_state_are_computed_once_per_game(path):
    game = load_game(str(path), 2)
    state = game.new_state(0)
    game.invariant_failures(game.apply(state, "spend"))
    assert game.memo[("double", 2)] == 4
    assert not any(k == "purse" or (isinstance(k, tuple) and k[0] in ("purse", "rich")) for k in game.memo)
