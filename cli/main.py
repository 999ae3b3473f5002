"""`meeple`: the command line.  Each subcommand is one stage of the pipeline.

Bad input (a broken ruleset, a corrupt save, an unknown game) is reported on
stderr with exit code 2; no traceback reaches the user.
"""
from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape

from meeple.dsl.diagnostics import Diagnostic, RulesetError
from meeple.dsl.eval_errors import EvalError
from meeple.interpreter import RuleError, load_rules, list_rulesets
from meeple.interpreter.runtime.loading import BACKENDS
from meeple.interpreter.persistence.saves import CorruptFile

from .common_options import (checked_lang, game_argument, game_options_option, games_option, lang_option,
                             players_option, seed_option)
from .arguments import (RANDOM_GAME_MOVES, at_least, bot_seats, checked_backend, game_from_options, known_format,
                        saved_setup, seat_bots)
from .render import console, error_console, fail, print_diagnostics
from .where_options import batch_option, jobs_option, ray_address_option, ray_option, ray_target

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="meeple: board games written as data, and one interpreter that runs them.")


def _print_version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version
        console.print(f"meeple {version('meeple')}")
        raise typer.Exit(0)


@app.callback()
def _top(version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                      help="print meeple's version and exit")):
    """meeple: board games written as data, and one interpreter that runs them."""


BACKEND_HELP = f"which back end runs the rules: {' or '.join(BACKENDS)} (the same game, at different speeds)"


def _backend_option():
    return typer.Option(None, "--backend", help=BACKEND_HELP)


def _game_for_save(name: str, path: Path, players: Optional[int], options, backend):
    """The game a save continues: with the save's own player count and options unless -p
    or -o is given (one that differs from the save's is then refused, at the save's field)."""
    saved_players, saved_options = saved_setup(path)
    return game_from_options(name, players if players is not None else saved_players, options, backend,
                 refused_as=f"{path}: ", preset=saved_options)


def _read_save(g, path: Path):
    """A save the command line continues: checked, and verified by replaying its moves."""
    from meeple.interpreter.persistence.saves import read_save
    saved = read_save(g, path, require_history=True)
    if not saved.hash_matches:
        error_console.print("[yellow]warning:[/] the ruleset changed since this state was saved")
    return saved


def _load_save(g, path: Path):
    return _read_save(g, path).state


@app.command()
def validate(paths: List[Path] = typer.Argument(..., help="ruleset files or folders")):
    """Check rulesets; exit 0 when clean, 2 with diagnostics."""
    from meeple.authoring.checking import validate as diagnostics_of
    from meeple.interpreter.runtime.loading import find_ruleset
    bad = False
    for path in paths:
        try:
            path = find_ruleset(path)
        except FileNotFoundError as exc:
            error_console.print(f"error: {escape(str(exc))}")
            bad = True
            continue
        _, diags = diagnostics_of(path)  # what the language server shows, too (meeple lsp)
        print_diagnostics(diags)
        errors = sum(1 for d in diags if d.severity == "error")
        warnings = len(diags) - errors
        if errors:
            bad = True
            error_console.print(f"{escape(str(path))}: {errors} error(s), {warnings} warning(s)")
        else:
            console.print(f"{escape(str(path))}: ok" + (f" ({warnings} warning(s))" if warnings else ""))
    raise typer.Exit(2 if bad else 0)


