"""Effect blocks generated as Python statements (codegen/emit_effects.py) against the
closure interpreter's blocks: every effect kind on small rulesets, the same errors with
the same code and position, the rollback when generated code fails midway, and
condition and event triggers firing in the same order."""
from __future__ import annotations

import pytest

from meeple.interpreter import RuleError, load_game, load_rules
from meeple.interpreter.codegen.runtime import Deopt
from meeple.interpreter.analysis.differential import compare_backends
from ruleset_support import write_ruleset

BACKENDS = ("reference", "compiled")

# Every effect kind, each place layout (shared, per player, keyed; a list inside a
# variable), bounds that clamp, choices, an item property with bounds, a bag, items
# moved with and without `from`, and an event trigger.
EVERY = """game: {name: every, players: {min: 2, max: 3}}
components:
  card:
    fields: {rank: int}
    props: {charge: {type: int, initial: 0, min: 0, max: 2, bounds: clamp}}
    generate: {rank: {from: 1, to: 12}}
    id: "C{rank}"
  token:
    fields: {worth: int}
    generate: {worth: {from: 1, to: 4}}
    id: "T{worth}"
zones:
  deck: {kind: stack, face: down, initial: "items('card')"}
  sack: {kind: bag, initial: "items('token')"}
  hand: {per: player, kind: hand, visibility: owner}
  pile: {per: "['a', 'b']", kind: row}
  table: {kind: row}
  loot: {per: player, kind: row}
variables:
  total: {type: int, initial: 0, min: 0, max: 40, bounds: clamp}
  score: {per: player, type: int, initial: 0}
  stock: {per: "['wood', 'gold']", type: int, initial: 1, min: 0}
  mood: {type: str, initial: "'calm'", choices: [calm, rain, storm]}
  grid: {type: "list[list[int]]", initial: "[[0, 0], [0, 0], [0, 0]]"}
  seen: {type: "list[int]", initial: "[]"}
  turns: {type: int, initial: 0}
flow:
  - effects:
      - shuffle: deck
      - deal: 2
        from: deck
        to: hand
  - loop:
      - turns: "players()"
        do: [{choose: [play, draw]}]
      - effects:
          - "turns += 1"
          - if: "turns >= 6"
            then: [{end_game: "six rounds"}]
    while: "len(deck) > 0"
actions:
  play:
    params: {card: "hand[player]"}
    effects:
      - move: card
        from: "hand[player]"
        to: "pile['a' if card.rank % 2 == 0 else 'b']"
      - "score[player] += card.rank"
      - "total += card.rank * 3"
      - "card.charge += 2"
      - let: {n: "len(hand[player])"}
      - let: {pair: "[card.rank, n]"}
      - "seen += pair"
      - if: "n == 0"
        then: [{move: {from: sack, to: "loot[player]"}}]
        else: ["stock['wood'] += 1", "mood = 'rain'"]
      - for: p
        in: "players()"
        do:
          - "grid[p][0] += p + 1"
          - let: {q: "p * 2"}
          - "grid[p][1] = q"
      - flip: card
      - reveal: card
        to: player
      - log: "'played ' + card.id"
  draw:
    effects:
      - move: {from: deck, to: "hand[player]", count: 2, at: bottom}
      - move: "[c for c in hand[player] if c.rank > 6]"
        to: table
        face: down
      - deal: 1
        from: "hand[player]"
        to: hand
        players: "[(player + 1) % player_count()]"
      - pass_zones: hand
        direction: "1 if turns % 2 == 0 else -1"
      - emit: drew
        with: {who: player, what: "[c.rank for c in table]"}
      - "mood = 'storm'"
      - move: {from: "pile['a']", to: "pile['b']", count: "len(pile['a'])", at: bottom}
triggers:
  on_drew:
    on: drew
    effects: ["score[who] += len(what)", {log: "'drew ' + str(who)"}]
scoring:
  score: "score[player]"
"""

# Condition triggers that fire between the statements of a block and inside a `for`,
# and actions that break a bound (boil, twice) or a choice (snow).
CHAIN = """game: {name: chain, players: 2}
variables:
  heat: {type: int, initial: 0}
  alarms: {type: int, initial: 0}
  level: {per: player, type: int, initial: 0, max: 3}
  mood: {type: str, initial: "'calm'", choices: [calm, rain]}
flow:
  - loop:
      - turns: "players()"
        do: [{choose: [warm, boil, rain, snow]}]
    while: "alarms < 3"
actions:
  warm:
    params: {by: "[1, 2]"}
    effects:
      - "heat += by"
      - log: "'warm ' + str(heat)"
      - for: i
        in: "range(by)"
        do: [{log: "'step ' + str(i)"}]
  boil:
    effects: ["level[player] += 2", {log: "'boil'"}]
  rain:
    effects: ["mood = 'rain'"]
  snow:
    effects: ["heat += 1", "mood = 'snow'"]
triggers:
  alarm:
    when: "heat >= 3"
    effects: ["heat -= 3", "alarms += 1", {log: "'alarm ' + str(alarms)"}]
  cheer:
    each: {p: "players()"}
    when: "level[p] == 0 and heat == 1"
    effects: [{log: "'cheer ' + str(p)"}, "level[p] += 1"]
scoring:
  score: "level[player]"
"""

