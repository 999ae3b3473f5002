"""The hand-written Treasure Hunter baseline plays the same game as the shipped ruleset.

Both start from the deal meeple makes for a seed (read from its state) and are driven
with the same choice indices.  At every step the legal moves (texts, in order), the
players to move and everyone's money must agree; at the end, the scores and winners.
Each later round's deal is read from meeple's state when the baseline reshuffles, so
both play identical cards all game.  The long random runs are in
`benchmarks/baseline_treasure_hunter.py`; this file keeps to a few seeds per count.
"""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

import pytest

from meeple.benchmarks.baseline_treasure_hunter import ROUNDS, TreasureHunter, playout
from meeple.benchmarks.baseline_treasure_hunter_data import (
    ACT, ACTION, ADVENTURER, ANIMAL, BLADE, CARD_KIND, CARD_NAME, CARD_SITE, COIN, COIN_VALUE, DISCIPLINE, DISPEL,
    DOG, GOBLIN_NAME, GOBLIN_PAW, GOBLIN_STEAL, MULE, PAW, RELIC, SCARER, SCOUT, SITES, STRENGTH, SWORD, TILE_COND,
    TILE_KIND, TILE_NAME, TILE_PER, TILE_VALUE, TRAP, YELLOW)
from meeple.interpreter import Game, load_rules

NAME = "treasure-hunter"
CARD = {name: i for i, name in enumerate(CARD_NAME)}
TILE = {name: i for i, name in enumerate(TILE_NAME)}
GOBLIN = {name: i for i, name in enumerate(GOBLIN_NAME)}


@lru_cache(maxsize=None)
def _rules():
    """Reading the ruleset takes longer than a game: once for the whole file."""
    return load_rules(NAME)


@lru_cache(maxsize=None)
def _game(players: int, cards: int = 9) -> Game:
    return Game(_rules(), players, {"cards": cards})


def _deck_before_deal(state, players: int, cards: int) -> list[int]:
    """The deck, top first, as it was before meeple dealt this round's cards: the deal
    gives one card at a time round the table, packets first (then, with two players,
    the personal piles, whose top card is already drawn into the packet)."""
    zones = state.zones
    packets = [[CARD[c.id] for c in hand] for hand in zones["packet"]]
    hands = [packets]
    if players == 2:
        piles = [[packets[p][0]] + [CARD[c.id] for c in zones["own_pile"][p]] for p in range(players)]
        hands = [[packet[1:] for packet in packets], piles]
    dealt = [h[p][i] for h in hands for i in range(cards) for p in range(players)]
    return dealt + [CARD[c.id] for c in zones["deck"]]


class _Pair:
    """Meeple and the baseline from the same deal, moved together."""

    def __init__(self, game, state):
        self.game, self.state = game, state
        players, cards = game.player_count, game.options["cards"]
        zones = state.zones
        tiles = []
        for stack, row in (("min_stack", "tmin"), ("max_stack", "tmax")):  # the MIN stack is the top 27
            tiles += [TILE[zones[row][s][0].id] for s in SITES] + [TILE[t.id] for t in zones[stack]]
        goblins = [GOBLIN[g.id] for g in zones["gob_row"] + zones["gob_stack"]]
        self.reshuffles = 0
        self.base = TreasureHunter(players, _deck_before_deal(state, players, cards), tiles, goblins,
                                   state.vars["dealer"], self._meeple_shuffle, cards)

    def _meeple_shuffle(self, deck: list):
        """Called by the baseline after the move that ended a round; meeple has by then
        shuffled and dealt the next round, so its deal is read back."""
        order = _deck_before_deal(self.state, self.game.player_count, self.game.options["cards"])
        assert sorted(order) == sorted(deck) == list(range(len(CARD_NAME)))
        deck[:] = order
        self.reshuffles += 1

    def play(self, choose, where: str, until=None) -> Counter:
        """Play `choose(texts) -> index` in both, comparing every step, to the end (or until
        `until(meeple state)`); returns the actions played."""
        game, base = self.game, self.base
        played: Counter = Counter()
        step = 0
        while not self.state.over and not (until and until(self.state)):
            at = f"{where}, step {step}, round {self.state.vars['round']}, {self.state.phase}"
            legal = game.legal_moves(self.state)
            texts = [str(m) for m in legal]
            assert texts == base.legal_texts(), at
            assert tuple(game.current_players(self.state)) == base.to_move(), at
            assert list(self.state.vars["coins"]) == base.coins, at
            assert not base.over, at
            i = choose(texts)
            played[legal[i].action] += 1
            self.state = game.apply(self.state, legal[i])
            base.play(i)
            step += 1
        if self.state.over:
            outcome = game.outcome(self.state)
            assert base.over, where
            assert base.legal() == [] and base.to_move() == (), where
            assert base.scores() == list(outcome.scores), where
            assert base.winners() == outcome.winners, where
            assert self.reshuffles == ROUNDS - 1, where
        return played


