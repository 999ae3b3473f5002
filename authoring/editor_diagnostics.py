"""The checker's diagnostics as the editor shows them: one list per file of the folder,
each with its exact range, severity, code, and the notes and rulebook citation that
`meeple validate` prints under it."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from lsprotocol import types

from meeple.dsl.diagnostics import Diagnostic
from meeple.dsl.source import Span

from .analysis import Analysis
from .positions import UTF16, file_of, span_to_range

SOURCE = "meeple"
_SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}


def is_unknown(span: Span) -> bool:
    """A span that points at no text (`Span.unknown`): a whole file or folder is concerned."""
    return (span.line, span.col, span.end_line, span.end_col) == (1, 1, 1, 1)


def message(d: Diagnostic) -> str:
    text = d.message + (f" (rule {d.rule})" if d.rule else "")
    return "\n".join([text] + [f"note: {note}" for note in d.notes])


def to_lsp(d: Diagnostic, lines: list[str], encoding: str = UTF16) -> types.Diagnostic:
    if is_unknown(d.span):
        where = types.Range(types.Position(0, 0), types.Position(0, 0))
    else:
        where = span_to_range(d.span, lines, encoding)
    return types.Diagnostic(range=where, message=message(d), severity=_SEVERITY.get(d.severity),
                            code=d.code, source=SOURCE,
                            data={"suggestions": list(d.suggestions)} if d.suggestions else None)


def by_file(analysis: Analysis, encoding: str = UTF16) -> dict[Path, list[types.Diagnostic]]:
    """Every file of the folder, with its diagnostics (an empty list clears a file's).
    A diagnostic whose span names no file of the folder goes on the first file's first line."""
    out: dict[Path, list[types.Diagnostic]] = {f: [] for f in analysis.files}
    for d in analysis.diagnostics:
        path = file_of(d.span)
        if path not in out:
            path, d = analysis.files[0], _on_first_line(d)
        out[path].append(to_lsp(d, analysis.lines(path), encoding))
    return out


def _on_first_line(d: Diagnostic) -> Diagnostic:
    return replace(d, span=Span.unknown(d.span.file))
