"""Returns OpenSpiel's tools accept: a ruleset declares its scores zero- or constant-sum
(`scoring: {utility: ...}`), scores may be exact fractions (`fraction(a, b)`), and the
OpenSpiel game takes both, so CFR and `exploitability()` run on score returns.  Also:
each ruleset's pyspiel name is its own (issue 47), and the declarations are checked at
load (S103, S121) and at every game's end (R712)."""
import random
from pathlib import Path

import pyspiel
import pytest
from open_spiel.python.algorithms import cfr, exploitability

from meeple.adapters.openspiel import load, register
from meeple.dsl.diagnostics import RulesetError
from meeple.dsl.load import load_ruleset
from meeple.interpreter.runtime.context import RuleError
from meeple.interpreter.runtime.loading import load_game

# A poker-like game of our own: private cards (chance), secret stakes, zero-sum chips.
SECRET_BETS = Path(__file__).resolve().parent / "fixtures" / "leaks" / "secret_bet_poker.yaml"


def test_secret_bet_poker_is_zero_sum_on_its_scores():
    game = pyspiel.load_game(register(str(SECRET_BETS)))
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.get_type().short_name.endswith("_scores") and game.utility_sum() == 0
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def _cfr_exploitability(game, at) -> list:
    """CFR's average policy's exploitability after each number of iterations in `at`."""
    solver = cfr.CFRSolver(game)
    values = []
    for iteration in range(1, max(at) + 1):
        solver.evaluate_and_update_policy()
        if iteration in at:
            values.append(exploitability.exploitability(game, solver.average_policy()))
    return values


def test_the_returns_are_the_chips_won_and_lost():
    game = load(str(SECRET_BETS))
    rnd = random.Random(2)
    seen = set()
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            options = state.chance_outcomes() if state.is_chance_node() else [(a, 1) for a in state.legal_actions()]
            state.apply_action(rnd.choice(options)[0])
        returns = tuple(state.returns())
        assert sum(returns) == 0
        seen.add(returns)
    assert seen <= {(1.0, -1.0), (-1.0, 1.0), (2.0, -2.0), (-2.0, 2.0)} and len(seen) >= 3
    assert load(str(SECRET_BETS), returns="win").get_type().short_name != game.get_type().short_name


def _write(folder: Path, scoring: str, options: str = "") -> str:
    """Players in turn bid 1 to 3; the highest bid wins (the first of equals)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(f"""
game:
  name: bidders
  players: 2-4
{options}
variables:
  bid: {{per: player, type: int, initial: 0}}
define:
  top: "max_by(players(), p => bid[p])"
flow:
  - turns: "players()"
    do:
      - choose: [offer]
actions:
  offer:
    params: {{amount: "range(1, 4)"}}
    effects: ["bid[player] = amount"]
scoring:
{scoring}
""")
    return str(folder)


FRACTIONS = """  utility: zero_sum
  score: "1 if player == top else fraction(-1, player_count() - 1)"
  winners: "[top]"
"""


@pytest.mark.parametrize("players,backend", [(3, "compiled"), (4, "compiled"), (3, "reference")])
def test_fractional_scores_are_exact_and_returned_as_floats(tmp_path, players, backend):
    path = _write(tmp_path / "bidders", FRACTIONS)
    meeple = load_game(path, players, backend=backend)
    state = meeple.new_state(0)
    for text in ["offer(amount=2)", "offer(amount=3)"] + ["offer(amount=1)"] * (players - 2):
        state = meeple.apply(state, text)
    loser = __import__("fractions").Fraction(-1, players - 1)
    assert meeple.outcome(state).scores == (loser, 1) + (loser,) * (players - 2)
    assert meeple.outcome(state).to_data()["scores"][0] == f"-1/{players - 1}"
    game = load(path, players)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    spiel = game.new_initial_state()
    for action in [1, 2] + [0] * (players - 2):  # the ids of amounts 2, 3, 1
        spiel.apply_action(action)
    assert spiel.returns() == [float(loser), 1.0] + [float(loser)] * (players - 2)


def test_a_constant_sum_game_declares_its_total(tmp_path):
    path = _write(tmp_path / "bidders", """  utility: constant_sum
  total: 10
  score: "10 if player == top else 0"
""")
    game = load(path, 3)
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM and game.utility_sum() == 10
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_scores_that_break_the_declared_utility_stop_the_game_with_r712(tmp_path):
    path = _write(tmp_path / "bidders", """  utility: zero_sum
  score: "bid[player]"
