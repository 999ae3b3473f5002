"""`meeple tournament`: bots against bots, seats rotated, results with confidence
intervals and ratings (the tally is standings.py).

Seating: the bots are the entrants, in the order given (a bot named twice is two
entrants, `random` and `random#2`).  A *cycle* of lineups seats every set of P entrants
(P = players) at the table in each of its P rotations, so over a whole cycle every entrant
sits in every seat equally often and meets every other entrant equally often.  With as
many bots as players the cycle is just the P rotations.  Game i is played with lineup
i mod (cycle length) and game seed `--seed` + i; the bot in seat s is made afresh for
each game with the seed "GAME_SEED:s".  Everything a game does follows from its number,
so the records (and the JSON) are the same whatever `--jobs` is, unless a bot has a time
budget (`mcts:1.5s`), whose search depends on the machine's speed.  Chance is drawn by
each game's own generator, from its seed, as in every game meeple plays.
"""
from __future__ import annotations

import itertools
import time
from concurrent.futures import ProcessPoolExecutor

from rich import box
from rich.markup import escape
from rich.progress import track
from rich.table import Table

from meeple.bots import bot_move, make_bot, parse_bot_spec

from .render import console
from meeple.simulation.standings import standings


class TournamentError(ValueError):
    """A tournament that cannot be held as asked; the message says why, in one line."""


def entrant_labels(specs) -> list[str]:
    """The bots' names in the tables: the spec, with #2, #3 … on a spec named again."""
    seen: dict = {}
    labels = []
    for spec in specs:
        text = str(spec)
        seen[text] = seen.get(text, 0) + 1
        labels.append(text if seen[text] == 1 else f"{text}#{seen[text]}")
    return labels


def seating_cycle(entrants: int, players: int) -> list[tuple[int, ...]]:
    """Lineups (the entrant in each seat) of one cycle: each set of `players` entrants,
    in each of its rotations (see the module's docstring)."""
    if entrants < 2:
        raise TournamentError("a tournament needs at least two bots; to let a bot play itself, "
                              "name it twice (--bots random random)")
    if players > entrants:
        raise TournamentError(f"{players} players need {players} bots, but --bots names {entrants}; "
                              f"name a bot more than once to seat it more than once "
                              f"(such as --bots mcts:500 random random)")
    return [group[shift:] + group[:shift]
            for group in itertools.combinations(range(entrants), players)
            for shift in range(players)]


def default_players(bots: int, least: int, most: int) -> int:
    """One seat per bot when the game allows it, else the game's smallest table."""
    return bots if least <= bots <= most else least


def play_game(game, number: int, seed: int, lineup: tuple, specs: list, labels: list[str],
              max_moves: int) -> tuple[dict, list[float], list[int]]:
    """Game `number` of the tournament: its record, and each seat's seconds spent deciding
    and decisions made (kept out of the record, which must not depend on the machine)."""
    seats = len(lineup)
    bots = [make_bot(specs[who], f"{seed}:{seat}") for seat, who in enumerate(lineup)]
    state = game.new_state(seed)
    moves, stuck = 0, False
    thinking, decisions = [0.0] * seats, [0] * seats
    while not game.is_terminal(state) and moves < max_moves:
        player = game.current_players(state)[0]
        if not game.legal_moves(state, player):
            stuck = True
            break
        started = time.perf_counter()
        move = bot_move(bots[player], game, state, player)
        thinking[player] += time.perf_counter() - started
        decisions[player] += 1
        state = game.apply(state, move)
        moves += 1
    record = {"game": number, "seed": seed, "lineup": [labels[who] for who in lineup], "moves": moves,
              "finished": game.is_terminal(state), "stuck": stuck}
    if record["finished"]:
        out = game.outcome(state)
        record.update(reason=out.reason, scores=list(out.scores), ranks=list(out.ranks),
                      winners=list(out.winners))
    return record, thinking, decisions


_worker = None


def _start_worker(game_spec, plan):
    global _worker
    from meeple.interpreter import load_game
    _worker = (load_game(*game_spec), plan)


def _play_in_worker(number):
    game, plan = _worker
    return plan.play(game, number)


class Plan:
    """What game `number` is: its seed and lineup; the same in every process."""

    def __init__(self, specs, players: int, seed: int, max_moves: int):
        self.specs, self.labels = specs, entrant_labels(specs)
        self.cycle = seating_cycle(len(specs), players)
        self.seed, self.max_moves = seed, max_moves

    def play(self, game, number: int):
        return play_game(game, number, self.seed + number, self.cycle[number % len(self.cycle)],
                         self.specs, self.labels, self.max_moves)


def _results(game, plan: Plan, games: int, jobs: int, game_spec):
    if jobs <= 1:
        for number in range(games):
            yield plan.play(game, number)
        return
    with ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(game_spec, plan)) as pool:
        yield from pool.map(_play_in_worker, range(games), chunksize=2)


def _spec_of(game) -> tuple:
    """What a worker process needs to load the same game."""
    return game.rules.ruleset.root, game.player_count, dict(game.options), game.backend


