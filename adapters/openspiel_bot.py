"""OpenSpiel's own MCTS bot at a meeple table (`--bots openspiel-mcts:1000`), so that
meeple's search can be measured against OpenSpiel's on the same ruleset, through the
adapter, with the same number of simulations.

The bot is handed a seat like any other: it determinizes its player's observation
(for a game where everyone sees everything, that is the position itself), searches the
adapter's pyspiel game from there with `open_spiel.python.algorithms.mcts.MCTSBot`
(UCT with random rollouts, OpenSpiel's defaults: c = 2, one rollout per leaf, the
MCTS-Solver on), and answers with the seat's move that the chosen action stands for.
"""
from __future__ import annotations

import random

import numpy as np
from open_spiel.python.algorithms import mcts

from .openspiel import MeepleState, load
from .openspiel_rollouts import PlayoutEvaluator

UCT_C = 2.0


class OpenSpielMCTSBot:
    def __init__(self, simulations: int = 1000, seed: int | str = 0):
        self.simulations = simulations
        self.random = random.Random(seed)
        self.numpy = np.random.RandomState(self.random.randrange(1 << 31))

    def pick(self, seat) -> int:
        if seat.count == 1:
            return 0
        game = seat.game
        spiel = load(str(game.rules.ruleset.root), game.player_count, **game.options)
        state = game.determinize(seat.observation, seat.player, self.random)
        position = MeepleState(spiel)
        position._at.state = state
        bot = mcts.MCTSBot(spiel, UCT_C, self.simulations,
                           PlayoutEvaluator(n_rollouts=1, random_state=self.numpy),
                           random_state=self.numpy)
        action = bot.step(position)
        move = spiel.setup.encoding.actions.legal(state, seat.player)[action]
        return seat.options.index(game.move_text(state, move, seat.player))
