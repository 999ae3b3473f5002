"""The hand-written baselines play the same games as their rulesets.

Speed figures compare the interpreter with `meeple.benchmarks.baselines`; the ratio
means something only if both play the same game.  Each baseline's step-by-step class
is followed next to the interpreter on seeded games driven by the same choice indices:
at every step the player(s) to move, the legal moves (as text, in order) and whether
the game is over must agree, and at the end the reason, the scores and the winners.
The timed `playout` functions are checked too: each is run with a stand-in for
random.Random that records how many options it chose among, and the interpreter,
given the same choices, must offer exactly as many at every step and end when the
playout ends.  A playout returns only its length, so what decides a result (the line
check, the prize award) is one function shared with the step class and checked there.
Goofspiel's prize draws are listed as moves (`explicit_chance`), so both sides draw
the same prizes.
"""
from __future__ import annotations

import random

import pytest

from meeple.benchmarks import baseline_connect_four, baseline_goofspiel, baseline_nim, baseline_tic_tac_toe
from meeple.benchmarks.baselines import BASELINES
from meeple.interpreter import load_game

CHANCE = baseline_goofspiel.CHANCE


def _meeple(name, players=None, options=None):
    game = load_game(name, players, options)
    game.explicit_chance = True  # chance steps become moves; no effect on games without one
    return game


def _follow(game, base, rnd) -> tuple:
    """Play one game on both sides with the same random choice indices, comparing every
    step; returns the interpreter's outcome."""
    state = game.new_state(0)
    steps = 0
    while True:
        assert state.over == base.over, f"after {steps} moves"
        if state.over:
            break
        assert game.current_players(state) == base.to_move(), f"after {steps} moves"
        moves = game.legal_moves(state)
        assert [str(m) for m in moves] == base.legal(), f"after {steps} moves"
        i = rnd.randrange(len(moves))
        state = game.apply(state, moves[i])
        base.play(i)
        steps += 1
    assert base.legal() == [] and base.to_move() == ()
    outcome = game.outcome(state)
    assert outcome.reason == base.end_reason
    assert outcome.scores == base.scores()
    assert outcome.winners == base.winners()
    return outcome


def _follow_many(game, make_base, games, seed) -> list:
    rnd = random.Random(seed)
    return [_follow(game, make_base(), rnd) for _ in range(games)]


def test_tic_tac_toe_follows_the_ruleset():
    outcomes = _follow_many(_meeple("tic-tac-toe"), baseline_tic_tac_toe.TicTacToe, 100, 1)
    # the sample reaches every kind of end: wins for either side and a full board
    assert {o.winners for o in outcomes} == {(0,), (1,), ()}


def test_connect_four_follows_the_ruleset():
    outcomes = _follow_many(_meeple("connect-four"), baseline_connect_four.ConnectFour, 150, 2)
    assert {o.winners for o in outcomes} >= {(0,), (1,)}


def test_connect_four_checks_every_direction_through_the_last_disc():
    """Random games rarely end on some lines (a long diagonal completed in its middle, a
    board filled without four): fixed columns reach them for sure."""
    cases = {  # columns played in turn (X first) -> winners
        (0, 0, 1, 1, 2, 2, 3): (0,),  # across, the last disc at the end
        (0, 6, 1, 6, 3, 6, 2): (0,),  # across, the last disc inside the line
        (3, 4, 3, 4, 3, 4, 3): (0,),  # up
        (0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3): (0,),  # diagonal up-right, last at its top
        (6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3): (0,),  # diagonal up-left, last at its top
        (5, 3, 3, 4, 5, 5, 5, 4, 2, 0, 4): (0,),  # diagonal up-right, the last disc inside it
        (5, 2, 4, 3, 2, 2, 2, 3, 4, 0, 3): (0,),  # diagonal up-left, the last disc inside it
        # the full board without four in a row: columns in pairs, swapping colours
        tuple([0, 1] * 3 + [1, 0] * 3 + [2, 3] * 3 + [3, 2] * 3 + [4, 5] * 3 + [5, 4] * 3 + [6] * 6): (),
    }
    game = _meeple("connect-four")
    for columns, winners in cases.items():
        state, base = game.new_state(0), baseline_connect_four.ConnectFour()
        for col in columns:
            assert not state.over and not base.over, columns
            state = game.apply(state, f"drop(col={col})")
            base.play(base.legal().index(f"drop(col={col})"))
        assert state.over and base.over, columns
        assert game.outcome(state).winners == base.winners() == winners, columns
        assert game.outcome(state).reason == base.end_reason


