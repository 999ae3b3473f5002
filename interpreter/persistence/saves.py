"""Saved states (versioned JSON) and replay logs (JSON lines): writing, and one
checked reading of each.

Both come from outside, so reading never trusts them: the text is bounded in
size and nesting before JSON parses it, every field is checked for its kind
and against the ruleset's declarations, a save's state must be the one its
seed and moves lead to, and a log must end with its closing record.  Every
problem is a `CorruptFile` with a diagnostic code, the file, the line (logs) or
field (saves), and what is wrong; see "Saved states and replay logs" in
docs/language.md.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from meeple.dsl.source import FileTooLarge, read_file_bytes

from ..runtime.moves import IllegalMove
from .save_check import Bad, is_int, read_state, show
from ..runtime.state import State

SAVE_VERSION = 2
LOG_VERSION = 2
LOG_VERSIONS_READ = (1, 2)  # a version-1 log has no closing record: a cut cannot be seen
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_NESTING = 200  # JSON arrays/objects inside each other; far below the parser's recursion


class CorruptFile(Exception):
    """A save or a replay log that cannot be read as one.  `code` is a D0xx diagnostic
    code, `line` the log line (None for saves), `field` the save field ('' if none)."""

    def __init__(self, path, message: str, line: int | None = None, code: str = "D005",
                 kind: str = "file", field: str = ""):
        self.path, self.message, self.line, self.code = path, message, line, code
        self.kind, self.field = kind, field
        where = f"{path}:{line}" if line else str(path)
        at = f"{field}: " if field else ""
        super().__init__(f"{where}: {self.headline()} [{code}]: {at}{message}")

    def headline(self) -> str:
        """What is wrong, in a word or two: a file that is not there is missing, not
        corrupt, and a log of a ruleset not shipped is sound but needs `--rules`."""
        if self.code == "D012":
            return f"missing {self.kind}"
        if self.code == "D011":
            return "ruleset not found"
        return f"corrupt {self.kind}"


def _corrupt_save(path, bad: Bad) -> CorruptFile:
    return CorruptFile(path, bad.message, None, bad.code, "save", bad.field)


# -- bounded JSON ----------------------------------------------------------------------
_SIGNIFICANT = re.compile(r'["\\\[\]{}]')  # what can open or close a string, an array or an object


def nesting(text: str, limit: int = MAX_NESTING) -> int:
    """How deeply arrays and objects nest in a JSON text (strings skipped), counted without
    recursion so that a hostile depth cannot overflow the stack; stops past `limit`.
    One pass over the characters that matter (a pattern for whole strings went back over
    an unclosed one from every quote in it: quadratic time on `"\"\"\"...`)."""
    depth = deepest = 0
    in_string, escaped_at = False, -1
    for m in _SIGNIFICANT.finditer(text):
        at, ch = m.start(), m.group()
        if at == escaped_at:
            continue
        if in_string:
            if ch == "\\":
                escaped_at = at + 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif ch in "]}":
            depth -= 1
    return deepest


def parse_json(text: str, path, kind: str, line: int | None = None):
    if nesting(text) > MAX_NESTING:
        raise CorruptFile(path, f"nested more than {MAX_NESTING} levels deep", line, "D002", kind)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        at = f" at line {exc.lineno}" if line is None else ""
        raise CorruptFile(path, f"not valid JSON ({exc.msg}{at})", line or exc.lineno, "D002", kind) from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer of more than 4,300 digits
        raise CorruptFile(path, f"not readable JSON ({exc})", line, "D002", kind) from None


def read_text(path, kind: str) -> str:
    try:
        return read_file_bytes(path, MAX_FILE_BYTES).decode("utf-8")
    except FileTooLarge as exc:
        raise CorruptFile(path, f"{exc.size} bytes, more than the {MAX_FILE_BYTES} a {kind} may have",
                          None, "D001", kind) from None
    except FileNotFoundError:
        raise CorruptFile(path, "there is no such file", None, "D012", kind) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CorruptFile(path, f"cannot be read ({exc})", None, "D001", kind) from None


def _canonical(data) -> str:
    """JSON text that tells `true` from `1` and `1.0` from `1`, for exact comparisons."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _move_record(m) -> tuple:
    return (m.player, str(m)) if hasattr(m, "action") else (int(m[0]), str(m[1]))