# An event trigger that keeps emitting its own event: R706 fifty blocks deep.
ECHO = """game: {name: echo, players: 2}
variables:
  n: {type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do: [{choose: [shout]}]
    while: "n < 100"
actions:
  shout:
    effects:
      - "n += 1"
      - emit: ping
triggers:
  answer:
    on: ping
    effects: ["n += 1", {emit: ping}]
"""


def _both(path, players=2):
    return [load_game(path, players=players, backend=b) for b in BACKENDS]


def _play(games, moves, seed=0):
    """The same move texts on both back ends; their states after each move."""
    states = [g.new_state(seed) for g in games]
    seen = [states]
    for text in moves:
        states = [g.apply(s, text) for g, s in zip(games, states)]
        seen.append(states)
    return seen


@pytest.mark.parametrize("players", [2, 3])
def test_every_effect_kind_plays_as_the_reference_plays(tmp_path, players):
    report = compare_backends(write_ruleset(tmp_path, EVERY, "every"), players, games=6, seed=players)
    assert report.ok, str(report)
    assert report.moves > 20 and report.playouts > 0, str(report)
    assert report.deopts == 0, str(report)


def test_logs_and_item_properties_agree_move_by_move(tmp_path):
    games = _both(write_ruleset(tmp_path, EVERY, "every"))
    states = [g.new_state(4) for g in games]
    for step in range(12):
        if states[0].over:
            break
        texts = [[str(m) for m in g.legal_moves(s)] for g, s in zip(games, states)]
        assert texts[0] == texts[1]
        states = [g.apply(s, t[step % len(t)]) for g, s, t in zip(games, states, texts)]
        assert states[0].log == states[1].log
        assert states[0].props == states[1].props
        assert states[0].key() == states[1].key()
    assert any(line.startswith("played") for line in states[1].log)
    assert any(line.startswith("drew") for line in states[1].log)  # the event trigger ran
    assert any(p.get("charge") == 2 for p in states[1].props.values())  # 2 + 2 clamped to the maximum


def test_each_block_is_one_generated_function(tmp_path):
    rules = load_rules(write_ruleset(tmp_path, EVERY, "every"), backend="compiled")
    source = rules.source()
    compile(source, "generated", "exec")
    # Comments give positions (file number, line, column) and fixed words, never a name or path.
    assert "# 1:45:9  effects of an action" in source
    assert "effects of a trigger" in source and "every.yaml" not in source
    assert "effects step of the flow" in source
    assert "def X0(ctx):" in source
    # `reveal`, and a `deal` from a zone into itself, run the reference's own closure; the
    # other kinds are statements.
    assert "= _deal(ctx, " in source
    assert source.count("(ctx)  # as the reference interpreter runs it") == 2  # the deal and the reveal
    assert "# 1:51:9  let" in source and "k_n = " in source and "B['n'] = k_n" in source
    assert "for k_p in _each(" in source
    # No condition trigger: nothing is called after each statement.
    assert "_after_effect(ctx)" not in source
    assert "_after_effect(ctx)" in load_rules(write_ruleset(tmp_path, CHAIN, "chain"), backend="compiled").source()


def test_condition_triggers_fire_in_the_same_order(tmp_path):
    games = _both(write_ruleset(tmp_path, CHAIN, "chain"))
    moves = ["warm(by=1)", "warm(by=2)", "warm(by=2)", "rain", "warm(by=1)", "warm(by=2)"]
    for states in _play(games, moves):
        assert states[0].log == states[1].log
        assert states[0].key() == states[1].key()
    final = states[1]
    assert "cheer 0" in final.log and "alarm 1" in final.log
    # The alarm fires inside the `for` of warm(by=2), between two of its steps.
    assert final.log.index("alarm 1") < final.log.index("step 1")
    assert games[1].rules.module.deopts == 0


