"""Bots by name, as the command line and Python name them: `random`, `mcts:2000`
(2,000 iterations), `mcts:1.5s` (a time budget), `ismcts:200:depth=30` (with a setting).
Each kind registers a factory `(budget, seed) -> bot`, or `(budget, seed, **settings)` for a
kind that takes settings; the budget is None when the spec gives none."""
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
    settings: tuple = ()  # (name, value) pairs, in the order given

    def __str__(self):
        parts = [self.name] + ([str(self.budget)] if self.budget is not None else [])
        return ":".join(parts + [f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in self.settings])


# The settings of the search bots: name -> (parse, what it must be, the check).
_SEARCH_SETTINGS = {
    "depth": (int, "a whole number of moves, at least 1", lambda v: v >= 1),
    "c": (float, "a number above 0", lambda v: v > 0),
}
_SETTING_ARGS = {"depth": "depth", "c": "exploration"}


def _search_bot(kind):
    def make(budget, seed, **settings):
        args = {_SETTING_ARGS[k]: v for k, v in settings.items()}
        if budget is None:
            return kind(seed=seed, **args)
        return kind(iterations=budget.iterations, seconds=budget.seconds, seed=seed, **args)
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
_SETTINGS = {"mcts": _SEARCH_SETTINGS, "ismcts": _SEARCH_SETTINGS}  # kind -> the settings it takes


def register(name: str, factory, takes_budget: bool = True, settings: dict | None = None) -> None:
    """`settings`: name -> (parse, what a value must be, check), passed to the factory
    as keyword arguments."""
    _FACTORIES[name] = factory
    if not takes_budget:
        _NEEDS_NO_BUDGET.add(name)
    if settings:
        _SETTINGS[name] = settings


def bot_names() -> list[str]:
    return sorted(_FACTORIES)


def parse_bot_spec(text: str) -> BotSpec:
    name, *parts = text.strip().split(":")
    if name not in _FACTORIES:
        raise BotSpecError(f"no bot is called '{name}'; the bots are {', '.join(bot_names())}")
    budget = None
    if parts and "=" not in parts[0]:
        if name in _NEEDS_NO_BUDGET:
            raise BotSpecError(f"the {name} bot takes no budget, but '{text}' gives one")
        budget = _parse_budget(parts.pop(0), text)
    return BotSpec(name, budget, tuple(_parse_setting(name, part, text) for part in parts))


def _parse_setting(name: str, part: str, whole: str) -> tuple:
    known = _SETTINGS.get(name, {})
    key, eq, value = part.partition("=")
    if not known:
        raise BotSpecError(f"'{whole}': the {name} bot takes no settings")
    if not eq or key not in known:
        raise BotSpecError(f"'{whole}': '{part}' is no setting of the {name} bot; "
                           f"it takes {', '.join(f'{k}=…' for k in known)}")
    parse, wanted, ok = known[key]
    try:
        parsed = parse(value)
    except ValueError:
        parsed = None
    if parsed is None or not ok(parsed):
        raise BotSpecError(f"'{whole}': {key} must be {wanted}, not '{value}'")
    return key, parsed


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
    return _FACTORIES[spec.name](spec.budget, seed, **dict(spec.settings))
