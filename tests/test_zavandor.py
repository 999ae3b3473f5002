"""Zavandor (ZavanDor manói): reduced random play for every player count (and a few games
with the optional discount rule), conformance, and hidden information: only the sampler's
view shows a sampled tile, gold is seen only by its owner (p.1), a player's view and legal
moves do not depend on what that player has not seen, and who is asked in the mining round
does not depend on anyone's gold."""
from __future__ import annotations

import random

import pytest
from ruleset_support import check_conformance_complete, check_random_games

from meeple.interpreter import load_game

NAME = "zavandor"
GAMES = 50
MOVE_CAP = 5000  # generous: random games take a few hundred moves


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_normally_and_keep_the_invariants(players):
    for _, out in check_random_games(NAME, players, range(GAMES), MOVE_CAP):
        assert max(out.scores) >= 24 - 2 * players


def test_random_games_with_the_optional_discount_rule():
    # In these 3 games 19 machines are bought with standing discount cards.
    for _, out in check_random_games(NAME, 3, range(3), MOVE_CAP, {"discount_rule": True}):
        assert max(out.scores) >= 18


def test_conformance_is_complete():
    check_conformance_complete(NAME)


def test_a_soil_sample_is_seen_only_by_the_sampler():
    game = load_game("zavandor", 3)
    state = game.apply(game.apply(game.new_state(5), "sample"), "look(space=II-3)")
    tile = state.zones["site"]["II-3"][0]
    assert game.view(state, 0)["zones"]["site"]["II-3"] == [tile.id]
    for other in (1, 2):
        assert game.view(state, other)["zones"]["site"]["II-3"]["items"] == ["?"]
    # The sample does not use the action; the same tile may be sampled again (p.3).
    assert game.current_players(state) == (0,)
    assert "sample" in [str(m) for m in game.legal_moves(state)]
    state = game.apply(state, "sample")
    assert "look(space=II-3)" in [str(m) for m in game.legal_moves(state)]


