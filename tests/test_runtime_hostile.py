"""Rules that are valid as written but go wrong while the game runs: each failure is a
located rules error (RuleError with a code and the span of the rule), never another
exception, and a flow that spins without a decision is stopped by the cost limit."""
from __future__ import annotations

import pytest

from meeple.dsl.load import load_ruleset
from meeple.interpreter import Game, RuleError
from meeple.interpreter.runtime.rules import Rules

HEAD = "game: {name: r, players: 2}\n"
LOOP = 'flow: [{loop: [{turns: "players()", do: [{choose: [go]}]}]}]\n'


def _game(tmp_path, text: str) -> Game:
    f = tmp_path / "g.yaml"
    f.write_text(text)
    return Game(Rules(load_ruleset(f)), 2)


def _fails(tmp_path, text: str, moves: int = 2):
    with pytest.raises(RuleError) as info:
        game = _game(tmp_path, text)
        state = game.new_state(0)
        for _ in range(moves):
            state = game.apply(state, game.legal_moves(state)[0])
    return info.value.code, info.value.span.line


@pytest.mark.parametrize("text,code,line", [
    # a parameter's choices that turn out not to be a list
    (HEAD + "variables: {d: {type: any, initial: true}}\n" + LOOP +
     "actions: {go: {params: {x: d}}}\n", "R701", 4),
    # a cost that is not a number
    (HEAD + "variables: {c: {type: any, initial: \"'two'\"}, coins: {initial: 5, min: 0}}\n" + LOOP +
     "actions: {go: {cost: {coins: c}}}\n", "R701", 4),
    # a simultaneous step asking someone who is not a player
    (HEAD + "variables: {who: {type: any, initial: '[0, 7]'}}\n"
     'flow: [{loop: [{simultaneous: [go], players: who}]}]\nactions: {go: {}}\n', "R707", 3),
    # a respond window asking a player twice
    (HEAD + "variables: {who: {type: any, initial: '[1, 1]'}}\n"
     'flow: [{loop: [{respond: [go], players: who}]}]\nactions: {go: {}}\n', "R707", 3),
    # chance outcomes that are not a list
    (HEAD + "variables: {o: {type: any, initial: 3}}\n"
     'flow: [{loop: [{chance: c, from: o}, {turns: "players()", do: [{choose: [go]}]}]}]\n'
     "actions: {go: {}}\n", "R701", 3),
    # the keys of a keyed variable that are not a list, or hold a boolean
    (HEAD + "variables: {k: {type: any, initial: 3}, v: {per: k, initial: 0}}\n" + LOOP +
     "actions: {go: {}}\n", "R701", 2),
    (HEAD + "variables: {k: {type: any, initial: '[1, true]'}, v: {per: k, initial: 0}}\n" + LOOP +
     "actions: {go: {}}\n", "R701", 2),
    # a keyed variable with more keys than any board has nodes
    (HEAD + "variables: {v: {per: 'range(10001)', initial: 0}}\n" + LOOP + "actions: {go: {}}\n", "R702", 2),
    # a keyed zone's place that it does not have, and a player's zone of no player
    (HEAD + "variables: {k: {type: any, initial: \"'c'\"}}\nzones: {site: {per: \"['a', 'b']\"}}\n" + LOOP +
     "actions: {go: {effects: [{shuffle: 'site[k]'}]}}\n", "R701", 5),
    (HEAD + "variables: {k: {type: any, initial: 5}}\nzones: {hand: {per: player}}\n" + LOOP +
     "actions: {go: {effects: [{shuffle: 'hand[k]'}]}}\n", "R701", 5),
    # a zone's initial contents that are not items
    (HEAD + "variables: {k: {type: any, initial: '[1, 2]'}}\nzones: {deck: {initial: k}}\n" + LOOP +
     "actions: {go: {}}\n", "R705", 3),
    # an initial value that reads a variable declared after it
    (HEAD + "variables: {a: {type: any, initial: b}, b: {initial: 1}}\n" + LOOP +
     "actions: {go: {}}\n", "R711", 2),
    # the deciding player's expression failing
    (HEAD + "variables: {m: {type: any, initial: '{}'}}\n"
     "flow: [{loop: [{choose: [go], player: \"m['x']\"}]}]\nactions: {go: {}}\n", "R701", 3),
])
def test_a_rule_failing_at_run_time_is_a_located_rules_error(tmp_path, text, code, line):
    assert _fails(tmp_path, text) == (code, line)


def test_a_flow_that_keeps_finding_nobody_able_to_act_is_stopped_by_the_cost_limit(tmp_path):
    # Every automatic step lists the legal moves, which costs ~100,000 steps of work;
    # with nobody ever able to move, the walk's total cost stops it long before
    # 100,000 steps (R709) would.
    text = (HEAD + 'define: {big: {expr: "range(100000)"}}\n'
            'flow: [{loop: [{choose: [go]}]}]\n'
            'actions: {go: {require: ["count(i for i in big if i < 0) > 0"]}}\n')
    assert _fails(tmp_path, text) == ("R702", 3)


def test_a_trigger_reads_only_the_names_every_emit_of_its_event_gives(tmp_path):
    from meeple.dsl.load import check_ruleset, read_ruleset
    f = tmp_path / "g.yaml"
    f.write_text(HEAD + "variables: {n: {initial: 0}}\n" + LOOP +
                 "actions: {go: {effects: [{emit: scored, with: {d: 1}}, {emit: scored, with: {e: 2}}]}}\n"
                 "triggers: {count: {on: scored, effects: ['n += d']}}\n")
    rs, diags = read_ruleset(f)
    diags += check_ruleset(rs)
    assert [(d.code, d.span.line) for d in diags if d.severity == "error"] == [("N301", 5)]
