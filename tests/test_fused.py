"""The fused playout tier (interpreter/codegen/fused.py): for rulesets whose state is plain
typed variables, a whole playout as one function over typed locals.  It must reach the
state the move-by-move loop reaches with the same draws, say why a ruleset is outside it,
and hand back to the loop on anything unusual (a state whose values break their declared
types, a write the declaration refuses)."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from meeple.interpreter import load_game
from meeple.interpreter.runtime.context import RuleError
from meeple.interpreter.codegen.fused import unsupported
from meeple.interpreter.codegen.kernel import KernelStop

from ruleset_support import FOUR_REASONS, playout_errors, write_ruleset

INSIDE = ("tic-tac-toe", "nim", "connect-four", "goofspiel", "examples/high-card", "treasure-hunter")


def _loop(game, state, moves, rng):
    return moves[rng._randbelow(len(moves))]


@pytest.mark.parametrize("name", INSIDE)
def test_the_small_games_run_in_the_fused_tier(name):
    game = load_game(name, backend="compiled")
    assert unsupported(game.rules) is None
    run, _ = game.rules.playout_kernel(False)
    assert run.__name__ == "FUSED"


def test_a_ruleset_outside_the_tier_says_why_and_keeps_the_kernel(tmp_path):
    game = load_game(write_ruleset(tmp_path, FOUR_REASONS, "four-reasons"), backend="compiled")
    assert unsupported(game.rules) == "variable 'stock' of type map[str, list[int]]"
    run, _ = game.rules.playout_kernel(False)
    assert run.__name__ == "PLAYOUT"


def test_every_reason_a_ruleset_is_outside_the_tier_is_listed(tmp_path):
    from meeple.interpreter.codegen.fused import reasons
    rules = load_game(write_ruleset(tmp_path, FOUR_REASONS, "four-reasons"), backend="compiled").rules
    found = reasons(rules)
    assert len(found) == 4, found
    assert [next(name for name in ("stock", "names", "buy", "first") if f"'{name}'" in why) for why in found] == \
        ["stock", "names", "buy", "first"]
    assert found[0].startswith(unsupported(rules) + ", at file 1, line ")  # the first, at its place
    assert reasons(load_game("nim", backend="compiled").rules) == []


# Costs: one per player with a `min` whose amount depends on the move (so some moves
# cannot be paid and are left out, and a turn may have none), one from a global
# variable without `min`, a zero cost, and a variable that clamps.
TOLLS = """
game: {name: tolls, players: {min: 2, max: 3}}
variables:
  coins: {per: player, type: int, initial: 5, min: 0, max: 9, bounds: clamp}
  pool: {type: int, initial: 0}
  toll: {type: int, initial: 1, min: 1}
  rounds: {type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [hop, rest]
      - effects:
          - set: "rounds += 1"
          - set: "toll = 1 + rounds % 3"
    while: "rounds < 15"
actions:
  hop:
    params: {far: "range(1, 5)"}
    require: ["far != 2 or pool % 2 == 0"]
    cost: {"coins[player]": "far * toll", "pool": "-far"}
    effects: ["coins[(player + 1) % player_count()] += far"]
  rest:
    params: {gain: "[0, 1]"}
    cost: {"coins[player]": "0"}
    effects: ["coins[player] += gain * 2"]
scoring:
  score: "coins[player]"
"""


def _fused_matches_the_loop(game, seeds, cut: int, go_on: bool = False):
    """Whole playouts and playouts cut after `seed % cut` moves, fused and by the loop, end
    alike (and leave the policy's generator alike); with `go_on`, a cut playout continued
    from where it stopped too.  None of them may leave the tier."""
    assert unsupported(game.rules) is None
    for seed in seeds:
        start = game.new_state(seed)
        for limit in (None, seed % cut):
            fast_rng, loop_rng = random.Random(seed), random.Random(seed)
            fast = game.playout(start, rng=fast_rng, max_moves=limit)
            loop = game.playout(start, policy=_loop, rng=loop_rng, max_moves=limit)
            assert fast.to_data() == loop.to_data(), (seed, limit)
            assert fast.log == loop.log, (seed, limit)  # not in the saved data, but the players see it
            assert fast_rng.getstate() == loop_rng.getstate()
            if go_on and limit:
                a, b = random.Random(seed + 1), random.Random(seed + 1)
                assert game.playout(fast, rng=a).to_data() == game.playout(fast, policy=_loop, rng=b).to_data()
    assert game.kernel_fallbacks == 0


# Follow-up steps: an action whose `then` asks its player for more (a counted loop of
# another decision) and ends with an effects step, both reading the move's player and
# values; and a turn that has none.
ERRANDS = """
game: {name: errands, players: {min: 2, max: 3}}
variables:
  coins: {per: player, type: int, initial: 4, min: 0}
  stock: {type: int, initial: 30, min: 0}
  rounds: {type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [shop, wait]
      - effects: ["rounds += 1"]
    while: "rounds < 8"
actions:
  shop:
    params: {budget: "range(1, 4)", lane: "['a', 'b']"}
    require: ["coins[player] >= budget"]
    effects: ["stock -= 1"]
    then:
      - loop:
          - choose: [buy, leave]
        times: "budget"
      - if: "lane == 'b'"
        then:
          - effects: ["coins[player] += budget % 2"]
  buy:
    params: {n: "[1, 2]"}
    cost: {"coins[player]": "n"}
    effects: ["stock += n"]
  leave:
    effects: []
  wait:
    effects: ["coins[player] += 1"]
scoring:
  score: "coins[player]"
"""


# Event triggers: two on one event (in the order declared, one over `each` values), one
# over two `each` lists where the second reads the first, all behind `when`s that read
# the event's values; events emitted by an action's effects and by a flow step.
HARVEST = """
game: {name: harvest, players: {min: 2, max: 3}}
variables:
  grain: {per: player, type: int, initial: 0, min: 0}
  barns: {per: player, type: int, initial: 0}
  rounds: {type: int, initial: 0}
  tithe: {type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [reap, sell]
      - effects:
          - set: "rounds += 1"
          - emit: season
            with: {n: "rounds"}
    while: "rounds < 10"
actions:
  reap:
    params: {amount: "range(1, 4)"}
    effects:
      - set: "grain[player] += amount"
      - if: "grain[player] >= 5"
        then:
          - emit: full
            with: {who: "player", much: "grain[player]"}
  sell:
    require: ["grain[player] > 0"]
    effects: ["grain[player] -= 1", "tithe += 1"]
triggers:
  build_barn:
    on: full
    when: "much % 2 == 1"
    effects: ["barns[who] += 1", "grain[who] -= 2"]
  share:
    on: full
    each: {q: "players()"}
    when: "q != who"
    effects: ["grain[q] += 1"]
  feast:
    on: season
    each: {q: "players()", k: "range(0, q + 1)"}
    when: "n % 3 == 0 and k == 0"
    effects: ["tithe += q + 1"]
scoring:
  score: "grain[player] + 3 * barns[player] + tithe"
"""


@pytest.mark.parametrize("change,why", [
    (("effects: [\"tithe += q + 1\"]", "effects: [\"tithe += q + 1\"]\n  again:\n    on: full\n    effects:\n"
      "      - emit: full\n        with: {who: 0, much: 2}"), "the event 'full' is emitted inside its own triggers"),
    (("    on: season\n    each: {q: \"players()\", k: \"range(0, q + 1)\"}\n    when: \"n % 3 == 0 and k == 0\"",
      "    each: {q: \"players()\", k: \"range(0, q + 1)\"}\n    when: \"tithe > 999 and k == 0\""),
     "trigger 'feast' runs on a condition, not on an event"),
])
def test_triggers_the_tier_does_not_take_keep_the_kernel(tmp_path, change, why):
    game = load_game(write_ruleset(tmp_path, HARVEST.replace(*change), "harvest-outside"), backend="compiled")
    assert unsupported(game.rules) == why
    assert game.rules.playout_kernel(False)[0].__name__ == "PLAYOUT"


# Map variables, global, per player and per key: entries read, added, changed (clamped),
# a whole map replaced; a map held in a `let` keeps what it held after the variable is
# written; keys, values, get, len and `in`.
PANTRY = """
game: {name: pantry, players: {min: 2, max: 3}}
variables:
  shelf: {type: "map[str, int]", initial: "{'flour': 3, 'salt': 2}", min: 0, max: 9, bounds: clamp}
  labels: {type: "map[str, str]", initial: "{'flour': 'F'}"}
  bins: {per: player, type: "map[str, int]", initial: "{'flour': 0}", min: 0}
  stalls: {per: "['n', 's']", type: "map[str, str]", initial: "{'owner': 'none'}"}
  score: {per: player, type: int, initial: 0}
  rounds: {type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [stock, use, relabel]
      - effects:
          - set: "rounds += 1"
          - if: "rounds == 5"
            then: ["shelf = {'flour': 1, 'salt': 1}"]
    while: "rounds < 8"
actions:
  stock:
    params: {good: "['flour', 'salt', 'sugar']"}
    effects:
      - if: "good in shelf"
        then: ["shelf[good] += 4"]
        else: ["shelf[good] = 1"]
      - set: "bins[player][good] = get(bins[player], good, 0) + 1"
  use:
    params: {good: "keys(shelf)"}
    require: ["shelf[good] > 0"]
    effects:
      - let: {before: "shelf"}
      - set: ["shelf[good] -= 1", "score[player] += before[good] + sum(values(shelf)) % 5 + len(shelf)"]
      - if: "len(bins[player]) > 2"
        then: ["bins[player] = {'flour': len(stalls['s']['owner'])}"]
  relabel:
    params: {good: "keys(shelf)"}
    require: ["len(get(labels, good, '')) < 3"]
    effects:
      - "labels[good] = get(labels, good, '') + 'x'"
      - "stalls['n']['owner'] = good"
      - "stalls['s'] = {'owner': get(stalls['n'], 'owner', '?'), 'by': 'x'}"
scoring:
  score: "score[player] + sum(values(bins[player]))"
"""


# List variables held whole: texts (global), ints and texts per player; written whole and
# at an index counted from either end, read by index, `in`, len, joined;
# a list held in a `let` keeps what it held; the values per player read as one list.
LEDGER = """
game: {name: ledger, players: {min: 2, max: 3}}
variables:
  log: {type: "list[str]", initial: "[]"}
  hist: {per: player, type: "list[int]", initial: "[0, 0]"}
  tags: {per: player, type: "list[str]", initial: "['new']"}
  coins: {per: player, type: int, initial: 1}
  rounds: {type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [note, bump, tag]
      - effects: ["rounds += 1"]
    while: "rounds < 8 and all(c < 30 for c in coins)"
actions:
  note:
    params: {word: "['a', 'b']"}
    effects:
      - let: {before: "log"}
      - set: ["log = log + [word]", "coins[player] += len(before)"]
  bump:
    params: {at: "[0, -1]"}
    require: ["len(hist[player]) > 0"]
    effects: ["hist[player][at] = hist[player][at] + 3", "hist[player] = hist[player] + [len(log) % 4]"]
  tag:
    params: {t: "['x', 'new']"}
    effects:
      - if: "t in tags[player]"
        then: ["coins[player] += 2"]
        else:
          - set: "tags[player] = tags[player] + [t]"
          - if: "len(log) > 1"
            then: ["log[-2] = t", "log[0] = log[1]"]
scoring:
  score: "coins[player] + sum(hist[player]) + len(tags[player])"
"""


# Parts of a test that no candidate changes, kept once worked out: `spread == 0`, then
# `10 // spread` (which must not be worked out while spread is 0: the reference never
# does), and `coins[player] + player_count() > 4`; counts over a few constants written
# as sums of tests (in a `while`, a requirement's kept part and the score); `reach(a)`,
# kept for every `b` and shared by b's choices and a requirement; `upto(reach(2))`, the
# choices of two actions, kept once for the decision; an end rule that reads only
# `tally`, which the round's effects do not write.
KEPT = """
game: {name: kept, players: {min: 2, max: 3}}
variables:
  coins: {per: player, type: int, initial: 3, min: 0}
  spread: {type: int, initial: 0}
  tally: {per: [red, green, blue], type: int, initial: 0}
  rounds: {type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [take, mark, swap, trade]
      - effects: ["rounds += 1", "spread = rounds % 3"]
    while: "rounds < 12 and count(c for c in ['red', 'green', 'blue'] if tally[c] > 2) < 3"
actions:
  take:
    params: {pick: "range(1, 5)"}
    require: ["spread == 0 or 10 // spread > pick", "coins[player] + player_count() > 4 or pick % 2 == 0"]
    effects: ["coins[player] += pick % 3"]
  mark:
    params: {colour: "['red', 'green', 'blue']"}
    require: ["len([c for c in ['red', 'green', 'blue'] if tally[c] > 0]) < 2 or tally[colour] > 0"]
    effects: ["tally[colour] += 1"]
  swap:
    params: {a: "upto(reach(2))", b: "upto(reach(a))"}
    require: ["reach(a) + b > coins[player] % 5"]
    effects: ["coins[player] += (a + b) % 2"]
  trade:
    params: {c: "upto(reach(2))"}
    require: ["c % 3 != rounds % 3"]
    effects: ["coins[player] += c % 2"]
define:
  reach: {params: [n], expr: "n + spread * 2"}
  upto: {params: [n], expr: "range(1, n)"}
end:
  - when: "tally['red'] + tally['green'] > 5"
    reason: "tallied"
scoring:
  score: "coins[player] + count(c for c in ['red', 'green', 'blue'] if tally[c] >= coins[player])"
"""


# Item properties read in line: one whose default depends on the item (`charge`) and one
# with a constant default (`mode`), each read both before and after a move writes it, in
# a parameter's filter, a requirement, effects and the score; a variable holding an item
# (none at first), written by a move and compared in a requirement.
WORKSHOP = """
game: {name: workshop, players: {min: 2, max: 3}}
components:
  tool:
    fields: {power: int}
    generate: {power: {from: 1, to: 6}}
    id: "T{power}"
    props:
      charge: {type: int, initial: "item.power % 3", min: 0, max: 5, bounds: clamp}
      mode: {type: str, initial: "'idle'", choices: [idle, busy]}
zones:
  bench: {kind: row, initial: "items('tool')"}
variables:
  score: {per: player, type: int, initial: 0}
  rounds: {type: int, initial: 0}
  last: {type: "item[tool]", initial: "none"}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [use, tune]
      - effects: ["rounds += 1"]
    while: "rounds < 10"
actions:
  use:
    params: {t: "[x for x in bench if x.charge > 0]"}
    require: ["t.mode == 'idle' or t.charge > 2"]
    effects: ["t.charge -= 1", "score[player] += t.power", "t.mode = 'busy' if t.mode == 'idle' else 'idle'",
              "last = t"]
  tune:
    params: {t: "bench"}
    require: ["t.charge < 5", "t != last"]
    effects: ["t.charge += 2"]
scoring:
  score: "score[player] + sum(t.charge for t in bench)"
"""


# Who decides at a `choose` read from the state: the baton passes from player to player.
# Loops over the players (a count, a max, a filtered list), written out in a playout
# written for a number of players.
RELAY = """
game: {name: relay, players: {min: 2, max: 3}}
variables:
  baton: {type: int, initial: 0}
  laps: {per: player, type: int, initial: 0, max: 40}
  rounds: {type: int, initial: 0}
  best: {type: int, initial: 0}
  leaders: {type: int, initial: 0}
flow:
  - loop:
      - choose: [run, hand_over]
        player: "baton"
      - effects: ["rounds += 1"]
    while: "rounds < 20"
actions:
  run:
    params: {n: "[1, 2]"}
    require: ["count(q for q in players() if laps[q] > laps[player]) < player_count()"]
    effects: ["laps[player] += n", "best = max(laps[q] for q in players())",
              "leaders = len([q for q in players() if laps[q] == best])"]
  hand_over:
    params: {to: "[q for q in players() if q != player]"}
    effects: ["baton = to"]
scoring:
  score: "laps[player]"
"""


# A simultaneous step over hands of uneven sizes: the last mover of a round, several
# movers, movers whose hands are empty beside one who has chips, and rounds where nobody
# has any.
SEALED = """
game: {name: sealed, players: {min: 2, max: 3}}
components:
  chip:
    fields: {seat: int, value: int}
    generate: {seat: [0, 1, 2], value: {from: 1, to: 4}}
    id: "C{seat}-{value}"
zones:
  hand: {per: player, kind: hand, visibility: owner,
         initial: "[c for c in items('chip') if c.seat == player and c.value <= player + 2]"}
  bid: {per: player, kind: row, visibility: owner, face: down}
  spent: {kind: row, visibility: all}
variables:
  gained: {per: player, type: int, initial: 0, max: 100}
  rounds: {type: int, initial: 0}
flow:
  - loop:
      - simultaneous: [offer]
      - effects:
          - for: p
            in: "players()"
            do:
              - if: "len(bid[p]) > 0"
                then:
                  - set: "gained[p] += top(bid[p]).value"
                  - move: {from: "bid[p]", to: spent}
          - set: "rounds += 1"
    while: "rounds < 5"
actions:
  offer:
    params: {chip: "hand[player]"}
    effects:
      - move: chip
        from: "hand[player]"
        to: "bid[player]"
scoring:
  score: "gained[player]"
"""


# A parameter's choices given by a definition that filters a list with `all`/`any` in its
# tests: `offers(p)` reads variables of plain values only (so it is remembered),
# `wants(p)` reads a zone (so it is not); the listing builds both lists with loops.
BARTER = """
game: {name: barter, players: {min: 2, max: 3}}
components:
  token:
    fields: {n: int}
    generate: {n: {from: 1, to: 6}}
    id: "T{n}"
zones:
  pool: {kind: row, visibility: all, initial: "items('token')"}
  kept: {per: player, kind: row, visibility: all}
variables:
  goods: {per: player, type: "map[str, int]", initial: "{'a': 2, 'b': 1, 'c': 0}", min: 0, max: 30}
  market: {type: "map[str, int]", initial: "{'a': 1, 'b': 2, 'c': 1}", min: 0, max: 30}
  rounds: {type: int, initial: 0}
define:
  kinds: "['a', 'b', 'c']"
  holds: {params: [m, pack], expr: "all(m[k] >= count_of(pack, k) for k in pack)"}
  offers:
    params: [p]
    expr: "[pk for pk in [['a'], ['b'], ['c'], ['a', 'a'], ['a', 'b'], ['b', 'c']] if holds(goods[p], pk) and any(market[k] > 0 and k not in pk for k in kinds)]"
  wants:
    params: [p]
    expr: "[t for t in pool if t.n > rounds % 3 and all(t.n != u.n + 1 for u in kept[p])]"
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [swap, take, rest]
      - effects: ["rounds += 1"]
    while: "rounds < 9"
actions:
  swap:
    params: {give: "offers(player)", get: "[k for k in kinds if market[k] > 0 and k not in give]"}
    effects:
      - "goods[player] = {k: goods[player][k] - count_of(give, k) + (1 if k == get else 0) for k in kinds}"
      - "market = {k: market[k] + count_of(give, k) - (1 if k == get else 0) for k in kinds}"
  take:
    params: {t: "wants(player)"}
    effects:
      - move: t
        from: pool
        to: "kept[player]"
  rest:
    effects: ["goods[player]['c'] += 1"]
scoring:
  score: "sum(values(goods[player])) + len(kept[player])"
"""


# `then_required`: an extra action offered only when its follow-up has a move, after its
# effects (which the follow-up's requirements read; what they log is logged only when
# the move is played) and through an `if` step that reads the move's value and a
# variable the effects may change.
TOKENS = """
game: {name: tokens, players: {min: 2, max: 3}}
variables:
  tokens: {per: player, type: int, initial: 3, min: 0}
  energy: {per: player, type: int, initial: 2, min: 0}
  pool: {type: int, initial: 6, min: 0}
  rounds: {type: int, initial: 0}
  mode: {type: str, initial: "'calm'"}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [extra, work, rest]
      - effects: ["rounds += 1"]
    while: "rounds < 12"
actions:
  extra:
    then_required: true
    params: {n: "[1, 2, 3]"}
    require: ["tokens[player] >= 1"]
    effects:
      - set: ["tokens[player] -= 1", "energy[player] -= min(n, energy[player])",
              "pool -= 1 if pool > 0 else 0", "mode = 'busy' if n == 2 and pool % 2 == 0 else mode"]
      - log: "'extra ' + str(n)"
    then:
      - if: "n < 3 or mode == 'calm'"
        then:
          - choose: [work, dig]
  work:
    params: {k: "range(1, 3)"}
    require: ["energy[player] >= k"]
    effects: ["energy[player] -= k", "pool += k"]
  dig:
    require: ["pool >= 5 and energy[player] == 0 and mode == 'calm'"]
    effects: ["pool -= 5", "tokens[player] += 1"]
  rest:
    effects: ["energy[player] += 1", "mode = 'busy' if energy[player] % 2 == 1 else 'calm'"]
scoring:
  score: "tokens[player] + energy[player]"
"""


# What freyas-folly brought into the tier, on a small game: a board walk whose lists
# change (`hop_targets`), an item property holding a map, a map per player read through
# a definition that is remembered (`offers(p)` by `stash[p]`; `all_gs(p)`, whose loop
# binds `p` anew, by every player's), a list of lists with `[]`
# among them, loops over a map's pairs and over pairs of texts, a letter of a text and
# `count_if`.
CAVES = """
game: {name: caves, players: {min: 2, max: 3}}
boards:
  track: {nodes: [s, a, b, c, d, e], edges: [[s, a], [a, b], [b, c], [b, d], [d, e], [e, s]]}
components:
  miner:
    fields: {seat: int}
    generate: {seat: [0, 1, 2]}
    id: "m{seat}"
    props:
      at: {type: str, initial: "'s'"}
      bag: {type: "map[str, int]", initial: "{'gs': 0, 'gl': 0, 'rs': 0}"}
zones:
  crew: {kind: row, initial: "[m for m in items('miner') if m.seat < player_count()]"}
variables:
  stash: {per: player, type: "map[str, int]", initial: "{'gs': 1, 'gl': 0, 'rs': 0}"}
  rounds: {type: int, initial: 0}
define:
  keys3: "['gs', 'gl', 'rs']"
  me: {params: [p], expr: "first([m for m in crew if m.seat == p])"}
  occupied: "[m.at for m in crew]"
  hops: {params: [p, k], expr: "hop_targets('track', me(p).at, occupied, [], k)"}
  pairs: "[['gs', 'gl'], ['gl', 'rs'], ['rs', 'gs']]"
  offers: {params: [p], expr: "[pr for pr in concat([[]], pairs) if len(pr) == 0 or stash[p][pr[0]] >= 1]"}
  smalls: {params: [ks], expr: "count_if(ks, k => k[1] == 's')"}
  holds: {params: [m, need], expr: "all(m[k] >= v for k, v in items(need))"}
  # remembered, but keyed by every player's stash: its loop binds p anew
  all_gs: {params: [p], expr: "sum([stash[p]['gs'] for p in range(player_count())])"}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [walk, swap, bank]
      - effects: ["rounds += 1"]
    while: "rounds < 12"
actions:
  walk:
    params: {k: "[1, 2] if all_gs(player) % 2 == 0 else [1]", to: "hops(player, k)"}
    effects:
      - let: {m: "me(player)"}
      - set: ["m.at = to", "m.bag = {kk: m.bag[kk] + (1 if kk[0] == 'g' and to != 's' else 0) for kk in keys3}"]
  swap:
    params: {pr: "offers(player)"}
    require: ["len(pr) == 0 or holds(stash[player], {pr[0]: 1})",
              "any(a != b and stash[player][a] >= 0 for a, b in pairs)"]
    effects:
      - if: "len(pr) == 2"
        then:
          - set: "stash[player] = {kk: stash[player][kk] - (1 if kk == pr[0] else 0) + (1 if kk == pr[1] else 0) for kk in keys3}"
  bank:
    require: ["smalls(keys(me(player).bag)) > 0 and me(player).bag['gs'] + me(player).bag['gl'] > 0"]
    effects:
      - let: {m: "me(player)"}
      - set: ["stash[player] = {kk: stash[player][kk] + m.bag[kk] for kk in keys3}",
              "m.bag = {'gs': 0, 'gl': 0, 'rs': 0}"]
scoring:
  score: "sum(stash[player][k] for k in keys3) + smalls([k for k, v in items(me(player).bag) if v > 0])"
"""


# Sums over a few constants (the players, or a short list of keys), with and without a
# filter, are written out as additions; a sum with a second loop is not.  Maps made over a
# few keys are written out as maps (a repeated key keeps its first place), made once when
# every value is a constant.
TALLY = """
game: {name: tally, players: {min: 2, max: 3}}
variables:
  marks: {per: player, type: int, initial: 0, min: 0}
  pots: {type: "map[str, int]", initial: "{'a': 1, 'b': 0, 'c': 2}", min: 0}
  rounds: {type: int, initial: 0}
define:
  ahead: {params: [p], expr: "sum(1 for q in players() if marks[q] < marks[p])"}
  filled: "sum(pots[k] for k in ['a', 'b', 'c'] if pots[k] > 0)"
  weighted: "sum([pots[k] * w for k in ['a', 'c'] for w in [1, 2]])"
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [mark, fill, pour, spread, reset]
      - effects: ["rounds += 1"]
    while: "rounds < 10"
actions:
  mark:
    params: {n: "range(1, 3)"}
    require: ["ahead(player) + n < 4"]
    effects: ["marks[player] += n + sum(marks[q] for q in players()) % 3"]
  fill:
    params: {k: "['a', 'b', 'c']"}
    require: ["filled < 12"]
    effects: ["pots[k] += 1"]
  pour:
    require: ["filled > 2"]
    effects: ["pots = {'a': 0, 'b': pots['a'] + pots['b'], 'c': pots['c']}", "marks[player] += weighted % 4"]
  spread:
    require: ["pots['b'] < 4"]
    effects: ["pots = {k: pots[k] + (1 if k == 'b' else 0) for k in ['a', 'b', 'c', 'b']}"]
  reset:
    require: ["rounds % 4 == 3"]
    effects: ["pots = {k: 0 for k in ['c', 'a', 'b']}"]
scoring:
  score: "marks[player] + sum(pots[k] for k in ['a', 'b'])"
"""


# Tests over the lines of a grid, whose length is known (`lines(b, k)` holds k nodes each),
# written element by element: `all` and `any` over one line, a line read once before its
# test (left out where it compares with itself), and a generator with a second loop over
# the line.
ROWS = """
game: {name: rows, players: 2}
boards:
  grid:
    grid: {rows: 4, cols: 4, diagonal: true}
variables:
  cell: {per: "nodes('grid')", type: str, initial: "''", choices: ['', X, O]}
  turns: {type: int, initial: 0}
define:
  mark: {params: [p], expr: "'X' if p == 0 else 'O'"}
  three: "any(cell[line[0]] != '' and all(cell[n] == cell[line[0]] for n in line) for line in lines('grid', 3))"
  crowded: "len([line for line in lines('grid', 4) if any(cell[n] == 'O' for n in line) and any(cell[n] == 'X' for n in line)])"
  touched: "any(cell[n] == 'X' and turns > 5 for line in lines('grid', 2) for n in line)"
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [mark_cell]
          - effects: ["turns += 1"]
actions:
  mark_cell:
    params: {n: "nodes('grid')"}
    require: ["cell[n] == ''", "crowded < 3 or touched"]
    effects: ["cell[n] = mark(player)"]
end:
  - when: "three"
    reason: "three in a row"
  - when: "all(cell[n] != '' for n in nodes('grid'))"
    reason: "full"
scoring:
  score: "turns"
"""


def test_tests_over_a_line_are_written_element_by_element(tmp_path):
    game = load_game(write_ruleset(tmp_path, ROWS, "rows"), 2, backend="compiled")
    game.rules.playout_kernel(False, 2)
    text = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
    # three: the first node's own comparison is left out
    assert re.search(r"_q\d+ = \(\(v_cell\[(c\d+_e)\[1\]\] == (_h\d+)\)\) and \(\(v_cell\[\1\[2\]\] == \2\)\)\n", text)
    assert "[3]] == 'O'" in text and "[3]] == 'X'" in text  # crowded: any over a line of four
    assert not re.search(r"for c\d+_n in c\d+_(e|line)", text)  # no loop over a line's nodes is left
    _fused_matches_the_loop(game, range(80), cut=9, go_on=True)


def test_sums_over_a_few_constants_are_written_out(tmp_path):
    game = load_game(write_ruleset(tmp_path, TALLY, "tally"), 3, backend="compiled")
    game.rules.playout_kernel(False, 3)
    text = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
    assert text.count("sum(") == 1  # weighted's, which has two loops
    assert "(v_pots['a'] if (v_pots['a'] > 0) else 0) + (v_pots['b'] if (v_pots['b'] > 0) else 0)" in text
    assert "v_pots = V['pots'] = {'a': (_i" in text  # spread's map, key by key
    made = [v for k, v in game.rules.module.ns.items() if k.startswith("_fz_map")]
    assert {"c": 0, "a": 0, "b": 0} in made and list(made[made.index({"c": 0, "a": 0, "b": 0})]) == ["c", "a", "b"]
    assert "_fz_sized({" not in text  # no map made by a comprehension


@pytest.mark.parametrize("change,why", [
    (("      - log: \"'extra ' + str(n)\"", "      - log: \"'extra ' + str(n)\"\n      - shuffle: pile"),
     "action 'extra' has `then_required` and writes more than variables held whole"),
    (("scoring:", "end:\n  - when: \"pool > 20\"\nscoring:"),
     "action 'extra' has `then_required` and an end rule reads what it writes"),
])
def test_a_then_required_action_the_tier_cannot_try_keeps_the_kernel(tmp_path, change, why):
    """The tier tries such a move on its own locals: not one that changes a zone (here a
    shuffle), nor one after which an end rule could end the game at once."""
    text = TOKENS.replace(*change).replace("variables:", "zones:\n  pile: {kind: stack}\nvariables:", 1)
    game = load_game(write_ruleset(tmp_path, text, "tokens-outside"), backend="compiled")
    assert unsupported(game.rules) == why
    assert game.rules.playout_kernel(False)[0].__name__ == "PLAYOUT"

@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("name,cut,go_on", [("tolls", 7, False), ("errands", 11, True), ("harvest", 9, False),
                                            ("pantry", 13, False), ("ledger", 10, False),
                                            ("kept", 9, False), ("workshop", 7, False), ("relay", 5, False),
                                            ("tokens", 6, True), ("caves", 8, False), ("sealed", 5, True),
                                            ("barter", 7, False), ("tally", 6, True)])
def test_each_feature_game_plays_in_the_fused_tier_as_the_loop_plays_it(tmp_path, players, name, cut, go_on):
    """TOLLS (costs), ERRANDS (`then` steps; go_on: a playout stopped inside them goes
    on from there), HARVEST (event triggers), PANTRY (map variables), LEDGER (lists) and
    KEPT (parts of tests kept across a listing, counts over constants), WORKSHOP (item
    properties), RELAY (who decides, read from the state), TOKENS (`then_required`) and
    CAVES (what freyas-folly brought: board walks, map properties, lists of lists) and
    SEALED (a simultaneous step with one mover or several, some with nothing to bid) and
    BARTER (choices built by a loop from a definition's filter) and TALLY (sums over a
    few constants, written out)."""
    text = {"tolls": TOLLS, "errands": ERRANDS, "harvest": HARVEST, "pantry": PANTRY, "ledger": LEDGER,
            "kept": KEPT, "workshop": WORKSHOP, "relay": RELAY, "tokens": TOKENS, "caves": CAVES,
            "sealed": SEALED, "barter": BARTER, "tally": TALLY}[name]
    _fused_matches_the_loop(load_game(write_ruleset(tmp_path, text, name), players, backend="compiled"),
                            range(120), cut=cut, go_on=go_on)


def test_item_properties_are_read_through_columns_that_follow_every_write(tmp_path):
    """The tier reads an item's property from a column filled from the state on the
    first read (fused_zones.PropColumn), and writes go to the state and the column.
    The mixed variant adds a kind whose `charge` has other bounds, so that writes of
    `charge` go through the library's checked write: its column follows them too."""
    mixed = WORKSHOP.replace("""zones:""", """  gadget:
    fields: {power: int}
    generate: {power: {from: 1, to: 3}}
    id: "G{power}"
    props:
      charge: {type: int, initial: "1", min: 0, max: 9, bounds: clamp}
      mode: {type: str, initial: "'busy'", choices: [idle, busy]}
zones:""").replace("initial: \"items('tool')\"", "initial: \"items('tool') + items('gadget')\"")
    mixed = mixed.replace('last: {type: "item[tool]"', 'last: {type: "item"')
    for text, library_write in ((WORKSHOP, False), (mixed, True)):
        game = load_game(write_ruleset(tmp_path, text, "workshop"), 3, backend="compiled")
        game.rules.playout_kernel(False, 3)
        fused = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
        assert "P.get(_pi" not in fused and re.search(r"col_\d+\[a_t\.id\]", fused)
        assert ("_fz_set_prop(ctx, " in fused) == library_write
        _fused_matches_the_loop(game, range(80), cut=7)


def test_any_and_all_over_a_maps_pairs_are_written_as_loops(tmp_path):
    """`all(m[k] >= v for k, v in items(need))` in a requirement, directly and through a
    definition, and `any` over the pairs with a filter: loops over `.items()` that stop
    at the decisive pair (freyas-folly's `has_all`), playing as the loop plays them; and
    a bool variable set to an `any`/`all` is set by such loops too."""
    orders = BARTER.replace("""  rest:""", """  order:
    params: {k: "kinds"}
    require:
      - "affords(goods[player], {'a': 1, 'b': 1} if k == 'a' else {'c': 1})"
      - "any(v > 1 for kk, v in items(market) if kk != k) or all(v > 0 or kk == k for kk, v in items(goods[player]))"
    effects: ["goods[player][k] += 1", "rounds += 1", "rich = any(v > 3 for kk, v in items(goods[player]))",
              "full = all(len(kept[q]) > 0 for q in players())"]
  rest:""").replace("""  kinds: "['a', 'b', 'c']"\n""", """  kinds: "['a', 'b', 'c']"
  affords: {params: [m, need], expr: "all(m[k] >= v for k, v in items(need))"}\n""")
    orders = orders.replace("choose: [swap, take, rest]", "choose: [swap, take, order, rest]").replace(
        "  rounds: {type: int, initial: 0}", "  rounds: {type: int, initial: 0}\n  rich: {type: bool, initial: false}\n"
        "  full: {type: bool, initial: false}")
    game = load_game(write_ruleset(tmp_path, orders, "orders"), 3, backend="compiled")
    game.rules.playout_kernel(False, 3)
    fused = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
    assert re.search(r"for c\d+_k, c\d+_v in \w+\.items\(\):", fused)  # affords
    assert re.search(r"for c\d+_kk, c\d+_v in v_market\.items\(\):", fused)  # any, filtered
    assert len(re.findall(r"for c\d+_kk, c\d+_v in \S+\.items\(\):", fused)) >= 3  # and all, and `rich`
    assert "_v = any(" not in fused and "_v = all(" not in fused  # `rich` and `full` set by loops
    _fused_matches_the_loop(game, range(80), cut=7)


def test_a_definition_walking_its_argument_with_count_if_is_remembered(tmp_path):
    """`count_if(pack, k => …)` walks the list it is given, as a comprehension over it
    would: a definition made of it is remembered on trial by its argument (freyas-folly's
    `shapes(g)`), and plays as the loop plays it."""
    counted = BARTER.replace("""  holds: {params: [m, pack], expr:""", """  weight: {params: [pack], expr: "[1, 2, 3, 4][count_if(pack, k => k == 'a')]"}
  holds: {params: [m, pack], expr:""").replace(
        "if holds(goods[p], pk) and", "if holds(goods[p], pk) and weight(pk) < 3 + rounds % 2 and")
    game = load_game(write_ruleset(tmp_path, counted, "counted"), 3, backend="compiled")
    game.rules.playout_kernel(False, 3)
    fused = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
    assert "_fz_memo_on_trial(M, ('fused-define', 'weight'))" in fused
    _fused_matches_the_loop(game, range(80), cut=7)


def test_a_text_made_of_its_arguments_is_looked_up_not_made_again():
    """A definition that joins its arguments into a text and reads nothing of the state
    (`'h-' + str(r) + '-' + str(c)`, tests/games/dot-boxes) is remembered by its
    arguments, as the other tiers remember it (issue 47): the playout finds the text
    instead of joining and checking it again at every use, and plays as the loop plays."""
    game = load_game(Path(__file__).parent / "games" / "dot-boxes", 2, backend="compiled")
    game.rules.playout_kernel(False, 2)
    fused = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
    made = re.findall(r"(md_\d+)\.get\(\(_mk\d+ := \(\(?_a\d+\)?, \(?_a\d+\)?, \)\)", fused)
    assert len(made) >= 4  # the four sides of a box, each named by h(r, c) or v(r, c)
    assert "'h-' + str(" in fused  # the text is still made, once per (r, c), when missing
    _fused_matches_the_loop(game, range(40), cut=9)


MARKS = """game: {name: marks, players: 2}
define:
  mark: "{0: {'win': 'x', 'lose': 'o'}, 1: {'win': 'X', 'lose': 'O'}}"
  worth: "{'x': 1, 'o': 0, 'X': 2, 'O': 0}"
variables:
  shown: {per: player, type: str, initial: "''"}
  total: {per: player, type: int, initial: "0"}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [mark_it]
    times: 3
actions:
  mark_it:
    params: {how: "['win', 'lose']"}
    effects:
      - set: ["shown[player] = mark[player][how]", "total[player] += worth[mark[player][how]]"]
scoring:
  score: "total[player]"
"""


def test_a_map_of_constants_keyed_by_ints_and_nested_is_made_once(tmp_path):
    """`mark[player][how]`: a map keyed by ints whose values are maps of texts, all
    constants, is one map of the module read by indexing (chess's `glyph[c]['N']`), and
    plays as the loop plays."""
    game = load_game(write_ruleset(tmp_path, MARKS, "marks"), 2, backend="compiled")
    game.rules.playout_kernel(False, 2)
    fused = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
    assert re.search(r"_fz_map\d+\[", fused) and "{0: {" not in fused
    _fused_matches_the_loop(game, range(30), cut=4)


def test_choices_built_by_a_loop_match_the_loop_whether_the_memo_is_kept_or_let_go(tmp_path, monkeypatch):
    """BARTER's `offers(player)` is remembered: while its memo is kept the listing asks
    it, once the game has let it go the listing builds the list itself (`built_list`).
    Here every memo is let go from the start, and the playouts still end as the loop's."""
    from meeple.interpreter.codegen import fused_runtime as fused
    game = load_game(write_ruleset(tmp_path, BARTER, "barter"), 3, backend="compiled")
    game.rules.playout_kernel(False, 3)
    text = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
    assert "is _fz_NOT_REMEMBERED:" in text  # offers: the memo, or the loop
    monkeypatch.setitem(game.rules.module.ns, "_fz_memo_on_trial", lambda memo, key, *rule: fused._NOT_REMEMBERED)
    _fused_matches_the_loop(game, range(60), cut=7)


def test_board_walks_match_the_loop_whether_their_memo_is_kept_or_let_go(tmp_path, monkeypatch):
    """CAVES walks its board through `hop_walk`, the library's walk without the type
    checks the tier has proven; once the game lets the walk's memo go, no key is made.
    Here it is let go from the start."""
    from meeple.interpreter.codegen import fused_runtime as fused
    game = load_game(write_ruleset(tmp_path, CAVES, "caves"), 3, backend="compiled")
    game.rules.playout_kernel(False, 3)
    text = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
    assert "_fz_hop_walk(ctx, bw_0, " in text and "F_hop_targets(" not in text
    assert re.search(r"\(_fz_hop_walk\(ctx, bw_0, [^)]*\) if s_\d+ is _fz_NOT_REMEMBERED else ", text)
    monkeypatch.setitem(game.rules.module.ns, "_fz_memo_on_trial", lambda memo, key, *rule: fused._NOT_REMEMBERED)
    _fused_matches_the_loop(game, range(60), cut=8)


def test_a_walk_memo_is_kept_only_where_most_walks_recur():
    """A memo on trial is judged after MEMO_TRIAL asks: a definition's is kept with a
    quarter as many values found as missed, a board walk's only with as many (its key
    costs about as much as the walk)."""
    from meeple.interpreter.codegen import fused_runtime as fused
    from meeple.interpreter.codegen.runtime import MEMO_TRIAL

    def kept(found_share: float, *rule) -> bool:
        memo = {}
        trial = fused._memo_on_trial(memo, "k", *rule)
        for i in range(MEMO_TRIAL):  # the first asks find nothing, the later ones find key 0
            if trial.get(0 if i >= (1 - found_share) * MEMO_TRIAL else -1 - i) is None:
                trial[0] = i
        assert trial.asked == MEMO_TRIAL and trial.missed == round((1 - found_share) * MEMO_TRIAL)
        return fused._memo_on_trial(memo, "k", *rule) is not fused._NOT_REMEMBERED

    assert kept(0.4) and not kept(0.4, fused._WALK_FOUND_PER_MISS)
    assert not kept(0.1) and kept(0.6, fused._WALK_FOUND_PER_MISS)


def test_a_memo_that_finds_almost_nothing_is_let_go_early():
    """After a few hundred asks, a memo that found less than one value in twenty misses
    is let go then; one that found more stays on trial until MEMO_TRIAL asks."""
    from meeple.interpreter.codegen import fused_runtime as fused

    def after(asks: int, found: int):
        memo = {}
        trial = fused._memo_on_trial(memo, "k")
        trial.get(0)
        trial[0] = 0  # the first ask misses and keeps its value
        for i in range(1, asks):  # then `found` asks find it, the others miss
            if trial.get(0 if i <= found else -i) is None:
                trial[-i] = i
        assert trial.asked == asks and trial.missed == asks - found
        return fused._memo_on_trial(memo, "k")

    assert type(after(fused._EARLY_TRIAL - 1, 0)) is fused._OnTrial  # too few asks to judge
    assert after(fused._EARLY_TRIAL, 1) is fused._NOT_REMEMBERED  # 1 found, 199 missed
    assert type(after(fused._EARLY_TRIAL, 40)) is fused._OnTrial  # 40 found: judged later


def test_a_walk_from_a_space_off_the_board_fails_as_in_the_loop(tmp_path):
    """The tier's walk reports the start it cannot find; the loop plays the game again and
    reports it in the language's terms, as the reference does."""
    broken = CAVES.replace('"m.at = to"', '"m.at = to if rounds < 2 else \'zz\'"')
    assert broken != CAVES
    errors = playout_errors(write_ruleset(tmp_path, broken, "caves-off-board"), 4)
    assert "reference" in errors and errors["compiled"] == errors["reference"]
    assert errors["fallbacks"] == 1


def test_a_listing_keeps_the_parts_of_its_tests_that_read_no_candidate(tmp_path):
    """Each is worked out on first use (the playouts above start with spread 0 and never
    fall back), and kept in a name of its own for the other candidates, until the loop
    whose variable it reads goes on."""
    source = load_game(write_ruleset(tmp_path, KEPT, "kept"), 2, backend="compiled").rules.source()
    fused = source[source.index("def FUSED"):]
    kept = set(re.findall(r"\((_h\d+) if \1 is not None else \(\1 := ", fused))
    # take: spread == 0, 10 // spread, coins[player] + player_count() > 4; mark: the count;
    # swap: coins[player] % 5, reach(a); trade: rounds % 3; swap and trade: upto(reach(2)),
    # kept once for both
    assert len(kept) == 8
    assert all(fused.count(f"{name} = None") == 1 for name in kept)
    shared = re.findall(r"for a_[ac] in \((_h\d+) if ", fused)
    assert len(shared) == 2 and shared[0] == shared[1]
    # reach(a) is kept inside the loop over `a` (set to None as each `a` begins), and
    # b's choices and the requirement share it
    inner = re.search(r"\n( +)for a_a in .*\n\1    (_h\d+) = None\n", fused)
    assert inner and fused.count(f"({inner.group(2)} if {inner.group(2)} is not None") == 2
    assert "len([" not in fused  # every count over the colours is a sum of tests


def test_an_end_rule_is_tested_only_after_blocks_that_write_what_it_reads(tmp_path):
    """KEPT's end rule reads `tally`: it is tested after a move (`mark` writes it) and not
    after the round's effects (`rounds`, `spread`); the playouts above end where the
    loop's do."""
    source = load_game(write_ruleset(tmp_path, KEPT, "kept"), 2, backend="compiled").rules.source()
    fused = source[source.index("def FUSED"):]
    assert fused.count("state.end_reason = 'tallied'") == 1
    assert fused.count("v_rounds = V['rounds'] =") >= 1


def test_a_playout_is_written_for_its_number_of_players(tmp_path):
    """Game.playout asks for the fused playout of its own player count: `players()` is a
    written tuple there, so RELAY's loops over the players are written out; a game of
    another count is refused on entry (and the loop plays it)."""
    path = write_ruleset(tmp_path, RELAY, "relay")
    game = load_game(path, 3, backend="compiled")
    generic, _ = game.rules.playout_kernel(False)
    for_three, _ = game.rules.playout_kernel(False, 3)
    assert for_three is not generic and for_three.__name__ == generic.__name__ == "FUSED"
    assert game.rules.playout_kernel(False, 3)[0] is for_three  # made once
    text = next(p for p in game.rules.module.parts if "if ctx.player_count != 3:" in p)
    assert "v_laps[2]" in text and "max(v_laps[0], v_laps[1], v_laps[2])" in text
    assert "v_laps[2]" not in next(p for p in game.rules.module.parts if "def FUSED" in p)  # the generic one
    other = load_game(path, 2, backend="compiled")
    with pytest.raises(KernelStop):
        for_three(other, other.new_state(1).copy(), random.Random(1)._randbelow, 10, 0, [])


def test_a_cost_paid_from_anything_but_an_int_variable_keeps_the_kernel(tmp_path):
    text = TOLLS.replace('"pool": "-far"', '"pool": "-far", "rounds": "0"').replace(
        "  rounds: {type: int, initial: 0}", "  rounds: {per: [a], type: int, initial: 0}").replace(
        "rounds += 1", "rounds['a'] += 1").replace("rounds % 3", "rounds['a'] % 3").replace(
        "rounds < 15", "rounds['a'] < 15").replace('"rounds": "0"', '"rounds[\'a\']": "0"')
    game = load_game(write_ruleset(tmp_path, text, "tolls-by-key"), backend="compiled")
    assert "a cost paid from something other than" in unsupported(game.rules)
    assert game.rules.playout_kernel(False)[0].__name__ == "PLAYOUT"


@pytest.mark.parametrize("name,players", [("zavandor", 2), ("zavandor", 3), ("zavandor", 4), ("valdora", 3),
                                          ("valdora", 4), ("freyas-folly", 3), ("freyas-folly", 4),
                                          ("freyas-folly", 5)])
def test_a_rulebook_game_plays_in_the_fused_tier_as_the_loop_plays_it(name, players):
    """Rulebook games in the tier (maps per player and per key, lists, map and list
    fields, board attributes, costs, `then` steps, an event trigger, sided cards,
    remembered definitions; freyas-folly: `then_required`, a board walk, map properties,
    lists of lists): a few long games, whole and cut."""
    game = load_game(name, players, backend="compiled")
    assert game.rules.playout_tier() == "fused"
    _fused_matches_the_loop(game, (40, 81, 125), cut=97)  # cut after 40, 81 and 28 moves


@pytest.mark.parametrize("name", INSIDE)
@pytest.mark.parametrize("limit", [None, 1, 5])
def test_fused_playouts_end_where_the_loop_ends(name, limit):
    """300 seeded games each (the incremental end rule is tested after every move)."""
    game = load_game(name, backend="compiled")
    for seed in range(300 if limit is None else 40):
        start = game.new_state(seed)
        before = start.to_data()
        fast_rng, loop_rng = random.Random(seed), random.Random(seed)
        fast = game.playout(start, rng=fast_rng, max_moves=limit)
        loop = game.playout(start, policy=_loop, rng=loop_rng, max_moves=limit)
        assert (fast.to_data(), fast.move_count, fast.over, fast.end_reason) == \
            (loop.to_data(), loop.move_count, loop.over, loop.end_reason), f"seed {seed}"
        assert fast_rng.getstate() == loop_rng.getstate()
        assert start.to_data() == before, "the playout changed its start"
    assert game.kernel_fallbacks == 0


def test_a_game_continued_from_the_middle_matches_too():
    """The first end check of a playout tests every line; later ones only the lines
    through the cells written since."""
    game = load_game("connect-four", backend="compiled")
    for seed in range(60):
        mid = game.playout(game.new_state(seed), rng=random.Random(seed), max_moves=seed % 17)
        a, b = random.Random(seed + 1), random.Random(seed + 1)
        assert game.playout(mid, rng=a).to_data() == game.playout(mid, policy=_loop, rng=b).to_data()


def test_a_state_whose_values_break_their_types_is_left_to_the_loop():
    game = load_game("tic-tac-toe", backend="compiled")
    state = game.new_state(0)
    state.vars["cell"] = {**state.vars["cell"], "a1": 7}  # an int where the declaration says str
    fast = game.playout(state, rng=random.Random(2))
    loop = game.playout(state, policy=_loop, rng=random.Random(2))
    assert game.kernel_fallbacks == 1
    assert fast.to_data() == loop.to_data()


def test_a_variable_outside_its_declared_bounds_is_left_to_the_loop():
    """The writer leaves out the range check of sums whose operands' declared bounds keep
    them small (valdora's `silver[player] - 1`, silver being 0..6); the bounds are proven
    on entry, so a state that breaks them is played by the loop."""
    game = load_game("valdora", 3, backend="compiled")
    fused = game.rules.source()
    assert "_v = (v_silver[" in fused and "max(v_silver) > 6" in fused
    state = game.new_state(4)
    state.vars["silver"] = (9, *state.vars["silver"][1:])  # more than the declared 6
    outcomes = []
    for policy in (None, _loop):  # both play on until a write meets the bound, and report it alike
        try:
            outcomes.append(game.playout(state, policy=policy, rng=random.Random(3), max_moves=40).to_data())
        except RuleError as error:
            outcomes.append((error.code, str(error)))
    assert game.kernel_fallbacks == 1
    assert outcomes[0] == outcomes[1]


REFUSED_WRITE = """
game: {name: refused-write, players: 2}
variables:
  mark: {type: str, initial: "'a'", choices: [a, b]}
  turns: {type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [write]
actions:
  write:
    params: {to: "['a', 'b', 'c']"}
    effects:
      - set: ["mark = to", "turns += 1"]
end:
  - when: "turns > 50"
"""


def test_a_write_the_declaration_refuses_gives_the_languages_error(tmp_path):
    path = write_ruleset(tmp_path, REFUSED_WRITE, "refused-write")
    assert unsupported(load_game(path, backend="compiled").rules) is None
    errors = playout_errors(path, 5)
    assert errors["compiled"] == errors["reference"] and errors["compiled"][0] == "R703"
    assert errors["fallbacks"] == 1


def test_the_writer_meets_every_shipped_and_test_ruleset_without_failing():
    """Each ruleset is inside the tier or told why not; none makes the writer itself fail."""
    from ruleset_support import every_configuration
    seen = {}
    for param in every_configuration():
        name, players = param.values
        if name not in seen:
            seen[name] = unsupported(load_game(name, players, backend="compiled").rules)
    assert not [n for n, why in seen.items() if why and why.startswith("the writer failed")], seen
    assert {Path(n).name for n, why in seen.items() if why is None} >= {Path(n).name for n in INSIDE}


# Every zone feature the tier writes: a chance draw from a zone, moves by item, by count
# (none when the count is not positive), of the front item alone (none from an empty
# place), to the top and the bottom, with and without a face; flips with and without a face; `let` holding a zone's contents while the zone
# changes; `for` over a zone that its body empties; zones kept per key; fields read from
# items; a value per player written with a bound; a `times` loop and a `for` loop in the
# flow; a decision that may be passed.  (Treasure Hunter, inside the tier too, brings
# respond windows, deals, passed hands, shuffles, moves without `from`, item properties,
# maps and options.)
MARKET = """
game: {name: market, players: {min: 2, max: 3}}
components:
  coin:
    fields: {worth: int, metal: str}
    generate: {worth: {from: 1, to: 9}, metal: [gold, tin]}
    id: "{metal}{worth}"
zones:
  stall: {kind: row, visibility: all, face: up,
          initial: "[c for c in items('coin') if c.worth <= 6]"}
  purse: {per: player, kind: hand, visibility: owner, face: down}
  pot: {kind: stack, visibility: all}
  lost: {kind: row, visibility: none, face: down}
  shelf: {per: [left, right], kind: row, visibility: all}
variables:
  wealth: {per: player, type: int, initial: 0, min: 0, max: 40, bounds: clamp}
  rounds: {type: int, initial: 0}
flow:
  - loop:
      - chance: pick
        from: "stall"
      - effects:
          - move: {items: pick, from: stall, to: pot, at: bottom}
          - let: {before: "pot"}
          - flip: "pot"
          - if: "len(before) > 2"
            then:
              - move: {from: pot, to: lost, count: "len(before) - 2"}
      - for: p
        in: "players()"
        do:
          - choose: [take, skip, pass]
            player: p
      - loop:
          - effects:
              - for: c
                in: "purse[0]"
                do:
                  - if: "c.metal == 'tin'"
                    then:
                      - move: {items: c, from: "purse[0]", to: lost, face: up}
                      - flip: c
                      - flip: c
                        face: down
        times: 1
      - effects:
          - set: "rounds += 1"
    while: "len(stall) > 0 and rounds < 12"
actions:
  take:
    params: {coin: "[c for c in pot if c.worth > 1]"}
    effects:
      - move: coin
        from: pot
        to: "purse[player]"
      - set: "wealth[player] += coin.worth * 3"
  skip:
    params: {n: "[0, -1]"}
    effects:
      - move: {from: stall, to: pot, count: n}
      - move: {from: stall, to: "shelf['right']", count: "n + 1"}
      - if: "len(shelf['right']) > 3"
        then:
          - move: {from: "shelf['right']", to: "shelf['left']", count: 2, at: bottom}
      # the front item, when there is one: none at first, some later
      - move: {from: "shelf['left']", to: lost, face: down}
      - move: {from: "shelf['left']", to: "shelf['right']", at: bottom}
scoring:
  score: "wealth[player]"
"""


@pytest.mark.parametrize("players", [2, 3])
def test_zones_items_and_chance_in_the_fused_tier_match_the_loop(tmp_path, players):
    path = write_ruleset(tmp_path, MARKET, "market")
    game = load_game(path, players, backend="compiled")
    assert unsupported(game.rules) is None
    for seed in range(150):
        start = game.new_state(seed)
        before = start.to_data()
        for limit in (None, seed % 9):
            fast_rng, loop_rng = random.Random(seed), random.Random(seed)
            fast = game.playout(start, rng=fast_rng, max_moves=limit)
            loop = game.playout(start, policy=_loop, rng=loop_rng, max_moves=limit)
            assert (fast.to_data(), fast.move_count, fast.end_reason) == \
                (loop.to_data(), loop.move_count, loop.end_reason), f"seed {seed}"
            assert fast_rng.getstate() == loop_rng.getstate()
        assert start.to_data() == before, "the playout changed its start"
    assert game.kernel_fallbacks == 0


def test_a_face_is_written_as_the_shared_record_unless_the_record_holds_more(tmp_path):
    """A face is written as one of the two shared records where the item's record held
    nothing but a face (the shared records are tested first), and as a copy with the face
    changed where it holds more: another property, or the players it was revealed to.
    Records the tier did not make (an equal but separate face record, an explicit `up`,
    a `seen_by` a save may carry in a game without `reveal`) are read by what they hold,
    as the loop reads them."""
    with_props = MARKET.replace('    id: "{metal}{worth}"\n', '    id: "{metal}{worth}"\n    props:\n'
                                '      polish: {type: int, initial: "0", min: 0, max: 3}\n')
    assert with_props != MARKET
    for text in (MARKET, with_props):
        game = load_game(write_ruleset(tmp_path, text, "market"), 2, backend="compiled")
        game.rules.playout_kernel(False, 2)
        fused = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
        assert "_fz_FD if _pp is None or _pp is _fz_FU or (len(_pp) == 1 and " in fused
        for seed in range(60):
            start = game.new_state(seed)
            for n, item in enumerate(start.zones["stall"]):  # records the tier did not make
                record = dict(start.props.get(item.id, {}))
                if n % 2:
                    record["face"] = "down" if n % 3 == 0 else "up"
                if n % 5 == 0:
                    record["seen_by"] = (0,)
                start.props[item.id] = record
            fast = game.playout(start, rng=random.Random(seed))
            loop = game.playout(start, policy=_loop, rng=random.Random(seed))
            assert fast.to_data() == loop.to_data(), seed
            assert any("seen_by" in p for p in fast.props.values())
        assert game.kernel_fallbacks == 0


@pytest.mark.parametrize("players", [3, 4])
def test_goofspiel_at_more_players_matches_the_loop(players):
    game = load_game("goofspiel", players, backend="compiled")
    for seed in range(100):
        start = game.new_state(seed)
        fast_rng, loop_rng = random.Random(seed), random.Random(seed)
        fast = game.playout(start, rng=fast_rng)
        loop = game.playout(start, policy=_loop, rng=loop_rng)
        assert fast.to_data() == loop.to_data() and fast_rng.getstate() == loop_rng.getstate()
    assert game.kernel_fallbacks == 0


def test_a_zone_that_is_not_a_list_of_items_is_left_to_the_loop():
    game = load_game("goofspiel", backend="compiled")
    state = game.new_state(0)
    state.zones["discard"] = ("not an item",)
    fast = game.playout(state, rng=random.Random(4))
    loop = game.playout(state, policy=_loop, rng=random.Random(4))
    assert game.kernel_fallbacks == 1
    assert fast.to_data() == loop.to_data()


@pytest.mark.parametrize("name", INSIDE)
def test_the_tier_replaces_no_helper_of_the_other_generated_code(name):
    """The fused function shares its module's namespace with the effect blocks and
    listings; a helper of the same name there (`_deal` once did) would change them."""
    from meeple.interpreter.codegen.fused import build_fused
    from meeple.interpreter.codegen.kernel import build_kernel
    game = load_game(name, backend="compiled")
    build_kernel(game.rules, False)
    before = dict(game.rules.module.ns)
    assert build_fused(game.rules) is not None
    after = game.rules.module.ns
    assert [k for k in before if after[k] is not before[k] and k != "FUSED"] == []


SHIFTING = """
game: {name: shifting, players: 2}
components:
  card:
    fields: {n: int}
    generate: {n: {from: 1, to: 30}}
    id: "C{n}"
zones:
  deck: {kind: stack, visibility: none, initial: "items('card')"}
  hand: {per: player, kind: hand, visibility: owner}
  table: {kind: row, visibility: all}
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 4}
flow:
  - loop:
      - chance: drawn
        from: "deck"
      - effects:
          # The draw's index is stale once another card left the deck before it.
          - if: "drawn.n % 2 == 0 and top(deck).n != drawn.n"
            then:
              - move: {from: deck, to: table, at: bottom}
          - move: {items: drawn, from: deck, to: "hand[0]"}
      - turns: "players()"
        do: [{choose: [play]}]
    while: "len(deck) > 2"
actions:
  play:
    params: {card: "hand[player]"}
    effects:
      # A card put on top of the hand first shifts the chosen card's place in it.
      - if: "card.n % 3 == 0 and len(deck) > 0"
        then:
          - move: {from: deck, to: "hand[player]"}
      - move: {items: card, from: "hand[player]", to: table}
scoring:
  score: "sum(c.n for c in table) * 0 + len(hand[player])"
"""


def test_an_item_drawn_by_index_is_taken_by_index_only_where_it_still_lies(tmp_path):
    """A decision over one plain list and a chance draw note the index they drew; the
    move that takes the item deletes it there when it is still there, and otherwise
    searches the list (an earlier effect moved another item in or out first)."""
    game = load_game(write_ruleset(tmp_path, SHIFTING, "shifting"), backend="compiled")
    assert unsupported(game.rules) is None
    for seed in range(120):
        start = game.new_state(seed)
        fast_rng, loop_rng = random.Random(seed), random.Random(seed)
        fast = game.playout(start, rng=fast_rng)
        loop = game.playout(start, policy=_loop, rng=loop_rng)
        assert fast.to_data() == loop.to_data(), f"seed {seed}"
    assert game.kernel_fallbacks == 0
    assert "_org_seq, _org_i = _seq, i" in game.rules.source()  # both draws noted their index
    assert "_org_seq, _org_i = _o, _z % _n" in game.rules.source()


@pytest.mark.parametrize("options", [{"board_size": 5}, {}])
def test_a_walk_of_the_board_through_the_library_plays_in_the_fused_tier_as_the_loop_plays_it(options):
    """`reachable` (hex's chain of stones) is called from the tier through the library,
    which checks its arguments and charges as the reference does (issue 43): hex left the
    playout kernel for the fused tier."""
    game = load_game("hex", options=options, backend="compiled")
    assert game.rules.playout_tier() == "fused"
    _fused_matches_the_loop(game, (3, 8, 21), cut=40)


@pytest.mark.parametrize("name,players,options", [("ludo", 2, {}), ("ludo", 4, {}), ("amazons", 2, {"board_size": 6}),
                                                  ("amazons", 2, {}), ("backgammon", 2, {})])
def test_has_move_plays_in_the_fused_tier_as_the_loop_plays_it(name, players, options):
    """`has_move` is written inside the tier as a listing of the asked actions that stops at
    its first move (ludo's pass when no piece can move, amazons' stuck player, backgammon's
    rule that both dice be played, with its counts per point changed by `-=` and `+=`), so
    these games left the playout kernel (issue 43)."""
    game = load_game(name, players, options=options, backend="compiled")
    assert game.rules.playout_tier() == "fused"
    _fused_matches_the_loop(game, (2, 5, 13), cut=60)


HAS_MOVE_OF_ITSELF = """
game: {name: self-asking, players: {min: 2, max: 2}}
variables:
  left: {type: int, initial: 5}
flow:
  - loop:
      - turns: "players()"
        do: [{choose: [take]}]
    while: "left > 0"
actions:
  take:
    params: {n: "range(1, 3)"}
    require:
      - {check: "n <= left or not has_move(player, ['take'])", reason: "asks about itself"}
    effects: ["left -= min(n, left)"]
"""


def test_has_move_of_an_action_asking_has_move_of_itself_is_named(tmp_path):
    game = load_game(write_ruleset(tmp_path, HAS_MOVE_OF_ITSELF, "self-asking"), backend="compiled")
    assert game.rules.playout_tier() == "kernel"
    assert "has_move of action 'take'" in unsupported(game.rules)


@pytest.mark.parametrize("path,options", [("quoridor", {"board_size": 5}), ("quoridor", {}),
                                          (str(Path(__file__).parent / "games" / "ember-queens"), {})])
def test_a_step_off_the_board_plays_in_the_fused_tier_as_the_loop_plays_it(path, options):
    """`step` and `cell` give none off the board: the tier types such a value as a text or
    none, compared with `==`, `!=` and `in`, kept in lists and written into a text variable
    only after a check (issue 43).  Quoridor (a pawn's next square, maps of direction
    lists) and ember-queens (the knight's leaps) left the playout kernel."""
    game = load_game(path, options=options, backend="compiled")
    assert game.rules.playout_tier() == "fused"
    _fused_matches_the_loop(game, (1, 4, 9), cut=50)


@pytest.mark.parametrize("path,cut", [("go", 70), (str(Path(__file__).parent / "games" / "pancake-duel"), 20)])
def test_a_set_of_positions_plays_in_the_fused_tier_as_the_loop_plays_it(path, cut):
    """A set variable of ints or texts held whole (a frozenset, replaced on every write),
    `set`, `union`, `intersection`, `difference`, `in` and `len` of sets, `sort` by a key and
    `reverse`, a map of lists built by a comprehension, and a whole per-key map read (a copy):
    go and pancake-duel, which remember every position seen, left the playout kernel
    (issue 43)."""
    game = load_game(path, backend="compiled")
    assert game.rules.playout_tier() == "fused"
    _fused_matches_the_loop(game, (2, 7), cut=cut)
