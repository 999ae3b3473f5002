"""The numbers a designer reads off a batch of game records, grouped so that like is
compared with like: one group per study cell (or, outside a study, per player count,
line-up and options).  Pure functions of the records; the figures, the HTML report
and the terminal summary all draw from the same `Analysis`.
"""
from __future__ import annotations

import json
import statistics
from collections import Counter
from dataclasses import dataclass, field

from .standings import credit, wilson_interval


@dataclass
class Group:
    """The games of one cell: same ruleset, player count, options and line-up."""

    key: str
    ruleset: str
    players: int
    bots: tuple
    games: int = 0
    finished: int = 0
    wins: list = field(default_factory=list)  # per seat, shared wins split
    scores: list = field(default_factory=list)  # per seat: list of scores
    lengths: list = field(default_factory=list)
    reasons: Counter = field(default_factory=Counter)
    actions: Counter = field(default_factory=Counter)  # action -> plays, all seats
    counted_games: int = 0  # games whose actions were counted

    def win_rate(self, seat: int) -> float:
        return self.wins[seat] / self.finished if self.finished else 0.0

    def interval(self, seat: int):
        return wilson_interval(self.wins[seat], self.finished)

    @property
    def symmetric(self) -> bool:
        """Every seat has the same bot: a seat's edge is then the game's, not a bot's."""
        return len(set(self.bots)) == 1


@dataclass
class Analysis:
    ruleset: str
    games: int
    groups: list
    bot_scores: dict  # bot spec -> scores over every seat it sat in
    unfinished: int

    def first_player_edge(self) -> dict:
        """Per (ruleset, player count), over the groups where every seat has the same bot
        (elsewhere a seat's edge would be its bot's): seat 0's wins, games, win rate, its
        Wilson interval and the fair share 1/P."""
        out = {}
        for g in self.groups:
            if not g.symmetric or not g.finished:
                continue
            wins, games = out.get((g.ruleset, g.players), (0.0, 0))
            out[(g.ruleset, g.players)] = (wins + g.wins[0], games + g.finished)
        return {key: {"wins": w, "games": n, "rate": w / n, "interval": wilson_interval(w, n), "fair": 1 / key[1]}
                for key, (w, n) in sorted(out.items())}


def group_key(record: dict, with_ruleset: bool = False) -> str:
    prefix = f"{record['ruleset']} " if with_ruleset else ""
    if record.get("cell"):
        return prefix + record["cell"]
    options = json.loads(record["options"]) if record.get("options") else {}
    extra = " ".join(f"{k}={v}" for k, v in sorted(options.items()))
    return prefix + f"players={record['players']} bots={','.join(record['bots'])}" + (f" {extra}" if extra else "")


def analyse(records: list[dict]) -> Analysis:
    groups: dict[str, Group] = {}
    bot_scores: dict[str, list] = {}
    unfinished = 0
    several = len({r["ruleset"] for r in records}) > 1
    for r in records:
        key = group_key(r, several)
        g = groups.get(key)
        if g is None:
            n = r["players"]
            g = groups[key] = Group(key, r["ruleset"], n, tuple(r["bots"]), wins=[0.0] * n, scores=[[] for _ in range(n)])
        g.games += 1
        g.lengths.append(r["moves"])
        if r["actions"]:
            g.counted_games += 1
            for seat in r["actions"]:
                g.actions.update(seat)
        if not r["finished"]:
            unfinished += 1
            continue
        g.finished += 1
        g.reasons[r["end_reason"]] += 1
        for seat, share in enumerate(credit(r["winners"], g.players)):
            g.wins[seat] += share
        for seat, score in enumerate(r["scores"]):
            g.scores[seat].append(score)
            bot_scores.setdefault(r["bots"][seat], []).append(score)
    ruleset = ", ".join(sorted({r["ruleset"] for r in records}))
    ordered = sorted(groups.values(), key=lambda g: (g.ruleset, g.players, g.key))
    return Analysis(ruleset, len(records), ordered, bot_scores, unfinished)


def interval_text(interval, places: int = 0) -> str:
    """A Wilson interval as people read it ("24%–48%"); a dash when there were no games."""
    return f"{interval[0]:.{places}%}–{interval[1]:.{places}%}" if interval else "–"


def mean(values) -> float | None:
    return statistics.fmean(values) if values else None