def run_tournament(game, bot_texts: list[str], games: int, seed: int, max_moves: int,
                   jobs: int = 1, progress: bool = True) -> dict:
    """The tournament's summary: standings, seating and every game's record.  Its
    "timing" part (seconds per decision) is measured and not reproducible; the rest is."""
    specs = [parse_bot_spec(text) for text in bot_texts]
    plan = Plan(specs, game.player_count, seed, max_moves)
    records = []
    thinking = [0.0] * len(specs)
    decisions = [0] * len(specs)
    index = {label: who for who, label in enumerate(plan.labels)}
    started = time.perf_counter()
    played = _results(game, plan, games, jobs, _spec_of(game))
    for record, seconds, decided in track(played, "playing", total=games, transient=True, console=console,
                                          disable=not progress):
        records.append(record)
        for seat, label in enumerate(record["lineup"]):
            thinking[index[label]] += seconds[seat]
            decisions[index[label]] += decided[seat]
    finished = sum(1 for r in records if r["finished"])
    return {
        "ruleset": game.name, "players": game.player_count, "games": games, "seed": seed,
        "max_moves": max_moves,
        "bots": [{"bot": label, "spec": str(spec)} for label, spec in zip(plan.labels, specs)],
        "lineups": [[plan.labels[who] for who in lineup] for lineup in plan.cycle],
        "balanced": games % len(plan.cycle) == 0,
        "finished": finished, "stuck": sum(1 for r in records if r["stuck"]),
        "unfinished": games - finished,
        **standings(records, plan.labels, game.player_count),
        "records": records,
        "timing": {"wall_seconds": round(time.perf_counter() - started, 2), "jobs": jobs,
                   "seconds_per_decision": {label: thinking[who] / decisions[who] if decisions[who] else None
                                            for who, label in enumerate(plan.labels)}},
    }


def reproducible_part(summary: dict) -> dict:
    """The summary without its timing: what `--json` writes."""
    return {k: v for k, v in summary.items() if k != "timing"}


def print_tournament(s: dict) -> None:
    cycle = len(s["lineups"])
    console.print(f"[bold]{escape(s['ruleset'])}[/]: {s['games']} games, {s['players']} players, seeds "
                  f"{s['seed']}..{s['seed'] + s['games'] - 1}; a seating cycle of {cycle} lineup(s)"
                  + ("" if s["balanced"] else f" [yellow](not a whole number of cycles: seats are "
                                              f"balanced only with a multiple of {cycle} games)[/]"))
    if s["unfinished"]:
        console.print(f"[yellow]{s['unfinished']} game(s) did not finish[/] ({s['stuck']} with nobody "
                      f"able to move, the rest stopped at --max-moves {s['max_moves']}); they count for nothing")
    per_move = s["timing"]["seconds_per_decision"]
    t = _table("bot", "games", "won-\ntied-\nlost", "win\nrate", "95 %\nCI", "mean\nscore", "mean\nplace",
               "rating\nμ±σ", "ms per\nmove", title="by bot, best first")
    for b in sorted(s["standings"], key=_best_first):
        t.add_row(escape(b["bot"]), str(b["games"]), f"{b['won']}-{b['shared']}-{b['lost']}",
                  _rate(b["win_rate"]), _interval(b["ci95"]), _number(b["mean_score"]),
                  _number(b["mean_place"]), f"{b['rating']['mu']:.1f}±{b['rating']['sigma']:.1f}",
                  f"{per_move[b['bot']] * 1000:.3g}" if per_move[b["bot"]] is not None else "-")
    console.print(t)
    t = _table("seat", "games", "wins", "win\nrate", "95 %\nCI",
               title=f"by seat (a fair share: {s['fair_share']:.1%})")
    for seat in s["seats"]:
        t.add_row(str(seat["seat"]), str(seat["games"]), f"{round(seat['wins'], 2):g}", _rate(seat["win_rate"]),
                  _interval(seat["ci95"]))
    console.print(t)
    console.print(f"won-tied-lost: a tie is a win shared or a draw, split between the players who share it; "
                  f"ratings: openskill Plackett-Luce; {s['timing']['wall_seconds']} s with "
                  f"{s['timing']['jobs']} job(s)")


def _best_first(b):
    """By win rate, then mean place: the figures that do not depend on the order of the
    games (the rating does a little, see standings.rating_model)."""
    return (-(b["win_rate"] or 0), b["mean_place"] or 0)


def _table(*headers, title: str) -> Table:
    """Headers on two lines, no inner borders, long cells folded, never cut: nine
    columns fit the 80 columns of a CI console."""
    t = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True, title_justify="left")
    for header in headers:
        t.add_column(header, overflow="fold")
    return t


def _rate(x):
    return "-" if x is None else f"{x:.1%}"


def _interval(ci):
    return "-" if ci is None else f"{ci[0]:.0%}–{ci[1]:.0%}"


def _number(x):
    return "-" if x is None else f"{x:g}"
