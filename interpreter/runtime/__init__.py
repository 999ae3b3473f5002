"""The runtime core behind the `Game` API: the rules compiled from the declarations, state, flow, moves, effects, chance, hidden information and the end of a game."""
