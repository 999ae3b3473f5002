"""The interpreter: compile a checked ruleset once, then run games of it.

    from meeple.interpreter import load_game
    game = load_game("tic-tac-toe", players=2)
"""
from __future__ import annotations

from .runtime.context import RuleError, Stalled
from .runtime.game import Game
from .runtime.knowledge import ranks_erased
from .runtime.loading import find_ruleset, load_game, load_rules, list_rulesets
from .runtime.moves import IllegalMove, Move, Rejection
from .runtime.outcome import Outcome
from .runtime.state import State

__all__ = ["Game", "IllegalMove", "Move", "Outcome", "Rejection", "RuleError", "Stalled", "State",
           "find_ruleset", "list_rulesets", "load_game", "load_rules", "ranks_erased"]
