"""Players that are programs.  They stand above the `Game` API: a bot is handed a
`Seat` (its player's view and legal moves) and answers with the index of a move.
Nothing here reads a `State` it was not given through the API."""
from .ismcts import ISMCTSBot
from .mcts import MCTSBot
from .random_bot import RandomBot
from .registry import BotSpecError, bot_names, make_bot, parse_bot_spec
from .seat import Seat, bot_move

__all__ = ["BotSpecError", "ISMCTSBot", "MCTSBot", "RandomBot", "Seat", "bot_move", "bot_names", "make_bot", "parse_bot_spec"]
