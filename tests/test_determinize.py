"""`Game.determinize`: a full state a player cannot tell from the real one, made from
their observation alone, for every shipped ruleset (seeded loops over random games)."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.interpreter import list_rulesets, load_game
from meeple.interpreter.runtime.determinize import DeterminizeError, Observation, _match, determinize
from meeple.interpreter.runtime.knowledge import WHOLE, Namer



def _tables():
    """Each shipped ruleset at two and three players, where it allows them."""
    for name in list_rulesets():
        info = load_game(name).rules.ruleset.game
        yield from ((name, n) for n in (2, 3) if info.min_players <= n <= info.max_players)


TABLES = list(_tables())


def random_positions(game, seed: int, every: int, limit: int):
    """States along one random game: one every `every` moves, at most `limit` moves in."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    while not state.over and state.move_count < limit:
        if state.move_count % every == 0:
            yield state
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    yield state


@pytest.mark.parametrize("name, players", TABLES)
def test_a_determinization_looks_the_same_to_its_player_and_is_a_legal_state(name, players):
    game = load_game(name, players=players)
    rng = random.Random(7)
    for state in random_positions(game, seed=3, every=29, limit=200):
        for p in range(players):
            seen = game.observe(state, p)
            made = game.determinize(seen, p, rng)
            assert game.view(made, p) == game.view(state, p)
            assert game.observe(made, p) == seen
            assert game.invariant_failures(made) == []
            if not state.over:
                options = [game.move_text(state, m, p) for m in game.legal_moves(state, p)]
                assert [game.move_text(made, m, p) for m in game.legal_moves(made, p)] == options
                end = game.playout(made, rng=random.Random(1), max_moves=100)
                assert end.over or end.move_count - made.move_count == 100


@pytest.mark.parametrize("name", [n for n in list_rulesets() if not load_game(n).hides_information])
def test_with_perfect_information_the_real_state_comes_back_but_for_its_generator(name):
    game = load_game(name)
    for state in random_positions(game, seed=5, every=3, limit=60):
        made = game.determinize(state, 0, random.Random(1))
        assert made.rng != state.rng  # drawn fresh: the real one would tell the future draws
        made.rng = state.rng
        assert made.key() == state.key() and made.to_data() == state.to_data()


def hidden_swap(game, state, player, rng):
    """The same position with two items `player` cannot see exchanged (same kind, both in
    places that show nothing of them): other players' hidden information permuted."""
    namer = Namer(game, state, player)
    spots = []
    for name in game.rules.zone_order:
        decl, zone = game.rules.zones[name], state.zones[name]
        groups = [(None, zone)] if decl.per is None else (zone.items() if isinstance(zone, dict) else enumerate(zone))
        for key, group in groups:
            for i, item in enumerate(group):
                if namer.sight(item) != WHOLE and (decl.visibility == "none" or decl.visibility == "owner"):
                    spots.append((name, key, i, item))
    rng.shuffle(spots)
    for a in spots:
        for b in spots:
            if a[3].kind == b[3].kind and a[3].id != b[3].id and state.props.get(a[3].id) == state.props.get(b[3].id):
                other = state.copy()
                for (name, key, i, _), item in ((a, b[3]), (b, a[3])):
                    if key is None:
                        other.zones[name] = other.zones[name][:i] + (item,) + other.zones[name][i + 1:]
                    else:
                        zone = other.zones[name]
                        group = zone[key][:i] + (item,) + zone[key][i + 1:]
                        other.zones[name] = {**zone, key: group} if isinstance(zone, dict) else \
                            zone[:key] + (group,) + zone[key + 1:]
                other._moves = other._shown = other._where = None
                return other
    return _hidden_variable_reset(game, state, player)


def _hidden_variable_reset(game, state, player):
    """A game that hides values rather than items (each player's own sheet of a board): the
    same position with another player's hidden entry, or a variable nobody sees, put back to
    its declared initial value, which is all `player` can know of it."""
    initial = game.new_state(0).vars
    for name, decl in game.rules.variables.items():
        value, start = state.vars[name], initial[name]
        if decl.visibility == "none" and value != start:
            other = state.copy()
            other.vars[name] = start
            return other
        if decl.visibility == "owner" and decl.per == "player":
            for q in range(len(value)):
                if q != player and value[q] != start[q]:
                    other = state.copy()
                    other.vars[name] = value[:q] + (start[q],) + value[q + 1:]
                    return other
    return None


# Games that hide items or variables from some player: what `hidden_swap` exchanges or resets.
# (A game with neither, such as backgammon, may still count as hiding information for its
# chance steps, but holds nothing to exchange.)
HIDDEN = [(name, n) for name, n in TABLES if load_game(name).hides_information and (
    load_game(name).rules.may_hide or any(d.visibility in ("none", "owner") for d in load_game(name).rules.variables.values()))]


