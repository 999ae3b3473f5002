"""Random rollouts for OpenSpiel's MCTS, played by meeple's own playout.

OpenSpiel's `RandomRolloutEvaluator` plays each rollout an action at a time through the
pyspiel state: every step crosses into the adapter and is a whole `Game.apply`, a new
state and its listed moves.  A rollout is uniformly random either way, so the adapter can
hand it whole to `Game.playout`, which keeps one state and plays it in the ruleset's
generated playout function where the back end has one (docs/compiled.md).  The moves are
drawn as OpenSpiel's evaluator draws them: each legal move of the player to move equally
likely, each chance outcome with its probability.  Only the generator differs (a
`random.Random` seeded from the numpy one given), so the same seed gives other rollouts.

    from open_spiel.python.algorithms import mcts
    from meeple.adapters.openspiel_rollouts import PlayoutEvaluator
    bot = mcts.MCTSBot(game, 2, 1000, PlayoutEvaluator(random_state=rng), random_state=rng)

A game with `cut_after` counts OpenSpiel's moves, which only the pyspiel state counts: its
rollouts are stepped through that state, as OpenSpiel's evaluator steps them.
"""
from __future__ import annotations

import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from .openspiel import MeepleState, returns_at


class PlayoutEvaluator(mcts.Evaluator):
    """An MCTS evaluator: the mean returns of `n_rollouts` uniformly random playouts, and a
    uniform prior over the legal actions (chance: the outcomes' probabilities)."""

    def __init__(self, n_rollouts: int = 1, random_state=None):
        if n_rollouts < 1:
            raise ValueError(f"n_rollouts is at least 1, not {n_rollouts}")
        self.n_rollouts = n_rollouts
        numpy = random_state if random_state is not None else np.random.RandomState()
        self.random = random.Random(int(numpy.randint(1 << 31)))

    def evaluate(self, state):
        if not isinstance(state, MeepleState):
            raise TypeError("PlayoutEvaluator plays meeple's games (adapters/openspiel.py); "
                            f"this state is a {type(state).__name__}")
        total = np.zeros(state.get_game().num_players())
        for _ in range(self.n_rollouts):
            total += self._rollout(state)
        return total / self.n_rollouts

    def _rollout(self, state) -> list:
        if state._game.cut_after > 0:
            return self._stepped(state.clone())
        meeple = state._meeple
        end = meeple.playout(state._state, rng=self.random)
        return returns_at(state._game, end, cut=False)

    def _stepped(self, state) -> list:
        """A rollout action by action through the pyspiel state, which counts the moves
        `cut_after` cuts at."""
        choose = self.random.choice
        while not state.is_terminal():
            player = state.current_player()
            if player == pyspiel.PlayerId.CHANCE:
                outcomes, weights = zip(*state.chance_outcomes())
                state.apply_action(self.random.choices(outcomes, weights)[0])
            elif player == pyspiel.PlayerId.SIMULTANEOUS:
                state.apply_actions([choose(state.legal_actions(p)) for p in range(state.num_players())])
            else:
                state.apply_action(choose(state.legal_actions(player)))
        return state.returns()

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]
