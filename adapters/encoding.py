"""What both adapters share: the action table (action_table.py) and the observation
layout (observation.py) of one game, built once per ruleset, options and player count."""
from __future__ import annotations

from .action_table import ActionSpaceError, ActionTable
from .observation import ObservationLayout

_made: dict = {}


class GameEncoding:
    def __init__(self, game):
        self.game = game
        self.actions = ActionTable(game)
        self.observation = ObservationLayout(game)


def encoding_for(game) -> GameEncoding:
    """The encoding of `game`, made once per ruleset content, options and player count."""
    key = (game.rules.ruleset.content_hash, game.player_count, repr(sorted(game.options.items())))
    made = _made.get(key)
    if made is None or made.game.rules is not game.rules:
        made = _made[key] = GameEncoding(game)
    return made


def final_rewards(game, state) -> list:
    """The end of a game as rewards that sum to 0: with k winners among n players, n/k - 1
    to each winner and -1 to everyone else; a draw (no winner) gives 0 to all."""
    n = game.player_count
    winners = game.outcome(state).winners
    if not winners:
        return [0.0] * n
    return [n / len(winners) - 1.0 if p in winners else -1.0 for p in range(n)]


__all__ = ["ActionSpaceError", "ActionTable", "GameEncoding", "ObservationLayout", "encoding_for", "final_rewards"]
