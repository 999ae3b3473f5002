"""Small rulesets, one per construct of the fused playout tier, and the check every test
of the tier makes: a fused playout reaches the state, log and generator state the
move-by-move loop reaches with the same draws, whole, cut, and continued from the cut."""
from __future__ import annotations

import random

from meeple.interpreter.codegen.fused import unsupported

INSIDE = ("tic-tac-toe", "nim", "connect-four", "goofspiel", "examples/high-card", "treasure-hunter")


def loop_policy(game, state, moves, rng):
    return moves[rng._randbelow(len(moves))]


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


def fast_and_loop_outcomes(game, state, seed: int, max_moves=None) -> list:
    """The playout from `state` by the fast path and by the loop with the same draws: each
    its end state's data, or the error it stopped with (code and message)."""
    from meeple.interpreter.runtime.context import RuleError
    outcomes = []
    for policy in (None, loop_policy):
        try:
            outcomes.append(game.playout(state, policy=policy, rng=random.Random(seed), max_moves=max_moves).to_data())
        except RuleError as error:
            outcomes.append((error.code, str(error)))
    return outcomes


def fused_matches_the_loop(game, seeds, cut: int, go_on: bool = False):
    """Whole playouts and playouts cut after `seed % cut` moves, fused and by the loop, end
    alike (and leave the policy's generator alike); with `go_on`, a cut playout continued
    from where it stopped too.  None of them may leave the tier."""
    assert unsupported(game.rules) is None
    for seed in seeds:
        start = game.new_state(seed)
        for limit in (None, seed % cut):
            fast_rng, loop_rng = random.Random(seed), random.Random(seed)
            fast = game.playout(start, rng=fast_rng, max_moves=limit)
            loop = game.playout(start, policy=loop_policy, rng=loop_rng, max_moves=limit)
            assert fast.to_data() == loop.to_data(), (seed, limit)
            assert fast.log == loop.log, (seed, limit)  # not in the saved data, but the players see it
            assert fast_rng.getstate() == loop_rng.getstate()
            if go_on and limit:
                a, b = random.Random(seed + 1), random.Random(seed + 1)
                assert game.playout(fast, rng=a).to_data() == game.playout(fast, policy=loop_policy, rng=b).to_data()
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


# Condition triggers: one over `each` players behind a definition, one whose effects make
# another's condition hold (a second round), one over a map, one that ends the game; rounds
# after an action's effects, after an event trigger's effects and after a flow step's.
WATCHERS = """
game: {name: watchers, players: {min: 2, max: 3}}
variables:
  coins: {per: player, type: int, initial: 0, min: 0}
  gems: {per: player, type: int, initial: 0}
  level: {type: int, initial: 0}
  rounds: {type: int, initial: 0}
  seen: {type: "map[str, int]", initial: "{'gem': 0}"}
define:
  rich: {params: [p], expr: "coins[p] >= 4"}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [earn, spend]
      - effects:
          - set: ["rounds += 1", "level += 1"]
    while: "rounds < 12"
actions:
  earn:
    params: {amount: "range(1, 3)"}
    effects:
      - set: "coins[player] += amount"
      - emit: earned
        with: {who: "player"}
  spend:
    require: ["coins[player] > 0"]
    effects: ["coins[player] -= 1", "level += 2"]
triggers:
  bonus:
    on: earned
    when: "coins[who] % 3 == 0"
    effects: ["coins[who] += 1"]
  convert:
    each: {p: "players()"}
    when: "rich(p)"
    effects: ["coins[p] -= 4", "gems[p] += 1", "seen['gem'] += 1"]
  cascade:
    each: {p: "players()"}
    when: "gems[p] >= 2"
    effects: ["gems[p] -= 2", "level += 5"]
  tally:
    when: "seen['gem'] >= 3"
    effects: ["seen['gem'] = 0", "level += 1"]
  overflow:
    when: "level >= 20 + 10 * player_count()"
    effects:
      - end_game: "the level overflowed"
scoring:
  score: "coins[player] + 5 * gems[player] + level"
"""
