"""`meeple test PATH…`: which files are scenario files.

A user names a scenario file, a folder of them, a ruleset folder, a folder of ruleset
folders, or a shipped ruleset by name.  A ruleset's own YAML files are never read as
scenarios: where a folder holds `scenarios/` folders, only the files inside them run.
"""
from __future__ import annotations

from pathlib import Path

from meeple.interpreter.runtime.loading import RULESETS, list_rulesets

from .render import fail


def scenario_files(names: list[Path]) -> list[Path]:
    files: list[Path] = []
    for name in names:
        if name.is_file():
            files.append(name)
            continue
        shipped = list_rulesets()
        if not name.is_dir() and str(name) not in shipped:
            fail(f"no such file or folder: {name}; nor is it a shipped ruleset ({', '.join(shipped)})")
        folder = name if name.is_dir() else RULESETS / str(name)
        found = _in_folder(folder)
        if not found:
            fail(f"no scenario files in {folder}")
        files += found
    return files


def _in_folder(folder: Path) -> list[Path]:
    every = sorted(folder.rglob("*.yaml")) + sorted(folder.rglob("*.yml"))
    inside = [f for f in every if _under_scenarios(f.relative_to(folder), folder)]
    return inside or every


def _under_scenarios(relative: Path, folder: Path) -> bool:
    """Whether a file lies in a folder named `scenarios` (the named folder itself counts)."""
    return "scenarios" in relative.parts[:-1] or folder.resolve().name == "scenarios"
