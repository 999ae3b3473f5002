"""The tree search both search bots share: UCT over an open-loop tree.

Each iteration starts from a fresh full state (`sample()`: one determinization, or the
root with a fresh generator) and walks the tree by *moves as the bot's player reads
them*, so what differs between samples — the cards others hold, the outcome of a draw —
only changes which children are available, never which node a move leads to.  A node
is scored for the player who moved into it, and a player's decision picks the child that
is best for that player (UCB1, counted over the iterations in which the child was
available), so every player maximises their own reward.

A simultaneous decision is seen from the bot's seat: if the bot's player still has to
choose, that choice is a tree node; the others' choices are drawn uniformly, as the bot
cannot see them.  A chance point that stops play (`game.explicit_chance`) is drawn with
its probabilities.  A playout is uniform random (`game.playout`, the compiled fast path)
up to `depth` moves from the root; a game still running there is judged by its standings
(the scores as if it ended now).
"""
from __future__ import annotations

import math
import random
import time

from meeple.interpreter import RuleError
from meeple.interpreter.runtime.moves import move_text


class SearchBot:
    """What the search bots share: a budget (iterations, or seconds of thinking), their
    own seeded generator, a playout depth and the exploration constant.  A kind of search
    says only where each iteration starts (`sampler`)."""
    default_iterations = 1000
    default_seconds = 3.0  # with no budget given: the iterations, but no longer than this
    default_depth = 200  # playout moves from the root before the standings decide

    def __init__(self, iterations: int | None = None, seconds: float | None = None, seed: int | str = 0,
                 depth: int | None = None, exploration: float = 0.7):
        if iterations is None and seconds is None:
            iterations, seconds = self.default_iterations, self.default_seconds
        self.iterations, self.seconds, self.exploration = iterations, seconds, exploration
        self.depth = depth if depth is not None else self.default_depth
        self.random = random.Random(seed)
        self.last = None  # the last decision's Search (its tree), for tests and curious callers

    def sampler(self, seat):
        raise NotImplementedError

    def pick(self, seat) -> int:
        if seat.count == 1:
            return 0
        self.last = Search(seat.game, seat.player, self.sampler(seat), self.random, self.iterations,
                           self.seconds, self.depth, self.exploration)
        return self.last.run(seat.options)


class Node:
    __slots__ = ("children", "visits", "reward", "avail")

    def __init__(self):
        self.children: dict = {}  # move text (as the bot's player reads it) -> Node
        self.visits = 0
        self.reward = 0.0  # summed reward of the player who moved into this node
        self.avail = 0


def rewards(game, state) -> list:
    """Each player's reward in [0, 1]: at the end, the declared winners (1, the others 0;
    nobody or everybody: 0.5 each), or without a winners rule, the ranks (each other
    player beaten counts 1, each tie 0.5, over n - 1).  Before the end, the margins of the
    ruleset's estimate where it has one (`margins`), else the ranks by the standings;
    rules that cannot be scored mid-game give everyone 0.5."""
    n = game.player_count
    try:
        if not state.over and n > 1:
            guess = game.estimates(state)
            if guess is not None and all(type(e) is int for e in guess):
                return margins(guess)
        out = game.outcome(state) if state.over else game.standings(state)
    except RuleError:
        return [0.5] * n
    if state.over and game.rules.winners_fn is not None:
        winners = set(out.winners)
        if not winners or len(winners) == n:
            return [0.5] * n
        return [1.0 if p in winners else 0.0 for p in range(n)]
    if n == 1:
        return [1.0 if out.ranks[0] == 1 else 0.0]
    ranks = out.ranks
    return [sum(1.0 if ranks[p] < ranks[q] else 0.5 if ranks[p] == ranks[q] else 0.0
                for q in range(n) if q != p) / (n - 1) for p in range(n)]


