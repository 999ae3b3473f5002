"""What the language server remembers between requests: the last analysis of each
ruleset folder (worked out again only when a file's text changed), and the diagnostics
it last published, so that a file whose problems are gone is cleared and a quick fix can
find a diagnostic's suggestions."""
from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from .analysis import Analysis, analyse
from .editor_diagnostics import by_file
from .positions import UTF16
from .workspace import file_text, folder_files, ruleset_folder


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
            out = by_file(self._current(folder, texts), encoding)
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
        return self._current(folder, texts) if folder is not None else None

    def _current(self, folder: Path, texts: dict[Path, str]) -> Analysis:
        """The folder's analysis of these very texts: the one kept if nothing changed since."""
        kept = self.analyses.get(folder)
        if kept is not None and kept.files == folder_files(folder) \
                and all(file_text(f, texts) == kept.texts[f] for f in kept.files):
            return kept
        self.analyses[folder] = analyse(folder, texts, kept)
        return self.analyses[folder]

    def with_suggestions(self, path: Path, diagnostics: list[types.Diagnostic]) -> list[types.Diagnostic]:
        """The editor's diagnostics, each with the suggestions the server published for it
        (an editor may send a diagnostic back without its `data`)."""
        published = {(d.code, _key(d.range)): d for d in self.published.get(path, ())}
        return [d if d.data else published.get((d.code, _key(d.range)), d) for d in diagnostics]


def _key(where: types.Range) -> tuple[int, int, int, int]:
    return where.start.line, where.start.character, where.end.line, where.end.character
