"""Handles of hidden items (issue 47): where a player does not see a zone's order, the item
they cannot see is named by a rank, a label of its *place* from a relabelling drawn afresh
for each state and player (knowledge.relabelling_key).  So exchanging hidden items within
a zone or between zones changes no text made for that player: not the view, not a move
text, not what the adapters give them; a handle typed back is the move it names, on both
back ends; and a rank learnt in one state says nothing of the next.

The rulesets are the leak fixtures of issue 47: a deck laid out in a known order and never
shuffled (unshuffled_deck.yaml, known_deal.yaml), a bag dealt from and picked from by touch
(bag_picks.yaml).  The generic leak test runs them too (test_leaks.py)."""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from meeple.adapters.action_table import ActionTable
from meeple.adapters.observation import ObservationLayout
from meeple.interpreter import load_game
from meeple.interpreter.runtime.game import CHANCE

from view_support import check_view_property, perturb, swapped_move

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "leaks"
RULESETS = ("unshuffled_deck", "bag_picks", "known_deal")
BACKENDS = ("reference", "compiled")


def _game(name: str, backend: str = "reference"):
    game = load_game(FIXTURES / f"{name}.yaml", 2, backend=backend)
    game.explicit_chance = True  # the setup's deal out of the bag is a chance point too
    return game


def _states(game, seeds, limit: int = 40):
    """The states of random games, chance included."""
    for seed in seeds:
        rnd = random.Random(seed)
        state = game.new_state(seed)
        for _ in range(limit):
            if game.is_terminal(state):
                break
            yield state
            moves = _moves(game, state)
            state = game.apply(state, moves[rnd.randrange(len(moves))])


def _moves(game, state) -> list:
    """The moves that can be played here: a chance point's outcomes, or the legal moves."""
    if game.current_players(state) == (CHANCE,):
        return [m for m, _ in game.chance_outcomes(state)]
    return list(game.legal_moves(state))


def _texts(game, state, viewer):
    """Every text `viewer` reads of the moves that can be played here."""
    return [game.move_text(state, m, viewer) for m in _moves(game, state)]


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_exchanging_hidden_items_changes_no_text_a_player_reads(name, backend):
    """Hidden items exchanged within and between the zones a player cannot see, the
    generator kept: the view, the text of every move (chance outcomes included, in the
    order the places give them), the observation tensor, and the action ids with their
    strings are the same to the letter, ranks included."""
    game = _game(name, backend)
    layout, table = ObservationLayout(game), ActionTable(game)
    rnd, checked = random.Random(5), Counter()
    for state in _states(game, range(6)):
        for viewer in range(2):
            other, swap = perturb(game, state, viewer, rnd, keep_generator=True)
            checked["exchanged"] += bool(swap)
            assert game.view(other, viewer) == game.view(state, viewer)
            moves = _moves(game, state)
            for move in moves:
                text = game.move_text(state, move, viewer)
                assert game.move_text(other, swapped_move(move, swap), viewer) == text
                checked["rank"] += "#" in text
            assert (layout.tensor(other, viewer) == layout.tensor(state, viewer)).all()
            if viewer in game.current_players(state):
                assert ({i: table.describe(i, other, viewer) for i in table.legal(other, viewer)}
                        == {i: table.describe(i, state, viewer) for i in table.legal(state, viewer)})
            check_view_property(game, state, viewer, rnd, move=moves[0])
    assert checked["exchanged"] >= 10 and checked["rank"] >= 50, checked  # the test tested something


@pytest.mark.parametrize("name", ("unshuffled_deck", "bag_picks"))  # where a mover picks blind
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_handle_typed_back_is_the_move_it_names(name, backend):
    """Each legal move as its mover writes it (a rank for a card picked blind) is parsed
    back to that move, for that player, and played from its text."""
    game = _game(name, backend)
    typed = 0
    for state in _states(game, range(4)):
        if game.current_players(state) == (CHANCE,):
            continue
        for move in game.legal_moves(state):
            text = str(move)
            assert game.parse_move(state, text, move.player) == move
            assert game.apply(state, text).to_data() == game.apply(state, move).to_data()
            typed += "#" in text
    assert typed > 10


def test_the_backends_name_hidden_items_alike():
    """The compiled back end reaches the same states, so every player reads the same texts
    and the same views there as on the reference."""
    for name in RULESETS:
        ref, comp = _game(name), _game(name, "compiled")
        for a, b in zip(_states(ref, range(3)), _states(comp, range(3))):
            assert a.to_data() == b.to_data()
            for viewer in range(2):
                assert _texts(ref, a, viewer) == _texts(comp, b, viewer)
                assert ref.view(a, viewer) == comp.view(b, viewer)


