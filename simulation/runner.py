"""Playing the games of a simulation: one game to one record (`play_task`), and the
local back ends that play many (`run_serial`, `run_processes`).  The Ray back end
(`ray_backend.py`) plays the same tasks with the same function, so every back end
gives the same records for the same seeds; only `cpu_seconds` differs.  `run_games`
picks the back end the command line asked for.
"""
from __future__ import annotations

import random
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Iterable, Iterator

from meeple.bots import RandomBot, bot_move, make_bot
from meeple.interpreter import Stalled, load_game

from .records import options_text


@dataclass(frozen=True)
class GameSpec:
    """What a worker needs to load the game itself: a ruleset (shipped name or path), a
    player count, options as sorted (name, value) pairs, and the back end."""

    ruleset: str
    players: int
    options: tuple = ()
    backend: str | None = None

    def load(self):
        game = _loaded.get(self)
        if game is None:
            game = _loaded[self] = load_game(self.ruleset, self.players, dict(self.options), backend=self.backend)
        return game


_loaded: dict = {}  # one game per spec in each process


@dataclass(frozen=True)
class Task:
    """One game to play: seat p's bot is `bots[p]` (uniform random for every seat when None)."""

    spec: GameSpec
    seed: int
    bots: tuple | None = None
    max_moves: int = 100_000
    check: bool = False
    cell: str = ""
    count_actions: bool = True  # False: random seats play in the playout kernel, uncounted


def play_task(task: Task) -> dict:
    """One game as a record (records.COLUMNS), plus `failure_details` for --check.

    Random seats draw their moves exactly as `Game.playout` does, so a game is the same
    game whether its actions are counted or not (counting leaves the playout kernel's fast
    path, about 3-8x slower); uncounted, `actions` is empty.  A state that is not over but
    offers no move, or whose flow goes round a decision nobody can act at (R709, `Stalled`),
    ends the game as `stuck`, never as a crash."""
    game = task.spec.load()
    state = game.new_state(task.seed)
    n = game.player_count
    actions = [dict() for _ in range(n)] if task.count_actions else []
    failures: list = []
    started = time.process_time()
    searching = task.bots is not None and any(b != "random" for b in task.bots)
    stuck = False
    if not task.check and not searching:
        def counted(game_, state_, moves, rng):  # the uniform draw of Game.playout, counted
            move = moves[rng._randbelow(len(moves))]
            if move.player >= 0:
                seat = actions[move.player]
                seat[move.action] = seat.get(move.action, 0) + 1
            return move
        try:
            final = game.playout(state, policy=counted if task.count_actions else None,
                                 rng=random.Random(task.seed), max_moves=task.max_moves)
        except Stalled as stall:  # the flow went round a decision nobody could act at
            moves, stuck = stall.move_count - state.move_count, True
        else:
            moves = final.move_count - state.move_count
            state, stuck = final, not final.over and moves < task.max_moves
    else:
        seats = [make_bot(b, f"{task.seed}:{p}") for p, b in enumerate(task.bots)] if searching \
            else [RandomBot(task.seed)] * n
        moves = 0
        while not game.is_terminal(state) and moves < task.max_moves:
            player = game.current_players(state)[0]
            if not game.legal_moves(state, player):
                stuck = True
                break
            move = bot_move(seats[player], game, state, player)
            try:
                state = game.apply(state, move)
            except Stalled:  # after this move the flow goes round a decision nobody can act at
                stuck = True
                moves += 1
                break
            moves += 1
            if task.count_actions:
                action = getattr(move, "action", None) or str(move).split("(", 1)[0]
                actions[player][action] = actions[player].get(action, 0) + 1
            if task.check:
                failures.extend({"seed": task.seed, "move": moves, "reason": f.reason, "rule": f.rule}
                                for f in game.invariant_failures(state))
    record = {"ruleset": game.name, "cell": task.cell, "seed": task.seed, "players": n,
              "options": options_text(dict(game.options)), "bots": list(task.bots or ("random",) * n),
              "moves": moves, "finished": game.is_terminal(state), "stuck": stuck, "end_reason": None,
              "scores": [], "ranks": [], "winners": [], "actions": actions,
              "invariant_failures": len(failures), "failure_details": failures,
              "cpu_seconds": time.process_time() - started}
    if record["finished"]:
        out = game.outcome(state)
        record.update(end_reason=out.reason, ranks=list(out.ranks), winners=list(out.winners),
                      scores=[float(s) for s in out.scores] if all(isinstance(s, (int, float))
                                                                    for s in out.scores) else [])
    return record


def play_batch(tasks: list[Task]) -> list[dict]:
    return [play_task(t) for t in tasks]


def batches(tasks: list[Task], size: int) -> list[list[Task]]:
    size = max(1, size)
    return [tasks[i:i + size] for i in range(0, len(tasks), size)]


class BackendError(Exception):
    """A back end that could not play the games (no Ray, a worker that died); the message
    is one line for the user.  Errors of the rules themselves are raised as they are."""


def run_games(tasks: list[Task], jobs: int | None = None, ray: str | None = None,
              batch: int = 4) -> Iterator[dict]:
    """The back end the command line chose: Ray when `ray` is not None ("" = a local Ray
    with `jobs` CPUs, all of them when None; else a cluster's address), worker processes
    when `jobs` > 1, else this process."""
    if ray is not None:
        from .ray_backend import run_ray
        return run_ray(tasks, address=ray or None, cpus=jobs, batch=batch)
    if jobs and jobs > 1:
        return run_processes(tasks, jobs, batch)
    return run_serial(tasks)


def run_serial(tasks: Iterable[Task]) -> Iterator[dict]:
    for task in tasks:
        yield play_task(task)


def run_processes(tasks: list[Task], jobs: int, batch: int = 4, play=play_batch) -> Iterator[dict]:
    """The games in `jobs` worker processes, a batch of games per call (a call costs more
    than a short game); records come as their batches finish.  A worker that dies breaks
    the pool: the batches that finished are still yielded, then a BackendError.  Stopping
    early (the caller interrupted) cancels the batches not started instead of playing them.
    `play` plays one batch in a worker; a test passes one that kills its worker."""
    pool = ProcessPoolExecutor(jobs)
    try:
        pending = {pool.submit(play, b) for b in batches(tasks, batch)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            failed = [f for f in done if f.exception() is not None]
            for future in done:
                if future.exception() is None:
                    yield from future.result()
            if failed:
                error = failed[0].exception()
                if isinstance(error, BrokenProcessPool):
                    raise BackendError(f"a worker process died while playing ({error}); "
                                       f"its games and those not yet played are missing") from None
                raise error
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
