"""Batch games between bots (random ones unless told), for balancing: lengths, wins by
seat, scores."""
from __future__ import annotations

import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from meeple.bots import RandomBot, bot_move, make_bot

from .render import console


def play_out(game, seed: int, max_moves: int, check: bool = False, bots: tuple | None = None) -> dict:
    """One game, as a record: its length, how it ended, the result and, with `check`,
    every invariant that failed after a move.  `bots` gives each seat's bot spec (all
    random when None); seat p's bot is seeded with "seed:p".  A state that is not over
    but offers no move is reported as `stuck`, never as a crash."""
    state = game.new_state(seed)
    moves, broken, stuck = 0, [], False
    started = time.process_time()
    searching = bots is not None and any(b != "random" for b in bots)
    if not check and not searching:
        # Uniform random moves for every seat, nothing to look at between them: the
        # playout loop (the compiled back end's kernel) plays the whole game.
        final = game.playout(state, rng=random.Random(seed), max_moves=max_moves)
        moves = final.move_count - state.move_count
        state, stuck = final, not final.over and moves < max_moves
    else:
        # Move by move: each seat asks its bot, and the invariants can be tested after each move.
        seats = [make_bot(b, f"{seed}:{p}") for p, b in enumerate(bots)] if searching \
            else [RandomBot(seed)] * game.player_count
        while not game.is_terminal(state) and moves < max_moves:
            player = game.current_players(state)[0]
            if not game.legal_moves(state, player):
                stuck = True
                break
            state = game.apply(state, bot_move(seats[player], game, state, player))
            moves += 1
            if check:
                broken.extend({"seed": seed, "move": moves, "reason": f.reason, "rule": f.rule}
                              for f in game.invariant_failures(state))
    record = {"seed": seed, "moves": moves, "finished": game.is_terminal(state), "stuck": stuck,
              "failures": broken, "cpu": time.process_time() - started}
    if record["finished"]:
        out = game.outcome(state)
        record.update(winners=list(out.winners), scores=list(out.scores), reason=out.reason)
    return record


_worker_game = None


def _start_worker(spec):
    global _worker_game
    from meeple.interpreter import load_game
    _worker_game = load_game(*spec)


def _play_in_worker(args):
    return play_out(_worker_game, *args)


def _records(game, seeds, max_moves, check, jobs, spec, bots=None):
    """Game records in seed order; with `jobs` > 1 the games run in worker processes,
    each loading the ruleset once from `spec` (name or path, players, options)."""
    if jobs <= 1:
        for s in seeds:
            yield play_out(game, s, max_moves, check, bots)
        return
    with ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(spec,)) as pool:
        yield from pool.map(_play_in_worker, [(s, max_moves, check, bots) for s in seeds], chunksize=4)


def run_simulation(game, games: int, seed: int, max_moves: int, progress: bool = True,
                   check: bool = False, jobs: int = 1, spec: tuple | None = None,
                   bots: tuple | None = None) -> dict:
    n = game.player_count
    lengths, wins, draws, unfinished, stuck, cpu = [], [0] * n, 0, 0, 0, 0.0
    scores = [[] for _ in range(n)]
    reasons: dict = {}
    broken: list = []
    prog = Progress(transient=True, console=console) if progress else None
    task = prog.add_task("simulating", total=games) if prog else None
    started = time.perf_counter()
    if prog:
        prog.start()
    try:
        for r in _records(game, range(seed, seed + games), max_moves, check, jobs, spec, bots):
            lengths.append(r["moves"])
            cpu += r["cpu"]
            broken.extend(r["failures"])
            if r["stuck"]:
                stuck += 1
            elif not r["finished"]:
                unfinished += 1
            else:
                reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
                if not r["winners"]:
                    draws += 1
                for w in r["winners"]:
                    wins[w] += 1
                for p in range(n):
                    if isinstance(r["scores"][p], (int, float)):
                        scores[p].append(r["scores"][p])
            if prog:
                prog.advance(task)
    finally:
        if prog:
            prog.stop()
    wall = time.perf_counter() - started
    return {
        "ruleset": game.name, "players": n, "games": games, "seed": seed, "jobs": jobs,
        "bots": list(bots) if bots else ["random"] * n,
        "length": _stats(lengths), "unfinished": unfinished, "stuck": stuck, "draws": draws,
        "end_reasons": reasons,
        "wins_by_seat": wins,
        "win_rate_by_seat": [round(w / games, 4) for w in wins],
        "scores_by_seat": [_stats(s) for s in scores],
        "invariants_checked": check,
        "invariant_failures": broken[:20],
        "invariant_failure_count": len(broken),
        "wall_seconds": round(wall, 2),
        "cpu_seconds": round(cpu, 2),
        "games_per_cpu_second": round(games / cpu, 3) if cpu else None,
    }


def _stats(values):
    if not values:
        return {"min": None, "max": None, "mean": None, "stdev": None}
    return {"min": min(values), "max": max(values), "mean": round(statistics.fmean(values), 3),
            "stdev": round(statistics.pstdev(values), 3)}


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
                  f"({s['games_per_cpu_second']} games per CPU second, {s['jobs']} job(s))")
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
