"""Batch games between random bots, for balancing: lengths, wins by seat, scores."""
from __future__ import annotations

import statistics

from rich.progress import Progress
from rich.table import Table

from .play import RandomBot
from .render import console


def play_out(game, seed: int, max_moves: int, check: bool = False, broken: list | None = None):
    """One random game; returns (final state, number of moves, finished?).  With
    `check`, the ruleset's invariants are tested after every move and failures
    appended to `broken`."""
    bot = RandomBot(seed)
    state = game.new_state(seed)
    moves = 0
    while not game.is_terminal(state) and moves < max_moves:
        player = game.current_players(state)[0]
        state = game.apply(state, bot.choose(game, state, player))
        moves += 1
        if check:
            for failure in game.invariant_failures(state):
                broken.append({"seed": seed, "move": moves, "reason": failure.reason, "rule": failure.rule})
    return state, moves, game.is_terminal(state)


def run_simulation(game, games: int, seed: int, max_moves: int, progress: bool = True,
                   check: bool = False) -> dict:
    n = game.player_count
    lengths, wins, draws, unfinished = [], [0] * n, 0, 0
    scores = [[] for _ in range(n)]
    broken: list = []
    prog = Progress(transient=True, console=console) if progress else None
    task = prog.add_task("simulating", total=games) if prog else None
    if prog:
        prog.start()
    try:
        for g in range(games):
            state, length, finished = play_out(game, seed + g, max_moves, check, broken)
            lengths.append(length)
            if not finished:
                unfinished += 1
            else:
                out = game.outcome(state)
                if not out.winners:
                    draws += 1
                for w in out.winners:
                    wins[w] += 1
                for p in range(n):
                    if isinstance(out.scores[p], (int, float)):
                        scores[p].append(out.scores[p])
            if prog:
                prog.advance(task)
    finally:
        if prog:
            prog.stop()
    return {
        "ruleset": game.name, "players": n, "games": games, "seed": seed,
        "length": _stats(lengths), "unfinished": unfinished, "draws": draws,
        "wins_by_seat": wins,
        "win_rate_by_seat": [round(w / games, 4) for w in wins],
        "scores_by_seat": [_stats(s) for s in scores],
        "invariants_checked": check,
        "invariant_failures": broken[:20],
        "invariant_failure_count": len(broken),
    }


def _stats(values):
    if not values:
        return {"min": None, "max": None, "mean": None, "stdev": None}
    return {"min": min(values), "max": max(values), "mean": round(statistics.fmean(values), 3),
            "stdev": round(statistics.pstdev(values), 3)}


def print_summary(s: dict) -> None:
    console.print(f"[bold]{s['ruleset']}[/]: {s['games']} games, {s['players']} players, seeds "
                  f"{s['seed']}..{s['seed'] + s['games'] - 1}")
    L = s["length"]
    console.print(f"game length (moves): min {L['min']}, mean {L['mean']}, max {L['max']}, sd {L['stdev']}")
    console.print(f"draws: {s['draws']}   unfinished (hit --max-moves): {s['unfinished']}")
    if s["invariants_checked"]:
        n = s["invariant_failure_count"]
        console.print(f"invariants checked after every move: {'all held' if not n else f'{n} failures'}")
        for f in s["invariant_failures"][:5]:
            console.print(f"  [red]seed {f['seed']} move {f['move']}:[/] {f['reason']} (rule {f['rule']})")
    t = Table("seat", "wins", "win rate", "mean score", "min", "max")
    for p in range(s["players"]):
        sc = s["scores_by_seat"][p]
        t.add_row(str(p), str(s["wins_by_seat"][p]), f"{s['win_rate_by_seat'][p]:.1%}",
                  str(sc["mean"]), str(sc["min"]), str(sc["max"]))
    console.print(t)
