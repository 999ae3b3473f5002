"""A tournament's games tallied into standings: who won how often, how sure we can be,
and a rating.  Pure functions of the game records, in game order, so the same records
give the same standings however many processes played them.

How a game counts:
- *credit*: a game is worth one win in all.  The winners share it (two winners get half
  each); a game nobody wins (a draw) is shared by everyone at the table.  So a bot's
  wins over its games estimate its chance of winning, and the fair share of a seat at a
  table of P is 1/P.
- *place*: the winners share first place; the others follow, ordered by the outcome's
  ranks (score, then tie-breakers).  In a game nobody wins, everyone shares first place.
  The rating and the mean place read the place, so a ruleset whose winners are decided by
  a rule other than the score (tic-tac-toe's line) still ranks its winner first.
- games that did not finish (`--max-moves` reached, or nobody could move) count for
  nothing: they are reported apart.
"""
from __future__ import annotations

import math
import statistics

Z95 = 1.959963984540054  # the standard normal's 97.5 % quantile


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval for a win rate (Wilson 1927; Newcombe 1998, method 3).
    Unlike the normal approximation it stays within [0, 1] and is not empty at 0 or 1
    wins, which a strong bot against a weak one reaches.  `wins` may be fractional (shared
    wins): the interval is then the one for the same rate over the same number of games."""
    if games <= 0:
        return None
    p = wins / games
    z2 = z * z
    denominator = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def credit(winners, players: int) -> list[float]:
    """Each seat's share of the game's one win (see the module's docstring)."""
    if not winners:
        return [1 / players] * players
    return [1 / len(winners) if p in winners else 0.0 for p in range(players)]


def places(winners, ranks) -> list[int]:
    """Each seat's place, 1 the best, equal places for ties (see the module's docstring)."""
    if not winners:
        return [1] * len(ranks)
    keys = [(0, 0) if p in winners else (1, ranks[p]) for p in range(len(ranks))]
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def rating_model():
    """openskill's Plackett-Luce model: a Bayesian rating (a mean and its uncertainty) for
    games of any number of players with ties, from a maintained library (docs/bots.md says
    why this one).  `tau` = 0: a bot does not learn between games, so its skill is taken
    as fixed and the uncertainty only shrinks.  The updates are online, one game after the
    other, so two bots whose means differ by less than their sigmas are not told apart."""
    from openskill.models import PlackettLuce
    return PlackettLuce(tau=0)


def standings(records: list[dict], entrants: list[str], players: int) -> dict:
    """Per entrant and per seat, from the records of `play_game` in game order (each
    names its lineup by the entrants' labels)."""
    model = rating_model()
    ratings = [model.rating(name=name) for name in entrants]
    per_bot = [_Tally() for _ in entrants]
    per_seat = [_Tally() for _ in range(players)]
    index = {name: who for who, name in enumerate(entrants)}
    for r in records:
        if not r["finished"]:
            continue
        shares, placed = credit(r["winners"], players), places(r["winners"], r["ranks"])
        lineup = [index[label] for label in r["lineup"]]
        for seat, who in enumerate(lineup):
            result = _result(seat, r["winners"])
            per_bot[who].add(shares[seat], result, r["scores"][seat], placed[seat])
            per_seat[seat].add(shares[seat], result, r["scores"][seat], placed[seat])
        rated = model.rate([[ratings[who]] for who in lineup], ranks=placed)
        for who, [rating] in zip(lineup, rated):
            ratings[who] = rating
    table = [{"bot": name, **tally.summary(),
             "rating": {"mu": round(rating.mu, 3), "sigma": round(rating.sigma, 3),
                        "ordinal": round(rating.ordinal(), 3)}}
            for name, tally, rating in zip(entrants, per_bot, ratings)]
    seats = [{"seat": seat, **tally.summary()} for seat, tally in enumerate(per_seat)]
    return {"fair_share": round(1 / players, 4), "standings": table, "seats": seats}


def _result(seat: int, winners) -> str:
    if not winners or (seat in winners and len(winners) > 1):
        return "shared"
    return "won" if seat in winners else "lost"


class _Tally:
    """One bot's (or one seat's) finished games."""

    def __init__(self):
        self.wins, self.placed, self.scores = 0.0, [], []
        self.results = {"won": 0, "shared": 0, "lost": 0}

    def add(self, share: float, result: str, score, place: int):
        self.wins += share
        self.results[result] += 1
        self.placed.append(place)
        if isinstance(score, (int, float)) and not isinstance(score, bool):
            self.scores.append(score)

    def summary(self) -> dict:
        games = len(self.placed)
        interval = wilson_interval(self.wins, games)
        return {"games": games, "wins": round(self.wins, 4), **self.results,
                "win_rate": round(self.wins / games, 4) if games else None,
                "ci95": [round(x, 4) for x in interval] if interval else None,
                "mean_score": round(statistics.fmean(self.scores), 3) if self.scores else None,
                "mean_place": round(statistics.fmean(self.placed), 3) if games else None}
