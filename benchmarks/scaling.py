"""How a study's games/s grow with CPUs: the same study played serially (`--jobs 1`),
in 2..N worker processes, and on a local Ray with 1..N CPUs, as a Markdown table of
games/s and the speed-up over `--jobs 1`.  Every run must give the same records (only
`cpu_seconds` may differ); the script says so, or stops.

    python -m meeple.benchmarks.scaling [--cpus N] [--games G] [--ruleset R] [--batch B]

The study is one cell: G games of R at its smallest player count between random bots,
through `run_study` as `meeple study` plays it (journal and records file included).
The time of a run is from the first game sent to the records file written; a Ray's
start-up (seconds, once per Ray) is measured apart and left out, since a study long
enough to need Ray pays it once.  A worker process loads the game itself, inside the
time, as does each Ray worker.  Machines are noisy: the load average is printed first.
"""
from __future__ import annotations

import argparse
import functools
import logging
import os
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from meeple.simulation.records import COLUMNS, read_records
from meeple.simulation.resume import run_study
from meeple.simulation.runner import run_processes, run_serial
from meeple.simulation.study import read_study

STUDY = "ruleset: {ruleset}\ngames: {games}\nseed: 0\nmax_moves: 100000\n"


def measure(study, name: str, play) -> dict:
    """One run of the study into its own records file: seconds and games/s."""
    study = replace(study, records=study.records.with_name(f"{name}.parquet"))
    started = time.perf_counter()
    run = run_study(study, play)
    seconds = time.perf_counter() - started
    return {"name": name, "seconds": seconds, "games": run.played, "rate": run.played / seconds,
            "records": [{k: r[k] for k in COLUMNS if k != "cpu_seconds"} for r in read_records(study.records)]}


def ray_runs(study, cpus: int, batch: int) -> list[dict]:
    """The study on local Rays of 1..cpus CPUs, each Ray started before its run is timed."""
    import ray

    from meeple.simulation.ray_backend import run_ray
    rows = []
    for n in range(1, cpus + 1):
        started = time.perf_counter()
        ray.init(address="local", num_cpus=n, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.ERROR)
        startup = time.perf_counter() - started
        try:
            row = measure(study, f"ray-{n}", functools.partial(run_ray, batch=batch))
        finally:
            ray.shutdown()
        rows.append({**row, "backend": "Ray (local)", "cpus": n, "startup": startup})
    return rows


def scaling(ruleset: str, games: int, cpus: int, batch: int, folder: Path) -> list[dict]:
    path = folder / "scaling.yaml"
    if Path(ruleset).exists():  # a path, read from this folder, not from the study's
        ruleset = str(Path(ruleset).resolve())
    path.write_text(STUDY.format(ruleset=ruleset, games=games), encoding="utf-8")
    study = read_study(path)
    rows = [{**measure(study, "jobs-1", run_serial), "backend": "--jobs", "cpus": 1}]
    for n in range(2, cpus + 1):
        pooled = functools.partial(run_processes, jobs=n, batch=batch)
        rows.append({**measure(study, f"jobs-{n}", pooled), "backend": "--jobs", "cpus": n})
    rows += ray_runs(study, cpus, batch)
    reference = rows[0]["records"]
    for row in rows[1:]:
        if row["records"] != reference:
            raise SystemExit(f"{row['name']} gave other records than --jobs 1: a back end is broken")
    return rows


def markdown(rows: list[dict]) -> str:
    base = rows[0]["rate"]
    lines = ["| back end | CPUs | games | seconds | games/s | speed-up over --jobs 1 | Ray start-up (s, not counted) |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for row in rows:
        startup = f"{row['startup']:.1f}" if "startup" in row else "—"
        lines.append(f"| {row['backend']} | {row['cpus']} | {row['games']} | {row['seconds']:.1f} | "
                     f"{row['rate']:.1f} | {row['rate'] / base:.2f}× | {startup} |")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpus", type=int, default=os.cpu_count(), help="the largest number of worker "
                        "processes and Ray CPUs to try (default: this machine's CPUs)")
    parser.add_argument("--games", type=int, default=2000, help="games of the study (default 2000)")
    parser.add_argument("--ruleset", default="treasure-hunter", help="a shipped ruleset or a path")
    parser.add_argument("--batch", type=int, default=20, help="games per task (default 20)")
    args = parser.parse_args(argv)
    if args.cpus < 1 or args.games < 1 or args.batch < 1:
        parser.error("--cpus, --games and --batch must be at least 1")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{args.ruleset}, {args.games} games in batches of {args.batch}; this machine: "
          f"{os.cpu_count()} CPUs, load average {load} (1, 5, 15 min) before the runs")
    with tempfile.TemporaryDirectory() as folder:
        rows = scaling(args.ruleset, args.games, args.cpus, args.batch, Path(folder))
    print("every run gave the records of --jobs 1 (all columns but cpu_seconds)\n")
    print(markdown(rows))


if __name__ == "__main__":
    main()
