"""How a study's games/s grow with CPUs: the same study played serially (`--jobs 1`),
in 2..N worker processes, and on a local Ray with 1..N CPUs, as a Markdown table of
games/s and the speed-up over `--jobs 1`.  Every run must give the same records (only
`cpu_seconds` may differ); the script says so, or stops.

    python -m meeple.benchmarks.scaling [--cpus N] [--games G] [--ruleset R] [--batch B] [--repeat K]

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
    study.records.unlink(missing_ok=True)
    started = time.perf_counter()
    run = run_study(study, play)
    seconds = time.perf_counter() - started
    return {"name": name, "seconds": seconds, "games": run.played, "rate": run.played / seconds,
            "records": [{k: r[k] for k in COLUMNS if k != "cpu_seconds"} for r in read_records(study.records)]}


def on_ray(study, cpus: int, batch: int) -> dict:
    """The study on a local Ray of `cpus` CPUs, started before the run is timed."""
    import ray

    from meeple.simulation.ray_backend import run_ray
    started = time.perf_counter()
    ray.init(address="local", num_cpus=cpus, include_dashboard=False, log_to_driver=False,
             logging_level=logging.ERROR)
    startup = time.perf_counter() - started
    try:
        return {**measure(study, f"ray-{cpus}", functools.partial(run_ray, batch=batch)), "startup": startup}
    finally:
        ray.shutdown()


def runs(cpus: int, batch: int) -> list[tuple]:
    """(back end, CPUs, how to play the study once) for every configuration."""
    out = [("--jobs", 1, lambda study: measure(study, "jobs-1", run_serial))]
    for n in range(2, cpus + 1):
        out.append(("--jobs", n, lambda study, n=n: measure(
            study, f"jobs-{n}", functools.partial(run_processes, jobs=n, batch=batch))))
    out += [("Ray (local)", n, lambda study, n=n: on_ray(study, n, batch)) for n in range(1, cpus + 1)]
    return out


def scaling(ruleset: str, games: int, cpus: int, batch: int, repeat: int, folder: Path) -> list[dict]:
    """Each configuration `repeat` times, taking turns (so a burst of load elsewhere falls
    on all of them), and the fastest run of each: the one least slowed by other work."""
    path = folder / "scaling.yaml"
    if Path(ruleset).exists():  # a path, read from this folder, not from the study's
        ruleset = str(Path(ruleset).resolve())
    path.write_text(STUDY.format(ruleset=ruleset, games=games), encoding="utf-8")
    study = read_study(path)
    configurations = runs(cpus, batch)
    best: dict = {}
    for _ in range(repeat):
        for backend, n, play in configurations:
            row = {**play(study), "backend": backend, "cpus": n}
            if (backend, n) not in best or row["seconds"] < best[backend, n]["seconds"]:
                best[backend, n] = row
    rows = [best[backend, n] for backend, n, _ in configurations]
    for row in rows[1:]:
        if row["records"] != rows[0]["records"]:
            raise SystemExit(f"{row['name']} gave other records than --jobs 1: a back end is broken")
    return rows


def markdown(rows: list[dict]) -> str:
    base = rows[0]["rate"]
    lines = ["| back end | CPUs | games | seconds | games/s | speed-up over --jobs 1 "
             "| Ray start-up (s, not counted) |",
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
    parser.add_argument("--repeat", type=int, default=1, help="runs of each configuration; the fastest "
                        "is reported (default 1)")
    args = parser.parse_args(argv)
    if min(args.cpus, args.games, args.batch, args.repeat) < 1:
        parser.error("--cpus, --games, --batch and --repeat must be at least 1")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{args.ruleset}, {args.games} games in batches of {args.batch}, best of {args.repeat}; this machine: "
          f"{os.cpu_count()} CPUs, load average {load} (1, 5, 15 min) before the runs")
    with tempfile.TemporaryDirectory() as folder:
        rows = scaling(args.ruleset, args.games, args.cpus, args.batch, args.repeat, Path(folder))
    print("every run gave the records of --jobs 1 (all columns but cpu_seconds)\n")
    print(markdown(rows))


if __name__ == "__main__":
    main()