@app.command()
def play(game: str = game_argument(),
         players: Optional[int] = players_option(),
         seed: Optional[int] = typer.Option(None, "--seed", "-s",
                                            help="seed of the game's chance (default: a fresh one, "
                                                 "shown when the game is over)"),
         bots: str = typer.Option("", "--bots", "-b", help="seats played by bots: 'all' or e.g. '1,2' (random "
                                  "bots), or seats with their bots, e.g. '1=mcts:2000,2=ismcts:1.5s'"),
         lang: Optional[str] = lang_option(),
         load: Optional[Path] = typer.Option(None, "--load", help="continue a saved state"),
         log: Optional[Path] = typer.Option(None, "--log", help="write a replay log here"),
         option: Optional[List[str]] = game_options_option(),
         max_moves: Optional[int] = typer.Option(None, "--max-moves", help="stop after this many moves (the log "
                                                 "still records them)"),
         full: bool = typer.Option(False, "--full", help="show the whole table at every decision (default: the "
                                   "compact screen: the panel, what happened, your area, your moves; t shows the table)"),
         auto: bool = typer.Option(True, "--auto/--no-auto", help="play a decision that has only one legal move "
                                   "for you, with a line saying so"),
         backend: Optional[str] = _backend_option()):
    """Play a game in the terminal, hot-seat and/or against bots."""
    from .play import run_play
    g = _game_for_save(game, load, players, option, backend) if load else game_from_options(game, players, option, backend)
    lang = checked_lang(g.rules.ruleset, lang)
    seats = bot_seats(bots, g.player_count)
    prior = []
    if load:
        # The game goes on from the save's own seed and moves; --seed then seeds only the bots.
        # The seed is not shown here: it decides every hidden card (it is shown at the end).
        saved = _read_save(g, load)
        state, prior, bot_seed = saved.state, saved.moves, saved.seed if seed is None else seed
        seed = saved.seed
    else:
        # The seed decides every hidden card, so it is drawn fresh and not shown before the end.
        seed = secrets.randbelow(2**31) if seed is None else seed
        state, bot_seed = g.new_state(seed), seed
    from .phrases import phrase
    console.print(f"[bold]{escape(g.rules.ruleset.game.title)}[/] · {phrase(lang, '{n} players', n=g.player_count)}" +
                  (f" · {phrase(lang, 'a saved game, after {n} moves', n=len(prior))}" if load else ""))
    run_play(g, state, seed, seats, lang, str(log) if log else None,
             bot_seed=bot_seed, max_moves=max_moves, prior_moves=prior, full=full, auto=auto)


@app.command()
def demo(game: str = game_argument("tic-tac-toe"), seed: int = seed_option(1, "seed of the game's chance and the bots"),
         players: Optional[int] = players_option(),
         backend: Optional[str] = _backend_option()):
    """Watch a full game between random bots, turn by turn."""
    from .play import run_play
    g = game_from_options(game, players, backend=backend)
    console.print(f"[bold]{escape(g.rules.ruleset.game.title)}[/]: {g.player_count} random bots, seed {seed}")
    state, _ = run_play(g, g.new_state(seed), seed, set(range(g.player_count)), None, None, bot_seed=seed)
    from .render import show_view
    show_view(g, g.view(state, 0), title="final position, as player 0 sees it")


@app.command(context_settings={"allow_interspersed_args": True})
def simulate(game: str = game_argument(),
             more_bots: Optional[List[str]] = typer.Argument(None, hidden=True, metavar="",
                                                             help="the rest of --bots' specs"),
             games: int = games_option(),
             players: Optional[int] = players_option(),
             seed: int = seed_option(0, "the first game's seed; game i is played with seed + i"),
             as_json: bool = typer.Option(False, "--json", help="print the summary as JSON"),
             max_moves: int = typer.Option(100_000, "--max-moves", help="stop a game that runs longer"),
             check: bool = typer.Option(False, "--check", help="test the invariants after every move"),
             jobs: Optional[int] = jobs_option(),
             ray: bool = ray_option(),
             ray_address: Optional[str] = ray_address_option(),
             batch: int = batch_option(),
             out: Optional[Path] = typer.Option(None, "--out", help="write one record per game here "
                                                                     "(.parquet or .jsonl; docs/simulation.md)"),
             option: Optional[List[str]] = game_options_option(),
             bots: Optional[List[str]] = typer.Option(None, "--bots", "-b",
                                                      help="the bots: one for every seat or one per seat, "
                                                           "e.g. --bots mcts:200 random (default: random)"),
             backend: Optional[str] = _backend_option()):
    """Play N games between bots (random by default) and summarise lengths, wins and scores."""
    from meeple.simulation.records import RecordsError, _check_format
    from meeple.simulation.tasks import BackendError, GameSpec
    from .simulate import print_summary, run_simulation
    at_least(games, 1, "--games")
    at_least(max_moves, 1, "--max-moves")
    where = ray_target(ray, ray_address, jobs, batch)
    if more_bots and not bots:
        fail(f"unexpected argument '{more_bots[0]}' (bots are given after --bots)")
    g = game_from_options(game, players, option, backend)
    seats = seat_bots(list(bots) + list(more_bots or ()), g.player_count) if bots else None
    try:
        if out is not None:
            _check_format(out)
        spec = GameSpec(game, g.player_count, tuple(sorted(g.options.items())), g.backend)
        summary = run_simulation(spec, games, seed, max_moves, progress=not as_json, check=check,
                                 jobs=jobs, bots=tuple(str(b) for b in seats) if seats else None,
                                 out=out, ray=where, batch=batch)
    except (RecordsError, BackendError) as exc:
        fail(str(exc))
    if as_json:
        console.print_json(json.dumps(summary))
    else:
        print_summary(summary)


