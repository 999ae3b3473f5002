"""What the language server remembers between requests: the last analysis of each
ruleset folder and the diagnostics it last published, so that a file whose problems
are gone is cleared and a quick fix can find a diagnostic's suggestions."""
from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from .analysis import Analysis, analyse
from .editor_diagnostics import by_file
from .positions import UTF16
from .workspace import ruleset_folder


class Session:
    def __init__(self):
        self.analyses: dict[Path, Analysis] = {}
        self.published: dict[Path, list[types.Diagnostic]] = {}  # file -> what it last showed

    def refresh(self, path: Path, texts: dict[Path, str], encoding: str = UTF16) -> dict[Path, list[types.Diagnostic]]:
        """Check again the ruleset `path` belongs to, with the editor's buffers `texts`;
        the diagnostics to publish, per file (an empty list clears a file)."""
        folder = ruleset_folder(path, texts)
        if folder is None:
            out = {path: []}
        else:
            analysis = self.analyses[folder] = analyse(folder, texts, self.analyses.get(folder))
            out = by_file(analysis, encoding)
            for shown in list(self.published):
                if shown.parent == folder:
                    out.setdefault(shown, [])  # a file no longer part of the ruleset
        for shown, diagnostics in out.items():
            if diagnostics:
                self.published[shown] = diagnostics
            else:
                self.published.pop(shown, None)
        return out

    def analysis(self, path: Path, texts: dict[Path, str]) -> Analysis | None:
        """The analysis of the ruleset `path` belongs to (None for a file of no ruleset)."""
        folder = ruleset_folder(path, texts)
        if folder is None:
            return None
        if folder not in self.analyses:
            self.analyses[folder] = analyse(folder, texts)
        return self.analyses[folder]

    def with_suggestions(self, path: Path, diagnostics: list[types.Diagnostic]) -> list[types.Diagnostic]:
        """The editor's diagnostics, each with the suggestions the server published for it
        (an editor may send a diagnostic back without its `data`)."""
        published = {(d.code, _key(d.range)): d for d in self.published.get(path, ())}
        return [d if d.data else published.get((d.code, _key(d.range)), d) for d in diagnostics]


def _key(where: types.Range) -> tuple[int, int, int, int]:
    return where.start.line, where.start.character, where.end.line, where.end.character
