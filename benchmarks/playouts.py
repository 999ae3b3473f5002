"""Playouts per second and moves per second: the interpreter next to a
hand-written loop of the same game, measured in the same run.  Machines are
noisy, so the ratio is the figure to quote, not the absolute times.

    python -m meeple.benchmarks.playouts [GAME ...] [--seconds S]
    meeple bench [GAME ...]
"""
from __future__ import annotations

import json
import random
import sys
import time
import tracemalloc

from meeple.interpreter import load_game

from .baselines import BASELINES


def _measure(fn, seconds: float) -> tuple[int, int, float]:
    """Run fn(rnd) -> moves repeatedly for about `seconds`; returns (playouts, moves, elapsed)."""
    rnd = random.Random(12345)
    playouts = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        moves += fn(rnd)
        playouts += 1
        if playouts % 4 == 0 and time.perf_counter() >= deadline:
            break
    return playouts, moves, time.perf_counter() - start


def engine_playout(game):
    def play(rnd: random.Random) -> int:
        state = game.new_state(rnd.randrange(1 << 30))
        moves = 0
        while not state.over:
            legal = game.legal_moves(state)
            state = game.apply(state, legal[rnd.randrange(len(legal))])
            moves += 1
        return moves
    return play


def peak_state_memory(game) -> int:
    """Peak bytes allocated while playing one game (all states kept)."""
    rnd = random.Random(7)
    tracemalloc.start()
    state = game.new_state(1)
    keep = [state]
    while not state.over:
        legal = game.legal_moves(state)
        state = game.apply(state, legal[rnd.randrange(len(legal))])
        keep.append(state)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def bench_game(name: str, seconds: float) -> dict:
    game = load_game(name)
    game.new_state(0)  # compile and warm up outside the timing
    p, m, t = _measure(engine_playout(game), seconds)
    row = {"game": name, "engine_playouts_per_s": round(p / t, 1), "engine_moves_per_s": round(m / t, 1),
           "engine_playouts": p}
    base = BASELINES.get(name)
    if base is not None:
        bp, bm, bt = _measure(base, seconds)
        row.update({"baseline_playouts_per_s": round(bp / bt, 1), "baseline_moves_per_s": round(bm / bt, 1),
                    "slowdown": round((bp / bt) / (p / t), 1)})
    row["peak_bytes_one_game"] = peak_state_memory(game)
    return row


def run_bench(games, seconds: float = 3.0, as_json: bool = False) -> list[dict]:
    rows = [bench_game(g, seconds) for g in games]
    if as_json:
        print(json.dumps(rows, indent=1))
        return rows
    from rich.console import Console
    from rich.table import Table
    t = Table("game", "meeple playouts/s", "meeple moves/s", "hand-written playouts/s",
              "hand-written moves/s", "slowdown ×", "peak KiB (1 game)",
              title=f"random playouts, {seconds:g} s each, same process")
    for r in rows:
        t.add_row(r["game"], f"{r['engine_playouts_per_s']:,.0f}", f"{r['engine_moves_per_s']:,.0f}",
                  f"{r.get('baseline_playouts_per_s', 0):,.0f}" if "slowdown" in r else "-",
                  f"{r.get('baseline_moves_per_s', 0):,.0f}" if "slowdown" in r else "-",
                  f"{r['slowdown']}" if "slowdown" in r else "-", f"{r['peak_bytes_one_game'] / 1024:,.0f}")
    Console().print(t)
    return rows


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    secs = 3.0
    if "--seconds" in sys.argv:
        secs = float(sys.argv[sys.argv.index("--seconds") + 1])
        args = [a for a in args if a != str(sys.argv[sys.argv.index("--seconds") + 1])]
    run_bench(args or ["tic-tac-toe", "connect-four"], secs, "--json" in sys.argv)
