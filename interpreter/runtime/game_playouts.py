"""Random playouts: the generated playout functions where the back end has them, else
the loop of moves, replayed from the draws when a fast playout gives up (mixed into game.Game)."""
from __future__ import annotations

import random
from .flowgraph import CHANCE as CHANCE_STEP
from .state import State

STEP_LIMIT = 100_000
MAX_KEYS = 10_000  # keys of one keyed variable or zone: every state copy carries them all
MAX_ASKING = 4  # has_move inside the rules of an action has_move asks about, nested
_UNKNOWN = object()


class GamePlayouts:
    def _walk_kernel(self):
        if self.on_skip is not None:  # an analysis hook the kernel does not call
            return None
        return self._playout_kernel()

    def _playout_kernel(self):
        """The back end's playout kernel for this game's player count and chance setting,
        asked of the back end once per setting (a new game and a playout each ask).  None
        with chance explicit where effects draw: a kernel cannot stop at those draws."""
        explicit = self.explicit_chance
        if explicit and self._may_draw:
            return None
        kernel = self._kernels.get(explicit, _UNKNOWN)
        if kernel is _UNKNOWN:
            make = getattr(self.rules, "playout_kernel", None)
            try:
                # A game whose options resized a grid hands its boards over: they may be too large for a tier.
                boards = self.boards if self.boards is not self.rules.boards else None
                kernel = make(explicit, self.player_count, boards) if make is not None else None
            except Exception:  # noqa: BLE001 - a ruleset the kernel's writer cannot take still plays
                kernel = None
            self._kernels[explicit] = kernel
        return kernel

    # -- playouts ----------------------------------------------------------------------------
    def playout(self, state: State, policy=None, rng=None, max_moves: int | None = None) -> State:
        """Play from `state` to the end and return the final state; `state` is not changed.

        `policy(game, state, moves, rng) -> Move` picks each move (uniform random over the
        legal moves when None); `rng` is the policy's own `random.Random`, never the game's
        generator.  At an explicit chance point the outcome is drawn with its probability.
        Only one state is kept and it is changed in place, and no move texts are built:
        this is the loop search bots and simulations run thousands of times.

        With the uniform policy, a back end that has a playout kernel (codegen/kernel.py)
        plays it, noting each index it draws.  If the kernel stops on anything unusual, the
        playout is played again from `state` by the loop below, which takes those indices
        first (they are the draws it would have made itself) and then draws on: it meets
        the same trouble at the same move and reports it, and leaves `rng` where a playout
        of its own would."""
        rng = rng if rng is not None else random.Random()
        kernel = None
        if policy is None and type(rng) is random.Random and self.on_skip is None:
            kernel = self._playout_kernel()
        if kernel is not None and state.drawing is None:
            # An explicit chance step draws with rng.random(), which no index notes.
            before = rng.getstate() if self.explicit_chance else None
            drawn: list = []
            try:
                return self._kernel_playout(state, kernel, rng, max_moves, drawn)
            except Exception:  # noqa: BLE001 - the loop below meets it again and reports it
                self.kernel_fallbacks += 1
                if before is not None:
                    rng.setstate(before)
                else:
                    policy = _Replay(drawn)
        return self._loop_playout(state, policy, rng, max_moves)

    def _loop_playout(self, state, policy, rng, max_moves):
        # `randrange(n)` is `_randbelow(n)` for n > 0; a generator of another type is asked as given.
        below = rng._randbelow if type(rng) is random.Random else rng.randrange
        state = state.copy()
        played = 0
        while not state.over and (max_moves is None or played < max_moves):
            if not self._playout_step(state, policy, rng, below):
                break
            played += 1
        state._moves = state._shown = None
        return state

    def _kernel_playout(self, state, kernel, rng, max_moves, drawn: list):
        """The kernel plays the points it runs; at any other point the loop's one step.
        Every index drawn for a move is noted in `drawn`."""
        run, points_run = kernel
        randbelow = rng._randbelow

        def below(n):  # only for the loop's steps between kernel runs: the kernel notes its own
            i = randbelow(n)
            drawn.append(i)
            return i

        limit = max_moves if max_moves is not None else 1 << 62
        state = state.copy()
        played = 0
        while not state.over and played < limit:
            if state.pc in points_run:
                played = run(self, state, randbelow, limit, played, drawn)
                if state.over or played >= limit or state.pc in points_run:
                    break
                self._advance(state)  # to where the loop plays a move, as after a move of its own
                continue
            if not self._playout_step(state, None, rng, below):
                break
            played += 1
        state._moves = state._shown = state._where = state._listing = None
        return state

    def _playout_step(self, state, policy, rng, below) -> bool:
        """One move of a playout at a decision or an explicit chance step: False when
        nobody can move."""
        # The walk that reached this decision listed its moves already (state._moves).
        if state.drawing is not None or self.rules.points[state.pc].code == CHANCE_STEP:  # chance to move
            move = draw_outcome(self.chance_outcomes(state), rng)
        else:
            moves = self._moves_at(state)
            if not moves:
                return False
            move = moves[below(len(moves))] if policy is None else policy(self, state, moves, rng)
        state._moves = state._shown = state._where = None
        self._play_in_place(state, move)
        return True


class _Replay:
    """The uniform policy, taking the indices a failed kernel run drew before drawing more."""

    def __init__(self, drawn: list):
        self.drawn, self.next = drawn, 0

    def __call__(self, game, state, moves, rng):
        if self.next < len(self.drawn):
            i = self.drawn[self.next]
            self.next += 1
            return moves[i]
        return moves[rng._randbelow(len(moves))]


def draw_outcome(outcomes, rng):
    """One chance outcome, drawn with its probability by the policy's generator."""
    x = rng.random()
    for move, p in outcomes:
        x -= p
        if x < 0:
            return move
    return outcomes[-1][0]
