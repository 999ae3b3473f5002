"""Every ruleset as an OpenSpiel game (adapters/openspiel.py), checked by OpenSpiel itself."""
import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

from meeple.adapters.openspiel import load, register
from meeple.adapters.openspiel_rollouts import PlayoutEvaluator

# (ruleset, players, OpenSpiel moves after which the game is cut short: 0 = played out).
# The rulebook games run to thousands of moves; a whole random game of each, with
# serialisation, is benchmarks/adapters.py (about a minute each).  Their cuts count the
# setup's draws (a shuffle is a draw per card: 148, 44, 163 and 169 of them) and then
# about 50 moves of play.
RANDOM_SIMS = [("tic-tac-toe", 2, 0), ("connect-four", 2, 0), ("nim", 2, 0), ("goofspiel", 2, 0),
               ("goofspiel", 4, 0), ("examples/high-card", 3, 0), ("treasure-hunter", 3, 210),
               ("zavandor", 2, 110), ("valdora", 3, 215), ("freyas-folly", 3, 220)]


@pytest.mark.parametrize("name,players,cut", RANDOM_SIMS)
def test_openspiel_random_simulation_with_serialisation(name, players, cut):
    game = pyspiel.load_game(register(name), {"players": players, "cut_after": cut})
    pyspiel.random_sim_test(game, num_sims=2 if cut == 0 else 1, serialize=True, verbose=False)


def test_game_types_follow_the_ruleset():
    c4 = load("connect-four").get_type()
    assert c4.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert c4.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert c4.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    goof = load("goofspiel", 2, cards=4).get_type()
    assert goof.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert goof.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert goof.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    hunter = load("treasure-hunter", 3)
    state = hunter.new_initial_state()
    # The setup's shuffle of the 75 cards, one draw per card: the first of 75 outcomes.
    assert state.is_chance_node() and [p for _, p in state.chance_outcomes()] == [1 / 75] * 75
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, state.chance_outcomes()[0][0]) == "draw(index=0)"
    assert hunter.num_players() == 3 and hunter.min_utility() == -1 and hunter.max_utility() == 2


def test_strings_and_tensors_come_from_each_players_view():
    game = load("goofspiel", 2, cards=4)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])  # the first prize
    mine, theirs = state.observation_string(0), state.observation_string(1)
    assert '"viewer":0' in mine and '"viewer":1' in theirs and mine != theirs
    assert "S1-" not in mine and "S0-" not in theirs  # the other's hand is not in the text
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
    before = state.information_state_string(0)
    state.apply_actions([state.legal_actions(0)[0], state.legal_actions(1)[0]])
    assert state.information_state_string(0) != before


@pytest.mark.parametrize("evaluator", [mcts.RandomRolloutEvaluator, PlayoutEvaluator])
def test_openspiel_mcts_plays_connect_four_through_the_adapter(evaluator):
    """With OpenSpiel's rollouts, and with the adapter's (adapters/openspiel_rollouts.py)."""
    game = load("connect-four")
    rng = np.random.RandomState(7)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=60,
                       evaluator=evaluator(n_rollouts=1, random_state=rng), random_state=rng)
    wins = 0
    for seat in (0, 1):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == seat:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        wins += state.returns()[seat] > 0
    assert wins == 2


# CFR+ on 3-card goofspiel, with its exploitability, is docs/adapters.md's second example,
# run by tests/test_adapters_docs.py.


def test_score_returns_make_a_general_sum_game_whose_returns_are_the_final_scores():
    import random
    game = load("goofspiel", 3, returns="score", cards=4)
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.get_type().short_name.endswith("_scores")
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    rnd = random.Random(5)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rnd.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_actions([rnd.choice(state.legal_actions(p)) for p in range(3)])
        final = state._state  # the meeple state the adapter plays
        assert state.returns() == [float(s) for s in state._meeple.outcome(final).scores]
    assert load("goofspiel", 3, cards=4).get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def test_an_unknown_kind_of_returns_is_refused():
    with pytest.raises(ValueError, match="returns must be one of win, score"):
        load("nim", returns="points")


def test_openspiel_mcts_takes_a_seat_at_a_meeple_table():
    """`openspiel-mcts:N` (adapters/openspiel_bot.py): OpenSpiel's MCTSBot searching the
    adapter's game from the bot's own determinization, answering with the seat's move."""
    from meeple.bots import BotSpecError, bot_move, make_bot
    from meeple.interpreter import load_game
    game = load_game("tic-tac-toe")
    cells = [str(m) for m in game.legal_moves(game.new_state(0))]
    state = game.new_state(0)
    for text in [cells[0], cells[4], cells[1]]:
        state = game.apply(state, text)
    assert str(bot_move(make_bot("openspiel-mcts:300", seed=2), game, state, 1)) == cells[2]  # O blocks
    state = game.apply(state, cells[8])
    assert str(bot_move(make_bot("openspiel-mcts:300", seed=2), game, state, 0)) == cells[2]  # X wins
    with pytest.raises(BotSpecError, match="number of simulations"):
        make_bot("openspiel-mcts:2s")