""")
    meeple = load_game(path, 2)
    state = meeple.apply(meeple.apply(meeple.new_state(0), "offer(amount=1)"), "offer(amount=3)")
    with pytest.raises(RuleError) as info:
        meeple.outcome(state)
    assert info.value.code == "R712" and (info.value.span.line, info.value.span.col) == (19, 12)
    spiel = load(path, 2).new_initial_state()
    spiel.apply_action(0)
    spiel.apply_action(2)
    with pytest.raises(RuleError, match="R712"):
        spiel.returns()


@pytest.mark.parametrize("scoring,line,col", [
    ('  utility: constant_sum\n  score: "0"\n', 19, 12),   # no total
    ('  total: 4\n  score: "0"\n', 19, 10),                 # a total without constant_sum
])
def test_total_goes_with_constant_sum_and_only_with_it(tmp_path, scoring, line, col):
    with pytest.raises(RulesetError) as info:
        load_ruleset(_write(tmp_path / "bidders", scoring))
    assert [(d.code, d.span.line, d.span.col) for d in info.value.diagnostics] == [("S121", line, col)]


def test_an_option_with_a_fraction_part_is_a_located_load_error(tmp_path):
    """A default of 2.5 used to load and stop the game at scoring (R701)."""
    path = _write(tmp_path / "bidders", '  score: "bid[player] * options.weight"\n',
                  "  options:\n    weight: {default: 2.5}\n")
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    assert [(d.code, d.span.line, d.span.col) for d in info.value.diagnostics] == [("S125", 6, 23)]
    whole = _write(tmp_path / "whole", '  score: "bid[player] * options.weight"\n',
                   "  options:\n    weight: {default: 2, choices: [1, 2]}\n    pairs: {default: [[1, 2]]}\n")
    assert load_game(whole, 2).options == {"weight": 2, "pairs": ((1, 2),)}


def test_two_rulesets_in_files_of_the_same_name_are_two_games(tmp_path):
    first = _write(tmp_path / "a", '  score: "bid[player]"\n')
    second = _write(tmp_path / "b", '  score: "-bid[player]"\n')
    one, two = register(first), register(second)
    assert one != two and one.startswith("meeple_bidders_") and two.startswith("meeple_bidders_")
    assert load(first).get_type().short_name == one and load(second).get_type().short_name == two


def test_two_rulesets_given_by_their_files_named_game_yaml_are_two_games(tmp_path):
    first = Path(_write(tmp_path / "a", '  score: "bid[player]"\n')) / "game.yaml"
    second = Path(_write(tmp_path / "b", '  score: "-bid[player]"\n')) / "game.yaml"
    one, two = load(str(first), 2), load(str(second), 2)
    assert one.get_type().short_name != two.get_type().short_name
    assert one.setup.meeple.rules.ruleset.content_hash != two.setup.meeple.rules.ruleset.content_hash


def test_two_choices_of_options_that_read_alike_are_two_games(tmp_path):
    """`a-b` and `ab` read alike in the name's readable part; the digest tells them apart,
    so the second is not handed the first's game."""
    path = _write(tmp_path / "bidders", '  score: "bid[player]"\n',
                  '  options:\n    mode: {default: "a-b", choices: ["a-b", "ab"]}\n')
    one, two = register(path, mode="a-b"), register(path, mode="ab")
    assert one != two and one.startswith("meeple_bidders_modeab_") and two.startswith("meeple_bidders_modeab_")
    assert load(path, mode="ab").setup.meeple.options == {"mode": "ab"}
    assert load(path, mode="a-b").setup.meeple.options == {"mode": "a-b"}


def test_a_game_loaded_without_a_player_count_has_the_fewest_players(tmp_path):
    path = _write(tmp_path / "bidders", '  score: "bid[player] * 2"\n')  # registered here first
    assert load(path, 3).num_players() == 3
    assert load(path).num_players() == 2  # not the count it was first registered with


def test_a_changed_file_is_a_new_game_and_the_old_one_keeps_its_rules(tmp_path):
    path = _write(tmp_path / "bidders", '  score: "bid[player]"\n')
    before = load(path, 2)
    _write(tmp_path / "bidders", '  score: "-bid[player]"\n')
    after = load(path, 2)
    assert before.get_type().short_name != after.get_type().short_name

    def returns(game):
        state = game.new_initial_state()
        state.apply_action(0)
        state.apply_action(2)
        return state.returns()
    assert returns(before) == [-1.0, 1.0] and returns(after) == [1.0, -1.0]  # win shares of each file's scores
    assert returns(pyspiel.load_game(before.get_type().short_name)) == [-1.0, 1.0]



def _decision_infostates(game, player: int) -> set:
    """The information-state strings `player` decides at, over the whole tree."""
    found, todo = set(), [game.new_initial_state()]
    while todo:
        state = todo.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            todo.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        if state.current_player() == player:
            found.add(state.information_state_string(player))
        todo.extend(state.child(a) for a in state.legal_actions())
    return found


def test_secret_bets_through_openspiel_cfr_and_exploitability(tmp_path):
    """Issue 41: a poker-like game whose stakes are secret choices and whose cards are
    private chance.  The second player decides knowing only their card (3 information
    states, where public stakes would give 6), and CFR's exploitability curve on score
    returns is accepted by exploitability() and falls."""
    game = pyspiel.load_game(register(str(SECRET_BETS)))
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert len(_decision_infostates(game, 1)) == 3 and len(_decision_infostates(game, 0)) == 3
    public = tmp_path / "public_bets.yaml"
    public.write_text(SECRET_BETS.read_text(encoding="utf-8").replace("    secret: [amount]\n", ""), encoding="utf-8")
    assert len(_decision_infostates(pyspiel.load_game(register(str(public))), 1)) == 6
    values = _cfr_exploitability(game, (1, 8, 32))
    assert values[0] > values[1] > values[2] and values[2] < values[0] / 10
