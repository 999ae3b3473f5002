"""The game at a table as a scenario file (interpreter/scenario.py's format): its players,
seed, options and every move so far, then what holds now, so that `meeple test` replays
it and checks the position an author reached by playing.

What holds now is written as the scenario format's own expectations: whether the game
is over (and its outcome) or who is to move and their legal moves, and each variable's
plain values (numbers, truths, texts) and each zone's size as expressions.  Moves are
written by id: a scenario is the referee.
"""
from __future__ import annotations

import re

import yaml

from meeple.dsl.values import Item
from meeple.interpreter.runtime.moves import move_text

_PLAIN_TEXT = re.compile(r"^[\w .:\-]*$")


def scenario_text(table, moment, in_folder: bool = False) -> str:
    """`in_folder`: written into the ruleset's own `scenarios/`, where `ruleset:` is left out."""
    game, state = table.game, moment.state
    entry = {"name": f"recorded at a web table: {len(moment.history)} moves", "players": game.player_count,
             "seed": table.seed}
    if table.options:
        entry["options"] = table.options
    entry["moves"] = [{"player": move.player, "move": move_text(move)} for _, move in moment.history]
    entry["expect"] = expectations(game, state)
    doc = {} if in_folder else {"ruleset": table.source}
    doc["scenarios"] = [entry]
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=110)


def expectations(game, state) -> list:
    out: list = []
    if state.over:
        result = game.outcome(state)
        out += [{"over": True}, {"outcome": {"winners": list(result.winners), "scores": list(result.scores)}}]
    else:
        out += [{"to_move": list(game.current_players(state))},
                {"moves": [move_text(m) for m in game.legal_moves(state)]}]
    for name, decl in game.rules.variables.items():
        for place, value in _places(name, decl.per, state.vars[name]):
            literal = _literal(value)
            if literal is not None:
                out.append(f"{place} == {literal}")
    for name, decl in game.rules.zones.items():
        out += [f"len({place}) == {len(contents)}" for place, contents in _places(name, decl.per, state.zones[name])]
    return out


def _places(name: str, per, value):
    """(an entry's place as an expression, its value): the whole value, or one per player or key."""
    if per is None:
        yield name, value
    elif isinstance(value, dict):
        for key, entry in value.items():
            key_text = _literal(key)
            if key_text is not None:
                yield f"{name}[{key_text}]", entry
    else:
        yield from ((f"{name}[{p}]", entry) for p, entry in enumerate(value))


def _literal(value) -> str | None:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and _PLAIN_TEXT.match(value):
        return f"'{value}'"
    if isinstance(value, (tuple, list)) and all(not isinstance(v, Item) for v in value):
        parts = [_literal(v) for v in value]
        return None if None in parts else "[" + ", ".join(parts) + "]"
    return None
