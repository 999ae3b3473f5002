"""`meeple bench`: each back end of the interpreter next to a hand-written loop of the
same game, measured in the same run.  Machines are noisy, so the ratios are the
figures to quote, not the absolute rates.

For every ruleset and runner (the closure interpreter "reference", the generated
module "compiled", and the hand-written baseline where `baselines.BASELINES` has one):

- playouts/s and moves/s: uniform random games from a fresh seeded state, as a
  simulation or a search bot plays them (`game.playout(game.new_state(seed), rng=rnd)`),
  the runners of a game taking turns in rounds (`interleaved_rates`) so that all of
  them meet the machine's drift alike;
- ms per legal-move generation: `game.legal_moves` on copies of states sampled from
  one game (a copy's move cache is empty, so every call lists the moves afresh);
- memory per kept state: the bytes of every object reachable from the kept states of
  seeded games, each counted once (`deep_bytes`), divided by the number of states.  A
  baseline is measured only if its module offers `kept_states(rnd) -> list` (every
  state of one random game, each kept as that program would keep it for a search);
  "packed" is the same for the states kept as `Game.pack` packs them (packing.py), the
  form the API offers a search for the positions it keeps;
- the ratios: compiled ÷ reference moves/s, over the games the reference played (both
  back ends play the same seeded games in the same order; the row's `same_games` says
  how many were compared), and each runner's playouts/s and memory per state (as a
  State, and packed) ÷ the baseline's.

    python -m meeple.benchmarks.playouts [GAME ...] [--seconds S] [--json] [--markdown]
    meeple bench [GAME ...] [--seconds S] [--json]
"""
from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
import types

from meeple.interpreter import list_rulesets, load_game

from .baselines import BASELINES
from .timing import _measure, engine_playout
from .step_runners import openspiel_game, openspiel_playout, step_api_playout
from .targets import checks, mcts_rates, print_checks

BACKENDS = ("reference", "compiled")
SAMPLED_STATES = 40  # states per game whose legal moves are timed
ROUNDS = 8  # turns the runners of a game take at playing, one after another
MIN_GAMES = 6  # the fewest games each runner plays: the ratio over the same games covers as many
MEMORY_STATES = (200, 2000)  # states kept for the memory figure: whole games until the first
                             # number is reached, and a long game cut at the second


def _one_game(game, seed: int, max_moves: int | None = None) -> list:
    """Every state of one seeded random game played with `apply`."""
    rnd = random.Random(seed)
    state = game.new_state(seed)
    states = [state]
    while not state.over and (max_moves is None or len(states) <= max_moves):
        legal = game.legal_moves(state)
        if not legal:
            break
        state = game.apply(state, legal[rnd.randrange(len(legal))])
        states.append(state)
    return states


def legal_moves_ms(game, seconds: float, seed: int = 3) -> float:
    """Milliseconds per `legal_moves` call on states sampled evenly from one game."""
    states = [s for s in _one_game(game, seed) if not s.over]
    step = max(1, len(states) // SAMPLED_STATES)
    sample = states[::step][:SAMPLED_STATES]
    calls, spent = 0, 0.0
    while spent < seconds:
        fresh = [s.copy() for s in sample]  # copied outside the timing: empty move caches
        start = time.perf_counter()
        for s in fresh:
            game.legal_moves(s)
        spent += time.perf_counter() - start
        calls += len(fresh)
    return 1000 * spent / calls


def bytes_per_kept_state(game, seed: int = 1, packed: bool = False) -> float:
    """Bytes per state of seeded random games with every state kept, as `deep_bytes`
    counts them (short games are played until MEMORY_STATES[0] states are kept; a
    long game is cut at MEMORY_STATES[1]); with `packed`, each kept as `Game.pack` packs
    it, the form a search keeps positions in."""
    least, most = MEMORY_STATES
    kept: list = []
    while len(kept) < least:
        kept += _one_game(game, seed + len(kept), most - len(kept))
    if packed:
        kept = [game.pack(s) for s in kept]
    return deep_bytes(kept) / len(kept)


def baseline_bytes_per_state(playout) -> float | None:
    """The baseline's own figure, if its module can keep its states (`kept_states`)."""
    keeper = getattr(sys.modules.get(playout.__module__), "kept_states", None)
    if keeper is None:
        return None
    kept = keeper(random.Random(1))
    return deep_bytes(kept) / len(kept)


def deep_bytes(kept: list) -> int:
    """Bytes of every object reachable from `kept`, each counted once: what keeping these
    states costs, structure shared between them included once.  (tracemalloc would miss
    small tuples that Python reuses from its free lists.)  Classes, functions and the
    small ints Python shares are not the states' own."""
    seen, total, todo = {id(kept)}, 0, list(kept)
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (type, types.FunctionType, types.ModuleType)) or (
                type(obj) is int and -5 <= obj <= 256):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        todo.extend(gc.get_referents(obj))
    return total