def margins(values) -> list:
    """Each player's lead over each other player, as a share of what the two hold between
    them, mapped to [0, 1] and averaged: 0.5 + (a - b) / (2 (|a| + |b| + 1)).  A rank says
    nothing of a lead that grew but overtook nobody; this does, and needs no scale of
    the game's own (10 points ahead at 20 each is more than at 200 each)."""
    n = len(values)
    return [sum(0.5 + (a - b) / (2 * (abs(a) + abs(b) + 1)) for q, b in enumerate(values) if q != p) / (n - 1)
            for p, a in enumerate(values)]


class Search:
    """One decision's search.  `sample()` gives the state an iteration starts from."""

    def __init__(self, game, player: int, sample, rng, iterations=None, seconds=None,
                 depth: int | None = None, exploration: float = 0.7):
        self.game, self.player, self.sample, self.rng = game, player, sample, rng
        self.iterations, self.seconds = iterations, seconds
        self.depth, self.exploration = depth, exploration
        self.root = Node()
        self.played = 0  # iterations run

    def run(self, options: list[str]) -> int:
        """The index in `options` (the bot's moves as it reads them) of the move most tried."""
        if len(options) == 1:
            return 0
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        while True:
            if self.iterations is not None and self.played >= self.iterations:
                break
            if deadline is not None and self.played and time.perf_counter() >= deadline:
                break
            self.iterate()
            self.played += 1
        children = self.root.children
        best, best_key = 0, None
        for i, text in enumerate(options):
            child = children.get(text)
            key = (child.visits, child.reward / child.visits) if child and child.visits else (0, 0.0)
            if best_key is None or key > best_key:
                best, best_key = i, key
        return best

    # -- one iteration ------------------------------------------------------------------------
    def iterate(self):
        game, rng = self.game, self.rng
        state = self.sample()
        node, path, steps = self.root, [], 0
        while not state.over and (self.depth is None or steps < self.depth):
            moves = self._moves(state)
            if moves is None:  # a draw or another player's hidden choice: not a node
                state = game.apply(state, self._drawn(state))
                steps += 1
                continue
            texts = self._texts(state, moves)
            firsts: dict = {}  # two moves one text names are one choice for the bot
            for i, text in enumerate(texts):
                firsts.setdefault(text, i)
            untried = []
            for text, i in firsts.items():
                child = node.children.get(text)
                if child is None:
                    untried.append(i)
                else:
                    child.avail += 1
            if untried:
                i = untried[rng.randrange(len(untried))]
                child = node.children[texts[i]] = Node()
                child.avail = 1
                path.append((child, moves[i].player))
                state = game.apply(state, moves[i])
                steps += 1
                break
            i = self._select(node, firsts)
            node = node.children[texts[i]]
            path.append((node, moves[i].player))
            state = game.apply(state, moves[i])
            steps += 1
        if not state.over and (self.depth is None or steps < self.depth):
            state = game.playout(state, rng=rng, max_moves=None if self.depth is None else self.depth - steps)
        reward = rewards(game, state)
        for child, mover in path:
            child.visits += 1
            child.reward += reward[mover]

    def _moves(self, state):
        """The moves of a tree node here, or None when the next move is drawn instead."""
        game = self.game
        kind = game.decision_kind(state)
        if kind == "chance":
            return None
        if kind == "simultaneous":
            if self.player not in state.pending:
                return None
            return game.legal_moves(state, self.player)
        return game.legal_moves(state)

    def _drawn(self, state):
        game = self.game
        if game.decision_kind(state) == "chance":
            x = self.rng.random()
            outcomes = game.chance_outcomes(state)
            for move, p in outcomes:
                x -= p
                if x < 0:
                    return move
            return outcomes[-1][0]
        moves = game.legal_moves(state)
        return moves[self.rng.randrange(len(moves))]

    def _texts(self, state, moves) -> list[str]:
        if not self.game.rules.may_hide:
            return [str(m) for m in moves]
        name = self.game.namer(state, self.player).name
        return [move_text(m, name) for m in moves]

    def _select(self, node, firsts: dict) -> int:
        """UCB1 over the children available here, each counted over the iterations in
        which it was available."""
        c = self.exploration
        best, best_value = 0, -1.0
        for text, i in firsts.items():
            child = node.children[text]
            value = child.reward / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
            if value > best_value:
                best, best_value = i, value
        return best
