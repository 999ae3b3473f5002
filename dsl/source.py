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
import os
import re
import stat
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


def plain(value):
    """A located value as plain Python values, for what must not carry the subclasses
    (built records, a YAML dumper)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return str(value)


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
    """The file cannot be read as a ruleset's YAML; carries a code and a position."""

    def __init__(self, message: str, span: Span, code: str = "Y001"):
        super().__init__(message)
        self.message = message
        self.span = span
        self.code = code


# Limits on what one file may hold.  They are far above any real ruleset (the largest
# shipped file is 55 KB, 1,648 values, 21 levels deep) and low enough that reading a
# hostile file stays within seconds and a few hundred MiB.
MAX_FILE_BYTES = 1024 * 1024
MAX_RULESET_FILES = 64
MAX_YAML_DEPTH = 64
MAX_YAML_VALUES = 100_000  # counted after aliases are expanded, before any is built
MAX_YAML_INT = 10**18

# The tags a ruleset may use, explicitly or implicitly; anything else (`!foo`,
# `!!python/object`, `!!binary`, `!!set`) is refused instead of constructed.
_PLAIN_TAGS = {"tag:yaml.org,2002:" + t for t in ("str", "int", "float", "bool", "null", "timestamp")}
_MAP_TAG, _SEQ_TAG = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_MERGE_TAG = "tag:yaml.org,2002:merge"

_NOT_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")


def decode_source(data: bytes, name: str) -> tuple[str, YamlError | None]:
    """The text of a file, and the reason it is not a readable ruleset file if it is not.

    The text comes back even for a bad file (undecodable bytes replaced) so that the
    diagnostic can quote the line it points at."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16", errors="replace")
        return text, YamlError("the file is UTF-16 text; meeple reads rulesets written in UTF-8",
                               Span(name, 1, 1, 1, 2), "Y004")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", errors="replace")
        line = data.count(b"\n", 0, exc.start) + 1
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        col = len(data[line_start:exc.start].decode("utf-8", errors="replace")) + 1
        return text, YamlError(f"byte 0x{data[exc.start]:02x} is not UTF-8 text; save the file as UTF-8",
                               Span(name, line, col, line, col + 1), "Y004")
    return text, _control_character(text, name)


def _control_character(text: str, name: str) -> YamlError | None:
    bad = _NOT_PRINTABLE.search(text)
    if bad is None:
        return None
    line = text.count("\n", 0, bad.start()) + 1
    col = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
    return YamlError(f"the control character U+{ord(bad.group()):04X} cannot appear in a ruleset",
                     Span(name, line, col, line, col + 1), "Y005")


class FileTooLarge(OSError):
    """A file past its limit: `size` is what it holds (at least the limit + 1)."""

    def __init__(self, size: int, limit: int = MAX_FILE_BYTES):
        super().__init__(f"the file holds more than {limit:,} bytes")
        self.size = size


class NotAFile(OSError):
    """A path that names a device, a pipe or a socket, whose reading never ends or waits."""


def read_file_bytes(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """A ruleset, scenario or save file's bytes, read at most up to the limit + 1 byte.

    Only a regular file is opened: /dev/zero would be read until memory runs out, a FIFO
    would wait for a writer, and both report a size of 0.  The path is looked at before it
    is opened (opening a device can itself do something), then the open file again (the
    path may have changed in between; O_NONBLOCK keeps a FIFO swapped in from blocking).
    Raises OSError: NotAFile, FileTooLarge, or the system's own."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise NotAFile("it is not a regular file (a device, a pipe or a socket)")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as f:
        opened = os.fstat(f.fileno())
        if not stat.S_ISREG(opened.st_mode):
            raise NotAFile("it is not a regular file (a device, a pipe or a socket)")
        size = opened.st_size
        if size > limit:  # said before reading it: its size is known
            raise FileTooLarge(size, limit)
        data = f.read(limit + 1)  # a file that grew since, or whose size lies
    if len(data) > limit:
        raise FileTooLarge(max(size, len(data)), limit)
    return data


