"""A simulation's unit of work: the game to load (`GameSpec`), one game to play (`Task`)
and the function that plays it into a record (`play_task`).  Every back end (this
process, worker processes, Ray) plays the same tasks with the same function, so the
records are the same for the same seeds; only `cpu_seconds` differs."""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

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
