"""What a bot is given: exactly what its player is given."""
from __future__ import annotations


class Seat:
    """One decision of one player: the player's view and the legal moves, computed only if
    the bot asks for them.  The game is there for searches that build their own states
    through the public API (`game.determinize(view, player, rng)`); the real state is not."""

    def __init__(self, game, state, player, moves):
        self.game, self.player, self.count = game, player, len(moves)
        self._state, self._moves = state, moves

    @property
    def view(self) -> dict:
        return self.game.view(self._state, self.player)

    @property
    def observation(self):
        """The view plus the public rest of the position, for `game.determinize`."""
        return self.game.observe(self._state, self.player)

    @property
    def options(self) -> list[str]:
        """The legal moves' texts as this player reads them (hidden items by handle)."""
        return [self.game.move_text(self._state, m, self.player) for m in self._moves]


def bot_move(bot, game, state, player):
    """Ask `bot` for `player`'s move; it sees that player's seat, never the state."""
    moves = game.legal_moves(state, player)
    return moves[bot.pick(Seat(game, state, player, moves))]
