"""With chance explicit, every draw an effect makes from the game's generator is a chance
point with its real outcomes and probabilities (issue 47, "a deal is not a chance node";
interpreter/draws.py, draw_points.py): a deal out of a bag, a shuffle in the setup or in
a move, on both back ends, which agree step by step.  Players learn nothing at such a
point; with chance not explicit nothing changes.  A three-card game dealt from a bag has
the very tree of the same game dealt with `chance` steps of the flow."""
from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from meeple.interpreter import list_rulesets, load_game
from meeple.interpreter.runtime import rng
from meeple.interpreter.analysis.differential import compare_backends
from meeple.interpreter.runtime.game import CHANCE
from test_bag_draws import BAG_DEAL

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "chance_draws"
BACKENDS = ("reference", "compiled")

SHUFFLES = """
game: {name: shuffles, players: 2}
components:
  card:
    fields: {rank: int}
    generate: {rank: {from: 1, to: 4}}
    id: "c{rank}"
    show: "rank {rank}"
zones:
  deck: {initial: "items('card')", visibility: none}
  hand: {per: player, visibility: owner}
variables:
  mixed: {type: int, initial: 0}
setup:
  - shuffle: deck
flow:
  - loop:
      - turns: "players()"
        do: [{choose: [mix, keep]}]
    until: "mixed > 0"
actions:
  mix:
    effects:
      - shuffle: deck
      - set: "mixed += 1"
  keep: {effects: []}
end: [{when: "mixed > 0"}]
"""


