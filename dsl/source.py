"""Source positions, and YAML read with positions kept on every value.

Every later stage reports problems against the file the author wrote, so the
reader wraps each mapping, list and string in a subclass that remembers where
it came from.  Expression strings also remember how their characters map back
to file columns (quoted and block scalars shift them), so a caret inside an
expression lands on the right column of the YAML file.
"""
from __future__ import annotations

from dataclasses import dataclass
from bisect import bisect_right
from pathlib import Path

import yaml


@dataclass(frozen=True)
class Span:
    """A 1-based, end-exclusive region of a source file."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    @staticmethod
    def unknown(file: str = "<unknown>") -> "Span":
        return Span(file, 1, 1, 1, 1)


class Located:
    """Mixin for values that carry the span they were read from."""

    span: Span


class LStr(str, Located):
    """A string read from YAML; `origin` maps expression offsets to file positions."""

    origin: "TextOrigin"


class LInt(int, Located):
    pass


class LFloat(float, Located):
    pass


class LDict(dict, Located):
    """A mapping that also knows the span of each key and of each value."""

    key_spans: dict
    value_spans: dict


class LList(list, Located):
    item_spans: list


@dataclass(frozen=True)
class TextOrigin:
    """Maps a character offset inside a scalar's text to a file line and column.

    `lines[i]` is the file line and column where the i-th source line of the
    scalar starts, and `starts[i]` the offset in the scalar's *value* where that
    line's text begins.  Keeping both copes with folding (plain and `>`
    scalars turn newlines into spaces) as well as literal blocks.
    """

    file: str
    lines: tuple[tuple[int, int], ...]
    starts: tuple[int, ...] | None = None  # None: the value keeps its newlines

    def position(self, offset: int, text: str = "") -> tuple[int, int]:
        starts = self.starts
        if starts is None:
            starts = (0,) + tuple(i + 1 for i, ch in enumerate(text) if ch == "\n")
        i = bisect_right(starts, offset) - 1
        i = max(0, min(i, len(self.lines) - 1))
        file_line, file_col = self.lines[i]
        return file_line, file_col + (offset - starts[i])

    def span(self, text: str, start: int, end: int) -> Span:
        line, col = self.position(start, text)
        end_line, end_col = self.position(max(start, end), text)
        if (end_line, end_col) == (line, col):
            end_col = col + 1
        return Span(self.file, line, col, end_line, end_col)


def span_of(value, default: Span | None = None) -> Span | None:
    return getattr(value, "span", default)


def _mark_span(file: str, node: yaml.Node) -> Span:
    s, e = node.start_mark, node.end_mark
    return Span(file, s.line + 1, s.column + 1, e.line + 1, e.column + 1)


def _text_origin(file: str, node: yaml.ScalarNode, lines: list[str]) -> TextOrigin:
    start, end = node.start_mark, node.end_mark
    if node.style in ("|", ">"):
        # Block scalar: content starts on the next line, at the block's indentation.
        last = end.line if end.column > 0 else end.line - 1
        body = range(start.line + 1, max(last, start.line + 1) + 1)
        src = [lines[i] if i < len(lines) else "" for i in body]
        indents = [len(t) - len(t.lstrip(" ")) for t in src if t.strip()]
        indent = indents[0] if indents else 0  # YAML: the first non-empty line sets it
        out, starts, offset = [], [], 0
        for i, text in zip(body, src):
            out.append((i + 1, indent + 1))
            starts.append(offset)
            offset += max(0, len(text) - indent) + 1
        return TextOrigin(file, tuple(out) or ((start.line + 1, 1),), tuple(starts) or (0,))
    shift = 1 if node.style in ("'", '"') else 0
    out = [(start.line + 1, start.column + 1 + shift)]
    first = lines[start.line][start.column + shift:] if start.line < len(lines) else ""
    starts = [0]
    offset = len(first.rstrip()) + 1
    for i in range(start.line + 1, end.line + 1):
        text = lines[i] if i < len(lines) else ""
        stripped = text.lstrip(" ")
        out.append((i + 1, len(text) - len(stripped) + 1))
        starts.append(offset)
        offset += len(stripped.rstrip()) + 1
    return TextOrigin(file, tuple(out), tuple(starts))


class YamlError(Exception):
    """The file is not well-formed YAML; carries the position PyYAML reported."""

    def __init__(self, message: str, span: Span):
        super().__init__(message)
        self.message = message
        self.span = span


def read_yaml(path: str | Path, text: str | None = None, display_name: str | None = None):
    """Read one YAML document and return located values (LDict/LList/LStr/...)."""
    path = Path(path)
    name = display_name or str(path)
    if text is None:
        text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        col = mark.column + 1 if mark else 1
        message = f"malformed YAML: {exc.problem or exc.context}"
        raise YamlError(message, Span(name, line, col, line, col + 1)) from None
    if node is None:
        return None
    constructor = yaml.SafeLoader("")

    def build(n: yaml.Node):
        span = _mark_span(name, n)
        if isinstance(n, yaml.MappingNode):
            out = LDict()
            out.span, out.key_spans, out.value_spans = span, {}, {}
            for key_node, value_node in n.value:
                key = build(key_node)
                if isinstance(key, bool) or key is None:
                    # YAML 1.1 reads a bare `on:`, `yes:` or `no:` key as a boolean; a
                    # rules author always means the word.
                    key = LStr(key_node.value)
                    key.span = _mark_span(name, key_node)
                    key.origin = _text_origin(name, key_node, lines)
                if isinstance(key, LDict | LList):
                    raise YamlError("a mapping key must be a plain value", key.span)
                if key in out:
                    raise YamlError(f"duplicate key '{key}'", _mark_span(name, key_node))
                out[key] = build(value_node)
                out.key_spans[key] = _mark_span(name, key_node)
                out.value_spans[key] = _mark_span(name, value_node)
            return out
        if isinstance(n, yaml.SequenceNode):
            out = LList(build(item) for item in n.value)
            out.span = span
            out.item_spans = [_mark_span(name, item) for item in n.value]
            return out
        value = constructor.construct_object(n, deep=True)
        if isinstance(value, bool) or value is None:
            return value
        if isinstance(value, int):
            out = LInt(value)
        elif isinstance(value, float):
            out = LFloat(value)
        elif isinstance(value, str):
            out = LStr(value)
            out.origin = _text_origin(name, n, lines)
        else:
            out = LStr(str(value))
            out.origin = _text_origin(name, n, lines)
        out.span = span
        return out

    return build(node)
