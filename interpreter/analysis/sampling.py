"""Statistics estimated from random playouts, for games far too large to
enumerate: game lengths, branching per phase, how often each action is legal
and how often it is taken, decisions nobody could make, games that hit the
move limit."""
from __future__ import annotations

import random
import statistics
from collections import Counter, defaultdict

from ..runtime.context import Stalled
from ..runtime.game import Game

# Where a random game is given up as unfinished: far above the longest shipped game
# (random games of the rulebook games run to several thousand moves).
RANDOM_GAME_MOVES = 100_000


def sample(game: Game, playouts: int, seed: int = 0, max_moves: int = RANDOM_GAME_MOVES) -> dict:
    rnd = random.Random(seed)
    lengths, unfinished, stalled = [], 0, 0
    branching = defaultdict(list)  # phase -> legal-move counts at decisions
    legal_decisions = Counter()  # action -> decisions where it was legal
    legal_games = Counter()  # action -> games where it was legal at least once
    taken = Counter()
    decisions = 0
    stuck = Counter()  # "phase/pc" -> decisions skipped because nobody could move
    game.on_skip = lambda state, point: stuck.update([f"{state.phase or '-'} at {point.span}"])
    try:
        for i in range(playouts):
            state = game.new_state(seed + i)
            seen = set()
            moves, stuck_here = 0, False
            while not game.is_terminal(state) and moves < max_moves:
                legal = game.legal_moves(state)
                decisions += 1
                branching[state.phase or "-"].append(len(legal))
                names = {m.action for m in legal}
                legal_decisions.update(names)
                seen |= names
                move = legal[rnd.randrange(len(legal))]
                taken[move.action] += 1
                moves += 1
                try:
                    state = game.apply(state, move)
                except Stalled:  # the flow goes round a decision nobody can act at: counted, not fatal
                    stalled += 1
                    stuck_here = True
                    break
            legal_games.update(seen)
            lengths.append(moves)
            if not game.is_terminal(state) and not stuck_here:
                unfinished += 1
    finally:
        game.on_skip = None
    actions = sorted(set(game.rules.actions) | set(legal_decisions) | set(taken))
    return {
        "ruleset": game.name, "players": game.player_count, "playouts": playouts, "seed": seed,
        "max_moves": max_moves,
        "length": _dist(lengths),
        "unfinished": unfinished,
        "stalled": stalled,
        "decisions": decisions,
        "branching_per_phase": {p: _dist(v) for p, v in sorted(branching.items())},
        "actions": {a: {"legal_share": round(legal_decisions[a] / decisions, 4) if decisions else 0,
                        "games_legal": legal_games[a], "taken": taken[a],
                        "taken_share": round(taken[a] / decisions, 4) if decisions else 0}
                    for a in actions},
        "skipped_decisions": dict(stuck),
    }


def _dist(values):
    if not values:
        return {"min": None, "max": None, "mean": None, "median": None}
    return {"min": min(values), "max": max(values), "mean": round(statistics.fmean(values), 3),
            "median": statistics.median(values)}
