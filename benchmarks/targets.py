"""Issue 43's speed targets, read off one `meeple bench` run.

The bench's rows (playouts.bench_game) hold every ratio the targets name but one, the
rate of OpenSpiel's MCTS through the adapter, which `mcts_rates` measures beside them when
OpenSpiel is installed and connect four is among the games.  `checks` turns a run into one
line per target and game: what it measured, what the target needs, and whether it holds.
A target a run has no figure for (OpenSpiel not installed, a game not benched) is left
out, never counted as met.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

STEP_GAMES = ("tic-tac-toe", "connect-four", "nim", "goofspiel")  # the step API against the hand-written loop


@dataclass(frozen=True)
class Check:
    target: str
    game: str
    measured: float
    needed: float

    @property
    def met(self) -> bool:
        return self.measured >= self.needed


def checks(rows: list[dict], mcts: dict | None = None) -> list[Check]:
    """Each target against the run's figures, in the issue's order."""
    found: list[Check] = []
    for row in rows:
        ratios, game = row.get("ratios", {}), row["game"]
        playouts = ratios.get("compiled_vs_openspiel_playouts")
        if playouts is not None:
            found.append(Check("playouts ≥ 0.5× OpenSpiel", game, playouts, 0.5))
            found.append(Check("playouts never below 0.25× OpenSpiel", game, playouts, 0.25))
    for row in rows:
        steps = row.get("ratios", {}).get("compiled steps_vs_hand_written_playouts")
        if row["game"] in STEP_GAMES and steps is not None:
            found.append(Check("step API ≥ 0.3× the hand-written loop", row["game"], steps, 0.3))
    for row in rows:
        steps = row.get("ratios", {}).get("compiled steps_vs_openspiel_playouts")
        if steps is not None:
            found.append(Check("step API ≥ 0.25× OpenSpiel", row["game"], steps, 0.25))
    for row in rows:
        ratios = row.get("ratios", {})
        if row["game"] == "goofspiel" and "compiled_vs_hand_written_playouts" in ratios:
            found.append(Check("goofspiel playouts ≥ 0.5× the hand-written loop", "goofspiel",
                               ratios["compiled_vs_hand_written_playouts"], 0.5))
        if row["game"] == "freyas-folly" and "compiled_vs_reference_moves" in ratios:
            found.append(Check("freyas-folly ≥ 20× the reference", "freyas-folly",
                               ratios["compiled_vs_reference_moves"], 20.0))
    if mcts is not None:
        found.append(Check("OpenSpiel's MCTS through the adapter ≥ 0.25× its own", "connect-four",
                           mcts["playout rollouts"] / mcts["OpenSpiel"], 0.25))
    return found


def mcts_rates(rounds: int = 3, simulations: int = 100) -> dict | None:
    """Simulations per second of OpenSpiel's MCTSBot choosing connect four's first four
    moves, interleaved: through the adapter with OpenSpiel's rollouts (stepped through the
    pyspiel state) and with the adapter's (`PlayoutEvaluator`), and on OpenSpiel's own game.
    None without OpenSpiel."""
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        return None
    from meeple.adapters.openspiel import load
    from meeple.adapters.openspiel_rollouts import PlayoutEvaluator
    ours = load("connect-four")
    runners = {"OpenSpiel's rollouts": (ours, mcts.RandomRolloutEvaluator),
               "playout rollouts": (ours, PlayoutEvaluator),
               "OpenSpiel": (pyspiel.load_game("connect_four"), mcts.RandomRolloutEvaluator)}
    spent = dict.fromkeys(runners, 0.0)
    for r in range(rounds):
        for name, (game, evaluator) in runners.items():
            rng = np.random.RandomState(r)
            bot = mcts.MCTSBot(game, uct_c=2, max_simulations=simulations, evaluator=evaluator(1, rng),
                               random_state=rng)
            state = game.new_initial_state()
            start = time.perf_counter()
            for _ in range(4):  # each move a whole search
                state.apply_action(bot.step(state))
            spent[name] += time.perf_counter() - start
    return {name: rounds * 4 * simulations / t for name, t in spent.items()}


def print_checks(found: list[Check], mcts: dict | None) -> None:
    from rich.console import Console
    from rich.table import Table
    t = Table("target", "game", "measured", "needed", "met", title="issue 43's targets in this run")
    for c in found:
        t.add_row(c.target, c.game, f"{c.measured:.3g}", f"{c.needed:g}", "yes" if c.met else "no")
    console = Console(width=140)
    console.print(t)
    if mcts is not None:
        console.print("OpenSpiel's MCTSBot, connect four, simulations/s: " +
                      ", ".join(f"{name} {rate:,.0f}" for name, rate in mcts.items()))
    met = sum(c.met for c in found)
    console.print(f"{met} of {len(found)} checks met")
