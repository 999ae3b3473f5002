"""The report's figures, drawn with matplotlib (the `sim` extra) from an `Analysis`.

Each figure answers one question a designer asks of a balance run; its caption says
which, so the HTML report and docs/simulation.md can show it without more words.
Drawn off-screen (the Agg back end) and returned as SVG text and PNG bytes.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

from .analysis import Analysis

MAX_GROUPS_SHOWN = 12  # beyond this a figure's legend stops being readable


class PlotsError(Exception):
    """Figures asked for without matplotlib installed."""


@dataclass(frozen=True)
class Figure:
    name: str  # file stem
    title: str
    caption: str
    svg: str
    png: bytes


def _pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: searchable, smaller
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotsError("figures need matplotlib: pip install 'meeple[sim]'") from None
    return plt


def draw_all(analysis: Analysis) -> list[Figure]:
    plt = _pyplot()
    makers = (win_rate_by_seat, scores_by_seat, scores_by_bot, game_lengths, end_reasons, action_frequencies,
              first_player_edge)
    out = []
    for make in makers:
        drawn = make(plt, analysis)
        if drawn is not None:
            out.append(drawn)
    return out


def _finish(plt, fig, name: str, title: str, caption: str) -> Figure:
    fig.suptitle(title)
    fig.tight_layout()
    svg, png = io.StringIO(), io.BytesIO()
    fig.savefig(svg, format="svg")
    fig.savefig(png, format="png", dpi=110)
    plt.close(fig)
    return Figure(name, title, caption, svg.getvalue(), png.getvalue())


def _spread(rate: float, low: float, high: float) -> list:
    """Error-bar lengths below and above a rate; a rate of 0 or 1 sits on its interval's
    end, which rounding may put a hair inside it."""
    return [[max(0.0, rate - low)], [max(0.0, high - rate)]]


def _groups(analysis: Analysis):
    return [g for g in analysis.groups if g.games][:MAX_GROUPS_SHOWN]


def win_rate_by_seat(plt, analysis: Analysis) -> Figure | None:
    groups = [g for g in _groups(analysis) if g.finished]
    if not groups:
        return None
    fig, ax = plt.subplots(figsize=(9, 1.0 + 0.42 * sum(g.players + 1 for g in groups)))
    ticks, labels, y = [], [], 0.0
    for g in groups:
        ax.text(0.005, y - 0.05, g.key, transform=ax.get_yaxis_transform(), fontsize=8, weight="bold",
                va="bottom")
        y += 0.5
        for seat in range(g.players):
            low, high = g.interval(seat)
            rate = g.win_rate(seat)
            ax.barh(y, rate, color=f"C{seat}", alpha=0.8)
            ax.errorbar(rate, y, xerr=_spread(rate, low, high), color="black", capsize=3)
            ax.plot([1 / g.players] * 2, [y - 0.45, y + 0.45], color="grey", linestyle="--", linewidth=1)
            ticks.append(y)
            labels.append(f"seat {seat} ({g.bots[seat]})")
            y += 1
        y += 0.3
    ax.set_yticks(ticks, labels, fontsize=8)
    ax.set_ylim(y - 0.5, -0.6)
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (shared wins split), 95 % Wilson interval; dashed: fair share 1/P")
    return _finish(plt, fig, "win_rate_by_seat", "Win rate by seat",
                   "Does a seat win more than its fair share? Each bar is one seat of one cell, with "
                   "its 95 % Wilson interval; the dashed line is 1/P.")


def scores_by_seat(plt, analysis: Analysis) -> Figure | None:
    groups = [g for g in _groups(analysis) if any(g.scores)]
    if not groups:
        return None
    fig, axes = plt.subplots(len(groups), 1, figsize=(8, 1.6 + 1.5 * len(groups)), squeeze=False)
    for ax, g in zip(axes[:, 0], groups):
        ax.boxplot([s or [0] for s in g.scores], orientation="horizontal", tick_labels=[f"seat {p} ({g.bots[p]})"
                                                                    for p in range(g.players)])
        ax.set_title(g.key, fontsize=8)
        ax.invert_yaxis()
        ax.tick_params(labelsize=7)
    axes[-1, 0].set_xlabel("final score")
    return _finish(plt, fig, "scores_by_seat", "Score distribution by seat",
                   "How far apart are the seats' scores, and how wide is each seat's spread? Boxes "
                   "are quartiles, whiskers 1.5 IQR, dots outliers.")


def scores_by_bot(plt, analysis: Analysis) -> Figure | None:
    bots = {b: s for b, s in analysis.bot_scores.items() if s}
    if not bots:
        return None
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.5 * len(bots)))
    names = sorted(bots)
    ax.boxplot([bots[b] for b in names], orientation="horizontal", tick_labels=names)
    ax.set_xlabel("final score, every seat the bot sat in")
    return _finish(plt, fig, "scores_by_bot", "Score distribution by bot",
                   "Which bot scores more, whatever its seat? Scores of every game and seat each bot played.")


def game_lengths(plt, analysis: Analysis) -> Figure | None:
    groups = _groups(analysis)
    if not groups:
        return None
    fig, ax = plt.subplots(figsize=(8, 3.5))
    for i, g in enumerate(groups):
        ax.hist(g.lengths, bins=30, alpha=0.5, color=f"C{i}", label=f"{g.key} (n={g.games})")
    ax.set_xlabel("moves per game")
    ax.set_ylabel("games")
    ax.legend(fontsize=6)
    return _finish(plt, fig, "game_length", "Game length",
                   "How long are games, and how much does it vary? Moves per game (chance draws "
                   "are not moves), one histogram per cell.")


def end_reasons(plt, analysis: Analysis) -> Figure | None:
    totals: dict = {}
    for g in analysis.groups:
        for reason, n in g.reasons.items():
            totals[reason] = totals.get(reason, 0) + n
    if analysis.unfinished:
        totals["(not finished: move limit or no legal move)"] = analysis.unfinished
    if not totals:
        return None
    names = sorted(totals, key=totals.get, reverse=True)
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.4 * len(names)))
    ax.barh(range(len(names)), [totals[n] for n in names], color="C0")
    ax.set_yticks(range(len(names)), [n[:70] for n in names], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("games")
    return _finish(plt, fig, "end_reasons", "How games end",
                   "Which end rule ends the games? Counts over every game of the file.")


def action_frequencies(plt, analysis: Analysis) -> Figure | None:
    groups = [g for g in _groups(analysis) if g.counted_games]
    if not groups:
        return None
    names = sorted({a for g in groups for a in g.actions})
    fig, ax = plt.subplots(figsize=(8, 1.4 + 0.3 * len(names) * len(groups)))
    height = 0.8 / len(groups)
    for i, g in enumerate(groups):
        per_game = [g.actions[a] / g.counted_games for a in names]
        ax.barh([k + i * height for k in range(len(names))], per_game, height=height, color=f"C{i}",
                label=g.key)
    ax.set_yticks([k + 0.4 - height / 2 for k in range(len(names))], names, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("times played per game (all seats)")
    ax.legend(fontsize=6)
    return _finish(plt, fig, "actions", "Action frequencies",
                   "Which actions are played, and how often? Plays per game of each action, all "
                   "seats together, per cell.")


def first_player_edge(plt, analysis: Analysis) -> Figure | None:
    edge = analysis.first_player_edge()
    if not edge:
        return None
    keys = list(edge)
    fig, ax = plt.subplots(figsize=(8, 1.4 + 0.5 * len(keys)))
    for y, key in enumerate(keys):
        e = edge[key]
        low, high = e["interval"]
        ax.barh(y, e["rate"] - e["fair"], left=e["fair"], color="C3" if e["rate"] > e["fair"] else "C0")
        ax.errorbar(e["rate"], y, xerr=_spread(e["rate"], low, high), color="black", capsize=3)
        ax.plot([e["fair"]] * 2, [y - 0.4, y + 0.4], color="grey", linestyle="--")
    ax.set_yticks(range(len(keys)), [f"{r}, {p} players (n={edge[(r, p)]['games']})" for r, p in keys],
                  fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("seat 0's win rate against the fair share 1/P (dashed), 95 % Wilson interval")
    return _finish(plt, fig, "first_player", "First-player advantage by player count",
                   "Does the first seat win more than 1/P? Only cells where every seat has the same "
                   "bot count, so the edge is the game's, not a bot's.")
