"""Positions between meeple's spans and the editor's.

A meeple `Span` counts lines and columns from 1 in characters (code points), its end
excluded.  An LSP position counts from 0, and its column in the code units of the
encoding agreed at start-up: UTF-16 unless the editor offered another, so a line of
Hungarian labels (`ő` is one unit) or an emoji (two UTF-16 units) lands right either way.
"""
from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from meeple.dsl.source import Span

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def _units(char: str, encoding: str) -> int:
    if encoding == UTF8:
        return len(char.encode("utf-8"))
    if encoding == UTF32:
        return 1
    return 2 if ord(char) > 0xFFFF else 1


def units_before(line: str, column: int, encoding: str = UTF16) -> int:
    """Code units of `encoding` before the 0-based character `column` of `line`
    (a column past the line's end counts the missing characters as one unit each)."""
    head = line[:column]
    return sum(_units(ch, encoding) for ch in head) + max(0, column - len(line))


def column_at(line: str, units: int, encoding: str = UTF16) -> int:
    """The 0-based character column of `line` at `units` code units of `encoding`
    (a unit inside a character counts as that character's start)."""
    seen = 0
    for column, ch in enumerate(line):
        size = _units(ch, encoding)
        if seen + size > units:
            return column
        seen += size
    return len(line) + max(0, units - seen)


def _line(lines: list[str], index: int) -> str:
    return lines[index] if 0 <= index < len(lines) else ""


def span_to_range(span: Span, lines: list[str], encoding: str = UTF16) -> types.Range:
    """The LSP range of a span in a file whose lines are `lines`."""
    start_line, end_line = max(0, span.line - 1), max(0, span.end_line - 1)
    start = units_before(_line(lines, start_line), max(0, span.col - 1), encoding)
    end = units_before(_line(lines, end_line), max(0, span.end_col - 1), encoding)
    return types.Range(types.Position(start_line, start), types.Position(end_line, end))


def to_span_position(position: types.Position, lines: list[str], encoding: str = UTF16) -> tuple[int, int]:
    """An LSP position as meeple's 1-based (line, column) in characters."""
    return position.line + 1, column_at(_line(lines, position.line), position.character, encoding) + 1


def contains(span: Span, line: int, col: int) -> bool:
    """Whether the 1-based character position lies in the span (its end included, so a
    cursor just after a name is still on it)."""
    return (span.line, span.col) <= (line, col) <= (span.end_line, span.end_col)


_resolved: dict[str, Path] = {}


def file_of(span: Span) -> Path:
    """The file a span points into, as an absolute path.  Spans name files as the loader
    displayed them (relative to the working folder when inside it), and the server's
    working folder does not change, so resolving them here finds the same file."""
    found = _resolved.get(span.file)
    if found is None:
        found = _resolved[span.file] = Path(span.file).resolve()
    return found