def interleaved_rates(runners: dict, seconds: float, rounds: int = ROUNDS, min_games: int = MIN_GAMES) -> dict:
    """runner -> its playouts, playouts/s and moves/s over `seconds`, measured in `rounds`
    turns taken one runner after another: on a VM whose speed drifts by a tenth from one
    second to the next, every runner then meets the same drift, and the ratios hold
    still where one long measurement after another would not.  Each runner's policy
    generator goes on from round to round (seeded the same for every runner), so the
    back ends play the same games in the same order; each game's moves and time are
    kept (`games`) for `same_games_ratio`.  Rounds go on past `seconds` until every
    runner has played `min_games` games: where one game takes the reference a second,
    a ratio over two or three of them moved by a third from run to run."""
    totals = {name: [0, 0, 0.0, random.Random(12345), []] for name in runners}
    played_rounds = 0
    while played_rounds < rounds or min(t[0] for t in totals.values()) < min_games:
        played_rounds += 1
        for name, fn in runners.items():
            t = totals[name]
            start = time.perf_counter()
            deadline = start + seconds / rounds
            while True:
                began = time.perf_counter()
                moves = fn(t[3])
                t[4].append((moves, time.perf_counter() - began))
                t[1] += moves
                t[0] += 1
                if time.perf_counter() >= deadline:
                    break
            t[2] += time.perf_counter() - start
    return {name: {"playouts": p, "playouts_per_s": round(p / spent, 2), "moves_per_s": round(m / spent, 1),
                   "games": games}
            for name, (p, m, spent, _, games) in totals.items()}


def same_games_ratio(fast: dict, slow: dict) -> tuple[float, int] | None:
    """(fast's moves/s ÷ slow's, over the games both played, and how many) when the two
    runners' first games are the same games (each the same number of moves), else None.
    Where one game of a ruleset takes the slow runner a second, a measurement of a few
    seconds times two or three of them, and the cost of a move differs from game to
    game: compared over different games the ratio moves by a fifth from run to run."""
    k = min(len(fast["games"]), len(slow["games"]))
    a, b = fast["games"][:k], slow["games"][:k]
    if k == 0 or [m for m, _ in a] != [m for m, _ in b]:
        return None
    per_s = [sum(m for m, _ in g) / max(sum(t for _, t in g), 1e-12) for g in (a, b)]
    return per_s[0] / per_s[1], k


def bench_game(name: str, seconds: float, backends=BACKENDS) -> dict:
    """One ruleset at its smallest player count: a row per runner, and the ratios."""
    row: dict = {"game": name, "runners": {}}
    games = {backend: load_game(name, backend=backend) for backend in backends}
    players = {backend: engine_playout(game) for backend, game in games.items()}
    stepped = "compiled" if "compiled" in games else backends[0]
    players[f"{stepped} steps"] = step_api_playout(games[stepped])
    os_game = openspiel_game(name, games[stepped].player_count)
    if os_game is not None:
        players["OpenSpiel"] = openspiel_playout(os_game)
    base = BASELINES.get(name)
    slowest = 0.0
    for play in players.values():
        start = time.perf_counter()
        play(random.Random(0))  # compile and warm up outside the timing
        slowest = max(slowest, time.perf_counter() - start)
    # A round is at least one playout: a game whose playout takes a second takes fewer rounds.
    rounds = max(1, min(ROUNDS, int(seconds / max(slowest, 1e-9))))
    rates = interleaved_rates({**players, **({"hand-written": base} if base is not None else {})}, seconds, rounds)
    for backend, game in games.items():
        row["players"] = game.player_count
        tier = getattr(game.rules, "playout_tier", None)
        if tier is not None:
            row["tier"] = tier()  # which generated playout the compiled runner plays
        r = rates[backend]
        r["legal_moves_ms"] = round(legal_moves_ms(game, seconds), 4)
        r["bytes_per_state"] = round(bytes_per_kept_state(game))
        r["bytes_per_packed"] = round(bytes_per_kept_state(game, packed=True))
        row["runners"][backend] = r
    for extra in [n for n in players if n not in games]:  # the step API and OpenSpiel: rates only
        row["runners"][extra] = {**rates[extra], "legal_moves_ms": None, "bytes_per_state": None}
    if base is not None:
        r = rates["hand-written"]
        r["legal_moves_ms"] = None
        kept = baseline_bytes_per_state(base)
        r["bytes_per_state"] = round(kept) if kept is not None else None
        row["runners"]["hand-written"] = r
    runners = row["runners"]
    ratios = {}
    if "compiled" in runners and "reference" in runners:
        paired = same_games_ratio(rates["compiled"], rates["reference"])
        if paired is not None:  # over the very games the reference played
            ratios["compiled_vs_reference_moves"], row["same_games"] = paired
        else:
            ratios["compiled_vs_reference_moves"] = runners["compiled"]["moves_per_s"] / \
                runners["reference"]["moves_per_s"]
    timed = [n for n in runners if n not in ("hand-written", "OpenSpiel")]
    if base is not None:
        for runner in timed:
            ratios[f"{runner}_vs_hand_written_playouts"] = runners[runner]["playouts_per_s"] / \
                runners["hand-written"]["playouts_per_s"]
        if runners["hand-written"]["bytes_per_state"]:
            for backend in backends:
                ratios[f"{backend}_vs_hand_written_memory"] = runners[backend]["bytes_per_state"] / \
                    runners["hand-written"]["bytes_per_state"]
                ratios[f"{backend}_packed_vs_hand_written_memory"] = runners[backend]["bytes_per_packed"] / \
                    runners["hand-written"]["bytes_per_state"]
    if "OpenSpiel" in runners:
        for runner in timed:
            ratios[f"{runner}_vs_openspiel_playouts"] = runners[runner]["playouts_per_s"] / \
                runners["OpenSpiel"]["playouts_per_s"]
    row["ratios"] = {k: round(v, 3) for k, v in ratios.items()}
    for r in runners.values():
        r.pop("games", None)  # each game's moves and time: only for the ratio above
    return row


