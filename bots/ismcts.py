"""`ismcts`: single-observer information-set MCTS, for hidden information and chance.

Every iteration plays on a new determinization of the bot's observation (a full state
its player cannot tell from the real one, `game.determinize`), and the tree is walked
by moves as the bot's player reads them: a card another player plays from a hidden hand
is the same move in every sample (`play(card=hand[1]@2)`) whichever card that sample put
there.  The tree therefore holds statistics of the information set, not of one guess.

Long games (thousands of moves) are cut off: playouts stop `depth` moves from the root
and the standings (ranks by the current scores) decide."""
from __future__ import annotations

from .search import SearchBot


class ISMCTSBot(SearchBot):
    default_iterations = 500

    def sampler(self, seat):
        game, rng, seen, player = seat.game, self.random, seat.observation, seat.player
        return lambda: game.determinize(seen, player, rng)
