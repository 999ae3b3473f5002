"""The grammar of names: what a ruleset may call its variables, zones, actions,
parameters, phases, labels and every other thing it declares.

A name is the expression language's NAME (grammar.lark): an ASCII letter or `_`,
then letters, digits and `_`, at most MAX_NAME_LENGTH characters, and not one of
the expression language's keywords (a declared `for` could never be read).  Names
are the one kind of ruleset text that the compiled back end turns into Python
identifiers, so this grammar is what keeps a ruleset's text out of the code: the
shape pass refuses any other declared name (N310), and the code generator's
mangling (interpreter/codegen/safe_source.py) takes nothing else.  Display texts
(titles, labels, reasons, descriptions) stay free text and never become code.
"""
from __future__ import annotations

import re

NAME_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # grammar.lark's NAME, ASCII only
MAX_NAME_LENGTH = 64
KEYWORDS = frozenset({"and", "or", "not", "in", "if", "else", "for", "let", "true", "false", "none"})
GRAMMAR = ("a name is an ASCII letter or '_' followed by letters, digits and '_' "
           f"(at most {MAX_NAME_LENGTH} characters), and not a keyword of expressions")


def is_name(text) -> bool:
    return name_problem(text) is None


def name_problem(text) -> str | None:
    """Why `text` is not a name (for a diagnostic), or None when it is one."""
    if not isinstance(text, str):
        return "a name is a text"
    if not text:
        return "a name cannot be empty"
    bad = next((c for c in text if not (c.isascii() and (c.isalnum() or c == "_"))), None)
    if bad is not None:
        return f"it holds {shown_char(bad)}, which a name cannot hold"
    if NAME_PATTERN.fullmatch(text) is None:
        return "a name cannot start with a digit"
    if text in KEYWORDS:
        return f"'{text}' is a keyword of expressions"
    if len(text) > MAX_NAME_LENGTH:
        return f"a name has at most {MAX_NAME_LENGTH} characters, this one has {len(text):,}"
    return None


def shown_char(c: str) -> str:
    """A character as a diagnostic can print it: a control or non-ASCII one by its code."""
    if c.isascii() and c.isprintable() and c != " ":
        return repr(c)  # "'" for a quote
    return f"U+{ord(c):04X}" + (" (a space)" if c == " " else "")


def shown_text(text, limit: int = 40) -> str:
    """A text as a diagnostic can quote it: one line, control characters escaped, shortened."""
    if not isinstance(text, str):
        return repr(text)
    quoted = text.encode("unicode_escape").decode("ascii")
    return f"'{quoted[:limit]}…'" if len(quoted) > limit else f"'{quoted}'"
