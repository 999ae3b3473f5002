"""Small readers shared by the builders: each takes a located YAML value, returns
the Python value or None, and records a diagnostic instead of raising."""
from __future__ import annotations

import difflib

from .diagnostics import Diagnostic
from .expr_parser import ExprSyntaxError, parse_assignment, parse_expression, parse_target
from .schema.shape import describe
from .source import LDict, LList, LStr, Span, TextOrigin, span_of

# What the shape pass (dsl/schema) reports for a whole ruleset: unknown and missing
# keys, wrong kinds (a fraction in an option: S125), values outside their choices, effects and
# steps without one keyword.
SHAPE_CODES = frozenset({"S101", "S102", "S103", "S105", "S106", "S125"})


class Reader:
    """Collects diagnostics, each problem once (same code at the same place).

    When the shape pass has checked the whole ruleset (`shape_checked`), the
    builders' own reports of shape problems are dropped: the pass has reported
    them already, at the exact key or value.  A builder check the schema cannot
    express says so with `beyond_schema=True`.  Scenario files are not shape
    checked, so there the builders' reports stand."""

    def __init__(self, file: str):
        self.file = file
        self.diagnostics: list[Diagnostic] = []
        self.shape_checked = False
        self.options: dict = {}  # the game's OptionDecls (build_game): a grid's size may read them
        self.players: tuple[int, int] = (1, 1)  # the fewest and most players (build_game): a generate may read them
        self._reported: set[tuple] = set()

    # -- reporting ---------------------------------------------------------
    def error(self, code: str, message: str, span: Span | None, notes=(), rule=None, beyond_schema=False,
              suggestions=()):
        if self.shape_checked and code in SHAPE_CODES and not beyond_schema:
            return
        span = span or Span.unknown(self.file)
        where = (code, span.file, span.line, span.col)
        if where in self._reported:
            return
        self._reported.add(where)
        self.diagnostics.append(Diagnostic(code, message, span, notes=tuple(notes), rule=rule,
                                           suggestions=tuple(suggestions)))

    def warn(self, code: str, message: str, span: Span | None):
        self.diagnostics.append(
            Diagnostic(code, message, span or Span.unknown(self.file), severity="warning")
        )

    # -- structure ---------------------------------------------------------
    def mapping(self, value, what: str, allowed: set[str] | tuple = (), required=(), parent_span=None):
        """Check a mapping's keys; unknown and missing keys are reported, not fatal."""
        if not isinstance(value, dict):
            self.error("S103", f"{what} must be a mapping, found {describe(value)}",
                       span_of(value, parent_span))
            return None
        allowed = set(allowed) | set(required)
        if allowed:
            for key in value:
                if key not in allowed:
                    close = difflib.get_close_matches(str(key), sorted(allowed), n=1)
                    hint = f"; did you mean '{close[0]}'?" if close else ""
                    self.error("S101", f"unknown key '{key}' in {what}{hint}",
                               value.key_spans.get(key) if isinstance(value, LDict) else None,
                               notes=[f"expected one of: {', '.join(sorted(allowed))}"], suggestions=close)
        for key in required:
            if key not in value:
                self.error("S102", f"{what} is missing the required key '{key}'",
                           span_of(value, parent_span))
        return value

    def sequence(self, value, what: str, parent_span=None):
        if value is None:
            return []
        if not isinstance(value, list):
            self.error("S103", f"{what} must be a list, found {describe(value)}",
                       span_of(value, parent_span))
            return []
        return value

    def string(self, value, what: str, parent_span=None, choices=None):
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            self.error("S103", f"{what} must be a text, found {describe(value)}", span_of(value, parent_span))
            return None
        text = str(value)
        if choices and text not in choices:
            self.error("S105", f"{what} must be one of {', '.join(choices)}, found '{text}'",
                       span_of(value, parent_span))
            return None
        return text

    def integer(self, value, what: str, parent_span=None):
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.error("S103", f"{what} must be an integer, found {describe(value)}",
                       span_of(value, parent_span))
            return None
        return int(value)

    def boolean(self, value, what: str, parent_span=None, default=False):
        if value is None:
            return default
        if not isinstance(value, bool):
            self.error("S103", f"{what} must be true or false, found {describe(value)}",
                       span_of(value, parent_span))
            return default
        return value

    # -- expressions -------------------------------------------------------
    def _source(self, value, what, parent_span):
        """Expressions may be written as YAML numbers/booleans too."""
        if value is None:
            return None, None
        if isinstance(value, bool):
            return ("true" if value else "false"), _literal_origin(value, parent_span, self.file)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value), _literal_origin(value, parent_span, self.file)
        if isinstance(value, LStr):
            return str(value), value.origin
        if isinstance(value, str):
            return value, _literal_origin(value, parent_span, self.file)
        if isinstance(value, list):
            # A YAML list of literals is a list literal.
            parts = [self._source(v, what, parent_span)[0] for v in value]
            if all(p is not None for p in parts):
                return "[" + ", ".join(_quote_if_text(v, p) for v, p in zip(value, parts)) + "]", \
                    _literal_origin(value, parent_span, self.file)
        self.error("S103", f"{what} must be an expression, found {describe(value)}",
                   span_of(value, parent_span))
        return None, None

    def expr(self, value, what: str, parent_span=None):
        text, origin = self._source(value, what, parent_span)
        if text is None:
            return None
        try:
            return parse_expression(text, origin, file=self.file)
        except ExprSyntaxError as exc:
            self.diagnostics.append(exc.diagnostic)
            return None

    def target(self, value, what: str, parent_span=None):
        text, origin = self._source(value, what, parent_span)
        if text is None:
            return None
        try:
            return parse_target(text, origin, file=self.file)
        except ExprSyntaxError as exc:
            self.diagnostics.append(exc.diagnostic)
            return None

    def assignment(self, value, what: str, parent_span=None):
        text, origin = self._source(value, what, parent_span)
        if text is None:
            return None
        try:
            return parse_assignment(text, origin, file=self.file)
        except ExprSyntaxError as exc:
            self.diagnostics.append(exc.diagnostic)
            return None


def _quote_if_text(value, text):
    if isinstance(value, str):
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return text


def _literal_origin(value, parent_span, file):
    span = span_of(value, parent_span) or Span.unknown(file)
    return TextOrigin(span.file, ((span.line, span.col),))


def single_key(reader: Reader, value, what: str, known: set[str], extra: set[str] = frozenset()):
    """Effects and flow nodes are mappings with one keyword key plus modifiers."""
    if isinstance(value, str):
        return value, None
    if not isinstance(value, dict) or not value:
        reader.error("S103", f"{what} must be a mapping such as {{{sorted(known)[0]}: ...}}, "
                     f"found {describe(value)}", span_of(value))
        return None, None
    keys = [k for k in value if k in known]
    if len(keys) != 1:
        span = value.span if isinstance(value, LDict) else None
        if not keys:
            reader.error("S106", f"{what} needs one of: {', '.join(sorted(known))}", span,
                         notes=[f"found keys: {', '.join(map(str, value))}"])
        else:
            reader.error("S106", f"{what} has several kinds at once: {', '.join(keys)}", span)
        return None, None
    kind = keys[0]
    for key in value:
        if key != kind and key not in extra:
            reader.error("S101", f"unknown key '{key}' in a '{kind}' {what}",
                         value.key_spans.get(key) if isinstance(value, LDict) else None,
                         notes=[f"expected: {kind}" + (", " + ", ".join(sorted(extra)) if extra else "")])
    return kind, value


__all__ = ["Reader", "single_key", "describe", "LDict", "LList"]