def _leaves(value):
    """Every key and scalar of a view (plain JSON-like data)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _leaves(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def _hidden_tiles(state, viewer):
    """The board spaces whose face-down tile `viewer` has not sampled."""
    return [n for n, z in state.zones["site"].items()
            if z and viewer not in (state.props.get(z[0].id, {}).get("seen_by") or ())]


def _swap_what_viewer_cannot_see(state, viewer, rnd):
    """The same position except for what `viewer` cannot know: the tiles they have not
    sampled are permuted among their spaces (light among Diamantina's, dark among the
    districts'), the face-down decks are reordered, and the other players' gold changed."""
    new = state.copy()
    site = dict(state.zones["site"])
    for back in ("light", "dark"):
        spaces = [n for n in _hidden_tiles(state, viewer) if site[n][0].fields["back"] == back]
        tiles = [site[n] for n in spaces]
        rnd.shuffle(tiles)
        site.update(zip(spaces, tiles))
    new.zones["site"] = site
    new.zones["deck"] = {k: tuple(rnd.sample(list(z), len(z))) for k, z in state.zones["deck"].items()}
    # The other players' gold, kept in the hand (p.1).
    new.vars["gold"] = tuple(g if p == viewer else rnd.randrange(60) for p, g in enumerate(state.vars["gold"]))
    return new


def _rich(state, player):
    new = state.copy()
    gems = list(state.vars["gems"])
    gems[player] = {g: 9 for g in gems[player]}
    new.vars["gems"] = tuple(gems)
    return new


def test_soil_samples_are_per_player_knowledge_and_moves_depend_only_on_the_view():
    """Along a random 3-player game: a player's view names exactly the face-down tiles that
    player sampled, never one sampled only by others; and both the view (with the player to
    move and the phase) and the legal moves of a player (all a bot is given) stay the same
    when the tiles they have not seen, the deck orders, or the other players' gold are
    changed."""
    game = load_game(NAME, 3)
    rnd, moves_rnd = random.Random(1), random.Random(0)
    state = game.new_state(0)
    sampled_by_others = step = 0
    while not game.is_terminal(state):
        if step % 15 == 0:
            for viewer in range(game.player_count):
                hidden = {state.zones["site"][n][0].id for n in _hidden_tiles(state, viewer)}
                seen = {z[0].id for z in state.zones["site"].values() if z} - hidden
                shown = set(_leaves(game.view(state, viewer)))
                assert not hidden & shown, f"move {step}: player {viewer} sees {hidden & shown}"
                assert seen <= shown
                sampled_by_others += sum(1 for t in hidden if state.props.get(t, {}).get("seen_by"))
                other = _swap_what_viewer_cannot_see(state, viewer, rnd)
                assert game.view(other, viewer) == game.view(state, viewer)
                if viewer in game.current_players(state):
                    # Also with gems enough to buy anything, so that every mining right and
                    # card is among the moves.
                    for a, b in ((state, other), (_rich(state, viewer), _rich(other, viewer))):
                        assert [str(m) for m in game.legal_moves(b, viewer)] == \
                            [str(m) for m in game.legal_moves(a, viewer)]
        legal = game.legal_moves(state)
        state = game.apply(state, legal[moves_rnd.randrange(len(legal))])
        step += 1
    assert sampled_by_others > 0  # the checks met tiles that only someone else had sampled


def test_gold_is_seen_only_by_its_owner():
    game = load_game(NAME, 3)
    state = game.apply(game.new_state(2), "take_gold")
    for viewer in range(3):
        assert game.view(state, viewer)["vars"]["gold"] == {str(viewer): 27 if viewer == 0 else 23}


def _mining_round_starts(players, wanted):
    """States, from random games, just before the last action of an action round, where
    `take_gold` ends that round and someone will mine facing another player's Hoovermatic."""
    game = load_game(NAME, players)
    found = []
    for seed in range(200):
        rnd, state = random.Random(seed), game.new_state(seed)
        while not game.is_terminal(state) and len(found) < wanted:
            legal = game.legal_moves(state)
            if (state.phase == "action" and "take_gold" in [str(m) for m in legal]
                    and sum(state.vars["actions_left"]) == 1):
                owners = {p for p in range(players)
                          if any(m.fields["type"] == "hoovermatic" for m in state.zones["machines"][p])}
                if any(state.zones["rights"][p] and owners - {p} for p in range(players)):
                    found.append(state)
                    break
            state = game.apply(state, legal[rnd.randrange(len(legal))])
        if len(found) == wanted:
            return game, found
    raise AssertionError("no mining round with a Hoovermatic found")


def _players_asked_while_mining(game, state):
    """Who is asked, in order (a run of decisions by one player counts once), from the end of
    the action round to the end of the mining round, each playing their first legal move."""
    state = game.apply(state, "take_gold")
    asked = []
    while state.phase == "mining" and not game.is_terminal(state):
        who = game.current_players(state)[0]
        if not asked or asked[-1] != who:
            asked.append(who)
        state = game.apply(state, game.legal_moves(state)[0])
    return asked


@pytest.mark.parametrize("players", [3, 4])
def test_who_is_asked_in_the_mining_round_does_not_depend_on_gold(players):
    """Everyone mining against another player's Hoovermatic is asked to choose tiles whatever
    their (hidden) gold: with no gold, with plenty, or with what they really hold (p.7)."""
    game, starts = _mining_round_starts(players, 3)
    for state in starts:
        runs = []
        for gold in (None, 0, 3, 1000):
            variant = state.copy()
            if gold is not None:
                variant.vars["gold"] = tuple(gold for _ in range(players))
            runs.append(_players_asked_while_mining(game, variant))
        assert all(run == runs[0] for run in runs), runs
        assert runs[0], "somebody mines against a Hoovermatic, so somebody is asked"


def test_the_discount_rule_is_an_option():
    assert load_game("zavandor", 2).options["discount_rule"] is False
    assert load_game("zavandor", 2, {"discount_rule": True}).options["discount_rule"] is True