@app.command(context_settings={"allow_extra_args": True})
def tournament(ctx: typer.Context,
               game: str = game_argument(),
               bots: List[str] = typer.Option(..., "--bots", "-b",
                                              help="the bots, after the game: --bots random mcts:500 "
                                                   "ismcts:1.5s (a bot named twice plays as two)"),
               games: int = games_option(),
               players: Optional[int] = typer.Option(None, "--players", "-p",
                                                     help="default: one seat per bot when the game allows "
                                                          "it, else the game's smallest table"),
               seed: int = seed_option(0, "seed of the games' chance and the bots"),
               jobs: int = typer.Option(1, "--jobs", "-j", help="worker processes (the results do not "
                                        "depend on it)"),
               as_json: Optional[str] = typer.Option(None, "--json", help="write the results and every "
                                                     "game's record to FILE, or to standard output with -"),
               max_moves: int = typer.Option(100_000, "--max-moves", help="stop a game that runs longer "
                                             "(it then counts for nothing)"),
               option: Optional[List[str]] = game_options_option(),
               backend: Optional[str] = _backend_option()):
    """Bots against bots with the seats rotated: win rates with 95 % confidence
    intervals, ratings, and the balance between seats."""
    from meeple.bots import BotSpecError, parse_bot_spec
    from .tournament import (TournamentError, default_players, print_tournament, reproducible_part,
                             run_tournament, seating_cycle)
    # `--bots a b c`: click gives an option one value, so the others arrive as extra arguments.
    texts = [t for piece in list(bots) + list(ctx.args) for t in piece.split(",") if t.strip()]
    at_least(games, 1, "--games")
    at_least(max_moves, 1, "--max-moves")
    at_least(jobs, 1, "--jobs")
    if as_json not in (None, "-") and not Path(as_json).parent.is_dir():
        fail(f"--json {as_json}: there is no folder {Path(as_json).parent}")  # said before the games, not after
    try:
        for text in texts:
            parse_bot_spec(text)
        if players is None:
            info = load_rules(game, checked_backend(backend)).ruleset.game
            players = default_players(len(texts), info.min_players, info.max_players)
        seating_cycle(len(texts), players)
    except (BotSpecError, TournamentError) as exc:
        fail(str(exc))
    g = game_from_options(game, players, option, backend)
    summary = run_tournament(g, texts, games, seed, max_moves, jobs=jobs, progress=as_json != "-")
    if as_json is not None:
        text = json.dumps(reproducible_part(summary), indent=1)
        if as_json == "-":
            print(text)
            return
        Path(as_json).write_text(text + "\n", encoding="utf-8")
        error_console.print(f"written {escape(as_json)}")
    print_tournament(summary)


@app.command()
def replay(log: Path = typer.Argument(..., help="a replay log written by meeple play --log"),
           rules: Optional[Path] = typer.Option(None, "--rules", help="the ruleset's file or folder, for a "
                                                "log of a ruleset that is not shipped"),
           backend: Optional[str] = _backend_option(),
           narrate: bool = typer.Option(False, "--narrate", help="print each move and what the rules did "
                                        "then (the narrated log), as --seat reads them"),
           seat: int = typer.Option(0, "--seat", help="with --narrate: the player whose reading is shown"),
           lang: Optional[str] = typer.Option(None, "--lang", help="with --narrate: the language of the "
                                              "sentences (en, hu)")):
    """Replay a log; exit 0 if it reproduces, 1 if it diverges, 2 if it is corrupt."""
    from meeple.interpreter import Game
    from meeple.interpreter.persistence.saves import game_for_log, read_log, replay as do_replay
    backend = checked_backend(backend)
    data = read_log(log)
    g = game_for_log(data, log, rules)
    if backend is not None and backend != g.backend:
        # The ruleset game_for_log chose and checked, run by the back end asked for.
        g = Game(load_rules(g.rules.ruleset.root, backend), data.players, data.options)
    if not data.complete:
        error_console.print("[yellow]warning:[/] a version-1 log without its final record: if it was cut "
                            "short, replay cannot tell")
    result = do_replay(g, data)
    if narrate and result.diverged_at is None:
        from .narration_lines import replay_lines
        if not 0 <= seat < g.player_count:
            error_console.print(f"--seat must be a player from 0 to {g.player_count - 1}")
            raise typer.Exit(2)
        for line in replay_lines(g, g.new_state(data.seed), data.moves, seat, lang):
            console.print(escape(line))
    if not result.hash_matches:
        error_console.print("[yellow]warning:[/] the ruleset changed since this log was written")
    if result.diverged_at is not None:
        where = f"{log}:{result.line}: " if result.line else ""
        error_console.print(escape(f"{where}diverged at move {result.diverged_at}: {result.reason}"))
        raise typer.Exit(1)
    if result.final_matches is False:
        error_console.print("all moves replayed, but the final state differs from the one recorded")
        raise typer.Exit(1)
    console.print(f"replayed {result.moves_applied} moves" +
                  (", final state identical" if result.final_matches else ""))
    if g.is_terminal(result.state):
        from .play import show_result
        show_result(g, result.state)