@pytest.mark.parametrize("heaps", [[3, 4, 5], [1, 2, 3, 4], [0, 6, 0, 2], [7], []])
def test_nim_follows_the_ruleset(heaps):
    game = _meeple("nim", options={"heaps": heaps})
    outcomes = _follow_many(game, lambda: baseline_nim.Nim(heaps), 100, 3)
    if sum(heaps):
        assert {o.winners for o in outcomes} == {(0,), (1,)}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_goofspiel_follows_the_ruleset(players):
    game = _meeple("goofspiel", players)
    outcomes = _follow_many(game, lambda: baseline_goofspiel.Goofspiel(players), 30, 4 + players)
    # a tied highest bid discards its prize: some games end with fewer points than prizes
    assert any(sum(o.scores) < sum(range(1, 14)) for o in outcomes)


@pytest.mark.parametrize("players, cards", [(2, 3), (3, 5), (4, 4)])
def test_goofspiel_follows_the_ruleset_with_small_suits(players, cards):
    game = _meeple("goofspiel", players, {"cards": cards})
    outcomes = _follow_many(game, lambda: baseline_goofspiel.Goofspiel(players, cards), 30, 10 + players)
    assert any(len(o.winners) > 1 for o in outcomes) and any(len(o.winners) == 1 for o in outcomes)


class _Recording:
    """Stands in for random.Random in a playout: answers randrange(n) from a seeded
    Random and records (n, answer), so the interpreter can be given the same choices."""

    def __init__(self, seed):
        self._rnd = random.Random(seed)
        self.calls = []

    def randrange(self, n):
        k = self._rnd.randrange(n)
        self.calls.append((n, k))
        return k


def _replay(game, calls) -> int:
    """Make the recorded choices in the interpreter, checking that it offers as many
    options at each; returns the moves played (chance draws are not moves)."""
    state = game.new_state(0)
    moves = 0
    for n, k in calls:
        assert not state.over
        mover = game.current_players(state)[0]  # a simultaneous step: the first who has not bid
        options = game.legal_moves(state, None if mover == CHANCE else mover)
        assert len(options) == n
        state = game.apply(state, options[k])
        moves += mover != CHANCE
    assert state.over
    return moves


@pytest.mark.parametrize("name, games", [("tic-tac-toe", 100), ("connect-four", 100), ("nim", 100),
                                         ("goofspiel", 30)])
def test_timed_playout_makes_the_rulesets_choices(name, games):
    game = _meeple(name)
    for seed in range(games):
        rnd = _Recording(seed)
        played = BASELINES[name](rnd)
        assert played == _replay(game, rnd.calls), seed


@pytest.mark.parametrize("players", [3, 4])
def test_goofspiel_playout_with_more_players(players):
    game = _meeple("goofspiel", players, {"cards": 6})
    for seed in range(20):
        rnd = _Recording(seed)
        played = baseline_goofspiel.playout(rnd, players, 6)
        assert played == _replay(game, rnd.calls) == 6 * players, seed


@pytest.mark.parametrize("heaps", [[1, 2, 3, 4], [0, 6, 0, 2]])
def test_nim_playout_with_other_heaps(heaps):
    game = _meeple("nim", options={"heaps": heaps})
    for seed in range(40):
        rnd = _Recording(seed)
        assert baseline_nim.playout(rnd, heaps) == _replay(game, rnd.calls), seed


def test_every_small_ruleset_has_a_baseline():
    assert {"tic-tac-toe", "connect-four", "nim", "goofspiel"} <= set(BASELINES)


@pytest.mark.parametrize("module, extra", [(baseline_tic_tac_toe, 1), (baseline_connect_four, 1),
                                           (baseline_nim, 1), (baseline_goofspiel, 0)])
def test_kept_states_are_the_positions_of_the_timed_game(module, extra):
    """`meeple bench` weighs these per kept state: one per position of the same game the
    timed playout plays with the same generator (plus the start where it is a position)."""
    for seed in range(20):
        kept = module.kept_states(random.Random(seed))
        assert len(kept) == module.playout(random.Random(seed)) + extra
        assert len({repr(k) for k in kept}) == len(kept)  # each move changes the position
