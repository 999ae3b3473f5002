"""Find a ruleset by name or path, and compile it once per content."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from meeple.dsl.load import load_ruleset, ruleset_files
from meeple.dsl.source import read_file_bytes

from .game import Game
from .rules import Rules

RULESETS = Path(__file__).resolve().parent.parent.parent / "rulesets"
# "reference" runs expressions as closures (interpreter/rules.py); "compiled" (the default) runs a Python
# module generated from the ruleset (interpreter/codegen/).  Both give the same game.
BACKENDS = ("reference", "compiled")
# MEEPLE_BACKEND chooses the default, so a whole test run or tool can be switched at once.
DEFAULT_BACKEND = os.environ.get("MEEPLE_BACKEND") or "compiled"
_cache: dict = {}  # (path, the ruleset's content hash, back end) -> Rules
_by_bytes: dict = {}  # (path, the hash of its files' bytes, back end) -> the same Rules


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


def load_rules(name_or_path: str | Path, backend: str | None = None) -> Rules:
    backend = backend or DEFAULT_BACKEND
    if backend not in BACKENDS:
        raise ValueError(f"unknown back end '{backend}'; back ends: {', '.join(BACKENDS)}")
    path = find_ruleset(name_or_path).resolve()
    seen = _files_hash(path)
    fast = (str(path), seen, backend)
    if seen is not None and fast in _by_bytes and _cache.get(_by_bytes[fast][0]) is _by_bytes[fast][1]:
        return _by_bytes[fast][1]
    rs = load_ruleset(path)
    key = (str(path), rs.content_hash, backend)
    if key not in _cache:
        _cache[key] = rules_for(rs, backend)
    if seen is not None:
        _by_bytes[fast] = (key, _cache[key])
    return _cache[key]


def _files_hash(path: Path) -> str | None:
    """A hash of the bytes of the ruleset's files.  Reading, building and checking a
    rulebook game takes a third of a second; a program that loads the same unchanged
    files again (a test run, a tournament) gets the rules it compiled before.  A file
    that cannot be read gives None, and the full load reports it."""
    digest = hashlib.sha256()
    try:
        for f in ruleset_files(path):  # read as the loader reads them: regular files, bounded
            digest.update(f.name.encode() + b"\0" + read_file_bytes(f) + b"\0")
    except OSError:
        return None
    return digest.hexdigest()


def rules_for(ruleset, backend: str) -> Rules:
    """Compile a checked ruleset with the chosen back end."""
    if backend == "compiled":
        from ..codegen.backend import CompiledRules
        return CompiledRules(ruleset)
    return Rules(ruleset)


def load_game(name_or_path: str | Path, players: int | None = None, options: dict | None = None,
              backend: str | None = None) -> Game:
    rules = load_rules(name_or_path, backend)
    info = rules.ruleset.game
    return Game(rules, players if players is not None else info.min_players, options)
