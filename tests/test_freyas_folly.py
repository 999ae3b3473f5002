"""Freya's Folly (Brísingamen): reduced random play and rulebook conformance.

Random games between uniform random bots end only by the rulebook's own triggers (a player
uses their last disc, or the fourth Brísing card is completed): there is no turn cap and no
option shortening the game.  Such games are long (about 670-7,000 moves, 2,150-2,360 on
average: after the caves are emptied the bots wander until their random trades happen to fit
their jewelry cards or the Brísing amber), about 1.5-1.8 s of CPU each with the invariants
checked after every move.  To keep CI time low this file plays SEEDS = 10 games per player
count (seeds 0-9, in chunks that parallel test workers share) instead of 50; the move cap is
a safety net of the test, never reached.  The full runs are
`meeple simulate freyas-folly -n 1000 -p K --check`.
"""
from __future__ import annotations

import random

import pytest
from ruleset_support import check_conformance_complete, check_random_games

from meeple.interpreter import load_game

NAME = "freyas-folly"
SEEDS = 10
CHUNK = 5
MOVE_CAP = 100_000  # 200 random games per count (600 in all) took 666-6,968 moves


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("first", range(0, SEEDS, CHUNK))
def test_random_games_end_by_the_rulebook_triggers(players, first):
    for state, _ in check_random_games(NAME, players, range(first, first + CHUNK), MOVE_CAP):
        ender = state.vars["ender"]
        assert ender in range(players), "the game ended without its end trigger"
        zones = state.zones
        last_disc = not zones["home"][ender] and not any(d.fields["seat"] == ender for d in zones["mine_z"])
        fourth_brising = sum(len(cards) for cards in zones["bdone"]) == 4
        assert last_disc or fourth_brising


def test_conformance_report_is_complete():
    check_conformance_complete(NAME)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_start_player_is_drawn_with_the_seed(players):
    """Overview: the start player is chosen at random; the seed fixes the draw."""
    game = load_game(NAME, players)
    starts = set()
    for seed in range(40):
        state = game.new_state(seed)
        start = state.vars["start"]
        assert game.current_players(state) == (start,)
        assert {m.player for m in game.legal_moves(state)} == {start}
        assert game.new_state(seed).vars["start"] == start
        starts.add(start)
    assert starts == set(range(players)), "every seat can be drawn as the start player"


def test_turns_go_clockwise_from_the_start_player():
    game = load_game(NAME, 4)
    state = game.new_state(0)
    start = state.vars["start"]
    assert start != 0, "seed 0 should show a start player other than seat 0"
    order = []
    for _ in range(10):  # two passes a turn, nobody holds action tokens
        order.append(game.current_players(state)[0])
        state = game.apply(state, "pass")
    assert order == [(start + k // 2) % 4 for k in range(10)]
    assert state.vars["round"] == 2


def test_views_hide_the_face_down_piles():
    game = load_game(NAME, 4)
    state = game.new_state(7)
    view = game.view(state, 1)
    for pile in ("jdeck", "ab_pile", "bdeck", "bag_s", "bag_l"):
        assert view["zones"][pile] == {"count": len(state.zones[pile])}


def test_an_ability_card_put_under_its_pile_is_known_to_all_and_the_rest_stay_hidden():
    """Actions 2: a card turned up from the draw pile goes face down under the ability pile
    when the black market is full; everyone saw it, nobody saw the six set-up cards."""
    game = load_game(NAME, 3)
    for seed in range(200):
        state = game.new_state(seed)
        moves = [m for m in game.legal_moves(state) if m.action == "take_jewel"]
        for move in moves:
            after = game.apply(state, move)
            if len(after.zones["ab_pile"]) > len(state.zones["ab_pile"]):
                bottom = after.zones["ab_pile"][-1].id
                for viewer in range(3):
                    pile = game.view(after, viewer)["zones"]["ab_pile"]
                    assert pile == {"count": 7, "known": [bottom]}
                return
    pytest.fail("no seed put an ability card under its pile on the first take")


def test_what_lies_in_front_of_a_player_is_open():
    """The text hides no holding: jewelry cards lie face up, gems and ability cards in front
    of their owner, action tokens are never said to be hidden (README, reading F15)."""
    game = load_game(NAME, 3)
    state = game.new_state(0)
    start = state.vars["start"]
    for action in ("take_jewel", "take_ability"):
        state = game.apply(state, next(m for m in game.legal_moves(state) if m.action == action))
    assert state.zones["jewels"][start] and state.zones["ab_hand"][start]
    for viewer in range(3):
        view = game.view(state, viewer)
        for name in ("jewels", "ab_hand", "done", "bdone", "home"):
            assert view["zones"][name][start] == [c.id for c in state.zones[name][start]]
        assert view["vars"]["tokens"] == list(state.vars["tokens"])
        assert len(view["vars"]["supply"]) == 3


def _permute_hidden(state, rnd):
    """The same position with the face-down piles' unseen cards in another order."""
    other = state.copy()
    jdeck = list(other.zones["jdeck"])
    rnd.shuffle(jdeck)
    other.zones["jdeck"] = tuple(jdeck)
    pile = list(other.zones["ab_pile"])
    unseen = [i for i, c in enumerate(pile) if not (other.props.get(c.id, {}).get("seen_by") or ())]
    cards = [pile[i] for i in unseen]
    rnd.shuffle(cards)
    for i, c in zip(unseen, cards):
        pile[i] = c
    other.zones["ab_pile"] = tuple(pile)
    return other


def test_who_moves_and_what_is_offered_never_depend_on_the_face_down_piles():
    """No flow step reads hidden information: with the unseen cards in another order the
    player to move and the legal moves are the same, in a random game of 4 players."""
    game = load_game(NAME, 4)
    rnd = random.Random(5)
    state = game.new_state(5)
    for _ in range(400):
        if game.is_terminal(state):
            break
        other = _permute_hidden(state, rnd)
        assert game.current_players(other) == game.current_players(state)
        assert [str(m) for m in game.legal_moves(other)] == [str(m) for m in game.legal_moves(state)]
        legal = game.legal_moves(state)
        state = game.apply(state, legal[rnd.randrange(len(legal))])