@pytest.mark.parametrize("moves,code", [(["boil", "warm(by=1)", "boil"], "R703"), (["snow"], "R703")])
def test_a_broken_bound_or_choice_is_the_same_error(tmp_path, moves, code):
    games = _both(write_ruleset(tmp_path, CHAIN, "chain"))
    errors = []
    for game in games:
        state = game.new_state(0)
        with pytest.raises(RuleError) as info:
            for text in moves:
                state = game.apply(state, text)
        errors.append((info.value.code, str(info.value.span), info.value.message, info.value.rule))
    assert errors[0] == errors[1]
    assert errors[0][0] == code
    assert games[1].rules.module.deopts >= 1  # the generated block handed over to the reference


def test_an_item_not_where_the_move_says_is_the_same_error(tmp_path):
    text = EVERY.replace('to: "pile[\'a\' if card.rank % 2 == 0 else \'b\']"', "to: table")
    text = text.replace("      - move: card\n        from: \"hand[player]\"",
                        "      - move: card\n        from: table")
    assert text != EVERY
    games = _both(write_ruleset(tmp_path, text, "every"))
    errors = []
    for game in games:
        state = game.new_state(0)
        move = next(m for m in game.legal_moves(state) if m.action == "play")
        with pytest.raises(RuleError) as info:
            game.apply(state, move)
        errors.append((info.value.code, str(info.value.span), info.value.message))
    assert errors[0] == errors[1]
    assert errors[0][0] == "R705"


def _fail_once(monkeypatch, module, name):
    """Make the generated code's helper `name` raise on its first call only."""
    real = module.ns[name]
    calls = []

    def failing(*args):
        calls.append(1)
        if len(calls) == 1:
            raise Deopt()
        return real(*args)
    monkeypatch.setitem(module.ns, name, failing)
    return calls


@pytest.mark.parametrize("helper,action", [("_flip", "play"), ("_fire_event", "draw")])
def test_a_block_failing_midway_is_undone_and_run_by_the_reference(tmp_path, monkeypatch, helper, action):
    # `_flip` fails near the end of `play`, after writes to variables, zones, a property,
    # a let and a for; `_fire_event` fails in `draw` (a block that runs triggers, so all of
    # the state is kept) after moves and a pass.  Without the rollback the reference
    # would run those writes a second time.
    path = write_ruleset(tmp_path, EVERY, "every")
    games = _both(path)
    module = games[1].rules.module
    states = [g.new_state(7) for g in games]
    move = next(str(m) for m in games[0].legal_moves(states[0]) if m.action == action)
    before = module.deopts
    calls = _fail_once(monkeypatch, module, helper)
    after = [g.apply(s, move) for g, s in zip(games, states)]
    assert calls, "the helper was reached"
    assert module.deopts == before + 1
    assert after[0].key() == after[1].key()
    assert after[0].log == after[1].log and after[0].props == after[1].props
    assert states[1].key() == states[0].key()  # apply still leaves its input alone


def test_a_playout_in_place_is_undone_before_the_reference_runs(tmp_path, monkeypatch):
    import random
    path = write_ruleset(tmp_path, EVERY, "every")
    games = _both(path)
    module = games[1].rules.module
    calls = _fail_once(monkeypatch, module, "_flip")
    finals = [g.playout(g.new_state(3), rng=random.Random(3)) for g in games]
    assert calls and module.deopts == 1
    assert finals[0].key() == finals[1].key() and finals[0].log == finals[1].log


def test_an_error_deep_in_nested_blocks_is_handed_back_once(tmp_path):
    games = _both(write_ruleset(tmp_path, ECHO, "echo"))
    errors = []
    for game in games:
        with pytest.raises(RuleError) as info:
            game.apply(game.new_state(0), "shout")
        errors.append((info.value.code, str(info.value.span), info.value.message))
    assert errors[0] == errors[1]
    assert errors[0][0] == "R706"
    # Only the innermost block runs again on the reference; the fifty blocks around it
    # pass its error on (running each again would double the work at every level).
    assert games[1].rules.module.deopts == 1


def test_an_item_is_found_by_equality_when_it_is_another_object():
    # Generated moves look items up by identity first (one object per item in a game);
    # an equal item that is another object (a state copied through pickle, say) is
    # still found, as store.remove_item finds it.
    from types import MappingProxyType

    from meeple.dsl.values import Item
    from meeple.interpreter.codegen.effects_runtime import take_out, without
    from meeple.interpreter.runtime.state import State

    def item(name):
        return Item(name, "card", MappingProxyType({}))
    a, b, c = item("a"), item("b"), item("c")
    state = State()
    state.zones = {"deck": (b, item("a")), "hand": ((c,), ()), "table": ()}
    take_out(state, (a,))
    assert state.zones["deck"] == (b,)
    take_out(state, (c, b))
    assert state.zones == {"deck": (), "hand": ((), ()), "table": ()}
    assert without((b, item("a"), c), (a, c)) == (b,)
    with pytest.raises(Deopt):
        take_out(state, (a,))  # in no zone: the reference's R705