def run_bench(games=None, seconds: float = 3.0, as_json: bool = False, backends=BACKENDS) -> list[dict]:
    """Benchmark `games` (every shipped ruleset when empty) and print the table (or JSON)."""
    rows = [bench_game(g, seconds, tuple(backends)) for g in (games or list_rulesets())]
    if as_json:
        print(json.dumps(rows, indent=1))
    else:
        print_table(rows, seconds)
        # Issue 43's targets, and OpenSpiel's MCTS on connect four for the one they name.
        mcts = mcts_rates() if any(r["game"] == "connect-four" for r in rows) else None
        print_checks(checks(rows, mcts), mcts)
    return rows


HEADERS = ("game", "runner", "playouts/s", "moves/s", "ms/legal", "KiB/state", "KiB/packed", "moves/s ÷ ref",
           "playouts/s ÷ hand", "playouts/s ÷ OpenSpiel", "KiB ÷ hand", "packed ÷ hand")


def table_rows(rows):
    """The cells of the table, one list of texts per runner; None between games."""
    for row in rows:
        ratios = row["ratios"]
        for i, (runner, r) in enumerate(row["runners"].items()):
            vs_ref = ratios.get("compiled_vs_reference_moves") if runner == "compiled" else None
            per_s = r["playouts_per_s"]
            kib = r["bytes_per_state"] / 1024 if r.get("bytes_per_state") else None
            packed = r["bytes_per_packed"] / 1024 if r.get("bytes_per_packed") else None
            shown = f"{runner} ({row['tier']})" if runner == "compiled" and row.get("tier") else runner
            yield [f"{row['game']} ({row['players']}p)" if i == 0 else "", shown,
                   f"{per_s:,.1f}" if per_s < 100 else f"{per_s:,.0f}", f"{r['moves_per_s']:,.0f}",
                   _num(r["legal_moves_ms"], "{:.3f}"), _num(kib, "{:.2f}"), _num(packed, "{:.2f}"),
                   _num(vs_ref, "{:.1f}×"), _ratio(ratios.get(f"{runner}_vs_hand_written_playouts")),
                   _ratio(ratios.get(f"{runner}_vs_openspiel_playouts")),
                   _num(ratios.get(f"{runner}_vs_hand_written_memory"), "{:.1f}×"),
                   _num(ratios.get(f"{runner}_packed_vs_hand_written_memory"), "{:.1f}×")]
        yield None


def print_table(rows, seconds: float):
    from rich.console import Console
    from rich.table import Table
    t = Table(*HEADERS, title=f"random playouts, {seconds:g} s per measurement (a game's runners take turns), "
                              "one process (the machine is noisy: compare the ratios)")
    t.columns[1].no_wrap = True  # "compiled (kernel)" on one line
    for cells in table_rows(rows):
        if cells is None:
            t.add_section()
        else:
            t.add_row(*cells)
    Console(width=None if sys.stdout.isatty() else 140).print(t)


def markdown_table(rows) -> str:
    """The same table in Markdown, as benchmarks/README.md shows it."""
    lines = ["| " + " | ".join(HEADERS) + " |", "| --- | --- |" + " ---: |" * (len(HEADERS) - 2)]
    lines += ["| " + " | ".join(cells) + " |" for cells in table_rows(rows) if cells is not None]
    return "\n".join(lines)


def _num(value, fmt: str) -> str:
    return "—" if value is None else fmt.format(value)


def _ratio(value) -> str:
    """A ratio to the baseline: 0.52× above a tenth, 1/43 below (as the issue quotes them)."""
    if value is None:
        return "—"
    return f"{value:.2f}×" if value >= 0.1 else f"1/{1 / value:.0f}"


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m meeple.benchmarks.playouts", description=__doc__.split("\n")[0])
    ap.add_argument("games", nargs="*", help="rulesets (default: every shipped one)")
    ap.add_argument("--seconds", type=float, default=3.0,
                    help="seconds per measurement (each runner plays at least six games)")
    ap.add_argument("--backend", choices=BACKENDS, action="append", help="only this back end (repeatable)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--markdown", action="store_true", help="print the table in Markdown as well")
    args = ap.parse_args(argv)
    rows = run_bench(args.games, args.seconds, args.json, tuple(args.backend or BACKENDS))
    if args.markdown:
        print(markdown_table(rows))


if __name__ == "__main__":
    main()