def read_source(path: Path, name: str) -> tuple[str, YamlError | None]:
    """A ruleset or scenario file's text, refusing a file too large to be one."""
    try:
        return decode_source(read_file_bytes(path), name)
    except FileTooLarge as exc:
        held = f"{exc.size:,} bytes" if exc.size > MAX_FILE_BYTES + 1 else f"more than {MAX_FILE_BYTES:,} bytes"
        return "", YamlError(f"the file is {held}; a ruleset file may hold at most {MAX_FILE_BYTES:,}",
                             Span(name, 1, 1, 1, 2), "Y012")
    except OSError as exc:
        return "", YamlError(f"cannot read {name}: {exc.strerror or exc}", Span.unknown(name), "Y002")


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's composer, refusing before it builds anything deeper than the depth limit,
    an alias that names a node containing it, or aliases that would expand past the
    value limit (a "billion laughs" file is a few lines that expand exponentially)."""

    def __init__(self, text: str, name: str):
        super().__init__(text)
        self._name = name
        self._depth = 0
        self._values = 0          # values composed so far, aliases counted as expanded
        self._sizes: dict = {}    # anchored node -> its expanded number of values
        self._open: set = set()   # anchors whose node is still being composed

    def _refuse(self, code: str, message: str, mark) -> None:
        line, col = mark.line + 1, mark.column + 1
        raise YamlError(message, Span(self._name, line, col, line, col + 1), code)

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            if event.anchor in self._open:
                self._refuse("Y007", f"the alias *{event.anchor} stands for a value that contains it",
                             event.start_mark)
            node = super().compose_node(parent, index)
            self._count(self._sizes.get(id(node), 1), event.start_mark)
            return node
        self._depth += 1
        if self._depth > MAX_YAML_DEPTH:
            self._refuse("Y006", f"values are nested more than {MAX_YAML_DEPTH} levels deep",
                         event.start_mark)
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            self._open.add(anchor)
        before = self._values
        self._count(1, event.start_mark)
        node = super().compose_node(parent, index)
        if anchor is not None:
            self._open.discard(anchor)
            self._sizes[id(node)] = self._values - before
        self._depth -= 1
        return node

    def _count(self, n: int, mark) -> None:
        self._values += n
        if self._values > MAX_YAML_VALUES:
            self._refuse("Y008", f"the file holds more than {MAX_YAML_VALUES:,} values once its aliases "
                         "are expanded", mark)


def read_yaml(path: str | Path, text: str | None = None, display_name: str | None = None):
    """Read one YAML document and return located values (LDict/LList/LStr/...)."""
    path = Path(path)
    name = display_name or str(path)
    problem = None
    if text is None:
        text, problem = read_source(path, name)
    problem = problem or _control_character(text, name)
    if problem:
        raise problem
    lines = text.split("\n")
    loader = _BoundedLoader(text, name)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        col = mark.column + 1 if mark else 1
        message = f"malformed YAML: {exc.problem or exc.context}"
        raise YamlError(message, Span(name, line, col, line, col + 1)) from None
    except yaml.YAMLError as exc:  # the reader's errors carry a character offset, not a mark
        offset = getattr(exc, "position", 0) or 0
        line = text.count("\n", 0, offset) + 1
        col = offset - (text.rfind("\n", 0, offset) + 1) + 1
        raise YamlError(f"malformed YAML: {exc}", Span(name, line, col, line, col + 1)) from None
    finally:
        loader.dispose()
    if node is None:
        return None
    return _Builder(name, lines).build(node)


class _Builder:
    """Composed YAML nodes -> located values, one node at a time."""

    def __init__(self, name: str, lines: list[str]):
        self.name, self.lines = name, lines
        self.constructor = yaml.SafeLoader("")

    def build(self, n: yaml.Node):
        if isinstance(n, yaml.MappingNode):
            return self.mapping(n)
        if isinstance(n, yaml.SequenceNode):
            self.check_tag(n, {_SEQ_TAG})
            out = LList(self.build(item) for item in n.value)
            out.span = _mark_span(self.name, n)
            out.item_spans = [_mark_span(self.name, item) for item in n.value]
            return out
        return self.scalar(n)

    def check_tag(self, n: yaml.Node, allowed) -> None:
        if n.tag not in allowed:
            raise YamlError(f"the YAML tag '{n.tag}' is not part of the ruleset language; "
                            "write the value without a tag", _mark_span(self.name, n), "Y009")

    def mapping(self, n: yaml.MappingNode) -> LDict:
        self.check_tag(n, {_MAP_TAG})
        out = LDict()
        out.span, out.key_spans, out.value_spans = _mark_span(self.name, n), {}, {}
        merged: list[tuple] = []
        for key_node, value_node in n.value:
            if key_node.tag == _MERGE_TAG:
                merged += self.merge_sources(value_node)
                continue
            key = self.key(key_node)
            if key in out:
                raise YamlError(f"duplicate key '{key}'", _mark_span(self.name, key_node))
            out[key] = self.build(value_node)
            out.key_spans[key] = _mark_span(self.name, key_node)
            out.value_spans[key] = _mark_span(self.name, value_node)
        # `<<: *base` fills in the keys this mapping does not set itself; of several
        # merged mappings, the first one listed wins, as YAML's merge key specifies.
        for key_node, value_node in merged:
            key = self.key(key_node)
            if key not in out:
                out[key] = self.build(value_node)
                out.key_spans[key] = _mark_span(self.name, key_node)
                out.value_spans[key] = _mark_span(self.name, value_node)
        return out

    def merge_sources(self, node: yaml.Node) -> list[tuple]:
        sources = node.value if isinstance(node, yaml.SequenceNode) else [node]
        pairs = []
        for source in sources:
            if not isinstance(source, yaml.MappingNode):
                raise YamlError("a merge key '<<' takes a mapping or a list of mappings",
                                _mark_span(self.name, source), "Y010")
            pairs += [pair for pair in source.value if pair[0].tag != _MERGE_TAG]
            pairs += [pair for key, value in source.value if key.tag == _MERGE_TAG
                      for pair in self.merge_sources(value)]
        return pairs

    def key(self, key_node: yaml.Node):
        if not isinstance(key_node, yaml.ScalarNode):
            raise YamlError("a mapping key must be a plain value", _mark_span(self.name, key_node))
        key = self.scalar(key_node)
        if isinstance(key, bool) or key is None:
            # YAML 1.1 reads a bare `on:`, `yes:` or `no:` key as a boolean; a
            # rules author always means the word.
            key = LStr(key_node.value)
            key.span = _mark_span(self.name, key_node)
            key.origin = _text_origin(self.name, key_node, self.lines)
        return key

    def scalar(self, n: yaml.ScalarNode):
        self.check_tag(n, _PLAIN_TAGS)
        span = _mark_span(self.name, n)
        if n.tag == "tag:yaml.org,2002:timestamp":
            value = n.value  # a date such as 2024-05-01 is the text the author wrote
        else:
            try:
                value = self.constructor.construct_object(n, deep=True)
            except (yaml.YAMLError, ValueError):
                raise YamlError(f"'{n.value[:40]}' cannot be read as a {n.tag.rsplit(':', 1)[-1]}",
                                span, "Y011") from None
        if isinstance(value, bool) or value is None:
            return value
        if isinstance(value, int):
            if not -MAX_YAML_INT <= value <= MAX_YAML_INT:
                raise YamlError("a number beyond ±10**18, the largest integer the rules can hold",
                                span, "Y011")
            out = LInt(value)
        elif isinstance(value, float):
            out = LFloat(value)
        else:
            out = LStr(str(value))
            out.origin = _text_origin(self.name, n, self.lines)
        out.span = span
        return out
