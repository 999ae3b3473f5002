"""The one diagnostic type every stage reports with, and how it is printed.

Tests assert on `code` and `span`; the message is for people and may change.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .source import Span


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    span: Span
    severity: str = "error"
    notes: tuple[str, ...] = field(default=())
    rule: str | None = None  # the rulebook citation of the element concerned
    # The names the author may have meant ("did you mean ..."), each of which could stand
    # where `span` points, so an editor can offer the fix without reading the message.
    suggestions: tuple[str, ...] = ()

    def __post_init__(self):
        if self.span is None:  # every diagnostic is printed and sorted by its position
            object.__setattr__(self, "span", Span.unknown())

    def render(self, source_lines: list[str] | None = None) -> str:
        head = f"{self.span}: {self.severity}[{self.code}]: {self.message}"
        if self.rule:
            head += f" (rule {self.rule})"
        out = [head]
        lines = source_lines if source_lines is not None else _read_lines(self.span.file)
        if lines and 1 <= self.span.line <= len(lines):
            text = lines[self.span.line - 1].rstrip("\n")
            width = 1
            if self.span.end_line == self.span.line:
                width = max(1, self.span.end_col - self.span.col)
            width = min(width, max(1, len(text) - self.span.col + 1))
            text, col = _window(text, self.span.col)
            width = min(width, QUOTE_WIDTH)
            gutter = f"{self.span.line:>4} | "
            out.append(gutter + text)
            out.append(" " * (len(gutter) + col - 1) + "^" * width)
        for note in self.notes:
            out.append(f"  note: {note}")
        return "\n".join(out)


QUOTE_WIDTH = 100


def _window(text: str, col: int) -> tuple[str, int]:
    """At most QUOTE_WIDTH characters of a long source line, around the caret's column."""
    if len(text) <= QUOTE_WIDTH:
        return text, col
    start = max(0, min(col - 1 - QUOTE_WIDTH // 2, len(text) - QUOTE_WIDTH))
    end = start + QUOTE_WIDTH
    shown = ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")
    return shown, col - start + (1 if start else 0)


_line_cache: dict[str, list[str]] = {}


def register_source(file: str, text: str) -> None:
    """Remember a file's text so diagnostics can quote it even if it was not on disk."""
    _line_cache[file] = text.split("\n")


def read_yaml_file(path: Path):
    """A YAML file beside the rulesets (a scenario or study file) as located values, its
    text kept for quoting: (document, None), or (None, the Diagnostic of why it cannot be
    read)."""
    from .source import YamlError, read_source, read_yaml
    name = str(path)
    text, problem = read_source(path, name)
    register_source(name, text)
    try:
        if problem:
            raise problem
        return read_yaml(path, text, name), None
    except YamlError as exc:
        return None, Diagnostic(exc.code, exc.message, exc.span)


def _read_lines(file: str) -> list[str] | None:
    if file in _line_cache:
        return _line_cache[file]
    try:
        lines = Path(file).read_text(encoding="utf-8", errors="replace").split("\n")
    except (OSError, ValueError):
        return None
    _line_cache[file] = lines
    return lines


class RulesetError(Exception):
    """Raised once, after every check has run, with all the diagnostics found."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(
            diagnostics, key=lambda d: (d.span.file, d.span.line, d.span.col, d.code)
        )
        super().__init__(self.render())

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def render(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)


def render_all(diagnostics: list[Diagnostic]) -> str:
    return "\n".join(d.render() for d in diagnostics)