# -- saves -------------------------------------------------------------------------------
def state_to_json(game, state: State, seed: int | None = None, moves=None) -> dict:
    """A save holds the whole state (the generator included), so it is the referee's
    file, not a player's.  With `seed` and `moves` (every move since `new_state(seed)`,
    as Moves or (player, text) pairs) it can be verified when it is read."""
    out = {"format": "meeple-state", "version": SAVE_VERSION, "ruleset": game.name,
           "hash": game.rules.ruleset.content_hash, "players": game.player_count,
           "options": game.options, "state": state.to_data(), "log": list(state.log)}
    if seed is not None:
        out["seed"] = seed
    if moves is not None:
        out["moves"] = [list(_move_record(m)) for m in moves]
    return out


def save_state(game, state: State, path: str | Path, seed: int | None = None, moves=None) -> None:
    Path(path).write_text(json.dumps(state_to_json(game, state, seed, moves), indent=1, sort_keys=True),
                          encoding="utf-8")


@dataclass
class SavedGame:
    state: State
    hash_matches: bool  # false: the ruleset's text changed since the save was made
    seed: int | None = None  # how the game was dealt, if the save says
    moves: list = field(default_factory=list)  # [(player, text)] since new_state(seed)
    verified: bool = False  # the state is the one the seed and moves lead to


SAVE_FIELDS = {"format", "version", "ruleset", "hash", "players", "options", "state", "log", "seed", "moves"}


def read_saved(game, data, path="<data>") -> SavedGame:
    """The one reading of a save's data (already parsed): header, fields, declarations,
    then, when it records its seed and moves, a replay that must reach the very same
    state; last, the ruleset's invariants.  Raises CorruptFile."""
    def bad(message, code="D005", fld=""):
        return CorruptFile(path, message, None, code, "save", fld)
    if not isinstance(data, dict) or data.get("format") != "meeple-state":
        raise bad("not a meeple saved state (the 'format' field is missing or wrong)", "D003", "format")
    if data.get("version") != SAVE_VERSION:
        raise bad(f"saved with format version {show(data.get('version'))}; this meeple reads version "
                  f"{SAVE_VERSION} (a version-1 save holds no move history to check it by)", "D003", "version")
    unknown = sorted(set(data) - SAVE_FIELDS)
    if unknown:
        raise bad(f"unknown field(s): {', '.join(unknown)}")
    for name in ("ruleset", "hash", "players", "options", "state"):
        if name not in data:
            raise bad("missing", fld=name)
    if data["ruleset"] != game.name:
        raise bad(f"saved from ruleset {show(data['ruleset'])}, not '{game.name}'", "D004", "ruleset")
    if not isinstance(data["hash"], str):
        raise bad("must be a text", fld="hash")
    if not is_int(data["players"]) or data["players"] != game.player_count:
        raise bad(f"saved with {show(data['players'])} players, not {game.player_count}", "D004", "players")
    if _canonical(data["options"]) != _canonical(json.loads(json.dumps(game.options))):
        raise bad(f"saved with the options {show(data['options'])}, not {game.options}", "D004", "options")
    seed = data.get("seed")
    if seed is not None and not is_int(seed):
        raise bad(f"must be a whole number, not {show(seed)}", fld="seed")
    moves = _save_moves(data.get("moves"), game, bad)
    if moves is not None and seed is None:
        raise bad("a save with moves records the seed they were played from", fld="seed")
    hash_matches = data["hash"] == game.rules.ruleset.content_hash
    fresh = game.new_state(seed or 0)
    try:
        state = read_state(game, data["state"], data.get("log", []), fresh)
    except Bad as exc:
        raise _corrupt_save(path, exc) from None
    if moves is not None:
        state = _verify(game, fresh, moves, data, hash_matches, bad)
    else:
        _probe(game, state, bad)
    failed = _invariant_failures(game, state, bad)
    if failed:
        raise bad(f"the ruleset's invariant does not hold: {failed[0].reason}", "D008", "state")
    return SavedGame(state, hash_matches, seed, moves or [], moves is not None)


def _save_moves(plain, game, bad):
    if plain is None:
        return None
    if not isinstance(plain, list):
        raise bad("must be a list of [player, move] pairs", fld="moves")
    out = []
    for i, m in enumerate(plain):
        if not (isinstance(m, list) and len(m) == 2 and is_int(m[0]) and isinstance(m[1], str)
                and 0 <= m[0] < game.player_count):
            raise bad(f"a move is [player, text], not {show(m)}", fld=f"moves[{i}]")
        out.append((m[0], m[1]))
    return out


