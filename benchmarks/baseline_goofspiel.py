"""Goofspiel written by hand: the baseline for the `goofspiel` ruleset.

Each round a prize is drawn uniformly at random from the remaining prize cards, every
player bids one card of their own hand at the same time, and a single highest bid
wins points equal to the prize's value; when the highest bid is tied, nobody scores
that prize.  The game ends when the prize cards are used up; the most points win
(ties share the win).  Cards are their values (1..cards); hands and the prize deck
are lists kept in ascending order, the order the ruleset lists them in.
"""
from __future__ import annotations

import random

CARDS = 13


def award_prize(points: list, bids: list, prize: int) -> None:
    """A single highest bid wins the prize's value; a tied highest bid wins nothing."""
    best = max(bids)
    if bids.count(best) == 1:
        points[bids.index(best)] += prize


def playout(rnd: random.Random, players: int = 2, cards: int = CARDS) -> int:
    """One game with uniformly random bids; returns the number of moves played (one
    bid per player per round; the prize draw is the game's own chance, not a move)."""
    hands = [list(range(1, cards + 1)) for _ in range(players)]
    deck = list(range(1, cards + 1))
    points = [0] * players
    moves = 0
    while deck:
        prize = deck.pop(rnd.randrange(len(deck)))
        bids = [hand.pop(rnd.randrange(len(hand))) for hand in hands]
        moves += players
        award_prize(points, bids, prize)
    return moves


def kept_states(rnd: random.Random, players: int = 2, cards: int = CARDS) -> list:
    """Every position of one random game as a search would keep it (hands, prize deck,
    points, the prize up and the bids so far, as tuples), one per bid: what `meeple
    bench` weighs per kept state."""
    hands = [list(range(1, cards + 1)) for _ in range(players)]
    deck = list(range(1, cards + 1))
    points = [0] * players
    kept = []
    while deck:
        prize = deck.pop(rnd.randrange(len(deck)))
        bids = []
        for hand in hands:
            bids.append(hand.pop(rnd.randrange(len(hand))))
            kept.append((tuple(tuple(h) for h in hands), tuple(deck), tuple(points), prize, tuple(bids)))
        award_prize(points, bids, prize)
    return kept


CHANCE = -1  # the player id the interpreter gives a chance step


class Goofspiel:
    """The same game one step at a time, for a test to follow next to the interpreter:
    the prize draw is a step of its own (listed as `chance(drawn=P<value>)`), and the
    players who have not bid yet in a round all have their bids listed, player by player."""

    def __init__(self, players: int = 2, cards: int = CARDS):
        self.players = players
        self.hands = [list(range(1, cards + 1)) for _ in range(players)]
        self.deck = list(range(1, cards + 1))
        self.points = [0] * players
        self.prize = None
        self.bids = [None] * players
        self.over = False
        self.end_reason = None

    def to_move(self) -> tuple:
        if self.over:
            return ()
        if self.prize is None:
            return (CHANCE,)
        return tuple(p for p in range(self.players) if self.bids[p] is None)

    def _moves(self) -> list:
        """(player, card) pairs; the chance player's cards are the prizes."""
        waiting = self.to_move()
        if waiting == (CHANCE,):
            return [(CHANCE, v) for v in self.deck]
        return [(p, v) for p in waiting for v in self.hands[p]]

    def legal(self) -> list:
        return [f"chance(drawn=P{v})" if p == CHANCE else f"bid(card=S{p}-{v})" for p, v in self._moves()]

    def play(self, index: int) -> None:
        player, card = self._moves()[index]
        if player == CHANCE:
            self.deck.remove(card)
            self.prize = card
            return
        self.hands[player].remove(card)
        self.bids[player] = card
        if None in self.bids:
            return
        award_prize(self.points, self.bids, self.prize)
        self.prize = None
        self.bids = [None] * self.players
        if not self.deck:
            self.over, self.end_reason = True, "the flow of play is complete"

    def scores(self) -> tuple:
        return tuple(self.points)

    def winners(self) -> tuple:
        best = max(self.points)
        return tuple(p for p in range(self.players) if self.points[p] == best)
