"""Golden playthroughs: a self-describing record of one seeded bot game.

The header names the ruleset, players, options and seeds, so the file can be
regenerated from itself and compared line by line; any change of behaviour
shows up as a diff.  Regenerate only for intended changes:
`meeple playthrough GAME --seed N -o tests/playthroughs/GAME.txt`.

Like OpenSpiel's playthroughs, each step records what every player may know,
not only the referee's variables: one `view P {...}` line per player, the
canonical JSON of `Game.view(state, P)`, so a view that starts to show (or stops
showing) something is a one-line diff at the step where it happens.  The
`legal` line needs no per-player copy: each move in it is already written as
its mover reads it (`Game.legal_moves` names the items its mover cannot see
whole by their handles), and no player is shown another's moves.
"""
from __future__ import annotations

import json
import random

from ..runtime.loading import load_game

HEADER = "# meeple playthrough "
DEFAULT_MOVES = 400


def playthrough_lines(name: str, players: int | None, seed: int, options: dict | None = None,
                      max_moves: int = DEFAULT_MOVES, backend: str | None = None,
                      views_every: int = 1) -> list[str]:
    """The lines of one playthrough; both back ends must write the same ones, so the
    back end is not recorded in the header.  Views are recorded at every
    `views_every`-th step and at the last one, so that a long game's file stays small
    enough to read and diff."""
    if views_every < 1:
        raise ValueError(f"views_every must be at least 1, not {views_every}")
    game = load_game(name, players, options, backend)
    rnd = random.Random(seed)
    state = game.new_state(seed)
    header = {"ruleset": name, "players": game.player_count, "seed": seed, "options": game.options,
              "hash": game.rules.ruleset.content_hash}
    if max_moves != DEFAULT_MOVES:
        header["max_moves"] = max_moves
    if views_every != 1:
        header["views_every"] = views_every
    lines = [HEADER + json.dumps(header, sort_keys=True)]
    step = 0
    while True:
        lines.append(f"state {state.key()} phase={state.phase or '-'} to_move={list(game.current_players(state))}")
        lines.append("vars " + json.dumps(state.to_data()["vars"], sort_keys=True))
        last = state.over or step >= max_moves
        if last or step % views_every == 0:
            lines.extend(view_lines(game, state))
        if last:
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


def view_lines(game, state) -> list[str]:
    """`view P {...}` for each player in seat order: their view as canonical JSON."""
    return [f"view {p} " + json.dumps(game.view(state, p), sort_keys=True) for p in range(game.player_count)]


def header_of(lines: list[str]) -> dict:
    first = lines[0] if lines else ""
    if not first.startswith(HEADER):
        raise ValueError("not a meeple playthrough file")
    return json.loads(first[len(HEADER):])


def regenerate(lines: list[str]) -> list[str]:
    h = header_of(lines)
    return playthrough_lines(h["ruleset"], h["players"], h["seed"], h["options"],
                             h.get("max_moves", DEFAULT_MOVES), views_every=h.get("views_every", 1))


def command_of(header: dict, path: str) -> str:
    """The `meeple playthrough` command that writes this file again.  The command line
    takes no game options, so this holds for a file made with the ruleset's defaults,
    as every shipped golden is."""
    parts = ["meeple playthrough", header["ruleset"], "--seed", str(header["seed"]), "-p", str(header["players"])]
    if header.get("max_moves", DEFAULT_MOVES) != DEFAULT_MOVES:
        parts += ["--moves", str(header["max_moves"])]
    if header.get("views_every", 1) != 1:
        parts += ["--views-every", str(header["views_every"])]
    return " ".join(parts + ["-o", path])