@app.command()
def explain(game: str = game_argument(), lang: Optional[str] = lang_option()):
    """Show a ruleset's phases and actions with their rulebook citations."""
    from .explain import print_explanation
    rules = load_rules(game)
    print_explanation(rules, checked_lang(rules.ruleset, lang))


@app.command()
def conformance(game: str = game_argument(), as_json: bool = typer.Option(False, "--json", help="print the report as JSON")):
    """Each rulebook page or section with the spec elements and scenarios citing it.
    Exit 1 when a section is uncited, untested, or a citation names no section."""
    from meeple.interpreter.analysis.conformance import conformance_report
    from .explain import print_conformance
    report = conformance_report(load_rules(game).ruleset)
    if as_json:
        console.print_json(json.dumps(report))
    else:
        print_conformance(report)
    raise typer.Exit(0 if report["complete"] else 1)


@app.command("test")
def test_cmd(paths: List[Path] = typer.Argument(..., help="scenario files or folders, ruleset folders "
                                                "or shipped ruleset names")):
    """Run scenario files (of a ruleset folder or a shipped ruleset: its scenarios/);
    exit 0 if all pass, 1 otherwise."""
    from meeple.interpreter.analysis.scenario import ScenarioFileError, load_scenarios, run_scenario
    from .scenario_files import scenario_files
    files = scenario_files(paths)
    passed = failed = 0
    for f in files:
        try:
            scenarios = load_scenarios(f)
        except ScenarioFileError as exc:
            print_diagnostics(exc.diagnostics)
            failed += 1
            continue
        for sc in scenarios:
            res = run_scenario(sc)
            if res.passed:
                passed += 1
                console.print(f"[green]PASS[/] {escape(f'{f}: {sc.name}')}")
            else:
                failed += 1
                console.print(f"[red]FAIL[/] {escape(f'{f}: {sc.name}')}")
                print_diagnostics(res.failures)
    console.print(f"{passed} passed, {failed} failed")
    raise typer.Exit(1 if failed else 0)


