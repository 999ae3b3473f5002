"""A seeded fuzzer for the ruleset loader and the runtime behind it.

Each case takes a real ruleset (every file of it), mutates it the way careless authors
and hostile ones do (text edits, hostile bytes, YAML features, wrong kinds, null and
huge values, broken and expensive expressions), then validates it exactly as
`meeple validate` does and, if it is valid, plays a random game of it.  The promise
under test: every case ends in located diagnostics, a located runtime error, or a
clean game — never another exception, never more than the time budget.

    python -m meeple.benchmarks.fuzz_rulesets -n 10000 --seed 0
    python -m meeple.benchmarks.fuzz_rulesets -n 200 --source examples --source tests/games

Failures are written with their mutated files to `--out` so they can be replayed.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import resource
import signal
import tempfile
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .mutations import mutate_files

TIME_BUDGET = 10.0          # seconds to validate a case, and for each move of its game
MEMORY_CAP = 3 * 1024 ** 3  # address space per worker; a blow-up fails here
MAX_MOVES = 100             # moves of the random game played on a valid mutant (enough to reach
                            # every kind of step; a valid mutant may have a 9,000-node board)


@dataclass
class Result:
    kind: str        # diagnosed | runtime-error | played | traceback | slow | memory
    source: str
    seed: int
    seconds: float   # validating it
    codes: list = field(default_factory=list)
    detail: str = ""
    slowest_move: float = 0.0
    total: float = 0.0


class _OverBudget(BaseException):
    """Raised by the alarm; a BaseException so that no `except Exception` swallows it."""


def _alarm(signum, frame):
    raise _OverBudget()


def ruleset_sources(extra: list[str] = ()) -> list[Path]:
    from meeple.interpreter.runtime.loading import RULESETS, list_rulesets
    out = [RULESETS / name for name in list_rulesets()]
    for path in extra:
        p = Path(path)
        children = sorted(c for c in p.iterdir() if c.is_dir() or c.suffix in (".yaml", ".yml")) \
            if p.is_dir() and not any(p.glob("*.yaml")) else [p]
        out += children
    return out


def read_files(source: Path) -> dict[str, bytes]:
    if source.is_dir():
        return {f.name: f.read_bytes() for f in sorted(source.iterdir()) if f.suffix in (".yaml", ".yml")}
    return {source.name: source.read_bytes()}


def check_files(files: dict[str, bytes], seed: int, max_moves: int = MAX_MOVES) -> tuple[str, list, str]:
    """Validate and play one ruleset given as file contents: (kind, codes, detail)."""
    kind, codes, detail, rs = validate_files(files)
    return _play(rs, seed, max_moves) if kind == "valid" else (kind, codes, detail)


def validate_files(files: dict[str, bytes]) -> tuple[str, list, str, object]:
    """What `meeple validate` does, on file contents: (kind, codes, detail, the ruleset
    when it is valid)."""
    from meeple.dsl.load import check_ruleset, read_ruleset
    from meeple.interpreter.analysis.setup_check import check_setup
    with tempfile.TemporaryDirectory(prefix="meeple-fuzz-") as tmp:
        folder = Path(tmp) / "ruleset"
        folder.mkdir()
        for name, data in files.items():
            (folder / name).write_bytes(data)
        rs, diags = read_ruleset(folder)
        if rs is not None and not any(d.severity == "error" for d in diags):
            diags += check_ruleset(rs)
        if rs is not None and not any(d.severity == "error" for d in diags):
            diags += check_setup(rs)
        errors = [d for d in diags if d.severity == "error"]
        if errors or rs is None:
            unlocated = [d for d in errors if not d.span.file.startswith(str(folder)) and
                         not _relative_to(d.span.file, folder)]
            if unlocated or not errors:
                return "traceback", [d.code for d in errors], \
                    "diagnostics without a file position: " + "; ".join(d.render() for d in unlocated), None
            return "diagnosed", sorted({d.code for d in errors}), "", None
        return "valid", [], "", rs


def _relative_to(file: str, folder: Path) -> bool:
    try:
        return (Path.cwd() / file).resolve().is_relative_to(folder.resolve())
    except (OSError, ValueError):
        return False


def _play(rs, seed: int, max_moves: int, move_budget: float | None = None,
          move_times: list | None = None) -> tuple[str, list, str]:
    """A random game; with `move_budget`, each move (listing, rendering, applying) has that
    many seconds, so a game is bounded move by move, as a player experiences it."""
    from meeple.dsl.eval_errors import EvalError
    from meeple.interpreter import Game, RuleError
    from meeple.interpreter.runtime.loading import rules_for
    rng = random.Random(seed)
    try:
        game = Game(rules_for(rs, "reference"), rs.game.min_players)
        state = game.new_state(seed)
        for step in range(max_moves):
            if move_budget is not None:
                signal.setitimer(signal.ITIMER_REAL, move_budget)
            began = time.perf_counter()
            if game.is_terminal(state):
                break
            moves = game.legal_moves(state)
            if not moves:
                break
            move = rng.choice(moves)
            if step % 25 == 0:
                for p in range(game.player_count):
                    game.view(state, p)
                    game.move_text(state, move, p)
            state = game.apply(state, move)
            if move_times is not None:
                move_times.append(time.perf_counter() - began)
        game.outcome(state) if game.is_terminal(state) else None
    except (RuleError, EvalError) as exc:
        if exc.span is None:
            return "traceback", [exc.code], f"runtime error without a position: {exc}"
        return "runtime-error", [exc.code], ""
    return "played", [], ""


def within_budget(check, budget: float = TIME_BUDGET) -> tuple[str, list, str]:
    """`check()` -> (kind, codes, detail), with its time limited and any exception that
    escapes it classified: the exceptions are exactly what the fuzzer is looking for."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, budget)
    try:
        return check()
    except _OverBudget:
        return "slow", [], f"over {budget} s"
    except MemoryError:
        return "memory", [], "MemoryError"
    except Exception:  # noqa: BLE001 - anything else is a traceback a user would see
        return "traceback", [], traceback.format_exc(limit=-8)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run_case(source: Path, seed: int, max_moves: int = MAX_MOVES, budget: float = TIME_BUDGET) -> Result:
    """Validation must finish within `budget`, as `meeple validate` must; a valid mutant is
    then played with the same budget for each move (setup included in the first)."""
    files = mutate_files(read_files(source), random.Random(seed))
    start = time.perf_counter()
    found: list = []
    kind, codes, detail = within_budget(lambda: _keep_ruleset(validate_files(files), found), budget)
    seconds = time.perf_counter() - start
    move_times: list = []
    if kind == "valid":
        kind, codes, detail = within_budget(
            lambda: _play(found[0], seed, max_moves, budget, move_times), budget)
    return Result(kind, source.name, seed, seconds, codes, detail,
                  max(move_times, default=0.0), time.perf_counter() - start)


