"""The runners `meeple bench` sets beside `Game.playout`: the step API, as a search tree,
an adapter or the web table drives a game, and OpenSpiel's C++ game of the same rules
driven from Python, wherever OpenSpiel has one.

A runner is `fn(rnd) -> moves`: one uniform random game, its player moves counted as
`State.move_count` counts them (chance outcomes left out), so the runners' moves/s
compare.  The OpenSpiel runner is a Python loop over the C++ game's states: a playout of
meeple is driven from Python too, and the loop is what OpenSpiel's own tools (MCTS, CFR
through the adapter) pay per step.
"""
from __future__ import annotations

from .lockstep_games import DIFFERING, GAMES

# Shipped games whose rules are OpenSpiel's with these parameters but which have no
# lockstep translation (only their speed is set beside OpenSpiel's, not their moves).
SAME_RULES = {
    "connect-four": ("connect_four", {}),
    "nim": ("nim", {"is_misere": False, "pile_sizes": "3;4;5"}),  # the ruleset's default heaps, normal play
}


def step_api_playout(game):
    """One random game through `legal_moves` and `apply`, a move at a time."""
    def play(rnd) -> int:
        state = game.new_state(rnd.randrange(1 << 30))
        while not state.over:
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.apply(state, moves[rnd.randrange(len(moves))])
        return state.move_count
    return play


def openspiel_game(ruleset: str, players: int):
    """OpenSpiel's game of the ruleset at this player count, loaded, or None when
    OpenSpiel is not installed or has no such game."""
    spec = GAMES.get(ruleset) or DIFFERING.get(ruleset)
    if spec is not None and spec.ruleset == ruleset and spec.players == players:
        name, params = spec.openspiel, spec.params
    elif ruleset in SAME_RULES and players == 2:
        name, params = SAME_RULES[ruleset]
    else:
        return None
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game(name, params)


def openspiel_playout(os_game):
    """One random game of OpenSpiel's game, stepped from Python."""
    def play(rnd) -> int:
        state, moves = os_game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(draw_chance(state.chance_outcomes(), rnd))
            elif state.is_simultaneous_node():
                chosen = [_pick(state.legal_actions(p), rnd) for p in range(os_game.num_players())]
                state.apply_actions(chosen)
                moves += len(chosen)
            else:
                state.apply_action(_pick(state.legal_actions(), rnd))
                moves += 1
        return moves
    return play


def _pick(actions, rnd) -> int:
    return actions[rnd.randrange(len(actions))] if actions else 0


def draw_chance(outcomes, rnd) -> int:
    """A chance outcome with its probability (the last one takes any rounding left)."""
    x, total = rnd.random(), 0.0
    for action, p in outcomes:
        total += p
        if x < total:
            return action
    return outcomes[-1][0]
