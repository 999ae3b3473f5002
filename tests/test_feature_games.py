"""The small games under tests/games each exercise a group of the language's
harder constructs (reaction windows, sub-decisions with costs, condition and
event triggers, end rules that finish a round, simultaneous drafting, chance,
bags, action counts, clamped bounds).  The property tests only play shipped
rulesets, so these games get their own random playouts here, plus direct
checks of flow facts that scenario files cannot see (locals, views, move
order independence) and regression tests for loader checks found with them.
"""
from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

from meeple.dsl.diagnostics import RulesetError
from meeple.dsl.load import load_ruleset
from meeple.interpreter import IllegalMove, load_game, load_rules
from meeple.interpreter.analysis.conformance import spec_citations, split_citation
from meeple.interpreter.analysis.lint import flow_diagnostics
from meeple.interpreter.analysis.scenario import load_scenarios
from meeple.interpreter.persistence.saves import state_from_json, state_to_json

from view_support import check_view_property

ROOT = Path(__file__).resolve().parent
GAMES_DIR = ROOT / "games"
GAMES = sorted(p for p in GAMES_DIR.iterdir() if (p / "game.yaml").is_file())
MAX_MOVES = 400
PLAYOUTS = 30


def _counts(path):
    info = load_rules(path).ruleset.game
    return range(info.min_players, info.max_players + 1)


CASES = [pytest.param(path, n, id=f"{path.name}-{n}p") for path in GAMES for n in _counts(path)]


def test_there_are_feature_games():
    assert {p.name for p in GAMES} >= {"bookshop", "contest", "draft", "market"}


@pytest.mark.parametrize("path", GAMES, ids=[p.name for p in GAMES])
def test_feature_game_has_no_diagnostics(path):
    rs = load_ruleset(path)
    assert [d.code for d in rs.warnings] == []
    assert [d.code for d in flow_diagnostics(load_rules(path))] == []


@pytest.mark.parametrize("path,players", CASES)
def test_random_playouts_keep_the_invariants(path, players):
    game = load_game(path, players)
    for seed in range(PLAYOUTS):
        rnd = random.Random(seed)
        state = game.new_state(seed)
        moves = []
        while not game.is_terminal(state) and len(moves) < MAX_MOVES:
            before = state.to_data()
            legal = game.legal_moves(state)
            assert legal, f"seed {seed}: no legal move at a live state (pc={state.pc}, phase={state.phase})"
            assert [str(m) for m in game.legal_moves(state.copy())] == [str(m) for m in legal]
            assert len({(m.player, str(m)) for m in legal}) == len(legal), "duplicate legal moves"
            assert set(game.current_players(state)) == {m.player for m in legal}
            move = legal[rnd.randrange(len(legal))]
            new = game.apply(state, move)
            assert state.to_data() == before, "apply changed its input state"
            assert game.invariant_failures(new) == []
            if len(moves) % 7 == 0:
                check_view_property(game, state, rnd.randrange(players), rnd, move=move)
            moves.append(move)
            state = new
        assert game.is_terminal(state), f"seed {seed}: no end after {MAX_MOVES} moves"
        out = game.outcome(state)
        assert len(out.ranks) == players and set(out.winners) <= set(range(players))
        assert all(out.ranks[w] == 1 for w in out.winners)
        replay = game.new_state(seed)
        for m in moves:
            replay = game.apply(replay, str(m), m.player)
        assert replay.key() == state.key()
        back = state_from_json(game, state_to_json(game, state))
        assert back.key() == state.key()


@pytest.mark.parametrize("path", GAMES, ids=[p.name for p in GAMES])
def test_every_rulebook_section_is_encoded_and_tested(path):
    rs = load_ruleset(path)
    sections = set(rs.game.rulebook.sections)
    spec = {c for c, _, _ in spec_citations(rs)}
    tested = {c for sc in load_scenarios(ROOT / "scenarios" / f"{path.name}.yaml") for c in split_citation(sc.rule)}
    assert sections - spec == set(), "sections no spec element cites"
    assert sections - tested == set(), "sections no scenario cites"
    assert (spec | tested) - sections == set(), "citations of no section"


# -- flow facts through the Python API ----------------------------------------------------

def _play(game, state, *moves):
    for m in moves:
        player = None
        if isinstance(m, tuple):
            player, m = m
        state = game.apply(state, m, player)
    return state


