"""The shape pass: walk located YAML against the declared language.

Reports, with the exact span of the key or value concerned:
S101 an unknown key (with the closest known one), S102 a missing required key,
S103 a value of the wrong kind (null included: "found nothing"), S105 a word
outside its choices, S106 an effect or flow step with no keyword or several,
N310 a declared name (or a name referred to) outside the grammar of names.
It reports through the
builders' Reader, whose de-duplication keeps the builders' own checks of the
same problems from being reported a second time.
"""
from __future__ import annotations

import difflib

from ..functions import is_int
from ..identifiers import GRAMMAR, name_problem, shown_text
from ..source import LDict, Span, span_of
from .kinds import (Assignment, Boolean, Choice, Data, Expression, Integer, Key, Keyworded, Kind, ListOf,
                    Literal, MapOf, Name, OneOf, OptionScalar, Record, Ref, Scalar, Target, Text, Tuple, TypeName)
from .language import NAMED_KINDS, RULESET


def check_sections(reader, parts: dict) -> None:
    """Check every section value collected by the loader: {section: [(file, value, key span)]}.

    From then on the reader leaves shape problems (SHAPE_CODES) to this pass: the
    builders meet the same problems while building and would report them again,
    often at the enclosing mapping rather than at the value."""
    for section, entries in parts.items():
        key = RULESET.key(section)
        if key is None:
            continue
        for _, value, span in entries:
            Shape(reader).walk(value, key.kind, span, f"the {section} section")
    reader.shape_checked = True


def check_value(reader, value, kind: Kind, span: Span, what: str) -> None:
    """Check one value against one kind (e.g. a scenario's `given` effects)."""
    Shape(reader).walk(value, kind, span, what)


def describe(value) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"the number {value}" if abs(value) < 10**12 else "a number"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text '{value}'" if len(value) < 40 else "a text"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def _is_text(v) -> bool:
    return isinstance(v, (str, int)) and not isinstance(v, bool)


def _is_literal(v) -> bool:
    """What the builders read as an expression: a scalar, or a list of them (a list literal)."""
    if isinstance(v, list):
        return all(_is_literal(x) for x in v)
    return isinstance(v, (str, int, float, bool))


def fits(value, kind: Kind) -> bool:
    """Whether the value has the YAML form of the kind (its contents are checked by `walk`)."""
    if isinstance(kind, Ref):
        return fits(value, NAMED_KINDS[kind.name])
    if isinstance(kind, TypeName):
        return isinstance(value, str)
    if isinstance(kind, (Text, Choice, Name)):
        return _is_text(value)
    if isinstance(kind, Integer):
        return is_int(value)
    if isinstance(kind, Boolean):
        return isinstance(value, bool)
    if isinstance(kind, (Expression, Target, Assignment)):
        return _is_literal(value)
    if isinstance(kind, Scalar):
        return isinstance(value, (str, int, bool))
    if isinstance(kind, Data):
        return value is not None
    if isinstance(kind, Literal):
        return type(value) is type(kind.value) and value == kind.value
    if isinstance(kind, (ListOf, Tuple)):
        return isinstance(value, list)
    if isinstance(kind, (MapOf, Record)):
        return isinstance(value, dict)
    if isinstance(kind, Keyworded):  # the bare form is a text (an assignment), never a list
        return isinstance(value, dict) or (kind.bare is not None and isinstance(value, str))
    if isinstance(kind, OneOf):
        return any(fits(value, k) for k in kind.options)
    return False


