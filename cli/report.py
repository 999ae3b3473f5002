"""`meeple report RECORDS`: what a records file says, as a terminal summary with bar
charts, or as an HTML page with figures (and each figure as SVG and PNG)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape

from .render import console, fail

BAR = 28
SPARKS = "▁▂▃▄▅▆▇█"


def report(records_file: Path = typer.Argument(..., help="a records file (.parquet or .jsonl) from "
                                                         "meeple simulate --out or meeple study"),
           output: Optional[Path] = typer.Option(None, "--output", "-o", help="write an HTML report here; "
                                                 "its figures go beside it, in NAME_figures/ as SVG and PNG")):
    """Summarise game records: win rate by seat, scores, lengths, end reasons, actions."""
    from meeple.simulation.analysis import analyse
    from meeple.simulation.records import RecordsError, read_records
    try:
        records = read_records(records_file)
    except RecordsError as exc:
        fail(str(exc))
    if not records:
        fail(f"{records_file} holds no game records")
    analysis = analyse(records)
    if output is None:
        print_text(analysis)
        return
    write_html(analysis, output, str(records_file))


def write_html(analysis, output: Path, source: str) -> None:
    from meeple.simulation.figures import PlotsError, draw_all
    from meeple.simulation.report_html import render
    try:
        figures = draw_all(analysis)
    except PlotsError as exc:
        fail(str(exc))
    folder = output.with_name(output.stem + "_figures")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for fig in figures:
            (folder / f"{fig.name}.svg").write_text(fig.svg, encoding="utf-8")
            (folder / f"{fig.name}.png").write_bytes(fig.png)
        output.write_text(render(analysis, figures, source), encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write the report: {exc.strerror or exc} ({exc.filename})")
    console.print(f"written {escape(str(output))} and {len(figures)} figures in {escape(str(folder))}/")


def _bar(fraction: float, width: int = BAR) -> str:
    filled = max(0, min(width, round(fraction * width)))
    return "█" * filled + "·" * (width - filled)


def _sparkline(values: list, bins: int = 24) -> str:
    low, high = min(values), max(values)
    if low == high:
        return SPARKS[-1]
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, int((v - low) / (high - low) * bins))] += 1
    top = max(counts)
    return "".join(SPARKS[round(c / top * (len(SPARKS) - 1))] if c else " " for c in counts)


def print_text(analysis) -> None:
    from meeple.simulation.analysis import interval_text, mean
    console.print(f"[bold]{escape(analysis.ruleset)}[/]: {analysis.games} games in {len(analysis.groups)} "
                  f"cell(s); {analysis.unfinished} not finished")
    for g in analysis.groups:
        console.print(f"\n[bold]{escape(g.key)}[/] ({g.finished} finished games; fair share {1 / g.players:.1%})")
        for seat in range(g.players):
            score = mean(g.scores[seat])
            console.print(f"  seat {seat} {escape(g.bots[seat]):<18} {_bar(g.win_rate(seat))} "
                          f"{g.win_rate(seat):6.1%}  [{interval_text(g.interval(seat))}]"
                          + (f"  mean score {score:.1f}" if score is not None else ""))
        console.print(f"  length  {min(g.lengths)} {_sparkline(g.lengths)} {max(g.lengths)} moves "
                      f"(mean {mean(g.lengths):.1f})")
        for reason, n in g.reasons.most_common(3):
            console.print(f"  ended   {_bar(n / g.finished, 12)} {n}× {escape(reason)}")
        if g.counted_games:
            top = g.actions.most_common(6)
            most = top[0][1] if top else 1
            for action, n in top:
                console.print(f"  action  {_bar(n / most, 12)} {n / g.counted_games:7.1f}/game {escape(action)}")
    edge = analysis.first_player_edge()
    if edge:
        console.print("\n[bold]first seat against its fair share[/] (cells where every seat has the same bot)")
        for (ruleset, players), e in edge.items():
            console.print(f"  {escape(ruleset)}, {players} players: {e['rate']:.1%} [{interval_text(e['interval'])}] "
                          f"against {e['fair']:.1%} over {e['games']} games")
