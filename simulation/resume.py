"""Playing a study so that stopping it anywhere loses no finished game.

Each record is appended to a journal next to the records file as soon as it reaches
the driver (`results.parquet.journal.jsonl`, one JSON line, flushed); only at the end
is the records file written, whole and sorted, and the journal removed.  A rerun reads
the records file and the journal, skips every (cell, seed) they hold, and plays the
rest, so an interrupted study (a dead worker, a Ctrl-C, a lost machine) is finished by
running it again.  Records that this study would not have written (another sweep,
other options) are refused rather than mixed in.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from .records import COLUMNS, RecordsError, check_writable, json_records, read_records, write_records
from .tasks import Task
from .study import Study


@dataclass
class StudyRun:
    records: list  # every record of the study, by cell (in the sweep's order) then seed
    played: int  # games played by this run
    kept: int  # games a previous run had finished
    seconds: float  # wall time of this run's games


def journal_path(records: Path) -> Path:
    return records.with_name(records.name + ".journal.jsonl")


def run_study(study: Study, play: Callable[[list[Task]], Iterable[dict]]) -> StudyRun:
    """Play the games of `study` not yet done with `play` (a back end: tasks -> records as
    they finish), then write the records file.  Interrupted, the journal keeps every game
    `play` had handed back."""
    if not study.records.parent.is_dir():
        raise RecordsError(f"{study.records}: there is no folder {study.records.parent}")
    check_writable(study.records)  # not only once every game is played
    journal = journal_path(study.records)
    done = finished_games(study, journal)
    kept = len(done)
    todo = [task for task in study.tasks() if (task.cell, task.seed) not in done]
    started = time.perf_counter()
    unchanged = not todo and not journal.exists() and study.records.exists()
    if todo:
        with _Journal(journal) as log:
            for record in play(todo):
                record = {name: record[name] for name in COLUMNS}
                log.append(record)
                done[record["cell"], record["seed"]] = record
    seconds = time.perf_counter() - started
    records = [done[task.cell, task.seed] for task in study.tasks()]
    if not unchanged:
        _replace(study.records, records)
        journal.unlink(missing_ok=True)
    return StudyRun(records, len(todo), kept, seconds)


def finished_games(study: Study, journal: Path) -> dict:
    """(cell, seed) -> record, from the records file and the journal, each checked to be a
    game of this study; a game in both (a run stopped between writing the one and removing
    the other) is the same game, and is kept once."""
    cells = {cell.id: cell for cell in study.cells}
    found: dict = {}
    sources = [(study.records, read_records(study.records))] if study.records.exists() else []
    if journal.exists():
        sources.append((journal, read_journal(journal)))
    for path, records in sources:
        for record in records:
            _check_belongs(record, cells, study, path)
            found.setdefault((record["cell"], record["seed"]), record)
    return found


def _check_belongs(record: dict, cells: dict, study: Study, path: Path) -> None:
    cell = cells.get(record["cell"])
    game = f"a game (cell '{record['cell']}', seed {record['seed']})"
    why = None
    if cell is None:
        why = "of a cell this study does not sweep"
    elif record["seed"] not in study.seeds:
        why = f"with a seed outside this study's {study.seeds.start}..{study.seeds.stop - 1}"
    elif (record["ruleset"], record["players"], record["options"], list(record["bots"])) != \
            (cell.ruleset, cell.spec.players, cell.options, list(cell.bots)):
        why = "played with another ruleset, options or bots"
    if why:
        raise RecordsError(f"{path} holds {game} {why}; it is another study's: give this study "
                           f"its own records file (records: or --out), or remove that one")


def read_journal(path: Path) -> list[dict]:
    """The journal's records.  Its last line may be cut short (the driver died while
    writing it): that game is simply played again."""
    try:
        complete = path.read_text(encoding="utf-8").split("\n")[:-1]  # what follows the last newline is torn
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordsError(f"cannot read the journal {path}: {exc}") from None
    return json_records(complete, path)


class _Journal:
    """Appends records, one flushed line each, after cutting off a torn last line.  The
    file is opened at the first record, so a run that fails before any game leaves none."""

    def __init__(self, path: Path):
        self.path, self.file = path, None

    def __enter__(self):
        return self

    def append(self, record: dict) -> None:
        if self.file is None:
            if self.path.exists():
                data = self.path.read_bytes()
                if data and not data.endswith(b"\n"):
                    with self.path.open("r+b") as f:
                        f.truncate(data.rfind(b"\n") + 1)
            self.file = self.path.open("a", encoding="utf-8")
        self.file.write(json.dumps(record) + "\n")
        self.file.flush()

    def __exit__(self, *exc) -> None:
        if self.file is not None:
            self.file.close()


def _replace(path: Path, records: list) -> None:
    """Write the records file whole, then put it in place, so a run stopped while writing
    leaves the old file (and the journal) as they were."""
    partial = path.with_name(f".{path.stem}.writing{path.suffix}")
    write_records(partial, records)
    os.replace(partial, path)