@app.command()
def graph(game: str = game_argument(),
          states: bool = typer.Option(False, "--states", help="explore the reachable states"),
          flow: bool = typer.Option(False, "--flow", help="export the flow graph (the default)"),
          sample_n: int = typer.Option(0, "--sample", help="estimate statistics from N random playouts"),
          max_moves: int = typer.Option(RANDOM_GAME_MOVES, "--max-moves",
                                        help="with --sample: stop a random game that runs longer"),
          players: Optional[int] = players_option(),
          seed: int = seed_option(0, "seed of the game's chance (and of --sample's games)"),
          load: Optional[Path] = typer.Option(None, "--load", help="explore from a saved state"),
          depth: Optional[int] = typer.Option(None, "--depth", help="explore at most this many moves deep"),
          max_states: Optional[int] = typer.Option(None, "--max-states", help="stop exploring after this many states"),
          seconds: Optional[float] = typer.Option(None, "--time", help="stop exploring after this many seconds"),
          fmt: Optional[str] = typer.Option(None, "--format", "-f", help="svg, dot, graphml or json"),
          output: Optional[Path] = typer.Option(None, "--output", "-o", help="write the graph here (default: standard output)"),
          as_json: bool = typer.Option(False, "--json", help="statistics as JSON"),
          option: Optional[List[str]] = game_options_option(),
          backend: Optional[str] = _backend_option()):
    """The flow graph, the explored state graph (--states) or sampled statistics (--sample N)."""
    from .graph_svg import DrawingError
    from .graphs import FORMATS, export_flow, export_states, print_sample, print_stats
    at_least(sample_n, 0, "--sample")
    at_least(max_moves, 1, "--max-moves")
    if fmt is not None:
        known_format(fmt, FORMATS)
    if states or sample_n:
        g = _game_for_save(game, load, players, option, backend) if load else game_from_options(game, players, option, backend)
        if sample_n:
            from meeple.interpreter.analysis.sampling import sample
            report = sample(g, sample_n, seed, max_moves)
            console.print_json(json.dumps(report)) if as_json else print_sample(report)
            return
        from meeple.interpreter.analysis.explore import explore
        from meeple.interpreter.analysis.graphstats import summarize
        root = _load_save(g, load) if load else None
        ex = explore(g, root, depth, max_states, seconds)
        stats = summarize(ex)
        if fmt:
            try:
                text = export_states(ex, fmt)
            except (ValueError, DrawingError) as exc:  # too many states for a picture
                fail(str(exc))
            if output:
                output.write_text(text, encoding="utf-8")
                error_console.print(f"written {escape(str(output))}")
            else:
                print(text)
        if as_json:
            console.print_json(json.dumps(stats))
        elif not fmt or output:
            print_stats(g, stats)
        return
    try:
        text = export_flow(load_rules(game), fmt or "dot")
    except DrawingError as exc:
        fail(str(exc))
    if output:
        output.write_text(text, encoding="utf-8")
        console.print(f"written {escape(str(output))}")
    else:
        print(text)


@app.command()
def lint(game: str = game_argument(), sample_n: int = typer.Option(0, "--sample", help="also play N random games"),
         players: Optional[int] = players_option(),
         seed: int = seed_option(0, "with --sample: the first random game's seed"),
         max_moves: int = typer.Option(RANDOM_GAME_MOVES, "--max-moves",
                                       help="with --sample: stop a random game that runs longer"),
         backend: Optional[str] = _backend_option()):
    """Warnings about a ruleset: unused declarations, rules that never apply,
    unreachable steps; with --sample, what random games reveal.  Exit 1 if any."""
    from meeple.interpreter.analysis.lint import lint as run_lint
    at_least(sample_n, 0, "--sample")
    at_least(max_moves, 1, "--max-moves")
    rules = load_rules(game, checked_backend(backend))
    g = game_from_options(game, players, backend=backend) if sample_n else None
    diags, _ = run_lint(rules, g, sample_n, seed, max_moves)
    print_diagnostics(diags)
    console.print(f"{len(diags)} warning(s)" + (f" ({sample_n} random games played)" if sample_n else ""))
    raise typer.Exit(1 if diags else 0)


@app.command()
def bench(games: List[str] = typer.Argument(None, help="rulesets (default: every shipped one)"),
          seconds: float = typer.Option(3.0, "--seconds", help="seconds per measurement (each runner plays at least six games)"),
          as_json: bool = typer.Option(False, "--json", help="print the measurements as JSON"),
          backend: Optional[str] = typer.Option(None, "--backend", help="measure only this back end "
                                                "(default: both, with their ratio)")):
    """Playouts/s, moves/s, legal-move time and memory per state of each back end,
    next to the step API, the hand-written baselines and OpenSpiel's game of the same rules."""
    from meeple.benchmarks.playouts import run_bench
    backend = checked_backend(backend)
    run_bench(games or None, seconds, as_json, (backend,) if backend else BACKENDS)


@app.command("compile")
def compile_cmd(game: str = game_argument(),
                output: Optional[Path] = typer.Option(None, "--output", "-o", help="write it here "
                                                      "(default: standard output)"),
                explain: bool = typer.Option(False, "--explain", help="instead of the module, say which "
                                             "generated playout plays the ruleset and, file:line:col, "
                                             "what keeps it out of the fastest")):
    """Write the Python module the compiled back end generates for a ruleset, to read
    next to the YAML (each function names the line it comes from)."""
    rules = load_rules(game, "compiled")
    if explain:
        from meeple.interpreter.codegen.explain_tier import tier_explanation
        print(tier_explanation(rules), end="")
        return
    text = rules.source()  # with the playout function, which a game writes on its first playout
    if output:
        output.write_text(text, encoding="utf-8")
        error_console.print(f"written {escape(str(output))}")
    else:
        print(text, end="")


