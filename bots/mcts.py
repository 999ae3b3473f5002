"""`mcts`: UCT for games where everyone sees everything.

The bot rebuilds the position from its seat's observation (`game.determinize`, which
for a perfect-information game gives back the real state but for its generator), and
each iteration starts from that state with a fresh generator, so a draw hidden in
`apply` is re-drawn every time rather than known in advance.  In a game with hidden
information it searches one determinization per decision: it never peeks, but it plays
as if its one guess were the truth (use `ismcts` there)."""
from __future__ import annotations

from meeple.interpreter.runtime import rng as chance

from .search import SearchBot


class MCTSBot(SearchBot):
    default_iterations = 1000

    def sampler(self, seat):
        rng = self.random
        root = seat.game.determinize(seat.observation, seat.player, rng)

        def sample():
            state = root.copy()
            state.rng = chance.seed_state(rng.getrandbits(63))
            return state
        return sample