def test_a_rank_read_in_one_state_says_nothing_of_the_next():
    """known_deal.yaml draws nothing after its deal: the generator never moves.  Player 0
    reads the moves of player 1's hidden hand; after player 1 lays the card at its bottom,
    which of the two cards on top of it has the lower rank agrees with the state before
    about half of the time.  Keyed by the items, or by the places and the generator alone,
    it would agree every time: a card once named would stay named."""
    game = _game("known_deal")
    agree = 0
    for seed in range(300):
        state = game.new_state(seed)
        top, second, *_, bottom = state.zones["hand"][1]
        lay = next(m for m in game.legal_moves(state) if m.arg("card") == bottom)
        after = game.apply(state, lay)
        assert after.rng == state.rng and after.zones["hand"][1][:2] == (top, second)
        before, again = _ranks_of_hand(game, state), _ranks_of_hand(game, after)
        agree += (before[top.id] < before[second.id]) == (again[top.id] < again[second.id])
    assert 110 < agree < 190, agree


def _ranks_of_hand(game, state) -> dict:
    namer = game.namer(state, 0)
    return {item.id: namer.handle(item)[2] for item in state.zones["hand"][1]}


def test_openspiel_tells_a_player_no_more_than_their_own_rack():
    """Through the OpenSpiel adapter, over the whole tree of bag_picks.yaml's deal (every
    order of the bag's draws) and player 0's first turn: player 0 decides first in exactly
    as many information states as the racks they can be dealt (two tiles of six in the
    order they came out: 30), and player 1 in those times two: whether the tile player 0
    pointed at went back into the bag, which the table sees.  Which tiles player 0 took,
    pointed at and put back, the other's rack and the bag's order split nothing."""
    from meeple.adapters.openspiel import load
    game = load(str(FIXTURES / "bag_picks.yaml"), 2)
    infos: dict = {0: set(), 1: set()}
    racks: dict = {0: set(), 1: set()}
    todo = [(game.new_initial_state(), 0)]  # with how many moves player 0 has made
    while todo:
        state, made = todo.pop()
        if state.is_chance_node():
            todo.extend((state.child(a), made) for a, _ in state.chance_outcomes())
            continue
        player = state.current_player()
        if player == 1 or made == 0:
            infos[player].add(state.information_state_string(player))
            racks[player].add(tuple(json.loads(state.observation_string(player))["zones"]["rack"][player]))
        if player == 0:
            todo.extend((state.child(a), made + 1) for a in state.legal_actions())
    assert len(infos[0]) == len(racks[0]) == 30
    assert len(infos[1]) == 2 * len(racks[1]) == 60


TILE_BAG = """
game: {name: tile-bag, players: 2}
components:
  tile:
    fields: {level: int, gems: int}
    sides: {up: [gems]}
    items:
      - {id: t1, level: 1, gems: 3}
      - {id: t2, level: 2, gems: 1}
      - {id: t3, level: 2, gems: 5}
zones:
  bag: {kind: bag, face: down, initial: "items('tile')"}
  taken: {per: player}
flow:
  - turns: "players()"
    do: [{choose: [grab]}]
actions:
  grab:
    params: {tile: "bag"}
    effects: [{move: "tile", to: "taken[player]"}]
end: [{when: "len(bag) == 1"}]
"""


def test_a_bag_lists_the_sides_it_shows_in_no_order_of_its_own(tmp_path):
    """A bag open to view whose tiles lie face down shows each tile's back (its level), never
    in the bag's order: the same listing whatever order the tiles went in."""
    path = tmp_path / "game.yaml"
    path.write_text(TILE_BAG, encoding="utf-8")
    game = load_game(path, 2)
    state = game.new_state(1)
    view = game.view(state, 0)["zones"]["bag"]
    assert view["count"] == 3 and sorted(face["level"] for face in view["items"]) == [1, 2, 2]
    for order in ((2, 1, 0), (1, 0, 2)):
        other = state.copy()
        other.zones = {**state.zones, "bag": tuple(state.zones["bag"][i] for i in order)}
        assert game.view(other, 0) == game.view(state, 0)
        assert _texts(game, other, 0) == _texts(game, state, 0)