def _verify(game, fresh, moves, data, hash_matches, bad) -> State:
    """Replay the recorded moves from the recorded seed: the saved state must be exactly
    where they lead, so an edited generator, deal, score or seed is found."""
    changed = "" if hash_matches else " (the ruleset changed since the save was made)"
    state = fresh
    for i, (player, text) in enumerate(moves):
        try:
            state = game.apply(state, text, player)
        except IllegalMove as exc:
            raise bad(f"move '{text}' by player {player} is not legal when the game is replayed from "
                      f"its seed{changed}: {exc.rejection.reason}", "D007", f"moves[{i}]") from None
    got, want = json.loads(json.dumps(state.to_data())), data["state"]
    if _canonical(got) != _canonical(want):
        where = _first_difference(got, want, "state")
        raise bad(f"differs from the state that the seed and the moves lead to{changed}", "D007", where)
    if list(state.log) != data.get("log", []):
        raise bad(f"differs from the messages that the seed and the moves lead to{changed}", "D007", "log")
    return state


def _first_difference(a, b, at: str) -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b or _canonical(a[k]) != _canonical(b[k]):
                return _first_difference(a.get(k), b.get(k), f"{at}.{k}") if k in a and k in b else f"{at}.{k}"
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if _canonical(x) != _canonical(y):
                return _first_difference(x, y, f"{at}[{i}]")
    return at


def _invariant_failures(game, state, bad) -> list:
    from ..runtime.context import RuleError
    try:
        return game.invariant_failures(state)
    except RuleError as exc:
        raise bad(f"the ruleset's invariants cannot be checked on this state: {exc}", "D008", "state") from None


def _probe(game, state, bad):
    """A state that no move history vouches for: the rules must at least be able to offer
    its moves (the field checks cannot foresee every value an expression may meet)."""
    from meeple.dsl.eval_errors import EvalError

    from ..runtime.context import RuleError
    try:
        game.legal_moves(state)
    except (RuleError, EvalError) as exc:
        raise bad(f"the rules cannot continue from this state: {exc}", "D006", "state") from None


def state_from_json(game, data, path="<data>") -> State:
    return read_saved(game, data, path).state


def read_save(game, path: str | Path, require_history: bool = False) -> SavedGame:
    """Read and check a save file.  `require_history`: refuse a save that does not record
    its seed and moves (the command line continues only verified saves)."""
    saved = read_saved(game, parse_json(read_text(path, "save"), path, "save"), path)
    if require_history and not saved.verified:
        raise CorruptFile(path, "records no seed and moves, so its state cannot be checked; only saves "
                          "written by meeple (or save_state with seed and moves) can be continued",
                          None, "D010", "save", "moves")
    return saved


def load_state(game, path: str | Path) -> State:
    return read_save(game, path).state


# -- replay logs ---------------------------------------------------------------------------
@dataclass
class ReplayLog:
    ruleset: str
    hash: str
    players: int
    seed: int
    options: dict
    moves: list  # [(player, text)]
    final_key: str | None = None
    version: int = LOG_VERSION
    lines: list = field(default_factory=list)  # the file line of each move
    complete: bool = True  # False: a version-1 log without its final record, maybe cut short


HEADER_FIELDS = {"format", "version", "ruleset", "hash", "players", "seed", "options"}


def write_log(path: str | Path, game, seed: int, moves, final_state: State | None = None) -> None:
    """Header, one line per move (Moves or (player, text) pairs), then the closing record
    with the number of moves (and the final state's key), so a cut-short log is seen."""
    records = [(_move_record(m)) for m in moves]
    lines = [json.dumps({"format": "meeple-replay", "version": LOG_VERSION, "ruleset": game.name,
                         "hash": game.rules.ruleset.content_hash, "players": game.player_count,
                         "seed": seed, "options": game.options})]
    lines += [json.dumps({"player": p, "move": text}) for p, text in records]
    end = {"end": len(records)}
    if final_state is not None:
        end["final"] = final_state.key()
    lines.append(json.dumps(end))
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_log(path: str | Path) -> ReplayLog:
    text = read_text(path, "log")
    numbered = [(i, ln) for i, ln in enumerate(text.splitlines(), 1) if ln.strip()]
    if not numbered:
        raise CorruptFile(path, "the replay log is empty", None, "D003", "log")

    def bad(message, line, code="D005"):
        return CorruptFile(path, message, line, code, "log")
    first, head_text = numbered[0]
    head = parse_json(head_text, path, "log", first)
    if not isinstance(head, dict) or head.get("format") != "meeple-replay":
        raise bad("the first line is not a meeple replay header", first, "D003")
    version = head.get("version")
    if not is_int(version) or version not in LOG_VERSIONS_READ:
        raise bad(f"log format version {show(version)}; this meeple reads versions "
                  f"{', '.join(map(str, LOG_VERSIONS_READ))}", first, "D003")
    _check_header(head, lambda m: bad(m, first))
    log = ReplayLog(head["ruleset"], head["hash"], head["players"], head["seed"], head["options"], [],
                    version=version)
    closed = None
    for i, ln in numbered[1:]:
        rec = parse_json(ln, path, "log", i)
        if closed is not None:
            raise bad(f"a record after the closing record of line {closed}", i, "D009")
        if not isinstance(rec, dict):
            raise bad("a record is an object", i)
        if set(rec) == {"player", "move"}:
            if not (is_int(rec["player"]) and isinstance(rec["move"], str)):
                raise bad("a move record is {\"player\": number, \"move\": text}", i)
            log.moves.append((rec["player"], rec["move"]))
            log.lines.append(i)
        elif version >= 2 and set(rec) in ({"end"}, {"end", "final"}):
            if not is_int(rec["end"]) or not isinstance(rec.get("final", ""), str):
                raise bad("the closing record is {\"end\": number of moves, \"final\": text}", i)
            if rec["end"] != len(log.moves):
                raise bad(f"the closing record counts {rec['end']} moves, but the log holds "
                          f"{len(log.moves)}", i, "D009")
            log.final_key, closed = rec.get("final"), i
        elif version == 1 and set(rec) == {"final"} and isinstance(rec["final"], str):
            log.final_key, closed = rec["final"], i
        else:
            raise bad(f"not a move or closing record: fields {', '.join(map(str, sorted(rec)))}", i)
    if closed is None:
        if version >= 2:
            raise bad(f"the log ends after {len(log.moves)} moves without its closing record: it was cut "
                      "short", numbered[-1][0], "D009")
        log.complete = False
    return log


