"""`move_count()` (issue 47): the moves the players have made so far, readable in every
expression, so that a move limit needs no counter of the author's own.  Inside a move's
requirements, costs and effects it is the count before that move; an end rule, checked
after the move, sees it counted.  No variable holds it, so the caches that keep an end
rule's or an invariant's answer while what it reads is unchanged must ask it afresh: a
pass, which writes nothing, still counts.  Both back ends (the move-by-move walk, the
playout kernel and the fused tier, which counts in `state.move_count`) agree."""
from __future__ import annotations

import pytest

from flow_idiom_support import BACKENDS, check_both_playout_tiers, check_lockstep, codes_and_places, game_of, play

# Each takes 1 to 3 from a pile, but never more than the moves made so far plus one;
# every third move may be a pass; after six moves the game is over.
COUNTDOWN = """game: {name: countdown, players: 2}
variables:
  pile: {type: int, initial: 30}
  took: {per: player, type: int, initial: 0}
  last: {per: player, type: int, initial: -1}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [take]
            pass: "move_count() % 3 == 2"
actions:
  take:
    params: {n: "range(1, 4)"}
    require: ["n <= pile", "n <= move_count() + 1"]
    effects: ["pile -= n", "took[player] += n", "last[player] = move_count()"]
end:
  - when: "move_count() >= 6"
    reason: "six moves were made"
invariants:
  - "move_count() <= 6"
scoring:
  score: "took[player] * 10 + move_count()"
"""


def _game(tmp_path, backend, text=COUNTDOWN):
    return game_of(tmp_path, text, backend, "countdown", 2)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_move_reads_the_count_before_it(tmp_path, backend):
    game = _game(tmp_path, backend)
    state = game.new_state(0)
    assert [str(m) for m in game.legal_moves(state)] == ["take(n=1)"]  # no move made yet
    state, _ = play(game, ["take(n=1)", "take(n=2)"], state)
    assert state.vars["last"] == (0, 1)
    assert sorted(str(m) for m in game.legal_moves(state)) == ["pass", "take(n=1)", "take(n=2)", "take(n=3)"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_pass_counts_and_ends_the_game_though_it_writes_nothing(tmp_path, backend):
    game = _game(tmp_path, backend)
    moves = ["take(n=1)", "take(n=2)", "pass", "take(n=3)", "take(n=3)"]
    state, _ = play(game, moves)
    assert not state.over and state.move_count == 5
    assert "pass" in [str(m) for m in game.legal_moves(state)]
    state = game.apply(state, "pass")  # writes no variable: the end rule is asked again all the same
    assert state.over and state.end_reason == "six moves were made"
    assert list(game.outcome(state).scores) == [4 * 10 + 6, 5 * 10 + 6]


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_invariant_over_the_count_is_asked_again_after_a_pass(tmp_path, backend):
    game = _game(tmp_path, backend, COUNTDOWN.replace('"move_count() <= 6"', '"move_count() < 6"'))
    state, _ = play(game, ["take(n=1)", "take(n=2)", "pass", "take(n=3)", "take(n=3)"])
    assert game.invariant_failures(state) == []
    failures = game.invariant_failures(game.apply(state, "pass"))
    assert len(failures) == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_initial_value_is_worked_out_before_the_first_move(tmp_path, backend):
    text = COUNTDOWN.replace("invariants:", """components:
  chip:
    fields: {worth: int}
    items: [{id: a, worth: 1}]
    props: {age: {type: int, initial: "move_count() + 1"}}
zones:
  box: {initial: "items('chip')"}
invariants:
  - "all(c.age == 1 for c in box)"
""").replace("took: {per: player, type: int, initial: 0}",
                         "took: {per: player, type: int, initial: \"move_count()\"}")
    game = _game(tmp_path, backend, text)
    state, _ = play(game, ["take(n=1)", "take(n=2)"])
    assert state.vars["took"] == (1, 2)
    assert game.invariant_failures(state) == []  # the age is read first after two moves


def test_move_count_is_checked_like_any_function(tmp_path):
    assert codes_and_places(tmp_path, COUNTDOWN.replace('"move_count() >= 6"', '"move_count(1) >= 6"')) == \
        [("T402", 18, 12)]
    assert codes_and_places(tmp_path, COUNTDOWN.replace('"move_count() >= 6"', '"move_count() >= \'six\'"')) == \
        [("T401", 18, 12)]


def test_both_back_ends_agree_at_every_step(tmp_path):
    check_lockstep(tmp_path, COUNTDOWN, "countdown", 2, seed=5)


def test_the_fused_tier_and_the_kernel_count_as_the_loop_does(tmp_path, monkeypatch):
    check_both_playout_tiers(tmp_path, monkeypatch, COUNTDOWN, "countdown", 2)


# Moves that write nothing at all: only the count ends the game.
IDLE = """game: {name: idle, players: 3}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [wait, nap]
actions:
  wait: {}
  nap:
    require: ["move_count() % 2 == 1"]
end:
  - when: "move_count() >= 7"
scoring:
  score: "move_count() % (player + 2)"
"""


def test_moves_that_write_nothing_still_reach_the_limit_in_every_tier(tmp_path, monkeypatch):
    for backend in BACKENDS:
        game = game_of(tmp_path, IDLE, backend, "idle-" + backend, 3)
        state, movers = play(game, ["wait", "nap", "wait", "nap", "wait", "nap", "wait"])
        assert state.over and movers == [0, 1, 2, 0, 1, 2, 0]
    check_both_playout_tiers(tmp_path, monkeypatch, IDLE, "idle", 3)
