"""Saved states (versioned JSON) and replay logs (JSON lines).

A save names its ruleset and content hash so that loading it against changed
rules is reported, not silently accepted.  A replay log is the seed, the
options and the moves: replaying reproduces the final state exactly, or says
at which move it diverged.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .moves import IllegalMove
from .state import State, from_plain

SAVE_VERSION = 1
LOG_VERSION = 1


class CorruptFile(Exception):
    """A save or a replay log that cannot be read as one."""

    def __init__(self, path, message: str, line: int | None = None):
        self.path, self.message, self.line = path, message, line
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: corrupt file: {message}")


def state_to_json(game, state: State, seed: int | None = None) -> dict:
    """A save holds the whole state (the generator included), so it is the referee's
    file, not a player's; `seed` records how the game was dealt."""
    return {"format": "meeple-state", "version": SAVE_VERSION, "ruleset": game.name,
            "hash": game.rules.ruleset.content_hash, "players": game.player_count,
            "options": game.options, "state": state.to_data(), "log": list(state.log),
            **({"seed": seed} if seed is not None else {})}


def save_state(game, state: State, path: str | Path, seed: int | None = None) -> None:
    Path(path).write_text(json.dumps(state_to_json(game, state, seed), indent=1, sort_keys=True),
                          encoding="utf-8")


def state_from_json(game, data, path="<data>") -> State:
    if not isinstance(data, dict) or data.get("format") != "meeple-state":
        raise CorruptFile(path, "not a meeple saved state (the 'format' field is missing or wrong)")
    if data.get("version") != SAVE_VERSION:
        raise CorruptFile(path, f"saved with format version {data.get('version')!r}; this meeple reads {SAVE_VERSION}")
    if data.get("ruleset") != game.name:
        raise CorruptFile(path, f"saved from ruleset '{data.get('ruleset')}', not '{game.name}'")
    if data.get("players") != game.player_count:
        raise CorruptFile(path, f"saved with {data.get('players')} players, not {game.player_count}")
    options = json.loads(json.dumps(game.options))  # as a save writes them: lists, not tuples
    if json.loads(json.dumps(data.get("options", options))) != options:
        raise CorruptFile(path, f"saved with the options {data.get('options')}, not {game.options}")
    try:
        s = data["state"]
        state = State()
        items = game.items
        state.vars = {k: from_plain(v, items) for k, v in s["vars"].items()}
        state.zones = {k: from_plain(v, items) for k, v in s["zones"].items()}
        state.props = {k: from_plain(v, items) for k, v in s["props"].items()}
        state.locals = {k: from_plain(v, items) for k, v in s["locals"].items()}
        state.pc, state.pending, state.rng = int(s["pc"]), tuple(s["pending"]), int(s["rng"])
        state.over, state.ending, state.end_reason = bool(s["over"]), s["ending"], s["end_reason"]
        state.phase, state.move_count = s["phase"], int(s["move_count"])
        state.log = tuple(data.get("log", ()))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CorruptFile(path, f"the state is incomplete or malformed ({type(exc).__name__}: {exc})") from None
    _check_shape(game, state, path)
    return state


def _check_shape(game, state, path):
    rules = game.rules
    if set(state.vars) != set(rules.variables) or set(state.zones) != set(rules.zones):
        raise CorruptFile(path, "its variables or zones do not match the ruleset")
    if not 0 <= state.pc < len(rules.points):
        raise CorruptFile(path, "its flow position does not exist in the ruleset")


def load_state(game, path: str | Path) -> State:
    return read_save(game, path).state


@dataclass
class SavedGame:
    state: State
    hash_matches: bool  # false: the ruleset's text changed since the save was made
    seed: int | None = None  # how the game was dealt, if the save says


def read_save(game, path: str | Path) -> SavedGame:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise CorruptFile(path, f"cannot be read ({exc})") from None
    except json.JSONDecodeError as exc:
        raise CorruptFile(path, f"not valid JSON ({exc.msg} at line {exc.lineno})", exc.lineno) from None
    state = state_from_json(game, data, path)
    seed = data.get("seed")
    if seed is not None and not isinstance(seed, int):
        raise CorruptFile(path, f"its seed must be a whole number, not {seed!r}")
    return SavedGame(state, data.get("hash") == game.rules.ruleset.content_hash, seed)


# -- replay logs ------------------------------------------------------------------
@dataclass
class ReplayLog:
    ruleset: str
    hash: str
    players: int
    seed: int
    options: dict
    moves: list  # [(player, text)]
    final_key: str | None = None


def write_log(path: str | Path, game, seed: int, moves, final_state: State | None = None) -> None:
    lines = [json.dumps({"format": "meeple-replay", "version": LOG_VERSION, "ruleset": game.name,
                         "hash": game.rules.ruleset.content_hash, "players": game.player_count,
                         "seed": seed, "options": game.options})]
    for m in moves:
        lines.append(json.dumps({"player": m.player, "move": str(m)}))
    if final_state is not None:
        lines.append(json.dumps({"final": final_state.key()}))
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_log(path: str | Path) -> ReplayLog:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CorruptFile(path, f"cannot be read ({exc})") from None
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise CorruptFile(path, "the replay log is empty")
    records = []
    for i, ln in enumerate(lines, 1):
        try:
            records.append(json.loads(ln))
        except json.JSONDecodeError as exc:
            raise CorruptFile(path, f"line is not JSON ({exc.msg})", i) from None
    head = records[0]
    if not isinstance(head, dict) or head.get("format") != "meeple-replay":
        raise CorruptFile(path, "the first line is not a meeple replay header", 1)
    try:
        log = ReplayLog(str(head["ruleset"]), str(head["hash"]), int(head["players"]), int(head["seed"]),
                        dict(head.get("options") or {}), [])
        for i, rec in enumerate(records[1:], 2):
            if "final" in rec:
                log.final_key = str(rec["final"])
            else:
                log.moves.append((int(rec["player"]), str(rec["move"])))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CorruptFile(path, f"a record is malformed ({exc})") from None
    return log


@dataclass
class ReplayResult:
    state: State
    moves_applied: int
    diverged_at: int | None  # 1-based move number, or None
    reason: str = ""
    hash_matches: bool = True
    final_matches: bool | None = None


def replay(game, log: ReplayLog) -> ReplayResult:
    state = game.new_state(log.seed)
    for i, (player, text) in enumerate(log.moves, 1):
        try:
            state = game.apply(state, text, player)
        except IllegalMove as exc:
            return ReplayResult(state, i - 1, i, f"move {i} '{text}' by player {player} is not legal: "
                                f"{exc.rejection}", log.hash == game.rules.ruleset.content_hash)
    final = None if log.final_key is None else (log.final_key == state.key())
    return ReplayResult(state, len(log.moves), None, "", log.hash == game.rules.ruleset.content_hash, final)