def _check_header(head, bad):
    unknown = sorted(set(head) - HEADER_FIELDS)
    if unknown:
        raise bad(f"unknown header field(s): {', '.join(map(str, unknown))}")
    kinds = {"ruleset": (str, "a text"), "hash": (str, "a text"), "players": (int, "a whole number"),
             "seed": (int, "a whole number"), "options": (dict, "an object")}
    for name, (kind, said) in kinds.items():
        if name not in head:
            raise bad(f"the header has no '{name}'")
        if not isinstance(head[name], kind) or isinstance(head[name], bool):
            raise bad(f"the header's '{name}' must be {said}, not {show(head[name])}")


def game_for_log(log: ReplayLog, path, rules_path=None):
    """The game a log was played in.  Its ruleset comes from the shipped rulesets by the
    name the log records, or from `rules_path` given by the user (whose name must match):
    never from a path read out of the log, which could name any file on the machine."""
    from ..runtime.game import Game
    from ..runtime.loading import list_rulesets, load_rules
    if rules_path is not None:
        rules = load_rules(rules_path)
        if rules.ruleset.game.name != log.ruleset:
            raise CorruptFile(path, f"the log is for ruleset {show(log.ruleset)}, but {rules_path} is "
                              f"'{rules.ruleset.game.name}'", 1, "D004", "log")
    elif log.ruleset in list_rulesets():
        rules = load_rules(log.ruleset)
    else:
        raise CorruptFile(path, f"the log was played with ruleset {show(log.ruleset)}, which is not a "
                          f"shipped ruleset; give its file or folder: meeple replay {path} --rules "
                          f"PATH/TO/{_shown_name(log.ruleset)}", 1, "D011", "log")
    try:
        game = Game(rules, log.players, log.options)
    except ValueError as exc:
        raise CorruptFile(path, f"the header does not fit the ruleset: {exc}", 1, "D004", "log") from None
    for line, (player, _) in zip(log.lines, log.moves):
        if not 0 <= player < game.player_count:
            raise CorruptFile(path, f"player {player} is not one of the {game.player_count} players", line,
                              "D005", "log")
    return game


def _shown_name(name: str) -> str:
    """A ruleset name from a log, fit to print in a hint (a log can hold any text)."""
    return name if re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", name) else "RULESET"


@dataclass
class ReplayResult:
    state: State
    moves_applied: int
    diverged_at: int | None  # 1-based move number, or None
    reason: str = ""
    hash_matches: bool = True
    final_matches: bool | None = None
    line: int | None = None  # the log line of the move that diverged, if known


def replay(game, log: ReplayLog) -> ReplayResult:
    state = game.new_state(log.seed)
    same_rules = log.hash == game.rules.ruleset.content_hash
    for i, (player, text) in enumerate(log.moves, 1):
        try:
            state = game.apply(state, text, player)
        except IllegalMove as exc:
            line = log.lines[i - 1] if len(log.lines) >= i else None
            return ReplayResult(state, i - 1, i, f"move {i} '{text}' by player {player} is not legal: "
                                f"{exc.rejection.reason}", same_rules, None, line)
    final = None if log.final_key is None else (log.final_key == state.key())
    return ReplayResult(state, len(log.moves), None, "", same_rules, final)
