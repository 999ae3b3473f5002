"""Bots by name, as the command line and Python name them: `random`, `mcts:2000`
(2,000 iterations), `mcts:1.5s` (a time budget).  Each kind registers a factory
`(budget, seed) -> bot`; the budget is None when the spec gives none."""
from __future__ import annotations

from dataclasses import dataclass

from .ismcts import ISMCTSBot
from .mcts import MCTSBot
from .random_bot import RandomBot


class BotSpecError(ValueError):
    """A bot spec that names no bot or has a malformed budget; the message says which."""


@dataclass(frozen=True)
class Budget:
    iterations: int | None = None
    seconds: float | None = None

    def __str__(self):
        return f"{self.seconds:g}s" if self.seconds is not None else str(self.iterations)


@dataclass(frozen=True)
class BotSpec:
    name: str
    budget: Budget | None

    def __str__(self):
        return self.name if self.budget is None else f"{self.name}:{self.budget}"


def _search_bot(kind):
    def make(budget, seed):
        if budget is None:
            return kind(seed=seed)
        return kind(iterations=budget.iterations, seconds=budget.seconds, seed=seed)
    return make


def _openspiel_mcts(budget, seed):
    """OpenSpiel's MCTS through the adapter (adapters/openspiel_bot.py): only an
    iteration budget, which is its number of simulations."""
    try:
        from meeple.adapters.openspiel_bot import OpenSpielMCTSBot
    except ImportError:
        raise BotSpecError("the openspiel-mcts bot needs OpenSpiel: pip install 'meeple[openspiel]'") from None
    if budget is not None and budget.iterations is None:
        raise BotSpecError("the openspiel-mcts bot takes a number of simulations (openspiel-mcts:1000), not seconds")
    return OpenSpielMCTSBot(1000 if budget is None else budget.iterations, seed)


_FACTORIES = {
    "random": lambda budget, seed: RandomBot(seed),
    "mcts": _search_bot(MCTSBot),
    "ismcts": _search_bot(ISMCTSBot),
    "openspiel-mcts": _openspiel_mcts,
}
_NEEDS_NO_BUDGET = {"random"}


def register(name: str, factory, takes_budget: bool = True) -> None:
    _FACTORIES[name] = factory
    if not takes_budget:
        _NEEDS_NO_BUDGET.add(name)


def bot_names() -> list[str]:
    return sorted(_FACTORIES)


def parse_bot_spec(text: str) -> BotSpec:
    name, _, budget_text = text.strip().partition(":")
    if name not in _FACTORIES:
        raise BotSpecError(f"no bot is called '{name}'; the bots are {', '.join(bot_names())}")
    if not budget_text:
        return BotSpec(name, None)
    if name in _NEEDS_NO_BUDGET:
        raise BotSpecError(f"the {name} bot takes no budget, but '{text}' gives one")
    return BotSpec(name, _parse_budget(budget_text, text))


def _parse_budget(budget_text: str, whole: str) -> Budget:
    try:
        if budget_text.endswith("s"):
            seconds = float(budget_text[:-1])
            if seconds > 0:
                return Budget(seconds=seconds)
        elif budget_text.isdigit() and int(budget_text) > 0:
            return Budget(iterations=int(budget_text))
    except ValueError:
        pass
    raise BotSpecError(f"'{whole}': a budget is a number of iterations (mcts:2000) "
                       f"or of seconds (mcts:1.5s), more than zero")


def make_bot(spec: str | BotSpec, seed: int | str = 0):
    spec = parse_bot_spec(spec) if isinstance(spec, str) else spec
    return _FACTORIES[spec.name](spec.budget, seed)
