"""The adapters' long runs, too slow for the test suite (needs meeple[openspiel,pettingzoo]):

    python -m meeple.benchmarks.adapters sims [--sims 1]      # OpenSpiel random games, whole
    python -m meeple.benchmarks.adapters cfr [--iterations 40]  # CFR+ on goofspiel, 3 and 4 cards
    python -m meeple.benchmarks.adapters mcts [--games 20 --simulations 200]  # OpenSpiel MCTS vs random
    python -m meeple.benchmarks.adapters mcts-rate [--games 3 --simulations 100]  # its simulations/s: both evaluators, and OpenSpiel's

`sims` plays every shipped ruleset to its end with `pyspiel.random_sim_test` (with
serialisation), at its smallest player count; `cfr` reports exploitability as it falls;
`mcts` plays OpenSpiel's MCTSBot against uniform random on connect four, seats rotated.
"""
from __future__ import annotations

import argparse
import time

RULESETS = ["tic-tac-toe", "connect-four", "nim", "goofspiel", "examples/high-card", "treasure-hunter",
            "zavandor", "valdora", "freyas-folly"]


def sims(count: int) -> None:
    import pyspiel

    from meeple.adapters.openspiel import load
    for name in RULESETS:
        game = load(name)
        start = time.perf_counter()
        pyspiel.random_sim_test(game, num_sims=count, serialize=True, verbose=False)
        print(f"{name:20} {count} whole random game(s) passed in {time.perf_counter() - start:6.1f} s "
              f"({game.num_distinct_actions()} action ids, tensor {game.observation_tensor_size()})", flush=True)


def cfr(iterations: int) -> None:
    import pyspiel
    from open_spiel.python.algorithms import cfr as cfr_algorithms, exploitability

    from meeple.adapters.openspiel import load
    for cards in (3, 4):
        game = pyspiel.convert_to_turn_based(load("goofspiel", 2, cards=cards))
        solver = cfr_algorithms.CFRPlusSolver(game)
        start = time.perf_counter()
        for i in range(1, iterations + 1):
            solver.evaluate_and_update_policy()
            if i & (i - 1) == 0 or i == iterations:
                value = exploitability.exploitability(game, solver.average_policy())
                print(f"goofspiel {cards} cards  CFR+ iteration {i:4}  exploitability {value:.5f}  "
                      f"{time.perf_counter() - start:7.1f} s", flush=True)


def mcts(games: int, simulations: int) -> None:
    import numpy as np
    from open_spiel.python.algorithms import mcts as mcts_algorithms

    from meeple.adapters.openspiel import load
    game = load("connect-four")
    rng = np.random.RandomState(0)
    bot = mcts_algorithms.MCTSBot(game, uct_c=2, max_simulations=simulations,
                                  evaluator=mcts_algorithms.RandomRolloutEvaluator(1, rng), random_state=rng)
    results = {"won": 0, "drawn": 0, "lost": 0}
    start = time.perf_counter()
    for g in range(games):
        seat = g % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bot.step(state) if state.current_player() == seat
                               else rng.choice(state.legal_actions()))
        r = state.returns()[seat]
        results["won" if r > 0 else "lost" if r < 0 else "drawn"] += 1
    print(f"connect four, OpenSpiel MCTS ({simulations} simulations) vs random, {games} games: {results} "
          f"in {time.perf_counter() - start:.1f} s")


def mcts_rate(rounds: int, simulations: int) -> None:
    """OpenSpiel's MCTSBot choosing connect four's first moves, interleaved: on meeple's game
    through the adapter with OpenSpiel's rollout evaluator and with the adapter's
    (adapters/openspiel_rollouts.py), and on OpenSpiel's own game (targets.mcts_rates)."""
    from .targets import mcts_rates
    rates = mcts_rates(rounds, simulations)
    for name, rate in rates.items():
        print(f"{name:22} {rate:10,.0f} simulations/s  {rate / rates['OpenSpiel']:.3f} of OpenSpiel's")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", choices=["sims", "cfr", "mcts", "mcts-rate"])
    parser.add_argument("--sims", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=200)
    args = parser.parse_args()
    if args.run == "sims":
        sims(args.sims)
    elif args.run == "cfr":
        cfr(args.iterations)
    elif args.run == "mcts":
        mcts(args.games, args.simulations)
    else:
        mcts_rate(args.games, args.simulations)


if __name__ == "__main__":
    main()
