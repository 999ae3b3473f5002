"""What the cursor stands in, read from the text around it, line by line.

The file being typed is often not YAML yet (a key half written, a quote not closed),
so this does not parse the file: it reads indentation, dashes and `key:` upwards from
the cursor's line, the way a person would, and the flow brackets (`{...}`, `[...]`)
on the cursor's line.  The answer is a path of keys that `schema_paths.kind_at` turns
into the kind of value expected there.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .schema_paths import ELEMENT, kind_at, keys_offered

_LINE = re.compile(
    r"^(?P<indent> *)(?P<dashes>(?:-(?: +|$))*)"
    r"(?:(?P<key>'[^']*'|\"[^\"]*\"|[^\s#'\"{}\[\],&*!|>%@`:-][^#:]*?|-[^\s#:][^#:]*?)\s*:(?=\s|$)(?P<value>.*))?")
_WORD = re.compile(r"[\w.-]*$")


@dataclass
class Cursor:
    """`path`: the keys from the top of the file to the mapping or value the cursor is in
    (ELEMENT for a list's element).  At a key (`at_key`), `path` leads to the mapping and
    `siblings` are the keys it already has; in a value, `path` leads to the value itself,
    `siblings` are the keys beside it, and `text` is the value from its start to the
    cursor (for an expression, without its YAML quotes)."""

    path: tuple[str, ...]
    at_key: bool
    siblings: frozenset[str] = frozenset()
    text: str = ""
    prefix: str = ""  # the partial word right before the cursor


@dataclass
class _Line:
    indent: int
    dashes: list[int]  # columns of the dashes that open list elements on this line
    key: str | None
    key_col: int | None
    value: str  # the text after `key:`, without a trailing comment

    @property
    def first(self) -> int:
        return self.dashes[0] if self.dashes else (self.key_col if self.key_col is not None else self.indent)


def _strip_comment(value: str) -> str:
    quote = None
    for i, ch in enumerate(value):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or value[i - 1] in " \t"):
            return value[:i]
    return value


def _parse(text: str) -> _Line | None:
    stripped = text.strip()
    if not stripped or stripped.startswith("#") or stripped in ("---", "..."):
        return None
    m = _LINE.match(text)
    indent = len(m.group("indent"))
    dashes, col = [], indent
    for part in re.findall(r"-(?: +|$)", m.group("dashes")):
        dashes.append(col)
        col += len(part)
    key = m.group("key")
    if key is None:
        return _Line(indent, dashes, None, None, text[col:].strip())
    key_col = col
    key = key.strip()
    if key[:1] in "'\"" and key[-1:] == key[:1]:
        key = key[1:-1]
    return _Line(indent, dashes, key, key_col, _strip_comment(m.group("value")).strip())


def _siblings_below(lines: list[str], start: int, col: int) -> set[str]:
    out = set()
    for text in lines[start:]:
        line = _parse(text)
        if line is None:
            continue
        if line.first < col:
            break
        if line.key_col == col and not line.dashes:
            out.add(line.key)
    return out


def _upwards(lines: list[str], index: int, col: int, dashes: list[int]):
    """The path to the mapping whose keys stand at `col` on line `index` (a list element's
    mapping when the line opens it with `dashes`), the keys that mapping has above the
    line, and the key whose scalar the line continues instead, if it does."""
    path: list[str] = [ELEMENT] * len(dashes)
    siblings: set[str] = set()
    direct = not dashes
    equal_ok = bool(dashes)  # under a list element, the parent key may stand at the dash's column
    if dashes:
        col = dashes[0]
    for i in range(index - 1, -1, -1):
        line = _parse(lines[i])
        if line is None:
            continue
        if line.key_col == col and (direct or line.dashes):
            if direct:
                siblings.add(line.key)
            if line.dashes:  # the mapping is a list element that starts on this line
                path[:0] = [ELEMENT] * len(line.dashes)
                col, direct, equal_ok = line.dashes[0], False, True
            continue
        if line.first > col or (line.first == col and (line.dashes or not equal_ok)):
            continue
        if line.key is None:
            if line.dashes:  # `-` alone, or `- scalar`
                path[:0] = [ELEMENT] * len(line.dashes)
                col, direct, equal_ok = line.dashes[0], False, True
            continue
        if line.key_col > col or (line.key_col == col and not equal_ok):
            continue
        if direct and line.value and line.value[0] != "&":
            return None, siblings, (i, line)  # the cursor's line continues this key's scalar
        path[:0] = [ELEMENT] * len(line.dashes) + [line.key]
        col, direct = (line.dashes[0], False) if line.dashes else (line.key_col, False)
        equal_ok = bool(line.dashes)
        if col == 0 and not line.dashes:
            break
    return path, siblings, None


def _flow(value: str):
    """Read the flow brackets of a value up to the cursor: the keys that lead to the
    innermost open bracket, whether the cursor is at a key there, the keys already
    written in it, and the text of the value the cursor is in."""
    frames: list[dict] = []
    quote, quote_start, i = None, 0, 0
    item_start = 0
    while i < len(value):
        ch = value[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 2
                continue
            if ch == quote:
                if quote == "'" and value[i + 1:i + 2] == "'":
                    i += 2
                    continue
                quote = None
        elif ch in "'\"" and not value[item_start:i].strip():
            quote, quote_start = ch, i
        elif ch in "{[" and not value[item_start:i].strip():
            frame = frames[-1] if frames else None
            opened_by = (frame["key"] if frame and frame["kind"] == "{" else ELEMENT) if frame else None
            frames.append({"kind": ch, "key": None, "keys": set(), "start": i + 1, "opened_by": opened_by})
            item_start = i + 1
        elif ch in "}]" and frames:
            frames.pop()
        elif ch == "," and frames:
            frames[-1]["key"] = None
            item_start = frames[-1]["start"] = i + 1
        elif ch == ":" and frames and frames[-1]["kind"] == "{" and value[i + 1:i + 2] in ("", " "):
            key = value[frames[-1]["start"]:i].strip().strip("'\"")
            frames[-1]["key"] = key
            frames[-1]["keys"].add(key)
            item_start = frames[-1]["start"] = i + 1
        i += 1
    return frames, quote, quote_start, item_start


def _value_cursor(path: list[str], siblings: set[str], value: str) -> Cursor:
    frames, quote, quote_start, item_start = _flow(value)
    path = list(path)
    for frame in frames:
        if frame["opened_by"] is not None:
            path.append(frame["opened_by"])
    inner = frames[-1] if frames else None
    if inner is not None:
        siblings = inner["keys"]
        if inner["kind"] == "[":
            path.append(ELEMENT)
        elif inner["key"] is None:
            word = _WORD.search(value)[0]
            if not value[item_start:].strip() or value[item_start:].strip() == word:
                return Cursor(tuple(path), True, frozenset(siblings), prefix=word)
        else:
            path.append(inner["key"])
    text = value[quote_start + 1:] if quote else value[item_start:].lstrip()
    return Cursor(tuple(path), False, frozenset(siblings), text=text, prefix=_WORD.search(text)[0])


def cursor_at(lines: list[str], line: int, col: int) -> Cursor:
    """The cursor at 0-based `line`, character `col` of a file's lines."""
    if not 0 <= line < len(lines):
        return Cursor((), True)
    text = lines[line]
    head = text[:col]
    parsed = _parse(head) if head.strip() else None
    if parsed is None:  # an empty line, or only spaces: a key of the mapping at this column
        return _key_cursor(lines, line, col, [], "")
    if parsed.key is None:
        word = head[parsed.dashes[-1] + 1:].strip() if parsed.dashes else head.strip()
        if _WORD.fullmatch(word):
            return _key_cursor(lines, line, len(head) - len(word), parsed.dashes, word)
        return _scalar_cursor(lines, line, parsed, head)
    path, siblings, scalar = _upwards(lines, line, parsed.key_col, parsed.dashes)
    if path is None:
        return _continuation(lines, scalar, head)
    siblings |= _siblings_below(lines, line + 1, parsed.key_col)
    siblings.add(parsed.key)
    value = head[head.index(":", parsed.key_col + len(parsed.key)) + 1:].lstrip()
    if value[:1] in ("|", ">"):
        return Cursor(tuple(path) + (parsed.key,), False, frozenset(siblings))
    return _value_cursor(path + [parsed.key], siblings, value)


def _key_cursor(lines, line, col, dashes, word) -> Cursor:
    """A word alone on its line: a key being written, or, where the list holds no
    mappings (`choose:` followed by `- bid`), an element's value."""
    path, siblings, scalar = _upwards(lines, line, col, dashes)
    if path is None:
        return _continuation(lines, scalar, lines[line][:col + len(word)])
    if dashes and not keys_offered(kind_at(path)):
        return Cursor(tuple(path), False, text=word, prefix=_WORD.search(word)[0])
    siblings |= _siblings_below(lines, line + 1, col)
    return Cursor(tuple(path), True, frozenset(siblings - {word}), prefix=word)


def _scalar_cursor(lines, line, parsed: _Line, head: str) -> Cursor:
    """A line with no key: a list element's scalar (`- "x > 1"`), or a scalar continued."""
    if parsed.dashes:
        path, _, scalar = _upwards(lines, line, parsed.indent, parsed.dashes)
        if path is not None:
            return _value_cursor(path, set(), head[parsed.dashes[-1] + 1:].lstrip())
    else:
        path, _, scalar = _upwards(lines, line, parsed.indent, [])
    if scalar is not None:
        return _continuation(lines, scalar, head)
    return _value_cursor(path or [], set(), head.strip())


def _continuation(lines, scalar, head: str) -> Cursor:
    """The cursor's line continues the value of the key on line `scalar[0]`
    (a block scalar, or a plain or quoted one running over several lines)."""
    index, owner = scalar
    path, siblings, _ = _upwards(lines, index, owner.key_col, owner.dashes)
    text = head.strip()
    return Cursor(tuple(path or []) + (owner.key,), False, frozenset(siblings | {owner.key}), text=text,
                  prefix=_WORD.search(text)[0])
