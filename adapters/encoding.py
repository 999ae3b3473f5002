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


RETURNS = ("win", "score")


def default_returns(rules) -> str:
    """"score" for a ruleset whose scoring declares its scores zero- or constant-sum (its
    author says the scores are the payoffs), else "win"."""
    scoring = rules.ruleset.scoring
    return "score" if scoring is not None and scoring.utility != "general" else "win"


def final_rewards(game, state) -> list:
    """The end of a game as rewards that sum to 0: with k winners among n players, n/k - 1
    to each winner and -1 to everyone else; a draw (no winner) gives 0 to all."""
    n = game.player_count
    winners = game.outcome(state).winners
    if not winners:
        return [0.0] * n
    return [n / len(winners) - 1.0 if p in winners else -1.0 for p in range(n)]


def final_returns(game, state, returns: str) -> list:
    """The players' returns at the end of a game: shares of the win ("win") or the final
    scores ("score"; exact fractions as floats).  A ruleset that declares its utility has
    its scores checked against it when the outcome is made (R712, interpreter/outcome.py)."""
    if returns == "win":
        return final_rewards(game, state)
    return [float(s) if s is not None else 0.0 for s in game.outcome(state).scores]


__all__ = ["RETURNS", "ActionSpaceError", "ActionTable", "GameEncoding", "ObservationLayout", "default_returns",
           "encoding_for", "final_returns", "final_rewards"]
