"""Hearts, a library game: move for move the same as OpenSpiel's `hearts` (default
parameters) on both back ends (the reduced form of `python -m
meeple.benchmarks.openspiel_lockstep hearts --games 1000`); set hands played through on
both sides to the two ends, a shot moon and a plain count, which random games seldom
reach; and the hidden hands: a dealt card is its holder's, a passed card its giver's and
receiver's."""
from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

import pyspiel  # noqa: E402
from ruleset_support import check_conformance_complete  # noqa: E402

from meeple.benchmarks.lockstep_games import GAMES  # noqa: E402
from meeple.benchmarks.openspiel_lockstep import load_pair, run_lockstep  # noqa: E402
from meeple.interpreter import load_game  # noqa: E402
from meeple.interpreter.analysis.differential import compare_backends  # noqa: E402

SPEC = GAMES["hearts"]
SUITS = "CDHS"
RANKS = "23456789TJQKA"
NO_PASS, LEFT = 0, 1  # OpenSpiel's pass directions


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_hearts_agrees_with_openspiel_at_every_step(backend):
    report = run_lockstep(SPEC, games=12, seed=500, backend=backend)
    assert report.ok, str(report)
    assert report.steps >= 12 * (1 + 52 + 52 + 1)  # the direction, the deal, the play, the end


def test_both_back_ends_agree_with_chance_explicit():
    report = compare_backends("hearts", 4, games=3, seed=6, explicit_chance=True)
    assert report.ok, str(report)
    assert report.finished == 3 and report.moves > 3 * 100


def _card(text: str) -> int:
    """OpenSpiel's action for a card: rank * 4 + suit."""
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])


def _deal(hands: list[list[str]]) -> list[int]:
    """The deal's 52 chance actions that give each player the cards listed (card k goes to
    player k % 4)."""
    return [_card(hands[k % 4][k // 4]) for k in range(52)]


def _played_alike(direction: int, hands, plays: list[str], backend: str) -> tuple:
    """A hand dealt and played on both sides from the same actions, the legal moves
    compared at every step; both sides' returns."""
    game, os_game = load_pair(SPEC, backend)
    state, theirs = game.new_state(0), os_game.new_initial_state()
    for action in [direction, *_deal(hands), *(_card(c) for c in plays)]:
        player = theirs.current_player()
        legal = theirs.chance_outcomes() if player < 0 else theirs.legal_actions()
        expected = {SPEC.move_text(theirs, player, a if player >= 0 else a[0]) for a in legal}
        moves = game.chance_outcomes(state) if player < 0 else game.legal_moves(state)
        ours = {str(m if player >= 0 else m[0]) for m in moves}
        assert ours == expected, f"step {len(theirs.history())}: {sorted(ours ^ expected)[:6]}"
        text = SPEC.move_text(theirs, player, action)
        theirs.apply_action(action)
        state = game.apply(state, text)
    assert theirs.is_terminal() and game.is_terminal(state)
    return tuple(theirs.returns()), tuple(float(x) for x in game.outcome(state).scores)


BY_SUIT = [[r + s for r in RANKS] for s in SUITS]  # player 0 the clubs, 1 the diamonds ...
# Player 0 leads every trick with a club; nobody else holds one: every point is player 0's.
MOON = [c for r in RANKS for c in (r + "C", r + "D", r + "H", r + "S")]


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_a_shot_moon_returns_26_to_the_shooter_and_0_to_the_others(backend):
    theirs, ours = _played_alike(NO_PASS, BY_SUIT, MOON, backend)
    assert theirs == ours == (26.0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_passed_cards_and_a_plain_count_agree_with_openspiel(backend):
    # Each player passes the three lowest cards of their suit to the left, then every
    # player plays their lowest legal card: the hearts are shared out, no moon is shot.
    passes = [r + s for s in SUITS for r in "234"]
    theirs, ours = _played_to_the_end(LEFT, BY_SUIT, passes, backend)
    assert theirs == ours
    assert sorted(theirs) != [0.0, 0.0, 0.0, 26.0] and sum(theirs) == 4 * 26 - 26


def _played_to_the_end(direction: int, hands, start: list[str], backend: str) -> tuple:
    """`start`, then each step the lowest legal card, on both sides (through _played_alike)."""
    os_state = pyspiel.load_game("hearts").new_initial_state()
    for action in [direction, *_deal(hands)]:
        os_state.apply_action(action)
    plays = list(start)
    for card in start:
        os_state.apply_action(_card(card))
    while not os_state.is_terminal():
        action = min(os_state.legal_actions())
        plays.append(os_state.action_to_string(os_state.current_player(), action))
        os_state.apply_action(action)
    return _played_alike(direction, hands, plays, backend)


def test_a_dealt_card_is_seen_by_its_holder_alone():
    game = load_game("hearts", 4)
    game.explicit_chance = True
    before = game.apply(game.new_state(0), "chance(way=left)")
    move = game.parse_move(before, "chance(dealt=QS)", referee=True)  # the first card: player 0's
    # Its holder reads a place in the deck (nobody sees the deck's order), the others a `?`.
    assert game.move_text(before, move, 0).startswith("chance(dealt=deck#")
    assert [game.move_text(before, move, p) for p in (1, 2, 3)] == ["chance(dealt=?)"] * 3
    state = game.apply(before, move)
    assert game.view(state, 0)["zones"]["hand"][0] == ["QS"]
    assert game.view(state, 1)["zones"]["hand"][0] == {"count": 1}
    assert "QS" not in str(game.view(state, 1))


def test_a_passed_card_is_known_to_its_giver_and_receiver_only():
    game = load_game("hearts", 4)
    state = game.new_state(3)  # seed 3 passes to the left
    assert state.vars["direction"] == "left"
    given = [c.id for c in state.zones["hand"][0][:3]]
    for card in given:
        state = game.apply(state, f"give(card={card})")
        assert card not in str(game.view(state, 1)) and card not in str(game.view(state, 3))
    assert game.move_text(state, game.legal_moves(state)[0], 0).startswith("give(card=hand[1]#")
    while state.phase == "passing":
        state = game.apply(state, game.legal_moves(state)[0])
    assert set(given) <= set(game.view(state, 1)["zones"]["hand"][1])  # the receiver's own hand
    assert set(game.view(state, 0)["zones"]["hand"][1]["known"]) == set(given)  # the giver knows
    for other in (2, 3):
        assert game.view(state, other)["zones"]["hand"][1] == {"count": 13}
        assert not any(card in str(game.view(state, other)) for card in given)


def test_conformance_report_is_complete():
    check_conformance_complete("hearts")
