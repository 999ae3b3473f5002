"""`meeple study STUDY.yaml`: a sweep of player counts, options and bot line-ups played
on any back end into one records file, resumed where a previous run stopped
(meeple.simulation.study and .resume; docs/simulation.md)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from .render import console, fail, print_diagnostics
from .where_options import batch_option, jobs_option, ray_address_option, ray_option, ray_target


def study(path: Path = typer.Argument(..., help="the study file (YAML; docs/simulation.md)"),
          out: Optional[Path] = typer.Option(None, "--out", help="write the records here instead of the "
                                                                  "file's `records:` (.parquet or .jsonl)"),
          jobs: Optional[int] = jobs_option(),
          ray: bool = ray_option(),
          ray_address: Optional[str] = ray_address_option(),
          batch: int = batch_option()):
    """Play every cell of a study (player counts x options x bot line-ups, the same seeds in
    each) into one records file; a rerun plays only the games not yet done."""
    from dataclasses import replace

    from meeple.simulation.records import RecordsError, _check_format
    from meeple.simulation.resume import journal_path, run_study
    from meeple.simulation.tasks import BackendError
    from meeple.simulation.study import StudyError, read_study
    where = ray_target(ray, ray_address, jobs, batch)
    try:
        plan = read_study(path)
        if out is not None:
            _check_format(out)
            plan = replace(plan, records=out)
    except StudyError as exc:
        print_diagnostics(exc.diagnostics)
        raise typer.Exit(2)
    except RecordsError as exc:
        fail(str(exc))
    per_cell = len(plan.seeds)
    console.print(f"[bold]{escape(str(path))}[/]: {len(plan.cells)} cell(s) x {per_cell} games, seeds "
                  f"{plan.seeds.start}..{plan.seeds.stop - 1} -> {escape(str(plan.records))}")
    kept = journal_path(plan.records)
    resume = f"the games finished so far are kept in {kept}: run the study again to play the rest"
    try:
        run = run_study(plan, _with_progress(jobs, where, batch))
    except (RecordsError, BackendError) as exc:
        fail(f"{exc}; {resume}" if kept.exists() else str(exc))
    except KeyboardInterrupt:
        fail(f"interrupted; {resume}" if kept.exists() else "interrupted", code=130)
    _print_cells(plan, run)
    rate = f", {run.played / run.seconds:.1f} games/s" if run.played and run.seconds else ""
    console.print(f"played {run.played} game(s) in {run.seconds:.1f} s{rate}; {run.kept} were done before; "
                  f"written {escape(str(plan.records))} ({len(run.records)} records)")


def _with_progress(jobs, where, batch):
    """The back end, with a progress bar over the games this run plays.  The back end is
    started first (in the generator, before the bar), so Ray's errors come without a bar."""
    from meeple.simulation.runner import run_games

    def play(tasks):
        records = run_games(tasks, jobs, where, batch)
        with Progress(transient=True, console=console) as bar:
            task = bar.add_task("playing", total=len(tasks))
            for record in records:
                yield record
                bar.advance(task)
    return play


def _print_cells(plan, run) -> None:
    from meeple.simulation.summary import summarise
    table = Table("games", "mean moves", "unfinished", "draws", "win rate by seat")
    table.add_column("cell", overflow="fold")  # an id is never cut short, at most wrapped
    by_cell: dict = {}
    for record in run.records:
        by_cell.setdefault(record["cell"], []).append(record)
    for cell in plan.cells:
        s = summarise(by_cell.get(cell.id, []), cell.spec.players, {})
        table.add_row(str(s["games"]), str(s["length"]["mean"]), str(s["unfinished"] + s["stuck"]),
                      str(s["draws"]), " ".join(f"{rate:.0%}" for rate in s["win_rate_by_seat"]), escape(cell.id))
    console.print(table)
