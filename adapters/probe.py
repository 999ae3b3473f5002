"""The kinds of value each parameter takes, met in a fixed set of seeded random games.

Every legal move listed on the way (not only the one played) is noted, as atoms named
for its mover, so one game shows most of what a parameter can be.  The games are the
same in every process (their seeds and the random generator are fixed), and so is what
they find.  They also note the most moves one player (or chance) had at once, which
sizes the table's spare ids (action_table.py).
"""
from __future__ import annotations

import random

from meeple.interpreter.runtime.game import CHANCE, Game
from meeple.interpreter.runtime.moves import CHANCE_STEP_ACTION

from .atoms import Unencodable, atom_of, has_items, holds_map

PROBE_GAMES = 4
PROBE_MOVES = 20_000  # a probe game is cut off here (random rulebook games run to ~6,000 moves)


class Probe:
    def __init__(self):
        self.params: dict = {}  # (action, parameter index) -> set of atoms
        self.chance: dict = {}  # chance variable -> set of atoms
        self.actions_seen: set = set()
        self.problem: tuple | None = None  # (action, parameter, what) of a value no table holds
        self.most_moves = 0  # the most legal moves one player had in one position
        self.most_outcomes = 0  # the most outcomes of one chance step

    def note(self, game, state):
        namers: dict = {}
        moves = game.legal_moves(state)
        counts: dict = {}
        for move in moves:
            counts[move.player] = counts.get(move.player, 0) + 1
        for player, count in counts.items():
            if player == CHANCE:
                self.most_outcomes = max(self.most_outcomes, count)
            else:
                self.most_moves = max(self.most_moves, count)
        for move in moves:
            if move.player == CHANCE:
                if move.action == CHANCE_STEP_ACTION:  # a draw's outcomes are reserved whole (action_table.py)
                    (var, value), = move.args
                    self._add(self.chance, var, value, None, "chance", var)
                continue
            self.actions_seen.add(move.action)
            namer = None
            if any(has_items(v) for _, v in move.args):
                namer = namers.get(move.player) or namers.setdefault(move.player, game.namer(state, move.player))
            for i, (name, value) in enumerate(move.args):
                self._add(self.params, (move.action, i), value, namer, move.action, name)

    def _add(self, table, key, value, namer, action, name):
        try:
            atom = atom_of(value, namer)
        except Unencodable as exc:
            atom, what = None, str(exc)
        else:
            what = "a mapping" if holds_map(atom) else None
        if what is None:
            table.setdefault(key, set()).add(atom)
        elif self.problem is None:
            self.problem = (action, name, what)


def probe(game, games: int = PROBE_GAMES, max_moves: int = PROBE_MOVES) -> Probe:
    """Play `games` seeded random games of a copy of `game` that stops at chance steps."""
    trial = Game(game.rules, game.player_count, game.options)
    trial.explicit_chance = True
    found = Probe()
    for seed in range(games):
        rnd = random.Random(seed)
        state = trial.new_state(seed)
        for _ in range(max_moves):
            if trial.is_terminal(state):
                break
            found.note(trial, state)
            if trial.current_players(state) == (CHANCE,):
                outcomes = trial.chance_outcomes(state)
                move = rnd.choices([m for m, _ in outcomes], [float(p) for _, p in outcomes])[0]
            else:
                moves = trial.legal_moves(state)
                if not moves:
                    break
                move = moves[rnd.randrange(len(moves))]
            state = trial.apply(state, move)
    return found
