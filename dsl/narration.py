"""Narration templates: the sentence an effect adds to the narrated log, per language.

    narrate: {en: "{payer|player} pays {amount} silver to {owner|player}", hu: "..."}

A template is free text with places in braces.  Each place is an expression of the
language, evaluated in the effect's scope once the effect has run; `|player` after it
names the value as a player ("player 2").  `{{` and `}}` are braces.  The places are
parsed here with their file positions, so a mistake in one is reported where it is
written: a template that is not well formed is S127, an expression that does not parse
X201/X202, a name nothing binds N301 (through dsl/walk.py, like every expression).
"""
from __future__ import annotations

from dataclasses import dataclass

from .build_support import Reader
from .expr_parser import ExprSyntaxError, parse_expression
from .source import LStr, Span, TextOrigin, span_of

FILTERS = ("player",)  # what may follow `|` in a place


@dataclass(frozen=True)
class Place:
    expr: object  # the parsed expression
    as_player: bool  # `|player`: name the value as a player
    span: Span


@dataclass(frozen=True)
class Template:
    """One language's sentence: literal texts and places, in order."""
    parts: tuple  # str | Place
    span: Span

    @property
    def places(self) -> tuple:
        return tuple(p for p in self.parts if isinstance(p, Place))


def build_narration(r: Reader, value, parent_span: Span | None) -> dict | None:
    """`narrate:` as {language: Template}; None when absent or wholly unusable."""
    if value is None:
        return None
    node = r.mapping(value, "a narration", parent_span=parent_span)
    if not node:
        return None
    out = {}
    for lang, text in node.items():
        if not isinstance(text, str):
            continue  # the shape pass reports it (S103)
        template = parse_template(r, text, span_of(text, span_of(value, parent_span)))
        if template is not None:
            out[str(lang)] = template
    return out or None


def parse_template(r: Reader, text: str, span: Span | None) -> Template | None:
    origin = text.origin if isinstance(text, LStr) and text.origin is not None else None
    span = span or Span.unknown(r.file)

    def where(start: int, end: int) -> Span:
        return origin.span(str(text), start, end) if origin is not None else span

    parts, literal, i, ok = [], [], 0, True
    raw = str(text)
    while i < len(raw):
        ch = raw[i]
        if ch in "{}" and raw[i:i + 2] in ("{{", "}}"):
            literal.append(ch)
            i += 2
            continue
        if ch == "}":
            r.error("S127", "a '}' that closes no place: write a brace as '}}'", where(i, i + 1),
                    beyond_schema=True)
            return None
        if ch != "{":
            literal.append(ch)
            i += 1
            continue
        end = raw.find("}", i + 1)
        if end < 0:
            r.error("S127", "a place opened with '{' is never closed: write a brace as '{{'", where(i, len(raw)),
                    beyond_schema=True)
            return None
        if literal:
            parts.append("".join(literal))
            literal = []
        place = _place(r, raw, i + 1, end, origin, where)
        if place is None:
            ok = False
        else:
            parts.append(place)
        i = end + 1
    if literal:
        parts.append("".join(literal))
    return Template(tuple(parts), span) if ok else None


def _place(r: Reader, raw: str, start: int, end: int, origin, where) -> Place | None:
    inside = raw[start:end]
    expr_text, bar, flt = inside.rpartition("|") if "|" in inside else (inside, "", "")
    flt = flt.strip()
    if not expr_text.strip():
        r.error("S127", "an empty place in a narration: write an expression between the braces",
                where(start - 1, end + 1), beyond_schema=True)
        return None
    if bar and flt not in FILTERS:
        r.error("S127", f"'|{flt}' is not a way to name a value: write '|player' or nothing",
                where(start + len(expr_text), end), beyond_schema=True)
        return None
    sub = TextOrigin(origin.file, (origin.position(start, raw),)) if origin is not None else None
    try:
        expr = parse_expression(expr_text, sub, file=r.file)
    except ExprSyntaxError as exc:
        r.diagnostics.append(exc.diagnostic)
        return None
    return Place(expr, bool(bar), where(start, end))
