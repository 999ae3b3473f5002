"""The only exceptions an expression may raise while it is evaluated.

A rule that fails at run time must be reported against the text the author
wrote, never as a Python traceback, so every failure is turned into one of
these with a code and, where known, the span of the failing sub-expression.
"""
from __future__ import annotations

from .source import Span


class EvalError(Exception):
    """An expression could not be evaluated (code R701 and friends).

    `span` may be None when the failure was raised far from any syntax (a
    library function, the cost counter); the nearest enclosing call fills it.
    """

    def __init__(self, code: str, message: str, span: Span | None = None):
        super().__init__(f"{span}: {code}: {message}" if span else f"{code}: {message}")
        self.code = code
        self.message = message
        self.span = span

    def __str__(self) -> str:
        return f"{self.span}: {self.code}: {self.message}" if self.span else f"{self.code}: {self.message}"


class EvalLimitError(EvalError):
    """A cost or size limit was exceeded (R702): the rules, not the player, are at fault."""

    def __init__(self, code: str = "R702", message: str = "evaluation limit exceeded",
                 span: Span | None = None):
        super().__init__(code, message, span)
