"""Whole random games of every shipped ruleset, at every player count, through both
adapters (needs meeple[openspiel,pettingzoo]):

    python -m meeple.benchmarks.adapter_games                  # 200 games per count and adapter
    python -m meeple.benchmarks.adapter_games --games 20 --jobs 2 --rulesets zavandor valdora
    python -m meeple.benchmarks.adapter_games --rulesets valdora --players 5 --adapters openspiel

Each game is played to its end by uniform random players: through PettingZoo's AEC
environment (`agent_iter`, `last`, an action drawn from the mask) and through the
OpenSpiel game (chance nodes drawn by their probabilities, every simultaneous player
at once).  Every error is counted and its first line kept; the run also reports how many
positions needed the action table's spare ids (a move outside its declared blocks,
adapters/action_table.py) and the most spare ids one position used.  The test suite
plays a few games per count of the same functions (tests/test_adapters_whole_games.py).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ["examples/high-card"]  # the tutorial's game, beside the shipped rulesets
ADAPTERS = ("pettingzoo", "openspiel")


class Played:
    """What one game through an adapter did: its moves, whether it reached the end, and
    the positions that used spare ids (how many, and the most at once)."""

    def __init__(self):
        self.moves = 0
        self.finished = False
        self.spare_positions = 0
        self.most_spare = 0

    def saw(self, ids, fixed: int) -> None:
        spare = sum(1 for i in ids if i >= fixed)
        if spare:
            self.spare_positions += 1
            self.most_spare = max(self.most_spare, spare)


def play_pettingzoo(ruleset: str, players: int, seed: int) -> Played:
    import numpy as np

    from meeple.adapters.pettingzoo import env
    e = env(ruleset, players)
    e.reset(seed=seed)
    fixed = e.table.encoding.actions.fixed
    rng = np.random.default_rng(seed)
    out = Played()
    for agent in e.agent_iter():
        observation, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        out.saw(legal, fixed)
        e.step(int(rng.choice(legal)))
        out.moves += 1
    out.finished = e.state_.over
    return out


def play_openspiel(ruleset: str, players: int, seed: int) -> Played:
    from meeple.adapters.openspiel import load
    game = load(ruleset, players)
    fixed = game.setup.encoding.actions.fixed
    rnd = random.Random(seed)
    state = game.new_initial_state()
    out = Played()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rnd.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        if state.is_simultaneous_node():
            chosen = []
            for p in range(players):
                legal = state.legal_actions(p)
                out.saw(legal, fixed)
                chosen.append(rnd.choice(legal))
            state.apply_actions(chosen)
        else:
            legal = state.legal_actions()
            out.saw(legal, fixed)
            state.apply_action(rnd.choice(legal))
        out.moves += 1
    state.returns()
    out.finished = state._state is not None and state._state.over
    return out


PLAYERS = {"pettingzoo": play_pettingzoo, "openspiel": play_openspiel}


def where(ruleset: str) -> str:
    """A shipped name as it is; the example beside the package (a checkout or an editable
    install), else in the current folder (the examples are not installed)."""
    if not ruleset.startswith("examples/"):
        return ruleset
    beside = ROOT / ruleset
    return str(beside if beside.exists() else Path.cwd() / ruleset)


def every_ruleset() -> list[str]:
    from meeple.interpreter import list_rulesets
    return list_rulesets() + EXAMPLES


def player_counts(ruleset: str) -> range:
    from meeple.interpreter.runtime.loading import load_rules
    info = load_rules(where(ruleset)).ruleset.game
    return range(info.min_players, info.max_players + 1)


def run_batch(task) -> dict:
    """Games `seeds` of one ruleset, player count and adapter; errors counted, never raised."""
    ruleset, players, adapter, seeds = task
    out = {"ruleset": ruleset, "players": players, "adapter": adapter, "games": 0, "finished": 0, "errors": 0,
           "first_error": None, "moves": 0, "longest": 0, "spare_positions": 0, "most_spare": 0, "seconds": 0.0}
    start = time.perf_counter()
    for seed in seeds:
        out["games"] += 1
        try:
            played = PLAYERS[adapter](where(ruleset), players, seed)
        except Exception:  # noqa: BLE001 - the run counts every failure and keeps the first
            out["errors"] += 1
            if out["first_error"] is None:
                out["first_error"] = f"seed {seed}: " + traceback.format_exc().strip().splitlines()[-1]
            continue
        out["finished"] += played.finished
        out["moves"] += played.moves
        out["longest"] = max(out["longest"], played.moves)
        out["spare_positions"] += played.spare_positions
        out["most_spare"] = max(out["most_spare"], played.most_spare)
    out["seconds"] = time.perf_counter() - start
    return out


def merge(rows: list[dict]) -> list[dict]:
    """Batches of the same ruleset, player count and adapter added together."""
    merged: dict = {}
    for r in rows:
        key = (r["ruleset"], r["players"], r["adapter"])
        m = merged.setdefault(key, {**r, "games": 0, "finished": 0, "errors": 0, "moves": 0, "longest": 0,
                                     "spare_positions": 0, "most_spare": 0, "seconds": 0.0, "first_error": None})
        for k in ("games", "finished", "errors", "moves", "spare_positions", "seconds"):
            m[k] += r[k]
        m["longest"] = max(m["longest"], r["longest"])
        m["most_spare"] = max(m["most_spare"], r["most_spare"])
        m["first_error"] = m["first_error"] or r["first_error"]
    return [merged[k] for k in sorted(merged)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per ruleset, player count and adapter")
    parser.add_argument("--rulesets", nargs="*", default=None, help="default: every shipped ruleset and the example")
    parser.add_argument("--adapters", nargs="*", default=list(ADAPTERS), choices=ADAPTERS)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--batch", type=int, default=10, help="games per task")
    parser.add_argument("--players", nargs="*", type=int, default=None,
                        help="only these player counts (of those each ruleset allows)")
    args = parser.parse_args()
    args.rulesets = args.rulesets or every_ruleset()
    tasks = [(r, n, a, range(start, min(start + args.batch, args.games)))
             for r in args.rulesets for n in player_counts(r) if args.players is None or n in args.players
             for a in args.adapters for start in range(0, args.games, args.batch)]
    start = time.perf_counter()
    done = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for future in as_completed([pool.submit(run_batch, task) for task in tasks]):
            row = future.result()
            done.append(row)
            print(f"[{len(done)}/{len(tasks)} {time.perf_counter() - start:,.0f} s] {row['ruleset']} "
                  f"{row['players']}p {row['adapter']}: {row['games']} games, {row['errors']} errors",
                  file=sys.stderr, flush=True)
    rows = merge(done)
    print("| ruleset | players | adapter | games | finished | errors | mean moves | longest | positions with spare ids "
          "| most spare ids at once | CPU s |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        mean = r["moves"] / max(1, r["games"] - r["errors"])
        cells = [r["ruleset"], r["players"], r["adapter"], r["games"], r["finished"], r["errors"], f"{mean:,.0f}",
                 f"{r['longest']:,}", f"{r['spare_positions']:,}", r["most_spare"], f"{r['seconds']:,.0f}"]
        print("| " + " | ".join(map(str, cells)) + " |")
    for r in rows:
        if r["first_error"]:
            print(f"{r['ruleset']} {r['players']} {r['adapter']}: {r['first_error']}")
    total = sum(r["games"] for r in rows)
    errors = sum(r["errors"] for r in rows)
    print(f"{total:,} games, {errors} errors, {time.perf_counter() - start:,.0f} s wall")


if __name__ == "__main__":
    main()
