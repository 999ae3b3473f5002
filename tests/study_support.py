"""What the study tests share: small study files, and a batch player that kills the
worker process running it, to show that a dead worker loses no finished game.

The killer is a module-level function so that worker processes (pickled by name) and
Ray workers (which get the driver's sys.path) can both import it."""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from meeple.simulation.records import COLUMNS, read_records
from meeple.simulation.runner import play_batch

# nim is for two players only: the sweep varies its option and the line-up, 4 cells of
# quick games.
NIM_STUDY = """\
ruleset: nim
games: {games}
seed: 5
records: {records}
sweep:
  options:
    heaps: [[3, 4, 5], [2, 3]]
  bots:
    - random
    - mcts:5 random
"""

NIM_CELLS = ["players=2 bots=random,random heaps=[3,4,5]", "players=2 bots=random,random heaps=[2,3]",
             "players=2 bots=mcts:5,random heaps=[3,4,5]", "players=2 bots=mcts:5,random heaps=[2,3]"]


def write_study(folder: Path, games: int = 6, records: str = "results.parquet", name: str = "study.yaml") -> Path:
    path = folder / name
    path.write_text(NIM_STUDY.format(games=games, records=records), encoding="utf-8")
    return path


def comparable(record: dict) -> dict:
    """A record without what depends on the machine (CPU time)."""
    return {k: v for k, v in record.items() if k in COLUMNS and k != "cpu_seconds"}


def comparable_file(path: Path) -> list:
    return [comparable(r) for r in read_records(path)]


def journal_lines(path: Path) -> int:
    return path.read_text(encoding="utf-8").count("\n") if path.exists() else 0


def play_or_die(marker: str, journal: str, wait_for: int, doomed: tuple, tasks):
    """`play_batch`, except that the batch holding the (cell, seed) `doomed` kills its own
    worker (SIGKILL) on its first attempt (the `marker` file is the memory of attempts),
    once the journal holds `wait_for` games: so the test knows which games finished."""
    if any((t.cell, t.seed) == doomed for t in tasks):
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return play_batch(tasks)
        waited = 0.0
        while journal_lines(Path(journal)) < wait_for and waited < 120:
            time.sleep(0.05)
            waited += 0.05
        os.kill(os.getpid(), signal.SIGKILL)
    return play_batch(tasks)


def refuse(tasks):
    """A batch player whose game fails, as a ruleset's error would."""
    raise ValueError(f"refused seed {tasks[0].seed}")


def stop_after(records, count: int):
    """A back end's records, the driver stopping (as at a Ctrl-C) once `count` have come."""
    for n, record in enumerate(records, 1):
        yield record
        if n == count:
            raise KeyboardInterrupt