def _game(tmp_path, text: str, backend: str, name: str = "game.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    game = load_game(path, backend=backend)
    game.explicit_chance = True
    return game


def _leaves(game, state, stop, p=Fraction(1)):
    """(state, probability) where `stop(state)` first holds along every chance path."""
    if stop(state):
        yield state, p
        return
    assert game.current_players(state) == (CHANCE,)
    outcomes = game.chance_outcomes(state)
    assert sum(q for _, q in outcomes) == 1
    for move, q in outcomes:
        yield from _leaves(game, game.apply(state, move), stop, p * q)


def _deck(state) -> tuple:
    return tuple(c.id for c in state.zones["deck"])


# -- a deal out of a bag ------------------------------------------------------------------------
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_deal_from_a_bag_is_a_draw_of_three_then_of_two_before_the_first_turn(tmp_path, backend):
    game = _game(tmp_path, BAG_DEAL, backend)
    state = game.new_state(0)
    first = game.chance_outcomes(state)
    assert game.current_players(state) == (CHANCE,) and game.decision_kind(state) == "chance"
    assert [p for _, p in first] == [Fraction(1, 3)] * 3
    state = game.apply(state, first[1][0])
    second = game.chance_outcomes(state)
    assert [p for _, p in second] == [Fraction(1, 2)] * 2
    state = game.apply(state, second[0][0])
    assert game.current_players(state) == (0,) and game.chance_outcomes(state) == []
    # Every way the two cards can go is one leaf, each as likely.
    hands = Counter()
    for leaf, p in _leaves(game, game.new_state(0), lambda s: s.drawing is None):
        hands[tuple(h[0].id for h in leaf.zones["hand"])] += p
    assert hands == {pair: Fraction(1, 6) for pair in itertools.permutations(["c1", "c2", "c3"], 2)}


def test_both_back_ends_deal_the_same_cards_for_the_same_outcomes(tmp_path):
    games = [_game(tmp_path, BAG_DEAL, backend) for backend in BACKENDS]
    for path in itertools.product(range(3), range(2)):
        states = [game.new_state(7) for game in games]
        for i in path:
            states = [game.apply(s, game.chance_outcomes(s)[i][0]) for game, s in zip(games, states)]
        assert states[0].to_data() == states[1].to_data()


# -- shuffles --------------------------------------------------------------------------------------
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_shuffle_in_the_setup_gives_every_order_of_four_cards_the_same_probability(tmp_path, backend):
    game = _game(tmp_path, SHUFFLES, backend)
    orders = Counter()
    sizes = []
    for leaf, p in _leaves(game, game.new_state(0), lambda s: s.drawing is None):
        orders[_deck(leaf)] += p
    assert orders == {order: Fraction(1, 24) for order in itertools.permutations(["c1", "c2", "c3", "c4"])}
    state = game.new_state(0)
    while state.drawing is not None:  # Fisher-Yates: one draw of 4, of 3, of 2 outcomes
        sizes.append(len(game.chance_outcomes(state)))
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    assert sizes == [4, 3, 2]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_shuffle_in_a_move_gives_every_order_the_same_probability(tmp_path, backend):
    game = _game(tmp_path, SHUFFLES, backend)
    start = next(s for s, _ in _leaves(game, game.new_state(3), lambda s: s.drawing is None))
    mix = game.parse_move(start, "mix")
    inside = game.apply(start, mix)
    assert inside.drawing is not None and inside.move_count == start.move_count
    orders = Counter()
    for leaf, p in _leaves(game, inside, lambda s: s.drawing is None):
        assert leaf.over and leaf.move_count == start.move_count + 1 and leaf.vars["mixed"] == 1
        orders[_deck(leaf)] += p
    assert orders == {order: Fraction(1, 24) for order in itertools.permutations(["c1", "c2", "c3", "c4"])}


@pytest.mark.parametrize("backend", BACKENDS)
def test_players_learn_nothing_at_a_draw_inside_a_move(tmp_path, backend):
    game = _game(tmp_path, SHUFFLES, backend)
    start = next(s for s, _ in _leaves(game, game.new_state(3), lambda s: s.drawing is None))
    state = game.apply(start, game.parse_move(start, "mix"))
    sizes = []
    while state.drawing is not None:
        sizes.append(state.drawing.size)
        for p in range(game.player_count):
            view, before = game.view(state, p), game.view(start, p)
            assert view["to_move"] == [CHANCE] and {**view, "to_move": before["to_move"]} == before
            assert game.observe(state, p).view == view
            assert {game.move_text(state, m, p) for m, _ in game.chance_outcomes(state)} == {"draw(index=?)"}
        move = game.chance_outcomes(state)[-1][0]
        assert game.move_text(state, move, CHANCE) == str(move) == f"draw(index={state.drawing.size - 1})"
        state = game.apply(state, move)
    assert sizes == [4, 3, 2] and state.vars["mixed"] == 1


def test_without_explicit_chance_a_shuffle_still_draws_from_the_generator(tmp_path):
    for backend in BACKENDS:
        game = _game(tmp_path, SHUFFLES, backend)
        game.explicit_chance = False
        for seed in range(5):
            state = game.new_state(seed)
            deck = tuple(c.id for c in rng.shuffled(rng.seed_state(seed), tuple(game.items_of("card")))[1])
            assert state.drawing is None and _deck(state) == deck


# -- a chance point inside a step is plain data -----------------------------------------------------
def test_a_draw_point_keeps_its_key_through_a_copy_and_a_pack(tmp_path):
    game = _game(tmp_path, SHUFFLES, "compiled")
    state = game.apply(game.new_state(0), game.chance_outcomes(game.new_state(0))[2][0])
    twin = game.unpack(game.pack(state))
    assert twin.drawing == state.drawing and twin.key() == state.key() == state.copy().key()
    assert state.key() != game.new_state(0).key()  # the outcomes chosen so far are part of it
    assert game.chance_outcomes(twin) == game.chance_outcomes(state)


def test_a_wrong_outcome_is_refused_with_the_outcomes(tmp_path):
    game = _game(tmp_path, BAG_DEAL, "reference")
    state = game.new_state(0)
    with pytest.raises(Exception) as caught:
        game.apply(state, "draw(index=3)")
    assert caught.value.rejection.code == "M807"
    with pytest.raises(Exception) as caught:
        game.apply(state, "wait", player=0)
    assert caught.value.rejection.code == "M805"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_playout_draws_inside_steps_with_their_probabilities(tmp_path, backend):
    game = _game(tmp_path, SHUFFLES, backend)
    assert game._playout_kernel() is None  # a kernel could not stop at a draw
    ends = Counter(_deck(game.playout(game.new_state(0), rng=random.Random(s))) for s in range(240))
    assert len(ends) == 24 and all(ends.values())  # every order comes out (10 expected each)
    assert game.kernel_fallbacks == 0


# -- both back ends, step by step -------------------------------------------------------------------
@pytest.mark.parametrize("name", list_rulesets())
def test_back_ends_agree_at_every_chance_point_of_the_shipped_rulesets(name):
    players = load_game(name).rules.ruleset.game.min_players
    report = compare_backends(name, players, games=1, seed=11, max_moves=80, view_every=10,
                              playouts_per_game=1, playout_max_moves=30, explicit_chance=True)
    assert report.ok, str(report)
    assert report.moves > 0 and report.playouts == 1 and report.deopts == 0, str(report)


def test_back_ends_agree_at_draws_made_by_a_move(tmp_path):
    path = tmp_path / "shuffles.yaml"
    path.write_text(SHUFFLES, encoding="utf-8")
    report = compare_backends(path, 2, games=6, seed=0, explicit_chance=True)
    assert report.ok and report.finished == 6, str(report)
    assert report.moves >= 6 * 8  # the setup's three draws, a turn or more, a shuffle's three draws


# -- the same tree as `chance` steps ----------------------------------------------------------------
def _histories(game, state, p=Fraction(1), seen=((), ())):
    """Each way play can end: (what each player saw where they decided and what they
    did there, the probability chance gives it, the scores).  Chance moves are not in
    it: two games with the same histories are the same game to any player and any
    algorithm that works on information states (CFR, exploitability)."""
    if game.is_terminal(state):
        yield seen, p, tuple(game.outcome(state).scores)
        return
    if game.current_players(state) == (CHANCE,):
        for move, q in game.chance_outcomes(state):
            yield from _histories(game, game.apply(state, move), p * q, seen)
        return
    (player,) = game.current_players(state)
    view = json.dumps(game.view(state, player), sort_keys=True)
    for move in game.legal_moves(state):
        mine = seen[player] + ((view, game.move_text(state, move, player)),)
        yield from _histories(game, game.apply(state, move), p, seen[:player] + (mine,) + seen[player + 1:])


def _uniform_value(game, state) -> tuple:
    """Each player's expected score when every decision is a uniform random choice."""
    if game.is_terminal(state):
        return tuple(Fraction(s) for s in game.outcome(state).scores)
    if game.current_players(state) == (CHANCE,):
        branches = [(q, _uniform_value(game, game.apply(state, m))) for m, q in game.chance_outcomes(state)]
    else:
        moves = game.legal_moves(state)
        branches = [(Fraction(1, len(moves)), _uniform_value(game, game.apply(state, m))) for m in moves]
    return tuple(sum(q * v[i] for q, v in branches) for i in range(game.player_count))


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_deal_from_a_bag_has_the_tree_of_a_deal_by_chance_steps(backend):
    trees = {}
    for name in ("bag_deal", "flow_chance"):
        game = load_game(FIXTURES / f"{name}.yaml", backend=backend)
        game.explicit_chance = True
        root = game.new_state(0)
        histories = Counter()
        for seen, p, scores in _histories(game, root):
            histories[(seen, scores)] += p
        infosets = [{step[0] for (seen, _) in histories for step in seen[player]} for player in (0, 1)]
        trees[name] = (histories, [len(s) for s in infosets], _uniform_value(game, root))
    assert trees["bag_deal"] == trees["flow_chance"]
    histories, infosets, value = trees["bag_deal"]
    assert len(histories) == 6 * 4 and set(histories.values()) == {Fraction(1, 6)}  # 6 deals, 4 ways to bet
    assert infosets == [3, 6]  # player 0: their card; player 1: their card and the bet
    # At random, player 0 wins 1 whenever player 1 folds (half the time) and breaks even
    # on average at a showdown: 1/2 each way, zero-sum.
    assert value == (Fraction(1, 2), Fraction(-1, 2))


def test_through_openspiel_a_deal_from_a_bag_is_a_chance_node_of_three_then_of_two():
    """The same chance nodes as Game.chance_outcomes, through the adapter: three outcomes
    of 1/3, then two of 1/2, then player 0, and no player can tell the first draw's
    outcomes apart before the deal is over."""
    pyspiel = pytest.importorskip("pyspiel")
    from meeple.adapters.openspiel import load
    game = load(str(FIXTURES / "bag_deal.yaml"), players=2)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    root = game.new_initial_state()
    assert root.is_chance_node() and [p for _, p in root.chance_outcomes()] == pytest.approx([1 / 3] * 3)
    inside = [root.child(a) for a, _ in root.chance_outcomes()]
    for state in inside:
        assert state.is_chance_node() and [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 2] * 2)
        assert root.action_to_string(pyspiel.PlayerId.CHANCE, state.history()[-1]).startswith("draw(index=")
    for player in (0, 1):
        assert len({s.information_state_string(player) for s in inside}) == 1
        assert len({s.observation_string(player) for s in inside}) == 1
    dealt = inside[0].child(inside[0].chance_outcomes()[0][0])
    assert not dealt.is_chance_node() and dealt.current_player() == 0


def test_cfr_reaches_the_same_exploitability_on_both_deals_through_openspiel():
    """Done-when of issue 47: CFR through the OpenSpiel adapter on the game dealt from a
    bag and on the same game dealt with `chance` steps reaches the same exploitability
    and the same value, since the two have the same tree (test above)."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

    from meeple.adapters.openspiel import load
    reached, values = [], []
    for name in ("bag_deal", "flow_chance"):
        game = load(str(FIXTURES / f"{name}.yaml"), players=2)
        assert game.new_initial_state().is_chance_node()  # the deal's own node, no seed before it
        solver = cfr.CFRSolver(game)
        for _ in range(50):
            solver.evaluate_and_update_policy()
        policy = solver.average_policy()
        reached.append(exploitability.exploitability(game, policy))
        values.append(expected_game_score.policy_value(game.new_initial_state(), [policy] * 2))
    assert reached[0] == pytest.approx(reached[1], abs=1e-12) and reached[0] < 0.01, reached
    assert values[0] == pytest.approx(values[1], abs=1e-12), values
