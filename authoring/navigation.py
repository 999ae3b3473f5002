"""Go to definition and find references: from a name anywhere (a use in an expression,
a name written as a value, or the declaration itself) to its declaration, or to every
place in the folder's files that names it."""
from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from meeple.dsl.source import Span

from .analysis import Analysis
from .positions import UTF16, file_of, span_to_range, to_span_position


def location(analysis: Analysis, span: Span, encoding: str = UTF16) -> types.Location:
    path = file_of(span)
    return types.Location(path.as_uri(), span_to_range(span, analysis.lines(path), encoding))


def _occurrence(analysis: Analysis, path: Path, position: types.Position, encoding: str):
    line, col = to_span_position(position, analysis.lines(path), encoding)
    return analysis.index.at(path, line, col)


def definition(analysis: Analysis, path: Path, position: types.Position,
               encoding: str = UTF16) -> list[types.Location]:
    occurrence = _occurrence(analysis, path, position, encoding)
    if occurrence is None:
        return []
    declaration = analysis.index.declaration(occurrence.kind, occurrence.name)
    return [location(analysis, declaration.span, encoding)] if declaration is not None else []


def references(analysis: Analysis, path: Path, position: types.Position, include_declaration: bool = True,
               encoding: str = UTF16) -> list[types.Location]:
    occurrence = _occurrence(analysis, path, position, encoding)
    if occurrence is None or occurrence.kind == "function":
        return []
    return [location(analysis, o.span, encoding) for o in analysis.index.occurrences(occurrence.kind, occurrence.name)
            if include_declaration or not o.declaration]