def _uniform(seed: int):
    rnd = random.Random(seed)
    return lambda texts: rnd.randrange(len(texts))


def _cross_check(players: int, seed: int, cards: int = 9) -> Counter:
    game = _game(players, cards)
    return _Pair(game, game.new_state(seed)).play(_uniform(seed), f"{players} players, seed {seed}")


SEEDS = 15  # per player count; about 0.1 s a game
ACTIONS = {"keep", "boost", "double", "trap", "dispel", "scout", "scare", "mule", "cash", "pass"}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_same_moves_and_scores_as_the_ruleset(players):
    played: Counter = Counter()
    for seed in range(SEEDS):
        played += _cross_check(players, seed)
    # The comparison covers every kind of move, not only drafting and passing.
    assert ACTIONS <= set(played), sorted(ACTIONS - set(played))
    assert ("drop" in played) == (players == 2)


@pytest.mark.parametrize("cards", [2, 5])
def test_short_drafts_match_too(cards):
    """The ruleset's `cards` option (cards dealt per player and round)."""
    for players in range(2, 7):
        for seed in range(100, 103):
            _cross_check(players, seed, cards)


def test_round_five_with_only_yellow_scrolls_left_leaves_a_space_empty():
    """p.6 and A11: in round 5 yellow scrolls drawn leave the game; a stack with nothing
    else left leaves the space empty.  The MAX stack is rearranged so that its last 15
    tiles are (nearly) all yellow, and both engines must play on alike."""
    game = _game(3)
    state = game.new_state(11).copy()
    stacks = state.zones["max_stack"] + state.zones["min_stack"]
    yellow = [t for t in stacks if TILE_KIND[TILE[t.id]] == YELLOW]
    other = [t for t in stacks if TILE_KIND[TILE[t.id]] != YELLOW]
    last = yellow[:15] + other[9:9 + max(0, 15 - len(yellow))]  # what round 5 draws from
    state.zones["max_stack"] = tuple(other[:9]) + tuple(last)
    state.zones["min_stack"] = tuple(t for t in stacks if t not in state.zones["max_stack"])
    pair = _Pair(game, state)
    choose = _uniform(11)
    pair.play(choose, "rearranged MAX stack", until=lambda s: s.vars["round"] == ROUNDS and s.phase == "draft")
    tmax = pair.state.zones["tmax"]
    assert any(not tmax[s] for s in SITES)
    assert [TILE[tmax[s][0].id] if tmax[s] else None for s in SITES] == pair.base.tmax
    pair.play(choose, "rearranged MAX stack")


