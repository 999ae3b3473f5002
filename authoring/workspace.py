"""Which ruleset an open file belongs to, and the text of each of its files.

A ruleset is a folder of YAML files (a single-file ruleset is a folder with one), so a
file belongs to its own folder's ruleset when one of that folder's files has a section
of the language at its top (`game:`, `zones:`, ...).  A scenario file (`scenarios:`),
a file of some other YAML or a file that is not YAML belongs to none, and is left alone.
The editor's unsaved buffers stand in for the files on disk.
"""
from __future__ import annotations

import re
from pathlib import Path

from meeple.dsl.load import ruleset_files
from meeple.dsl.schema import SECTIONS
from meeple.dsl.source import read_source

_SECTION = re.compile(r"^(?:%s)\s*:" % "|".join(SECTIONS), re.MULTILINE)
YAML_SUFFIXES = (".yaml", ".yml")


def file_text(path: Path, texts: dict[Path, str]) -> str:
    """The editor's text of a file if it is open, else the file on disk ('' if unreadable)."""
    if path in texts:
        return texts[path]
    text, problem = read_source(path, str(path))
    return "" if problem is not None and problem.code in ("Y002", "Y012") else text


def folder_files(folder: Path) -> list[Path]:
    return [f.resolve() for f in ruleset_files(folder)]


def ruleset_folder(path: Path, texts: dict[Path, str]) -> Path | None:
    """The folder whose files make up the ruleset `path` is part of, or None."""
    if path.suffix not in YAML_SUFFIXES or not path.parent.is_dir():
        return None
    files = folder_files(path.parent)
    if path not in files:
        return None
    # The saved files count too, so that emptying a buffer does not make its folder stop
    # being a ruleset (the author is then told it has no game section).
    if any(_SECTION.search(file_text(f, texts)) or (f in texts and _SECTION.search(file_text(f, {})))
           for f in files):
        return path.parent
    return None
