"""Building tic-tac-toe's full state graph: meeple's explorer next to a
hand-written breadth-first search of the same positions, in the same run.

    python -m meeple.benchmarks.state_graph
"""
from __future__ import annotations

import json
import sys
import time
import tracemalloc

from meeple.interpreter import load_game
from meeple.interpreter.analysis.explore import explore

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def hand_written_positions() -> tuple[int, int]:
    """Reachable positions (the empty board included) and terminal positions."""
    def won(b):
        return any(b[a] and b[a] == b[c] == b[d] for a, c, d in LINES)
    start = (0,) * 9
    seen, frontier, terminal = {start}, [start], 0
    while frontier:
        nxt = []
        for b in frontier:
            if won(b) or all(b):
                terminal += 1
                continue
            mark = 1 if b.count(1) == b.count(2) else 2
            for i in range(9):
                if not b[i]:
                    child = b[:i] + (mark,) + b[i + 1:]
                    if child not in seen:
                        seen.add(child)
                        nxt.append(child)
        frontier = nxt
    return len(seen), terminal


def measure(fn):
    """Time one run, then measure peak memory in a second run (tracing slows code down)."""
    t = time.perf_counter()
    result = fn()
    seconds = time.perf_counter() - t
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return result, seconds, peak


def main(as_json=False):
    game = load_game("tic-tac-toe")
    game.new_state(0)
    ex, t_engine, m_engine = measure(lambda: explore(game))
    (states, terminal), t_base, m_base = measure(hand_written_positions)
    row = {"states": ex.graph.number_of_nodes(), "edges": ex.graph.number_of_edges(),
           "baseline_states": states, "baseline_terminal": terminal,
           "meeple_seconds": round(t_engine, 3), "baseline_seconds": round(t_base, 4),
           "slowdown": round(t_engine / t_base, 1),
           "meeple_peak_mib": round(m_engine / 2**20, 1), "baseline_peak_mib": round(m_base / 2**20, 2),
           "bytes_per_state": round(m_engine / ex.graph.number_of_nodes())}
    print(json.dumps(row, indent=1) if as_json else
          f"tic-tac-toe state graph: meeple {row['states']} states / {row['edges']} edges in "
          f"{row['meeple_seconds']} s, peak {row['meeple_peak_mib']} MiB ({row['bytes_per_state']} B/state); "
          f"hand-written BFS {row['baseline_states']} positions in {row['baseline_seconds']} s, "
          f"peak {row['baseline_peak_mib']} MiB; slowdown {row['slowdown']}x")
    return row


if __name__ == "__main__":
    main("--json" in sys.argv)
