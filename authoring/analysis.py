"""One ruleset folder as the editor has it: its diagnostics, its files' YAML and text,
and the index of its names, worked out again whenever one of its files changes."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meeple.dsl.diagnostics import Diagnostic
from meeple.dsl.model import Ruleset
from meeple.dsl.source import YamlError, read_yaml

from .checking import validate
from .index import RulesetIndex, build_index
from .workspace import file_text, folder_files


@dataclass
class Analysis:
    folder: Path
    files: list[Path]  # resolved, in the loader's order
    texts: dict[Path, str]  # each file's text as checked
    ruleset: Ruleset | None  # None when the current texts do not build
    diagnostics: list[Diagnostic]
    documents: dict[Path, Any]  # each file's located YAML (None where it does not parse)
    index: RulesetIndex
    last_built: Ruleset | None  # this or the last ruleset the folder built, for names to offer

    def lines(self, path: Path) -> list[str]:
        return self.texts.get(path, "").split("\n")

    @property
    def rulesets(self) -> list[Ruleset]:
        """Where completion finds names: the current ruleset and the last one built."""
        if self.ruleset is None or self.last_built is self.ruleset:
            return [self.last_built] if self.last_built is not None else []
        return [self.ruleset] + ([self.last_built] if self.last_built is not None else [])


def _document(path: Path, text: str):
    try:
        return read_yaml(path, text, str(path))
    except YamlError:
        return None


def analyse(folder: Path, open_texts: dict[Path, str], previous: Analysis | None = None) -> Analysis:
    """Check the folder with the editor's buffers standing in for their files."""
    files = folder_files(folder)
    texts = {f: file_text(f, open_texts) for f in files}
    overlay = {f: open_texts[f] for f in files if f in open_texts}
    rs, diagnostics = validate(folder, overlay)
    documents = {f: _document(f, texts[f]) for f in files}
    last_built = rs if rs is not None else (previous.last_built if previous else None)
    index = build_index(documents, rs if rs is not None else last_built)
    return Analysis(folder, files, texts, rs, diagnostics, documents, index, last_built)
