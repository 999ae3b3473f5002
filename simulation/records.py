"""One record per game, the unit every back end returns and every report reads.

The columns are declared once (`COLUMNS`, with what each means), so the Parquet
schema, the JSON-lines form and docs/simulation.md agree.  Parquet is written with
pyarrow (the `sim` extra); JSON lines need nothing.  Reading either gives the same
list of dicts, so a report does not care which was written.
"""
from __future__ import annotations

import json
from pathlib import Path

# name -> (pyarrow type name, meaning).  Per-seat columns are lists indexed by seat.
COLUMNS: dict[str, tuple[str, str]] = {
    "ruleset": ("string", "the ruleset's name"),
    "cell": ("string", "the study cell the game belongs to (empty outside a study)"),
    "seed": ("int64", "the game's seed: new_state(seed); seat p's bot is seeded with \"seed:p\""),
    "players": ("int64", "the player count"),
    "options": ("string", "the game's options, as a JSON object (every option, defaults included)"),
    "bots": ("list<string>", "the bot spec of each seat"),
    "moves": ("int64", "moves played (chance draws are not moves)"),
    "finished": ("bool", "the game reached its end"),
    "stuck": ("bool", "the game stopped at a decision with no legal move, or went round one nobody could act at"),
    "end_reason": ("string", "why the game ended (empty when it did not)"),
    "scores": ("list<double>", "each seat's final score (empty when it did not end, or has no score)"),
    "ranks": ("list<int64>", "each seat's rank, 1 = best; equal ranks are ties"),
    "winners": ("list<int64>", "the winning seats; empty for a draw"),
    "actions": ("list<map<string,int64>>", "per seat: action name -> how many times it was played"),
    "invariant_failures": ("int64", "invariants that failed after a move (with --check)"),
    "cpu_seconds": ("double", "CPU time of the game in the process that played it"),
}


class RecordsError(Exception):
    """A records file that cannot be read or written; the message says which and why."""


def arrow_schema():
    pa = _pyarrow()
    types = {"string": pa.string(), "int64": pa.int64(), "bool": pa.bool_(), "double": pa.float64(),
             "list<string>": pa.list_(pa.string()), "list<double>": pa.list_(pa.float64()),
             "list<int64>": pa.list_(pa.int64()),
             "list<map<string,int64>>": pa.list_(pa.map_(pa.string(), pa.int64()))}
    return pa.schema([(name, types[kind]) for name, (kind, _) in COLUMNS.items()])


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401 - the writer lives in a submodule
    except ImportError:
        raise RecordsError("writing or reading Parquet needs pyarrow: pip install 'meeple[sim]' "
                           "(or write .jsonl)") from None
    return pyarrow


def _check_format(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in (".parquet", ".jsonl"):
        raise RecordsError(f"{path}: a records file ends in .parquet or .jsonl")
    return suffix


def check_writable(path: Path) -> None:
    """Before games are played for it: a file of a format this installation can write."""
    if _check_format(path) == ".parquet":
        _pyarrow()


def write_records(path: str | Path, records: list[dict]) -> None:
    path = Path(path)
    suffix = _check_format(path)
    rows = [{name: r.get(name) for name in COLUMNS} for r in records]
    try:
        if suffix == ".jsonl":
            with path.open("w", encoding="utf-8") as out:
                for row in rows:
                    out.write(json.dumps(row, sort_keys=False) + "\n")
            return
        pa = _pyarrow()
        for row in rows:  # Arrow's map type takes (key, value) pairs
            row["actions"] = [sorted(seat.items()) for seat in row["actions"] or []]
        pa.parquet.write_table(pa.Table.from_pylist(rows, schema=arrow_schema()), path)
    except OSError as exc:
        raise RecordsError(f"cannot write {path}: {exc.strerror or exc}") from None


def read_records(path: str | Path) -> list[dict]:
    """The records of a file either back end wrote; a file that is not one is reported as such."""
    path = Path(path)
    suffix = _check_format(path)
    if not path.is_file():
        raise RecordsError(f"{path}: no such records file")
    if suffix == ".jsonl":
        with path.open(encoding="utf-8") as lines:
            return json_records(lines, path)
    pa = _pyarrow()
    try:
        table = pa.parquet.read_table(path)
    except (pa.ArrowInvalid, OSError) as exc:
        raise RecordsError(f"{path}: not a Parquet records file ({exc})") from None
    rows = table.to_pylist()
    for number, row in enumerate(rows, 1):
        _check_row(row, f"{path}: record {number}")
        row["actions"] = [dict(seat) for seat in row["actions"] or []]
    return rows


def json_records(lines, path: Path) -> list[dict]:
    """Records written one JSON object a line (a .jsonl records file, a study's journal)."""
    rows = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordsError(f"{path}:{number}: not a JSON record ({exc.msg})") from None
        _check_row(row, f"{path}:{number}")
        rows.append(row)
    return rows


def _check_row(row, where: str) -> None:
    if not isinstance(row, dict):
        raise RecordsError(f"{where}: a record is an object of columns")
    missing = [name for name in COLUMNS if name not in row]
    if missing:
        raise RecordsError(f"{where}: not a game record (no {', '.join(missing[:3])})")


def options_text(options: dict) -> str:
    return json.dumps(options, sort_keys=True)
