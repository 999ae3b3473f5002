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


__all__ = ["ActionSpaceError", "ActionTable", "GameEncoding", "ObservationLayout", "encoding_for"]