def _keep_ruleset(validated, found: list) -> tuple[str, list, str]:
    kind, codes, detail, rs = validated
    found.append(rs)
    return kind, codes, detail


def _worker_init():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def _run_job(job):
    source, seed, max_moves = job
    result = run_case(Path(source), seed, max_moves)
    if result.kind in ("traceback", "slow", "memory"):
        result.detail += "\n" + json.dumps({n: d.decode("utf-8", "replace") for n, d in
                                            mutate_files(read_files(Path(source)),
                                                         random.Random(seed)).items()})[:200_000]
    return result


def run(n: int, seed: int = 0, sources: list[Path] | None = None, workers: int | None = None,
        max_moves: int = MAX_MOVES, out: Path | None = None, progress: bool = False) -> dict:
    sources = sources or ruleset_sources()
    jobs = [(str(sources[i % len(sources)]), seed * 1_000_003 + i, max_moves) for i in range(n)]
    results: list[Result] = []
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(workers or os.cpu_count(), _worker_init,
                                                  maxtasksperchild=100) as pool:
        for i, r in enumerate(pool.imap_unordered(_run_job, jobs, chunksize=4)):
            results.append(r)
            if progress and (i + 1) % 500 == 0:
                print(f"{i + 1}/{n} cases, {time.perf_counter() - start:.0f} s", flush=True)
    failures = [r for r in results if r.kind in ("traceback", "slow", "memory")]
    if out is not None and failures:
        out.mkdir(parents=True, exist_ok=True)
        for r in failures:
            (out / f"{r.source}-{r.seed}.txt").write_text(f"{r.kind}\n{r.detail}", encoding="utf-8")
    return summarise(results, time.perf_counter() - start)


def summarise(results: list[Result], wall: float) -> dict:
    kinds: dict[str, int] = {}
    codes: dict[str, int] = {}
    for r in results:
        kinds[r.kind] = kinds.get(r.kind, 0) + 1
        for c in r.codes:
            codes[c] = codes.get(c, 0) + 1
    slowest = max(results, key=lambda r: r.seconds) if results else None
    return {
        "cases": len(results), "outcomes": kinds,
        "codes": dict(sorted(codes.items(), key=lambda kv: -kv[1])),
        "slowest_seconds": round(slowest.seconds, 2) if slowest else None,
        "slowest_case": f"{slowest.source} seed {slowest.seed}" if slowest else None,
        "slowest_move_seconds": round(max((r.slowest_move for r in results), default=0), 2),
        "slowest_case_total_seconds": round(max((r.total for r in results), default=0), 2),
        "over_10s": sum(1 for r in results if r.seconds > 10 or r.slowest_move > 10 or r.kind == "slow"),
        "wall_seconds": round(wall, 1),
        "failures": [asdict(r) | {"detail": r.detail[:2000]} for r in results
                     if r.kind in ("traceback", "slow", "memory")][:20],
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=1000, help="number of mutated rulesets")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--source", action="append", default=[],
                    help="more rulesets to mutate: a ruleset, or a folder of rulesets")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--max-moves", type=int, default=MAX_MOVES)
    ap.add_argument("--out", type=Path, default=None, help="write each failing case here")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    summary = run(args.n, args.seed, ruleset_sources(args.source), args.workers, args.max_moves,
                  args.out, progress=not args.json)
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(f"{summary['cases']} cases in {summary['wall_seconds']} s: {summary['outcomes']}")
        print(f"slowest validation {summary['slowest_seconds']} s ({summary['slowest_case']}); slowest move "
              f"{summary['slowest_move_seconds']} s; slowest case in all {summary['slowest_case_total_seconds']} s; "
              f"over 10 s: {summary['over_10s']}")
        print("most frequent codes: " + ", ".join(f"{c} {n}" for c, n in list(summary["codes"].items())[:15]))
        for f in summary["failures"]:
            print(f"--- {f['kind']}: {f['source']} seed {f['seed']}\n{f['detail'][:1500]}")
    return 1 if summary["failures"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
