"""What a batch of game records says in a few numbers: lengths, how games ended, wins
and scores by seat (the summary `meeple simulate` prints and `--json` writes).

Wins are credited as `meeple report` and `meeple tournament` credit them
(standings.credit): a finished game is worth one win in all, shared by its winners, and
a draw is shared by everyone.  So the seats' win rates add up to the share of games that
finished, never more."""
from __future__ import annotations

import statistics

from .standings import credit


def summarise(records: list[dict], players: int, meta: dict) -> dict:
    lengths, wins, draws, unfinished, stuck, cpu = [], [0] * players, 0, 0, 0, 0.0
    scores = [[] for _ in range(players)]
    reasons: dict = {}
    broken: list = []
    for r in records:
        lengths.append(r["moves"])
        cpu += r["cpu_seconds"]
        broken.extend(r.get("failure_details") or ())
        if r["stuck"]:
            stuck += 1
        elif not r["finished"]:
            unfinished += 1
        else:
            reasons[r["end_reason"]] = reasons.get(r["end_reason"], 0) + 1
            if not r["winners"]:
                draws += 1
            for seat, share in enumerate(credit(r["winners"], players)):
                wins[seat] += share
            for p, score in enumerate(r["scores"]):
                scores[p].append(score)
    games = len(records)
    return {
        **meta, "players": players, "games": games,
        "length": stats(lengths), "unfinished": unfinished, "stuck": stuck, "draws": draws,
        "end_reasons": reasons,
        "wins_by_seat": [_tidy(w) for w in wins],
        "win_rate_by_seat": [round(w / games, 4) if games else 0.0 for w in wins],
        "scores_by_seat": [stats(s) for s in scores],
        "invariants_checked": meta.get("invariants_checked", False),
        "invariant_failures": broken[:20],
        "invariant_failure_count": sum(r["invariant_failures"] for r in records),
        "cpu_seconds": round(cpu, 2),
        "games_per_cpu_second": round(games / cpu, 3) if cpu else None,
    }


def stats(values):
    if not values:
        return {"min": None, "max": None, "mean": None, "stdev": None}
    values = [int(v) if float(v).is_integer() else v for v in values]
    return {"min": min(values), "max": max(values), "mean": round(statistics.fmean(values), 3),
            "stdev": round(statistics.pstdev(values), 3)}


def _tidy(wins: float):
    """A seat's credited wins: a whole number as an int, shares to three places."""
    return int(round(wins)) if abs(wins - round(wins)) < 1e-9 else round(wins, 3)
