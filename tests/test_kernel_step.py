"""`Game.apply` on the compiled back end may have the playout function play its move
(interpreter/kernel_step.py).  Step by step it must reach the states the move-by-move
step reaches, hand over the legal moves that step would list, and never change the
state it was given; a state somebody changed by hand is tested from scratch."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from meeple.interpreter import load_game
from meeple.interpreter.runtime.context import RuleError
from meeple.interpreter.runtime.moves import UnmadeMoves

from ruleset_support import every_configuration

LONG = {"valdora", "freyas-folly", "zavandor", "treasure-hunter", "backgammon", "chess", "quoridor", "go"}


def _twins(name, players):
    """The same compiled game twice: one steps through the playout function, the other
    move by move."""
    fast, slow = load_game(name, players, backend="compiled"), load_game(name, players, backend="compiled")
    fast._steps_by_kernel, slow._steps_by_kernel = True, False
    return fast, slow


@pytest.mark.parametrize("name,players", list(every_configuration()))
def test_a_step_by_the_playout_function_is_the_move_by_move_step(name, players):
    fast, slow = _twins(name, players)
    cap = 120 if Path(name).name in LONG else 400
    for seed in (1, 2):
        rnd = random.Random(seed)
        a, b = fast.new_state(seed), slow.new_state(seed)
        for step in range(cap):
            if a.over:
                break
            listed = fast.legal_moves(a)
            assert listed == slow.legal_moves(b), f"seed {seed}, step {step}"
            if not listed:
                break
            move = listed[rnd.randrange(len(listed))]
            before = a.to_data()
            a2, b2 = fast.apply(a, move), slow.apply(b, move)
            assert a.to_data() == before, f"seed {seed}, step {step}: apply changed its input"
            assert a2.to_data() == b2.to_data(), f"seed {seed}, step {step}: {move}"
            if a2._moves is not None:  # handed over by the function (made when asked): what a fresh listing finds
                assert fast._moves_at(a2) == fast._all_moves(a2), f"seed {seed}, step {step}"
            a, b = a2, b2
        assert a.to_data() == b.to_data()
    assert fast.kernel_fallbacks == 0


@pytest.mark.parametrize("name", ["connect-four", "tic-tac-toe", "nim", "goofspiel", "kalah", "hex"])
def test_the_small_games_step_through_the_playout_function(name):
    fast, _ = _twins(name, None)
    state, rnd = fast.new_state(3), random.Random(3)
    while not state.over:
        moves = fast.legal_moves(state)
        state = fast.apply(state, moves[rnd.randrange(len(moves))])
    assert fast.kernel_steps == state.move_count and fast.kernel_fallbacks == 0


def test_a_state_changed_by_hand_has_its_end_rules_tested_again():
    """A step leaves its state marked as tested; a caller who then puts four discs in a
    row by hand must see the game end after the next move, as move by move."""
    fast, slow = _twins("connect-four", None)
    state = fast.new_state(0)
    for move in ("drop(col=0)", "drop(col=1)"):
        state = fast.apply(state, move)
    assert state._settled is not None
    cells = dict(state.vars["cell"])
    cells.update({"c1": "X", "d1": "X", "e1": "X", "f1": "X"})
    state.vars["cell"] = cells  # not a line the next move touches
    after, reference = fast.apply(state, "drop(col=6)"), slow.apply(state, "drop(col=6)")
    assert after.over and after.to_data() == reference.to_data()


def test_a_move_the_function_cannot_play_is_played_move_by_move():
    """A value of another type than declared (written by hand) is outside what the
    function proves: the step is played move by move, which reports it in the
    language's terms, and the state given stays as it was."""
    fast, slow = _twins("nim", None)
    state = fast.new_state(0)
    state.vars["heaps"] = tuple(state.vars["heaps"][:-1]) + (True,)
    move, before = fast.legal_moves(state)[0], state.to_data()
    errors = []
    for game in (fast, slow):
        with pytest.raises(RuleError) as caught:
            game.apply(state, move)
        errors.append((caught.value.code, caught.value.span))
    assert errors[0] == errors[1] and errors[0][0] == "R701"
    assert fast.kernel_fallbacks == 1 and state.to_data() == before


def test_a_game_steps_the_faster_way_once_it_has_timed_both():
    game = load_game("tic-tac-toe", backend="compiled")
    assert game._steps_by_kernel is None  # the default: whichever way is faster
    rnd, steps = random.Random(5), 0
    while game._step_trial is None or game._step_trial.way is None:
        state = game.new_state(steps)
        while not state.over:
            moves = game.legal_moves(state)
            state = game.apply(state, moves[rnd.randrange(len(moves))])
            steps += 1
    trial = game._step_trial
    assert min(trial.timed) == trial.STEPS and steps == sum(trial.timed)
    assert trial.way == (trial.spent[1] < trial.spent[0])


@pytest.mark.parametrize("name", ["connect-four", "nim", "examples/high-card"])
def test_a_step_starts_from_the_listing_it_was_handed(name, monkeypatch):
    """A step leaves its own listing of the next moves beside them (`_listing`), and the
    step that plays one of them starts from it instead of listing them again; every move
    of one state played in turn (as a search does) reaches what move by move reaches."""
    fast, slow = _twins(name, None)
    state = fast.new_state(4)
    state = fast.apply(state, fast.legal_moves(state)[0])
    assert type(state._moves) is UnmadeMoves  # made when first asked for
    assert state._listing is not None and len(state._listing[1]) == len(fast.legal_moves(state))
    listed = state._listing
    for move in fast.legal_moves(state):
        after = fast.apply(state, move)
        assert after.to_data() == slow.apply(state, move).to_data()
        assert state._listing is listed  # the state given keeps it for its next move
    assert fast.kernel_fallbacks == 0
    # It is that listing the step plays from: handed it reversed, the first move plays the last.
    player, entries = listed
    state._listing = (player, entries[::-1])
    moves = fast.legal_moves(state)
    assert fast.apply(state, moves[0]).to_data() == slow.apply(state, moves[-1]).to_data()

def test_a_state_changed_by_hand_is_listed_again():
    """Its listing belongs to the values the step left; a caller who replaces one gets
    the moves of the values it wrote, not the listing it was handed."""
    fast, slow = _twins("nim", None)
    state = fast.apply(fast.new_state(0), "take(heap=0,count=1)")
    assert state._listing is not None
    state.vars["heaps"] = (0, 0, 0, 2)  # only the last heap is left
    state._moves = None  # as a caller who changes a state must: its moves are its values'
    assert fast.legal_moves(state) == slow.legal_moves(state)
    move = fast.legal_moves(state)[-1]
    assert fast.apply(state, move).to_data() == slow.apply(state, move).to_data()
