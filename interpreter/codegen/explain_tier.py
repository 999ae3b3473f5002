"""`meeple compile --explain`: which generated playout plays a ruleset, and each construct
that keeps it out of the fused tier, at its place in the ruleset's files.

The module's own note (backend.playout_note) names a file by its number, since nothing
from a ruleset goes into generated source; this text goes to the terminal only, so it
names the files by their paths and shows the line with a caret under the construct.
"""
from __future__ import annotations

import os

from .fused import located_reasons

_TIERS = {
    "fused": "the fused tier (the fastest: one generated function plays the whole game)",
    "kernel": "the playout kernel (generated listings and effects, driven move by move)",
    None: "no generated playout: no decision runs in one, so Game.playout plays move by move",
}


def tier_explanation(rules) -> str:
    tier = rules.playout_tier()
    lines = [f"random playouts: {_TIERS[tier]}"]
    if tier == "kernel":
        found = located_reasons(rules)
        lines.append(f"kept out of the fused tier by {len(found)} construct{'s' if len(found) != 1 else ''}:"
                     if found else "kept out of the fused tier by a shape its writer does not foresee")
        for why, span in found:
            lines += _located(why, span)
    return "\n".join(lines) + "\n"


def _located(why: str, span) -> list[str]:
    if span is None:
        return [f"  {why}"]
    path = _printable(_shown_path(span.file))
    out = [f"{path}:{span.line}:{span.col}: {why}"]
    text = _line_of(span.file, span.line)
    if text is not None:
        text = _printable(text)
        out += [f"  {span.line} | {text}", "  " + " " * len(str(span.line)) + " | " + " " * (span.col - 1) + "^"]
    return out


def _printable(text: str) -> str:
    """The text with anything a terminal would act on (escape sequences, other control
    characters) shown as U+FFFD: a ruleset's line never steers the screen."""
    return "".join(c if c.isprintable() else "\ufffd" for c in text)


def _shown_path(path: str) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive
        return path
    return path if relative.startswith("..") else relative


def _line_of(path: str, number: int) -> str | None:
    try:
        with open(path, encoding="utf-8") as handle:
            for i, line in enumerate(handle, 1):
                if i == number:
                    return line.rstrip("\n").expandtabs(1)
    except (OSError, UnicodeDecodeError):
        return None
    return None
