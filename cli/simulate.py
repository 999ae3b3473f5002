"""`meeple simulate`: batch games between bots (random ones unless told), for balancing:
lengths, wins by seat, scores, and with `--out` one record per game (meeple.simulation)."""
from __future__ import annotations

import time
from pathlib import Path

from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from meeple.simulation.records import write_records
from meeple.simulation.runner import run_games
from meeple.simulation.tasks import GameSpec, Task
from meeple.simulation.summary import summarise

from .render import console


def run_simulation(spec: GameSpec, games: int, seed: int, max_moves: int, progress: bool = True,
                   check: bool = False, jobs: int | None = None, bots: tuple | None = None,
                   out: Path | None = None, ray: str | None = None, batch: int = 4) -> dict:
    """Play the games on the chosen back end (serial, `jobs` worker processes, or Ray:
    `ray` "" is a local Ray with `jobs` CPUs, all when None, else a cluster's address),
    showing progress as they finish; write one record per game to `out` (in seed order),
    and return the summary.  Actions are counted only when records are written."""
    game = spec.load()
    tasks = [Task(spec, s, bots, max_moves, check, count_actions=out is not None)
             for s in range(seed, seed + games)]
    started = time.perf_counter()
    played = run_games(tasks, jobs, ray, batch)  # Ray starts here: its errors come before the progress bar
    prog = Progress(transient=True, console=console) if progress else None
    task = prog.add_task("simulating", total=games) if prog else None
    records = []
    if prog:
        prog.start()
    try:
        for record in played:
            records.append(record)
            if prog:
                prog.advance(task)
    finally:
        if prog:
            prog.stop()
    records.sort(key=lambda r: r["seed"])
    if out is not None:
        write_records(out, records)
    meta = {"ruleset": game.name, "seed": seed, "jobs": jobs if ray is not None else jobs or 1,
            "bots": list(bots) if bots else ["random"] * game.player_count, "invariants_checked": check}
    summary = summarise(records, game.player_count, meta)
    summary["wall_seconds"] = round(time.perf_counter() - started, 2)
    if ray is not None:
        summary["ray"] = ray or "local"
    if out is not None:
        summary["records"] = str(out)
    return summary


def _where(s: dict) -> str:
    if "ray" not in s:
        return f"{s['jobs']} job(s)"
    if s["ray"] != "local":
        return f"Ray at {s['ray']}"
    return f"local Ray, {s['jobs']} CPU(s)" if s["jobs"] else "local Ray, every CPU"


def print_summary(s: dict) -> None:
    console.print(f"[bold]{s['ruleset']}[/]: {s['games']} games, {s['players']} players, seeds "
                  f"{s['seed']}..{s['seed'] + s['games'] - 1}")
    if any(b != "random" for b in s["bots"]):
        console.print("bots by seat: " + ", ".join(f"{p}={b}" for p, b in enumerate(s["bots"])))
    L = s["length"]
    console.print(f"game length (moves): min {L['min']}, mean {L['mean']}, max {L['max']}, sd {L['stdev']}")
    console.print(f"draws: {s['draws']}   unfinished (hit --max-moves): {s['unfinished']}   "
                  f"stuck (no legal move): {s['stuck']}")
    for reason, count in s["end_reasons"].items():
        console.print(f"ended {count}x: {escape(reason)}")
    console.print(f"time: {s['wall_seconds']} s wall, {s['cpu_seconds']} s CPU in games "
                  f"({s['games_per_cpu_second']} games per CPU second, {_where(s)})")
    if s["invariants_checked"]:
        n = s["invariant_failure_count"]
        console.print(f"invariants checked after every move: {'all held' if not n else f'{n} failures'}")
        for f in s["invariant_failures"][:5]:
            console.print(f"  [red]seed {f['seed']} move {f['move']}:[/] {escape(f['reason'])} (rule {escape(str(f['rule']))})")
    t = Table("seat", "wins", "win rate", "mean score", "min", "max")
    for p in range(s["players"]):
        sc = s["scores_by_seat"][p]
        t.add_row(str(p), str(s["wins_by_seat"][p]), f"{s['win_rate_by_seat'][p]:.1%}",
                  str(sc["mean"]), str(sc["min"]), str(sc["max"]))
    console.print(t)