@app.command()
def playthrough(game: str = game_argument(), seed: int = seed_option(1, "seed of the game's chance and the bots"),
                players: Optional[int] = players_option(),
                output: Optional[Path] = typer.Option(None, "--output", "-o", help="write it here (default: standard output)"),
                moves: int = typer.Option(400, "--moves", help="record at most this many moves"),
                views_every: int = typer.Option(1, "--views-every", help="record every player's view at "
                                                "every K-th step (and the last), to keep a long game's file small"),
                backend: Optional[str] = _backend_option()):
    """Write a golden playthrough: one seeded bot game, every state, every player's view
    and the legal moves."""
    from meeple.interpreter.analysis.playthrough import playthrough_lines
    at_least(views_every, 1, "--views-every")
    lines = playthrough_lines(game, players, seed, max_moves=moves, backend=checked_backend(backend),
                              views_every=views_every)
    text = "\n".join(lines) + "\n"
    if output:
        output.write_text(text, encoding="utf-8")
        console.print(f"written {escape(str(output))}")
    else:
        print(text, end="")


@app.command("list")
def list_cmd():
    """List the shipped rulesets in three groups: the rulebook transcriptions (a rulebook
    with an `author`), the library of classic games (`rulebook.openspiel`: the OpenSpiel
    game each follows move for move), and the small examples; name, title, player counts
    and source."""
    groups: dict = {"rulebook": [], "library": [], "example": []}
    for name in list_rulesets():
        game = load_rules(name).ruleset.game
        players = str(game.min_players) if game.min_players == game.max_players \
            else f"{game.min_players}-{game.max_players}"
        book = game.rulebook
        rules = ", ".join(x for x in (book.title, book.edition) if x) + (f" [{book.language}]" if book.language else "")
        group = "rulebook" if book.author else "library" if book.openspiel else "example"
        source = f"library: OpenSpiel's {book.openspiel}; {rules}" if group == "library" else f"{group}: {rules}"
        groups[group].append((name, game.title or name, players, source))
    heads = {"rulebook": "Rulebook transcriptions", "library": "Classic games, checked against OpenSpiel",
             "example": "Small examples"}
    header = ("name", "title", "players", "source")
    rows = [header] + [row for group in groups.values() for row in group]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]

    def line(row):  # a line per game, never wrapped: a program may read it too
        console.print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[3],
                      markup=False, highlight=False, soft_wrap=True)
    line(header)
    for group, found in groups.items():
        if found:
            console.print(f"\n{heads[group]}:", markup=False, highlight=False)
            for row in found:
                line(row)


# These commands live in modules of their own; registered here, after the ones above, so that
# `meeple --help` lists them in this order.
from .authoring import new, schema  # noqa: E402
from .boards import board  # noqa: E402
from .lsp import lsp  # noqa: E402
from .report import report  # noqa: E402
from .serve import serve  # noqa: E402
from .study import study  # noqa: E402

app.command("board")(board)
app.command("schema")(schema)
app.command("new")(new)
app.command("report")(report)
app.command("lsp")(lsp)
app.command("serve")(serve)
app.command("study")(study)


def main():
    try:
        app()
    except RulesetError as exc:
        print_diagnostics(exc.diagnostics)
        n = len(exc.errors)
        error_console.print(f"{n} error(s)")
        raise SystemExit(2)
    except (FileNotFoundError, CorruptFile) as exc:
        fail(str(exc))
    except (RuleError, EvalError) as exc:
        # The rules, not the player, went wrong: shown like any diagnostic, at its place.
        print_diagnostics([Diagnostic(exc.code, f"the ruleset failed while running: {exc.message}",
                                      exc.span, rule=getattr(exc, "rule", None))])
        raise SystemExit(2)
    except KeyboardInterrupt:
        raise SystemExit(130)
    except Exception as exc:  # noqa: BLE001 - the last line of defence, see below
        # Nothing a user types should reach here; if something does, it is a bug in meeple.
        # Say so in one line (the traceback is for developers: MEEPLE_TRACEBACK=1).
        if os.environ.get("MEEPLE_TRACEBACK"):
            raise
        fail(f"internal error in meeple ({type(exc).__name__}: {exc}); please report it with the "
             "command that caused it (MEEPLE_TRACEBACK=1 shows the details)", code=70)


if __name__ == "__main__":
    main()
