"""OpenSpiel's MCTS with rollouts played by `Game.playout` (adapters/openspiel_rollouts.py):
the same uniformly random rollouts as OpenSpiel's own evaluator, one call each."""
import random

import numpy as np
import pyspiel
import pytest

from meeple.adapters.openspiel import load, register
from meeple.adapters.openspiel_rollouts import PlayoutEvaluator


def _exact_value(state, memo) -> float:
    """Player 0's expected return when both players move uniformly at random."""
    if state.is_terminal():
        return state.returns()[0]
    key = str(state)
    if key not in memo:
        actions = state.legal_actions()
        memo[key] = sum(_exact_value(state.child(a), memo) for a in actions) / len(actions)
    return memo[key]


def test_rollouts_are_uniformly_random_playouts():
    """The mean of many rollouts from tic-tac-toe's start is the exact value of uniform
    random play, worked out on OpenSpiel's own tic-tac-toe (0.2968 for the first player)."""
    exact = _exact_value(pyspiel.load_game("tic_tac_toe").new_initial_state(), {})
    evaluator = PlayoutEvaluator(n_rollouts=4000, random_state=np.random.RandomState(3))
    values = evaluator.evaluate(load("tic-tac-toe").new_initial_state())
    assert abs(values[0] - exact) < 0.06  # four standard errors of 4,000 rollouts
    assert values[0] == pytest.approx(-values[1])  # zero-sum


def test_a_rollout_is_the_playout_of_the_meeple_state():
    game = load("connect-four")
    state = game.new_initial_state()
    for action in (3, 3, 2):
        state.apply_action(action)
    evaluator = PlayoutEvaluator(random_state=np.random.RandomState(5))
    twin = random.Random()
    twin.setstate(evaluator.random.getstate())
    meeple = game.setup.meeple
    end = meeple.playout(state._state, rng=twin)
    winners = meeple.outcome(end).winners
    expected = [1.0 if p in winners else -1.0 for p in range(2)] if len(winners) == 1 else [0.0, 0.0]
    assert list(evaluator.evaluate(state)) == expected
    assert state._state.move_count == 3  # the position searched from is not changed


@pytest.mark.parametrize("name,players,options", [("goofspiel", 2, {"cards": 4}), ("examples/high-card", 3, {})])
def test_chance_and_simultaneous_positions_are_evaluated_along_a_game(name, players, options):
    game = load(name, players, **options)
    evaluator = PlayoutEvaluator(random_state=np.random.RandomState(1))
    rng = random.Random(2)
    state = game.new_initial_state()
    while True:
        values = evaluator.evaluate(state)
        assert len(values) == players and abs(sum(values)) < 1e-9  # "win" returns are zero-sum
        if state.is_terminal():
            assert list(values) == state.returns()
            break
        if state.is_chance_node():
            assert sum(p for _, p in evaluator.prior(state)) == pytest.approx(1.0)
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(players)])
        else:
            prior = evaluator.prior(state)
            assert [a for a, _ in prior] == state.legal_actions()
            state.apply_action(rng.choice(state.legal_actions()))


def test_a_game_cut_short_is_rolled_out_through_the_pyspiel_state():
    """`cut_after` counts OpenSpiel's moves: no game of connect four ends in two, so every
    rollout is cut and nobody wins."""
    game = pyspiel.load_game(register("connect-four"), {"players": 2, "cut_after": 2})
    state = game.new_initial_state()
    evaluator = PlayoutEvaluator(n_rollouts=5, random_state=np.random.RandomState(0))
    assert list(evaluator.evaluate(state)) == [0.0, 0.0]
    state.apply_action(0)
    assert list(evaluator.evaluate(state)) == [0.0, 0.0]
    assert state.move_number() == 1  # the rollouts stepped clones


def test_bad_arguments_are_refused_in_one_line():
    with pytest.raises(ValueError, match="n_rollouts"):
        PlayoutEvaluator(n_rollouts=0)
    with pytest.raises(TypeError, match="meeple's games"):
        PlayoutEvaluator().evaluate(pyspiel.load_game("tic_tac_toe").new_initial_state())