def test_sub_decisions_bind_the_action_and_leave_no_trace():
    game = load_game(GAMES_DIR / "bookshop", 2)
    s0 = game.new_state(0)
    s = _play(game, s0, "visit")
    assert s.locals["player"] == 0
    s = _play(game, s, "buy(card=red-a)")
    assert s.locals["player"] == 0 and "card" not in s.locals
    s = _play(game, s, "leave")
    assert {k for k in s.locals if not k.startswith("__")} == {"player"} and s.locals["player"] == 1
    assert not any(k.startswith("__saved") for k in s.locals)
    # A visit that bought nothing ends where a turn of work does.
    worked = _play(game, s0, "work")
    visited = _play(game, s0, "visit", "leave")
    assert visited.locals == worked.locals


def test_sub_decision_of_a_named_player_is_theirs():
    game = load_game(GAMES_DIR / "contest", 3)
    s = _play(game, game.new_state(0), "commit(card=s0-1)", "commit(card=s1-2)", "commit(card=s2-3)",
              "pass", "boost(card=boost1)", "pass", "pass", "pass")
    assert game.current_players(s) == (1,)
    s = game.apply(s, "reclaim(card=boost1)", 1)
    assert game.current_players(s) == (1,)
    assert [str(m) for m in game.legal_moves(s)] == ["give_up(card=s1-1)", "give_up(card=s1-3)"]
    with pytest.raises(IllegalMove) as err:
        game.apply(s, "give_up(card=s0-2)", 0)
    assert err.value.rejection.code == "M805"


def test_responders_with_nothing_to_play_are_still_asked():
    """Skipping a responder who holds nothing playable would tell the table so: each
    listed responder is asked, and passes, until all have passed in a row."""
    game = load_game(GAMES_DIR / "contest", 3)
    s = _play(game, game.new_state(0), "commit(card=s0-1)", "commit(card=s1-2)", "commit(card=s2-3)")
    s = _play(game, s, "boost(card=boost0)", "boost(card=boost1)", "boost(card=boost2)",
              "hinder(card=hinder0,target=2)", "hinder(card=hinder1,target=2)")
    assert game.current_players(s) == (2,)
    s = game.apply(s, "hinder(card=hinder2,target=0)")
    # Nobody holds a trick card any more, yet each is asked in turn and may only pass.
    for responder in (0, 1, 2):
        assert game.current_players(s) == (responder,)
        assert [str(m) for m in game.legal_moves(s)] == ["pass"]
        assert s.vars["prizes"] == (0, 0, 0)
        s = game.apply(s, "pass")
    assert s.vars["prizes"] == (0, 1, 0)
    assert game.current_players(s) == (1,) and str(game.legal_moves(s)[0]).startswith("reclaim")


def test_event_triggers_log_wins_and_ties():
    game = load_game(GAMES_DIR / "contest", 2)
    s = _play(game, game.new_state(0), "commit(card=s0-2)", "commit(card=s1-2)", "pass", "pass")
    assert s.log == ("a tie at 2",)
    s = _play(game, s, "commit(card=s1-1)", "commit(card=s0-3)", "pass", "pass")
    assert s.log[-1] == "player 0 wins the contest"


def test_hands_and_face_down_cards_stay_hidden():
    game = load_game(GAMES_DIR / "draft", 3)
    s = game.new_state(4)
    mine = [c.id for c in s.zones["hand"][0]]
    s = game.apply(s, f"keep(card={mine[0]})", 0)
    own, other = game.view(s, 0), game.view(s, 1)
    assert own["zones"]["kept"][0] == [mine[0]]
    assert other["zones"]["kept"][0] == {"count": 1, "items": ["?"]}
    assert other["zones"]["hand"][0] == {"count": 2}
    assert mine[0] not in str(other)
    assert other["to_move"] == [1, 2]


def test_simultaneous_choices_commute():
    game = load_game(GAMES_DIR / "draft", 3)
    s = game.new_state(2)
    picks = {p: game.legal_moves(s, p)[-1] for p in range(3)}
    keys = set()
    for order in ([0, 1, 2], [2, 0, 1], [1, 2, 0]):
        t = s
        for p in order:
            t = game.apply(t, picks[p])
        keys.add(t.key())
    assert len(keys) == 1


def test_simultaneous_step_does_not_wait_for_a_player_who_cannot_act():
    game = load_game(GAMES_DIR / "draft", 3)
    s = game.new_state(1)
    assert game.current_players(s) == (0, 1, 2)
    s = s.copy()
    s.zones["hand"] = (s.zones["hand"][0], s.zones["hand"][1], ())
    s.pending = (0, 1, 2)
    s._moves = None
    game._advance(s)
    assert game.current_players(s) == (0, 1)