@pytest.mark.parametrize("name, players", HIDDEN)
def test_what_others_hide_changes_nothing_the_determinization_is_made_from(name, players):
    game = load_game(name, players=players)
    swapped = 0
    for state in random_positions(game, seed=11, every=23, limit=200):
        for p in range(players):
            other = hidden_swap(game, state, p, random.Random(p))
            if other is None:
                continue
            swapped += 1
            assert game.view(other, p) == game.view(state, p)
            assert game.observe(other, p) == game.observe(state, p)
            a, b = (game.determinize(s, p, random.Random(4)) for s in (state, other))
            assert a.to_data() == b.to_data()
    assert swapped > 0


def test_unseen_cards_go_only_where_their_backs_are():
    game = load_game("treasure-hunter", players=3)
    state = next(s for s in random_positions(game, seed=2, every=40, limit=41) if s.move_count == 40)
    for seed in range(5):
        made = game.determinize(state, 0, random.Random(seed))
        for name in game.rules.zone_order:
            real, guess = state.zones[name], made.zones[name]
            groups = [(real, guess)] if game.rules.zones[name].per is None else (
                [(real[k], guess[k]) for k in real] if isinstance(real, dict) else list(zip(real, guess)))
            for r, g in groups:
                assert sorted(i.kind for i in r) == sorted(i.kind for i in g)


def test_hidden_variables_take_their_initial_values():
    game = load_game("zavandor", players=3)
    state = game.new_state(1)
    state.vars["gold"] = (5, 6, 7)  # what each player holds: only their own is in their view
    made = game.determinize(state, 1, random.Random(0))
    assert made.vars["gold"] == (23, 6, 23)


def test_a_player_shown_a_card_keeps_knowing_it():
    game = load_game("goofspiel", players=2)
    state = game.new_state(3)
    deck = state.zones["prize_deck"]
    state.props = {**state.props, deck[0].id: {"face": "down", "seen_by": (1,)}}
    seen = game.observe(state, 1)
    assert seen.view["zones"]["prize_deck"]["known"] == [deck[0].id]
    for seed in range(4):
        made = game.determinize(seen, 1, random.Random(seed))
        assert deck[0] in made.zones["prize_deck"] and game.view(made, 1) == game.view(state, 1)


def test_an_observation_is_its_players_and_names_only_the_games_items():
    game = load_game("goofspiel", players=2)
    state = game.new_state(3)
    with pytest.raises(ValueError, match="player 0's, not player 1's"):
        game.determinize(game.observe(state, 0), 1, random.Random(0))
    seen = game.observe(state, 0)
    view = {**seen.view, "zones": {**seen.view["zones"], "prize": ["P99"]}}
    forged = Observation(0, view, seen.flow, seen.bookkeeping, seen.backs)
    with pytest.raises(DeterminizeError, match="'P99', which is no item of goofspiel"):
        determinize(game, forged, random.Random(0))


class _Card:
    def __init__(self, name):
        self.id = name


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_two_sided_cards_are_matched_to_the_sides_they_show_whenever_a_matching_exists(data):
    """Slots that each show a side fit some of the unseen cards; whenever some assignment
    fills every slot with a different card, the sampler finds one, whatever it picks first
    (a random first pick can take the only card two other slots fit)."""
    cards = [_Card(f"c{i}") for i in range(data.draw(st.integers(1, 6)))]
    hidden = data.draw(st.permutations(cards))  # a real assignment: slot k holds hidden[k]
    slots = data.draw(st.integers(1, len(cards)))
    candidates = [[hidden[k], *data.draw(st.lists(st.sampled_from(cards), max_size=3))] for k in range(slots)]
    candidates = [list({c.id: c for c in fit}.values()) for fit in candidates]
    order = sorted(range(slots), key=lambda k: len(candidates[k]))
    owner = _match(candidates, order, random.Random(data.draw(st.integers(0, 1000))))
    assert sorted(owner) == list(range(slots))
    assert len({owner[k].id for k in owner}) == slots
    assert all(owner[k] in candidates[k] for k in owner)


def test_a_slot_filled_first_gives_up_the_only_card_a_later_one_fits():
    a, b = _Card("a"), _Card("b")
    # Slot 0 fits a or b and is filled first; slot 1 fits only a, so slot 0 must end with b.
    for seed in range(20):
        owner = _match([[a, b], [a]], [0, 1], random.Random(seed))
        assert (owner[0].id, owner[1].id) == ("b", "a")
