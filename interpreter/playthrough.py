"""Golden playthroughs: a self-describing record of one seeded bot game.

The header names the ruleset, players, options and seeds, so the file can be
regenerated from itself and compared line by line; any change of behaviour
shows up as a diff.  Regenerate only for intended changes:
`meeple playthrough GAME --seed N -o tests/playthroughs/GAME.txt`.
"""
from __future__ import annotations

import json
import random

from .loading import load_game


def playthrough_lines(name: str, players: int | None, seed: int, options: dict | None = None,
                      max_moves: int = 400, backend: str | None = None) -> list[str]:
    """The lines of one playthrough; both back ends must write the same ones, so the
    back end is not recorded in the header."""
    game = load_game(name, players, options, backend)
    rnd = random.Random(seed)
    state = game.new_state(seed)
    header = {"ruleset": name, "players": game.player_count, "seed": seed, "options": game.options,
              "hash": game.rules.ruleset.content_hash}
    if max_moves != 400:
        header["max_moves"] = max_moves
    lines = ["# meeple playthrough " + json.dumps(header, sort_keys=True)]
    step = 0
    while True:
        lines.append(f"state {state.key()} phase={state.phase or '-'} to_move={list(game.current_players(state))}")
        lines.append("vars " + json.dumps(state.to_data()["vars"], sort_keys=True))
        if state.over or step >= max_moves:
            break
        legal = game.legal_moves(state)
        lines.append("legal " + " ".join(f"{m.player}:{m}" for m in legal))
        move = legal[rnd.randrange(len(legal))]
        lines.append(f"# apply {move.player}:{move}")
        state = game.apply(state, move)
        step += 1
    out = game.outcome(state)
    if out is not None:
        lines.append("outcome " + json.dumps(out.to_data(), sort_keys=True))
    return lines


def header_of(lines: list[str]) -> dict:
    first = lines[0]
    if not first.startswith("# meeple playthrough "):
        raise ValueError("not a meeple playthrough file")
    return json.loads(first[len("# meeple playthrough "):])


def regenerate(lines: list[str]) -> list[str]:
    h = header_of(lines)
    return playthrough_lines(h["ruleset"], h["players"], h["seed"], h["options"], h.get("max_moves", 400))