def test_chance_and_bag_draws_follow_the_seed():
    game = load_game(GAMES_DIR / "draft", 2)
    favoured = {game.new_state(seed).vars["favoured"] for seed in range(30)}
    assert favoured == {"red", "blue", "green"}
    drawn = set()
    for seed in range(40):
        s = game.new_state(seed)
        while not s.over:
            s = game.apply(s, game.legal_moves(s)[0])
        drawn |= {t.id.split("-")[0] for p in range(2) for t in s.zones["tokens"][p]}
        assert game.outcome(s).scores == tuple(
            s.vars["points"][p] + sum(t.fields["worth"] for t in s.zones["tokens"][p]) for p in range(2))
    assert drawn == {"gold", "silver", "copper"}
    assert game.new_state(7).key() == game.new_state(7).key()


def test_peeking_reveals_a_claim_to_the_peeker_only():
    game = load_game(GAMES_DIR / "market", 2)
    s = game.apply(game.new_state(0), "peek(slot=1)")
    assert game.view(s, 0)["zones"]["field"] == {"count": 4, "items": ["?", "c2", "?", "?"]}
    assert game.view(s, 1)["zones"]["field"] == {"count": 4, "items": ["?", "?", "?", "?"]}
    assert game.current_players(s) == (0,) and s.vars["left"] == (2, 2)


def test_clamped_prices_never_leave_their_bounds():
    game = load_game(GAMES_DIR / "market", 2)
    s = game.new_state(0).copy()
    s.vars["target"] = {"ruby": 40, "jade": -40}
    s = _play(game, s, "gather", "gather", "gather", "gather")
    assert s.vars["price"] == {"ruby": 15, "jade": 1}


def test_three_player_setup_removes_components():
    books = {n: len(load_game(GAMES_DIR / "bookshop", n).new_state(0).zones["book"]) for n in (2, 3, 4)}
    assert books == {2: 8, 3: 6, 4: 8}
    assert load_game(GAMES_DIR / "bookshop", 4).new_state(0).vars["coins"] == (1, 2, 3, 4)


def test_the_round_is_finished_after_the_end_condition():
    game = load_game(GAMES_DIR / "bookshop", 3)
    s = game.new_state(0).copy()
    s.vars["coins"] = (10, 10, 10)
    s = _play(game, s, "visit", "buy(card=red-a)", "buy(card=red-b)", "buy(card=red-c)", "leave")
    assert s.ending == "round" and not s.over and game.current_players(s) == (1,)
    s = _play(game, s, "work", "work")
    assert s.over and game.outcome(s).winners == (0,)
    assert game.outcome(s).reason == "someone reached 6 points and the round was finished"


# -- loader checks found while writing the games -------------------------------------------

def _ruleset(tmp_path, text):
    path = tmp_path / "game.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def _codes(path):
    with pytest.raises(RulesetError) as err:
        load_ruleset(path)
    return [d.code for d in err.value.diagnostics if d.severity == "error"]


def test_an_action_offering_itself_in_its_sub_decisions_is_refused(tmp_path):
    path = _ruleset(tmp_path, """
        game: {name: t, players: 2}
        flow:
          - choose: [again]
        actions:
          again:
            then:
              - choose: [other]
          other:
            then:
              - choose: [again]
                pass: true
        """)
    assert _codes(path) == ["F509"]


def test_respond_cannot_hold_sub_decisions(tmp_path):
    path = _ruleset(tmp_path, """
        game: {name: t, players: 2}
        flow:
          - respond: [react]
        actions:
          react:
            then:
              - choose: [done]
          done: {}
        """)
    assert _codes(path) == ["F504"]


@pytest.mark.parametrize("field", ["id", "kind", "face"])
def test_reserved_item_fields_are_refused(tmp_path, field):
    path = _ruleset(tmp_path, f"""
        game: {{name: t, players: 2}}
        components:
          card:
            fields: {{{field}: str}}
            items: [{{id: a}}]
        zones:
          deck: {{initial: "items('card')"}}
        flow:
          - choose: [take]
        actions:
          take:
            params: {{c: deck}}
        """)
    assert "S109" in _codes(path)


