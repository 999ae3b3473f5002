"""The long differential run: both back ends play many seeded random games of every
ruleset at every player count it supports, compared step by step
(`meeple.interpreter.analysis.differential`).  The suite runs a few games of each
(tests/test_backend_differential.py); this runs as many as you give it time for.

    python -m meeple.benchmarks.differential                  # every ruleset, 10 games each
    python -m meeple.benchmarks.differential valdora nim -n 100 --seed 7 --view-every 10 --jobs 2

Without GAME it takes every shipped ruleset, the examples (examples/) and the test
games (tests/games/) of the source tree, those that load.  Exit 1 if any mismatch.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from meeple.interpreter import list_rulesets, load_rules
from meeple.interpreter.analysis.differential import compare_backends

SOURCE_TREE = Path(__file__).resolve().parent.parent  # the repository, for an editable install
EXTRA_FOLDERS = ("examples", "tests/games")


def default_rulesets() -> list[str]:
    """The shipped rulesets, then the examples and test games of the source tree."""
    names = list(list_rulesets())
    for root in dict.fromkeys((SOURCE_TREE, Path.cwd())):
        for folder in EXTRA_FOLDERS:
            base = root / folder
            if base.is_dir():
                names += [str(p) for p in sorted(base.iterdir()) if p.is_dir() and any(p.glob("*.yaml"))]
        if any((root / f).is_dir() for f in EXTRA_FOLDERS):
            break
    return names


def configurations(names, notes=print) -> list[tuple]:
    """(ruleset, players) for every player count each ruleset supports; one that does
    not load is left out with a note."""
    out = []
    for name in names:
        try:
            info = load_rules(name).ruleset.game
        except Exception as exc:  # noqa: BLE001 - a test game may be deliberately broken
            notes(f"{name}: skipped, it does not load ({type(exc).__name__}: {str(exc).splitlines()[0]})")
            continue
        out += [(name, p) for p in range(info.min_players, info.max_players + 1)]
    return out


def _run(args):
    name, players, kwargs = args
    return compare_backends(name, players, **kwargs)


def run(names, games: int, seed: int, max_moves=None, view_every: int = 1, playouts: int = 2,
        jobs: int = 1, as_json: bool = False) -> int:
    say = (lambda *_: None) if as_json else print
    configs = configurations(names, say)
    kwargs = dict(games=games, seed=seed, max_moves=max_moves, view_every=view_every, playouts_per_game=playouts)
    work = [(name, players, kwargs) for name, players in configs]
    started = time.perf_counter()
    reports = []
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            for report in pool.map(_run, work):
                reports.append(report)
                say(report)
    else:
        for item in work:
            reports.append(_run(item))
            say(reports[-1])
    bad = [r for r in reports if not r.ok]
    totals = {k: sum(getattr(r, k) for r in reports)
              for k in ("games", "finished", "moves", "views", "playouts", "failed_alike", "deopts")}
    totals.update(configurations=len(reports), mismatches=len(bad), seconds=round(time.perf_counter() - started, 1))
    if as_json:
        print(json.dumps({"totals": totals, "reports": [dataclasses.asdict(r) for r in reports]}, indent=1))
    else:
        print(f"\n{totals['configurations']} rulesets × player counts, {totals['games']:,} games "
              f"({totals['finished']:,} finished), {totals['moves']:,} moves, {totals['views']:,} views and "
              f"{totals['playouts']:,} playouts compared; {totals['deopts']} deopts; "
              f"{totals['mismatches']} mismatches; {totals['seconds']:,} s")
    return 1 if bad else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m meeple.benchmarks.differential",
                                 description="Both back ends, the same seeded random games, compared at every step.")
    ap.add_argument("games", nargs="*", metavar="GAME", help="rulesets (names or paths); default: all")
    ap.add_argument("-n", "--games", dest="count", type=int, default=10, help="games per ruleset and player count")
    ap.add_argument("--seed", type=int, default=0, help="the first game's seed (then seed+1, ...)")
    ap.add_argument("--max-moves", type=int, default=None, help="cap each game (default: play to the end)")
    ap.add_argument("--view-every", type=int, default=1, help="compare the players' views every K steps")
    ap.add_argument("--playouts", type=int, default=2, help="playouts compared per game")
    ap.add_argument("--jobs", "-j", type=int, default=1, help="worker processes")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    return run(a.games or default_rulesets(), a.count, a.seed, a.max_moves, a.view_every, a.playouts,
               max(1, a.jobs), a.json)


if __name__ == "__main__":
    sys.exit(main())
