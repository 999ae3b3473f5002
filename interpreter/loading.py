"""Find a ruleset by name or path, and compile it once per content."""
from __future__ import annotations

from pathlib import Path

from meeple.dsl.load import load_ruleset

from .game import Game
from .rules import Rules

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"
_cache: dict = {}


def list_rulesets() -> list[str]:
    if not RULESETS.is_dir():
        return []
    return sorted(p.name for p in RULESETS.iterdir() if p.is_dir() and any(p.glob("*.yaml")))


def find_ruleset(name_or_path: str | Path) -> Path:
    """A path as given if it exists, else a shipped ruleset of that name."""
    p = Path(name_or_path)
    if p.exists():
        return p
    shipped = RULESETS / str(name_or_path)
    if shipped.is_dir():
        return shipped
    known = ", ".join(list_rulesets()) or "(none)"
    raise FileNotFoundError(f"no ruleset '{name_or_path}': not a path, and not one of the shipped "
                            f"rulesets ({known})")


def load_rules(name_or_path: str | Path) -> Rules:
    path = find_ruleset(name_or_path).resolve()
    rs = load_ruleset(path)
    key = (str(path), rs.content_hash)
    if key not in _cache:
        _cache[key] = Rules(rs)
    return _cache[key]


def load_game(name_or_path: str | Path, players: int | None = None, options: dict | None = None) -> Game:
    rules = load_rules(name_or_path)
    info = rules.ruleset.game
    return Game(rules, players if players is not None else info.min_players, options)