def test_costs_name_variables_and_reveal_names_players(tmp_path):
    path = _ruleset(tmp_path, """
        game: {name: t, players: 2}
        components:
          card: {items: [{id: a}]}
        variables:
          coins: {per: player, initial: 2, min: 0}
        zones:
          deck: {face: down, initial: "items('card')"}
        flow:
          - turns: "players()"
            do:
              - choose: [peek]
        actions:
          peek:
            params: {c: deck}
            cost: {"coins[player]": 1}
            effects:
              - reveal: c
                to: player
        """)
    load_ruleset(path)
    game = load_game(path, 2)
    s = game.apply(game.new_state(0), "peek(c=a)")
    assert s.vars["coins"] == (1, 2)
    assert game.view(s, 0)["zones"]["deck"] == ["a"]
    assert game.view(s, 1)["zones"]["deck"] == {"count": 1, "items": ["?"]}


def test_per_player_values_are_lists_to_the_checker(tmp_path):
    path = _ruleset(tmp_path, """
        game: {name: t, players: 2}
        variables:
          coins: {per: player, initial: "player + 1"}
          total: {initial: 0}
        zones:
          hand: {per: player}
        flow:
          - choose: [count]
        actions:
          count:
            require:
              - "coins == [1, 2] and len(hand) == 2 and all(len(h) == 0 for h in hand)"
            effects:
              - "total = sum(coins)"
        """)
    load_ruleset(path)
    game = load_game(path, 2)
    assert game.apply(game.new_state(0), "count").vars["total"] == 3
    bad = _ruleset(tmp_path, """
        game: {name: t, players: 2}
        variables:
          coins: {per: player, initial: 1}
        flow:
          - choose: [count]
        actions:
          count:
            require: ["len(keys(coins)) == 2"]
        """)
    assert _codes(bad) == ["T401"]


def test_text_choices_are_enforced(tmp_path):
    path = _ruleset(tmp_path, """
        game: {name: t, players: 2}
        variables:
          colour: {type: str, initial: "'red'", choices: [red, blue]}
        flow:
          - choose: [paint]
        actions:
          paint:
            params: {c: "['blue', 'pink']"}
            effects: ["colour = c"]
        """)
    game = load_game(path, 2)
    assert game.apply(game.new_state(0), "paint(c=blue)").vars["colour"] == "blue"
    from meeple.interpreter import RuleError
    with pytest.raises(RuleError) as err:
        game.apply(game.new_state(0), "paint(c=pink)")
    assert err.value.code == "R703"


def test_a_trigger_that_ends_the_game_stops_firing(tmp_path):
    path = _ruleset(tmp_path, """
        game: {name: t, players: 2}
        variables:
          n: {initial: 0}
        flow:
          - loop:
              - choose: [tick]
        actions:
          tick:
            effects: ["n += 1"]
        triggers:
          enough:
            when: "n >= 2"
            effects:
              - end_game: "two ticks"
        """)
    game = load_game(path, 2)
    s = _play(game, game.new_state(0), "tick", "tick")
    assert s.over and game.outcome(s).reason == "two ticks"



def test_an_event_that_keeps_emitting_itself_is_a_rule_error(tmp_path):
    path = _ruleset(tmp_path, """
        game: {name: t, players: 2}
        variables:
          n: {initial: 0}
        flow:
          - loop:
              - choose: [tick]
        actions:
          tick:
            effects:
              - emit: ping
        triggers:
          echo:
            on: ping
            effects:
              - "n += 1"
              - emit: ping
        """)
    game = load_game(path, 2)
    from meeple.interpreter import RuleError
    with pytest.raises(RuleError) as err:
        game.apply(game.new_state(0), "tick")
    assert err.value.code == "R706"


def test_an_end_rule_can_wait_for_the_end_of_a_turn_with_sub_decisions(tmp_path):
    path = _ruleset(tmp_path, """
        game: {name: t, players: 3}
        variables:
          score: {per: player, initial: 0}
        flow:
          - loop:
              - turns: "players()"
                as: seat
                do:
                  - choose: [work]
                    label: turn
        actions:
          work:
            effects: ["score[player] += 1"]
            then:
              - if: "score[player] >= 2"
                then:
                  - choose: [bonus]
          bonus:
            effects: ["score[player] += 10"]
        end:
          - when: "any(s >= 2 for s in score)"
            after: turn
        """)
    game = load_game(path, 3)
    s = _play(game, game.new_state(0), "work", "work", "work", "work")
    assert s.vars["score"] == (2, 1, 1) and not s.over
    assert game.current_players(s) == (0,) and [str(m) for m in game.legal_moves(s)] == ["bonus"]
    s = game.apply(s, "bonus")
    assert s.over and s.vars["score"] == (12, 1, 1)
