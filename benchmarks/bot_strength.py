"""How strong the search bots are: one bot against random bots, seats rotated.

    python -m meeple.benchmarks.bot_strength tic-tac-toe mcts:1000 --games 200
    python -m meeple.benchmarks.bot_strength treasure-hunter ismcts:200 -p 2 --games 50
    python -m meeple.benchmarks.bot_strength valdora ismcts:100 -p 3 --decisions 20

A game's win counts 1 for a sole winner and 1/k for one of k tied winners.  The share is
given with its 95 % Wilson interval, the fair share (1 / players) beside it, and the
search bot's thinking time per decision (single-option decisions, answered at once,
are left out).  `--decisions N` only times N decisions of one game instead.  Long runs
live here, not in the tests (tests use tiny budgets)."""
from __future__ import annotations

import argparse
import math
import random
import time

from meeple.bots import bot_move, make_bot
from meeple.interpreter import load_game


def play(game, spec: str, seat: int, seed: int) -> tuple[float, bool, bool, list[float]]:
    """One game; the bot at `seat`, random bots elsewhere: (its win, draw?, lost?, its think times)."""
    state = game.new_state(seed)
    bots = [make_bot(spec if p == seat else "random", f"{seed}:{p}") for p in range(game.player_count)]
    times = []
    while not state.over:
        player = game.current_players(state)[0]
        started = time.perf_counter()
        move = bot_move(bots[player], game, state, player)
        if player == seat and len(game.legal_moves(state, player)) > 1:
            times.append(time.perf_counter() - started)
        state = game.apply(state, move)
    winners = game.outcome(state).winners
    draw = not winners or len(winners) == game.player_count
    return (1 / len(winners) if seat in winners else 0.0), draw, not draw and seat not in winners, times


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def time_decisions(game, spec: str, decisions: int, seed: int) -> None:
    """Think times along one game whose moves are random: the search bot is asked at every
    `decisions`-th point that offers a choice, across the whole game."""
    rng = random.Random(seed)
    state, length = game.new_state(seed), 0
    probe = game.playout(state, rng=random.Random(seed))
    length = probe.move_count
    every = max(1, length // decisions)
    times, asked = [], 0
    bot = make_bot(spec, seed)
    while not state.over and asked < decisions:
        player = game.current_players(state)[0]
        moves = game.legal_moves(state, player)
        if state.move_count % every == 0 and len(moves) > 1:
            started = time.perf_counter()
            bot_move(bot, game, state, player)
            times.append(time.perf_counter() - started)
            asked += 1
        state = game.apply(state, moves[rng.randrange(len(moves))])
    times.sort()
    print(f"{game.name} {game.player_count}p {spec}: {len(times)} decisions over a {length}-move random game; "
          f"think time median {times[len(times) // 2] * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("bot")
    parser.add_argument("-p", "--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--decisions", type=int, default=None)
    parser.add_argument("--progress", action="store_true", help="a line after each game")
    args = parser.parse_args(argv)
    game = load_game(args.game, players=args.players)
    if args.decisions:
        time_decisions(game, args.bot, args.decisions, args.seed)
        return
    n = game.player_count
    wins, draws, losses, times = 0.0, 0, 0, []
    started = time.perf_counter()
    for g in range(args.games):
        won, draw, lost, spent = play(game, args.bot, g % n, args.seed + g)
        wins, draws, losses = wins + won, draws + draw, losses + lost
        times += spent
        if args.progress:
            print(f"game {g + 1}: seat {g % n}, win {won:g}; so far {wins:g}/{g + 1}", flush=True)
    low, high = wilson(wins, args.games)
    times.sort()
    median = times[len(times) // 2] * 1000 if times else 0.0
    print(f"{game.name} {n}p: {args.bot} vs {n - 1} random, {args.games} games (seats rotated): "
          f"wins {wins:g} ({wins / args.games:.1%}, 95% CI {low:.1%}-{high:.1%}; fair share {1 / n:.0%}), "
          f"draws {draws}, losses {losses}; "
          f"think time median {median:.0f} ms/decision; {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
