"""Where a fresh playthrough first departs from the recorded one, said so a person can
act on it: the step, the record (a player's view, the variables, the legal moves, the
move applied, the outcome), for a JSON record the path inside it where the two part,
and both lines cut down to the neighbourhood of the first differing character.
A view line of several kilobytes is unreadable in a plain unified diff."""
from __future__ import annotations

import json
from itertools import zip_longest

_JSON_RECORDS = ("vars ", "outcome ")
_WINDOW = 70  # characters shown either side of where two lines part


def first_difference(recorded: list[str], fresh: list[str]) -> str | None:
    """None when the two playthroughs are the same; otherwise a few lines saying where
    they first differ."""
    for index, (old, new) in enumerate(zip_longest(recorded, fresh)):
        if old != new:
            break
    else:
        return None
    where = f"line {index + 1}, {_step_of(recorded, index, old, new)}, {_record_of(old if old is not None else new)}"
    out = [where]
    inner = _json_difference(old, new)
    if inner:
        out.append("  " + inner)
    out.append("  - " + (_around(old, new) if old is not None else "(the recorded file ends here)"))
    out.append("  + " + (_around(new, old) if new is not None else "(the fresh run ends here)"))
    return "\n".join(out)


def _step_of(lines: list[str], index: int, old, new) -> str:
    if index == 0:
        return "the header"
    states = sum(1 for line in lines[:index] if line.startswith("state "))
    at_state = any(line is not None and line.startswith("state ") for line in (old, new))
    return f"step {states if at_state else states - 1}"


def _record_of(line: str) -> str:
    if line.startswith("view "):
        return f"player {line.split(' ', 2)[1]}'s view"
    for prefix, name in (("state ", "the state"), ("vars ", "the variables"), ("legal ", "the legal moves"),
                         ("# apply ", "the move applied"), ("outcome ", "the outcome"),
                         ("# meeple playthrough ", "the header")):
        if line.startswith(prefix):
            return name
    return "a line"


def _payload(line) -> object:
    """The JSON value a record carries, or None for a line that carries none."""
    if line is None:
        return None
    if line.startswith("view "):
        text = line.split(" ", 2)[2]
    elif line.startswith(_JSON_RECORDS):
        text = line.split(" ", 1)[1]
    else:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _json_difference(old, new) -> str | None:
    """`at PATH: recorded X, now Y` for two records of the same kind that carry JSON."""
    if old is None or new is None or old.split(" ", 2)[:2] != new.split(" ", 2)[:2]:
        return None
    a, b = _payload(old), _payload(new)
    if a is None or b is None:
        return None
    found = _path_apart(a, b, "")
    if found is None:
        return None
    path, x, y = found
    return f"at {path or 'the top'}: recorded {_short(x)}, now {_short(y)}"


_MISSING = object()


def _path_apart(a, b, path):
    """The first path (keys in sorted order, list items in order) where a and b differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            x, y = a.get(key, _MISSING), b.get(key, _MISSING)
            if x != y:
                return _path_apart(x, y, f"{path}.{key}" if path else str(key))
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip_longest(a, b, fillvalue=_MISSING)):
            if x != y:
                return _path_apart(x, y, f"{path}[{i}]")
        return None
    return (path, a, b) if a != b else None


def _short(value) -> str:
    if value is _MISSING:
        return "(absent)"
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 2 * _WINDOW else text[:2 * _WINDOW - 3] + "..."


def _around(line: str, other) -> str:
    """`line` cut to the characters near where it first differs from `other`, after the
    word(s) that say what the record is."""
    if len(line) <= 2 * _WINDOW + 40:
        return line
    other = other or ""
    at = next((i for i, (x, y) in enumerate(zip(line, other)) if x != y), min(len(line), len(other)))
    words = 2 if line.startswith("view ") else 1
    head = " ".join(line.split(" ", words)[:words]) + " "
    start, end = max(len(head), at - _WINDOW), at + _WINDOW
    return head + ("..." if start > len(head) else "") + line[start:end] + ("..." if end < len(line) else "")