def test_paw_tie_without_dogs_goes_to_the_first_clockwise_from_the_dealer():
    """A4: two Goblin Scarers and no watchdog tie on 3 paws; the goblins go to the first
    tied player clockwise from the dealer (seat 1 of 0 and 1 here, which seat order alone
    would get wrong).  Round 1 is dealt without dogs or scouts (none can be drawn), seats 0
    and 1 find a Scarer in their first packet, and every player keeps and plays a Scarer
    whenever they can."""
    game = _game(3)
    state = game.new_state(4).copy()
    cards = [c for hand in state.zones["packet"] for c in hand] + list(state.zones["deck"])
    scarers = [c for c in cards if c.fields["act"] == "scarer"]
    left_out = [c for c in cards if c.fields["type"] == "dog" or c.fields["act"] in ("scout", "scarer")]
    rest = [c for c in cards if c not in left_out]
    packets = ((scarers[0], *rest[:8]), (scarers[1], *rest[8:16]), tuple(rest[16:25]))
    deck = tuple(rest[25:]) + tuple(c for c in left_out if c not in scarers)
    state.zones["packet"], state.zones["deck"] = packets, deck
    state.props.update({c.id: {"face": "up"} for hand in packets for c in hand})
    state.props.update({c.id: {"face": "down"} for c in deck})
    state.vars["dealer"] = 1
    assert any(g.fields["paw"] <= 3 for g in state.zones["gob_row"])  # someone can take a goblin
    pair = _Pair(game, state)
    rnd = random.Random(4)

    def choose(texts):
        wanted = [i for i, t in enumerate(texts) if t.startswith(("keep(card=SCARER", "scare("))]
        return wanted[0] if wanted else rnd.randrange(len(texts))

    round_one = pair.play(choose, "Scarers without dogs", until=lambda s: s.vars["round"] == 2)
    assert round_one["scare"] == 2
    assert not pair.state.zones["gob_won"][0] and pair.state.zones["gob_won"][1]
    assert pair.base.gob_won[:2] == [0, len(pair.state.zones["gob_won"][1])]
    pair.play(choose, "Scarers without dogs")


def test_component_data_matches_the_ruleset():
    """Index i of the baseline's tables is the ruleset's i-th item, with the same data."""
    game = _game(2)
    kinds = {"adventurer": ADVENTURER, "coin": COIN, "dog": DOG, "action": ACTION}
    acts = {"": 0, "sword": SWORD, "blade": BLADE, "animal": ANIMAL, "trap": TRAP, "dispel": DISPEL,
            "scout": SCOUT, "scarer": SCARER, "mule": MULE}
    cards = game.items_of("card")
    assert [c.id for c in cards] == list(CARD_NAME)
    for i, c in enumerate(cards):
        f = c.fields
        assert (kinds[f["type"]], SITES.index(f["loc"]) if f["loc"] else -1, f["strength"], f["coin"], f["paw"],
                f["disc"], acts[f["act"]]) == (CARD_KIND[i], CARD_SITE[i], STRENGTH[i], COIN_VALUE[i], PAW[i],
                                               DISCIPLINE[i], ACT[i]), c.id
    tiles = game.items_of("treasure")
    assert [t.id for t in tiles] == list(TILE_NAME)
    for i, t in enumerate(tiles):
        f = t.fields
        assert (f["type"] == "relic", f["type"] == "yellow", f["value"], f["per"]) == (
            TILE_KIND[i] == RELIC, TILE_KIND[i] == YELLOW, TILE_VALUE[i], TILE_PER[i]), t.id
    conds = {}
    for i, t in enumerate(tiles):  # one condition name stands for one counting rule
        if t.fields["cond"]:
            assert conds.setdefault(t.fields["cond"], TILE_COND[i]) == TILE_COND[i], t.id
    assert len(set(conds.values())) == len(conds)
    goblins = game.items_of("goblin")
    assert [(g.id, g.fields["paw"], g.fields["steal"]) for g in goblins] == list(
        zip(GOBLIN_NAME, GOBLIN_PAW, GOBLIN_STEAL))


@pytest.mark.parametrize("players", [2, 3, 6])
def test_playout_plays_whole_games(players):
    """At least the draft's picks in all five rounds (9 keeps and 9 discards a round with two
    players, 8 picks each with more), and the same count as the step API gives."""
    picks = 2 * 9 * 2 if players == 2 else 8 * players
    for seed in range(3):
        moves = playout(random.Random(seed), players)
        assert moves >= ROUNDS * picks
        rnd = random.Random(seed)
        game = TreasureHunter.random(players, rnd)
        stepped = 0
        while not game.over:
            game.play(rnd.randrange(len(game.legal())))
            stepped += 1
        assert stepped == moves
        assert len(game.winners()) >= 1 and game.round == ROUNDS + 1