class Shape:
    def __init__(self, reader):
        self.r = reader

    # -- helpers -----------------------------------------------------------
    def wrong(self, value, kind: Kind, span: Span, what: str):
        if isinstance(value, float) and _takes_option_values(kind):
            self.r.error(OptionScalar.fraction_code, f"{what} is {describe(value)}, which has a fraction part: "
                         "an option's numbers are whole", span,
                         notes=["for a fraction, give its numerator and denominator as whole numbers and divide "
                                "where it is used: fraction(a, b) in a score"])
            return
        self.r.error("S103", f"{what} must be {kind.label}, found {describe(value)}", span)

    def walk(self, value, kind: Kind, span: Span, what: str) -> None:
        span = span_of(value, span)
        if isinstance(kind, Ref):
            target = NAMED_KINDS[kind.name]
            return self.walk(value, target, span, what)
        if isinstance(kind, OneOf):
            for option in kind.options:
                if fits(value, option):
                    return self.walk(value, option, span, what)
            return self.wrong(value, kind, span, what)
        if not fits(value, kind):
            return self.wrong(value, kind, span, what)
        if isinstance(kind, Choice):
            if str(value) not in kind.values:
                self.r.error("S105", f"{what} must be one of {', '.join(kind.values)}, found '{value}'", span)
        elif isinstance(kind, Name):
            self.name(value, span, what)
        elif isinstance(kind, ListOf):
            self.items(value, kind.item, what)
        elif isinstance(kind, Tuple):
            self.tuple(value, kind, span, what)
        elif isinstance(kind, MapOf):
            for k, v in value.items():
                if kind.keys is not None:
                    self.walk(k, kind.keys, _key_span(value, k), f"a key of {what}")
                self.walk(v, kind.value, _value_span(value, k, span), f"'{k}'")
        elif isinstance(kind, Record):
            self.record(value, kind, span)
        elif isinstance(kind, Keyworded):
            self.keyworded(value, kind, span)

    def name(self, value, span: Span, what: str):
        """A name is the only ruleset text that becomes an identifier in generated code."""
        problem = name_problem(value if isinstance(value, str) else str(value))
        if problem is None and not isinstance(value, str):
            problem = "a name cannot be a number"
        if problem is not None:
            self.r.error("N310", f"{shown_text(str(value))} is not a name ({what}): {problem}", span,
                         notes=[GRAMMAR])

    def items(self, value: list, kind: Kind, what: str):
        spans = getattr(value, "item_spans", None) or [span_of(value)] * len(value)
        for item, item_span in zip(value, spans):
            self.walk(item, kind, item_span, _singular(kind, what))

    def tuple(self, value: list, kind: Tuple, span: Span, what: str):
        if not len(kind.items) - kind.optional <= len(value) <= len(kind.items):
            return self.wrong(value, kind, span, what)
        spans = getattr(value, "item_spans", None) or [span] * len(value)
        for item, item_kind, item_span in zip(value, kind.items, spans):
            self.walk(item, item_kind, item_span, what)

    def unknown(self, node: dict, key, known, what: str):
        close = difflib.get_close_matches(str(key), sorted(known), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        self.r.error("S101", f"unknown key '{key}' in {what}{hint}", _key_span(node, key),
                     notes=[f"expected one of: {', '.join(sorted(known))}"], suggestions=close)

    def keys(self, node: dict, keys: tuple[Key, ...], extra: Kind | None, what: str, skip=()):
        known = {k.name: k for k in keys}
        for name, v in node.items():
            if name in skip:
                continue
            key = known.get(name)
            if key is not None:
                self.walk(v, key.kind, _value_span(node, name, node.span), f"'{name}' of {what}")
            elif extra is not None:
                self.walk(v, extra, _value_span(node, name, node.span), f"'{name}' of {what}")
            else:
                self.unknown(node, name, known, what)

    # -- mappings ----------------------------------------------------------
    def record(self, node: dict, kind: Record, span: Span):
        self.keys(node, kind.keys, kind.extra, kind.what)
        for key in kind.keys:
            if key.required and key.name not in node:
                self.r.error("S102", f"{kind.what} is missing the required key '{key.name}'", span)
        for names in kind.at_least_one:
            if not any(n in node for n in names):
                self.r.error("S102", f"{kind.what} needs one of: {', '.join(names)}", span)
        for given, needed in kind.needs:
            if given in node and needed not in node:
                self.r.error("S102", f"{kind.what} with '{given}' needs '{needed}'", span)
        self.exclusive(node, kind.at_most_one, kind.what, span)

    def exclusive(self, node: dict, groups, what: str, span: Span):
        for names in groups:
            if sum(n in node for n in names) > 1:
                self.r.error("S106", f"{what} takes only one of: {', '.join(names)}", span)

    def keyworded(self, node, kind: Keyworded, span: Span):
        if not isinstance(node, dict):
            return self.walk(node, kind.bare, span, kind.what)
        present = [k for k in node if k in kind.keywords]
        if len(present) != 1:
            message = (f"{kind.what} needs one of: {', '.join(sorted(kind.keywords))}" if not present else
                       f"{kind.what} has several kinds at once: {', '.join(present)}")
            self.r.error("S106", message, span, notes=[f"found keys: {', '.join(map(str, node))}"])
            return
        keyword = present[0]
        variant = kind.variant(keyword)
        what = f"a '{keyword}' {kind.what.split(' ', 1)[-1]}"
        beside = variant.modifiers + kind.common
        self.keys(node, beside, None, what, skip=(keyword,))
        head = node[keyword]
        given = set(node)
        head_span = _value_span(node, keyword, span)
        if variant.inline and isinstance(head, dict):
            self.keys(head, variant.modifiers + variant.inline, None, what)
            given |= set(head)
        else:
            self.walk(head, variant.head, head_span, f"'{keyword}'")
        for key in variant.modifiers:
            if key.required and key.name not in given:
                self.r.error("S102", f"{what} needs '{key.name}'", span)
        self.exclusive(node, variant.at_most_one, what, span)


def _takes_option_values(kind: Kind) -> bool:
    """Whether a plain value of an option was expected here (a fraction is S125 there)."""
    if isinstance(kind, OneOf):
        return any(_takes_option_values(k) for k in kind.options)
    return isinstance(kind, OptionScalar)


def _singular(kind: Kind, what: str) -> str:
    if isinstance(kind, Ref):
        kind = NAMED_KINDS[kind.name]
    if isinstance(kind, (Record, Keyworded)):
        return kind.what
    return f"an element of {what}"


def _key_span(node, key) -> Span | None:
    return node.key_spans.get(key) if isinstance(node, LDict) else span_of(node)


def _value_span(node, key, default: Span | None) -> Span | None:
    if isinstance(node, LDict):
        return node.value_spans.get(key, default)
    return default


__all__ = ["check_sections", "check_value", "describe", "fits"]
