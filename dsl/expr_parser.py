"""Text to syntax tree, with errors that point into the author's YAML file.

Expressions live inside YAML strings, so a character offset in the expression
is not a file column: the string's `TextOrigin` maps one to the other.  Every
node span and every syntax error goes through that mapping, so a caret lands
on the right character of the file even inside quoted or block scalars.
"""
from __future__ import annotations

import re
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken, VisitError

from . import expr_ast as A
from .diagnostics import Diagnostic
from .source import Span, TextOrigin

INT_LIMIT = 10**18
MAX_DEPTH = 150  # parse-tree levels; far beyond any rule, far below Python's recursion limit


class ExprSyntaxError(Exception):
    """The text is not an expression; `.diagnostic` says where and why."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


_parser: Lark | None = None


def _get_parser() -> Lark:
    global _parser
    if _parser is None:
        grammar = (Path(__file__).parent / "grammar.lark").read_text(encoding="utf-8")
        _parser = Lark(grammar, parser="lalr", lexer="basic", start=["expression", "target", "assignment"],
                       propagate_positions=True, maybe_placeholders=True)
    return _parser


def parse_expression(text: str, origin: TextOrigin | None = None, file: str = "<expr>") -> A.Expr:
    return _parse(text, origin, file, "expression")


def parse_target(text: str, origin: TextOrigin | None = None, file: str = "<expr>") -> A.Expr:
    """A place that can be assigned: a name followed by `[key]` and `.field` steps."""
    return _parse(text, origin, file, "target")


def parse_assignment(text: str, origin: TextOrigin | None = None, file: str = "<expr>") -> A.Assign:
    return _parse(text, origin, file, "assignment")


def _parse(text: str, origin: TextOrigin | None, file: str, start: str):
    text = str(text)
    if origin is None:
        origin = TextOrigin(file, tuple((i + 1, 1) for i in range(text.count("\n") + 1)))
    where = _Where(text, origin)
    try:
        tree = _get_parser().parse(text, start=start)
        if _too_deep(tree):
            raise ExprSyntaxError(where.diag("X201", f"expression is nested more than {MAX_DEPTH} "
                                             "levels deep", 0, len(text)))
        return _Builder(where).transform(tree)
    except UnexpectedToken as exc:
        raise ExprSyntaxError(_token_error(exc, where)) from None
    except UnexpectedCharacters as exc:
        raise ExprSyntaxError(_char_error(exc, where)) from None
    except UnexpectedEOF:
        raise ExprSyntaxError(_end_error(where, {"NAME", "INT"})) from None
    except VisitError as exc:
        if isinstance(exc.orig_exc, ExprSyntaxError):
            raise exc.orig_exc from None
        if isinstance(exc.orig_exc, RecursionError):
            raise ExprSyntaxError(where.diag("X201", "expression is nested too deeply", 0, len(text))) from None
        raise
    except RecursionError:
        raise ExprSyntaxError(where.diag("X201", "expression is nested too deeply", 0, len(text))) from None


def _too_deep(tree) -> bool:
    """Later stages recurse over the tree; refuse depths that would exhaust Python's stack."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        stack.extend((c, depth + 1) for c in getattr(node, "children", ()) if c is not None)
    return False


class _Where:
    """Offsets in the expression text to spans in the file."""

    def __init__(self, text: str, origin: TextOrigin):
        self.text, self.origin = text, origin

    def span(self, start: int, end: int) -> Span:
        return self.origin.span(self.text, start, end)

    def diag(self, code: str, message: str, start: int, end: int, notes=()) -> Diagnostic:
        return Diagnostic(code, message, self.span(start, end), notes=tuple(notes))


# -- friendly error messages ---------------------------------------------------

_STARTERS = {"NAME", "INT", "STRING", "LPAR", "LSQB", "LBRACE", "MINUS", "NOT", "TRUE", "FALSE", "NONE", "LET"}
_COMPARISONS = {"==", "!=", "<", "<=", ">", ">=", "in"}
_OPERATORS = {"+", "-", "*", "//", "%", "**", "and", "or", "not", "if", "[", ".", "("} | _COMPARISONS
_WORDS = {"NAME": "a name", "INT": "a number", "STRING": "a string", "$END": "the end of the expression"}
_PYTHON_ONLY = {
    "lambda": "functions are written `x => expression`, only as arguments of filter, sort, ...",
    "import": "expressions cannot import anything",
    "is": "compare with '==' or '!='",
    "True": "booleans are written in lowercase: true, false",
    "False": "booleans are written in lowercase: true, false",
    "None": "the empty value is written none",
}


def _literal(name: str) -> str | None:
    for t in _get_parser().terminals:
        if t.name == name and t.pattern.type == "str":
            return t.pattern.value
    return None


def _expected_words(names) -> str:
    names = set(names)
    parts = []
    if {"NAME", "INT"} <= names:
        parts.append("an expression")
        names -= _STARTERS
    literals = {n: _literal(n) for n in names}
    ops = {n for n, lit in literals.items() if lit in _OPERATORS}
    if len(ops) >= 3:
        parts.append("an operator")
        names -= ops
    rest = sorted(_WORDS.get(n) or f"'{literals.get(n) or n}'" for n in names)
    rest = [r for r in rest if r != _WORDS["$END"]] + [r for r in rest if r == _WORDS["$END"]]
    parts += rest
    if not parts:
        return "something else"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def _end_error(where: _Where, expected) -> Diagnostic:
    end = len(where.text.rstrip())
    return where.diag("X202", f"unexpected end of input: expected {_expected_words(expected)}",
                      end, end + 1)


def _acceptable(exc: UnexpectedToken) -> set[str]:
    """The tokens that could really come next.

    LALR merges lookaheads of states shared by the three entry points, so
    `exc.expected` lists tokens that are never valid here; the interactive
    parser tries each one.
    """
    try:
        return set(exc.interactive_parser.accepts()) or set(exc.expected)
    except Exception:  # noqa: BLE001 - a worse message is better than no message
        return set(exc.expected)


def _token_error(exc: UnexpectedToken, where: _Where) -> Diagnostic:
    tok = exc.token
    expected = _acceptable(exc)
    if tok.type == "$END":
        return _end_error(where, expected)
    notes = []
    value = str(tok)
    previous = [str(t) for t in (getattr(exc, "token_history", None) or [])]
    if (value in _COMPARISONS or value == "not") and "PLUS" in expected:
        if not any(_literal(n) in _COMPARISONS for n in expected):
            notes.append("comparisons do not chain: write `a < b and b < c`")
    if value == "=":
        notes.append("'=' only assigns; compare with '=='")
    if _in_let_value(where.text[:tok.start_pos], expected) and value in _COMPARISONS | {"and", "or", "not", "if"}:
        notes.append("a let's value is an arithmetic expression: put a comparison, and/or/not or "
                     "if ... else in parentheses, as in let ok = (x > 2) in ...")
    if tok.type == "INT" and previous and previous[-1] == ".":
        notes.append("there are no fractional numbers; use // or ceil_div")
    for word in [value] + previous[-1:]:
        if word in _PYTHON_ONLY:
            notes.append(f"'{word}' is not part of the language: {_PYTHON_ONLY[word]}")
    message = f"expected {_expected_words(expected)}, found '{value}'"
    return where.diag("X201", message, tok.start_pos, tok.end_pos, notes)


def _in_let_value(before: str, expected) -> bool:
    """Does the error come right after a let's value, where `in` was awaited (and no
    comparison, as after a comprehension's `for x`)?"""
    return "IN" in expected and "COMMA" not in expected and re.search(r"\blet\b", before) is not None


def _char_error(exc: UnexpectedCharacters, where: _Where) -> Diagnostic:
    pos = exc.pos_in_stream
    ch = where.text[pos]
    if ch in "'\"":
        return where.diag("X201", "unterminated string", pos, pos + 1,
                          ["a string ends with the quote it started with, on the same line"])
    notes = []
    if ch == "#":
        notes.append("there are no comments inside expressions")
    elif ch in "&|!^~@":
        notes.append("write the operators as words: and, or, not")
    return where.diag("X201", f"unexpected character '{ch}'", pos, pos + 1, notes)


# -- tree to AST -----------------------------------------------------------------

_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"'}
_BINARY = {"add": "+", "sub": "-", "mul": "*", "floordiv": "//", "mod": "%", "pow": "**", "eq": "==", "ne": "!=",
           "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "in_": "in", "not_in": "not in"}


@v_args(meta=True)
class _Builder(Transformer):
    def __init__(self, where: _Where):
        super().__init__()
        self.where = where

    def _span(self, meta) -> Span:
        return self.where.span(meta.start_pos, meta.end_pos)

    def _tok_span(self, tok: Token) -> Span:
        return self.where.span(tok.start_pos, tok.end_pos)

    def _error(self, code, message, start, end, notes=()):
        raise ExprSyntaxError(self.where.diag(code, message, start, end, notes))

    # entry points
    def expression(self, meta, c):
        return c[0]

    def target(self, meta, c):
        _check_target(c[0], self.where)
        return c[0]

    def assignment(self, meta, c):
        _check_target(c[0], self.where)
        return A.Assign(c[0], c[1], c[2], self._span(meta))

    def assign_op(self, meta, c):
        return str(c[0])

    # operators
    def cond(self, meta, c):
        return A.Cond(c[1], c[0], c[2], self._span(meta))

    def lambda_(self, meta, c):
        return A.Lambda(str(c[0]), c[1], self._span(meta))

    def let_(self, meta, c):
        return A.Let(str(c[0]), c[1], c[2], self._span(meta), self._tok_span(c[0]))

    def or_(self, meta, c):
        return A.BoolOp("or", c[0], c[1], self._span(meta))

    def and_(self, meta, c):
        return A.BoolOp("and", c[0], c[1], self._span(meta))

    def not_(self, meta, c):
        return A.Unary("not", c[0], self._span(meta))

    def neg(self, meta, c):
        return A.Unary("-", c[0], self._span(meta))

    def __default__(self, data, children, meta):
        if data in _BINARY:
            return A.Binary(_BINARY[data], children[0], children[1], self._span(meta))
        raise AssertionError(f"grammar rule without a builder: {data}")

    # postfix
    def index(self, meta, c):
        return A.Index(c[0], c[1], self._span(meta))

    def slice(self, meta, c):
        obj, start, stop, step = (list(c) + [None] * 4)[:4]
        return A.Slice(obj, start, stop, step, self._span(meta))

    def member(self, meta, c):
        return A.Member(c[0], str(c[1]), self._span(meta), self._tok_span(c[1]))

    def call(self, meta, c):
        callee, args = c
        if not isinstance(callee, A.Name):
            start = meta.start_pos
            self._error("X201", "only library functions can be called, as in len(xs); "
                        "values have no methods", start, meta.end_pos)
        return A.Call(callee.name, tuple(args or ()), self._span(meta), callee.span)

    def args(self, meta, c):
        return tuple(x for x in c if x is not None)

    def generator(self, meta, c):
        return (A.Generator(c[0], c[1], self._span(meta)),)

    # atoms
    def name(self, meta, c):
        return A.Name(str(c[0]), self._span(meta))

    def int(self, meta, c):
        value = int(str(c[0]))
        if value > INT_LIMIT:
            self._error("X201", "integer literal is too large (the limit is 10**18)",
                        c[0].start_pos, c[0].end_pos)
        return A.Const(value, self._span(meta))

    def string(self, meta, c):
        tok = c[0]
        raw = str(tok)[1:-1]
        out, i = [], 0
        while i < len(raw):
            ch = raw[i]
            if ch == "\\":
                nxt = raw[i + 1]
                if nxt not in _ESCAPES:
                    at = tok.start_pos + 1 + i
                    self._error("X201", f"unknown escape '\\{nxt}'", at, at + 2,
                                ["known escapes: \\n \\t \\\\ \\' \\\""])
                out.append(_ESCAPES[nxt])
                i += 2
            else:
                out.append(ch)
                i += 1
        return A.Const("".join(out), self._span(meta))

    def true(self, meta, c):
        return A.Const(True, self._span(meta))

    def false(self, meta, c):
        return A.Const(False, self._span(meta))

    def none(self, meta, c):
        return A.Const(None, self._span(meta))

    def list(self, meta, c):
        return A.ListLit(tuple(x for x in c if x is not None), self._span(meta))

    def listcomp(self, meta, c):
        return A.ListComp(c[0], c[1], self._span(meta))

    def map(self, meta, c):
        return A.MapLit(tuple(x for x in c if x is not None), self._span(meta))

    def mapcomp(self, meta, c):
        return A.MapComp(c[0], c[1], c[2], self._span(meta))

    # `{a, b}` and `{e for x in xs}` are written as `set([a, b])` and `set([e for x in xs])`:
    # one construct, one set of rules, on every evaluation path.
    def set_(self, meta, c):
        span = self._span(meta)
        return A.Call("set", (A.ListLit(tuple(x for x in c if x is not None), span),), span, span)

    def setcomp(self, meta, c):
        span = self._span(meta)
        return A.Call("set", (A.ListComp(c[0], c[1], span),), span, span)

    def pair(self, meta, c):
        return (c[0], c[1])

    def comp_clauses(self, meta, c):
        return tuple(c)

    def comp_for(self, meta, c):
        names = tuple(str(t) for t in c[:-1])
        if len(set(names)) != len(names):
            self._error("X201", "a name is bound twice in one 'for'", meta.start_pos, meta.end_pos)
        return A.For(names, c[-1], self._span(meta))

    def comp_if(self, meta, c):
        return A.If(c[0], self._span(meta))


def _check_target(node: A.Expr, where: _Where) -> None:
    """Only a name followed by `[key]` and `.field` steps names a place to write."""
    while True:
        if isinstance(node, A.Name):
            return
        if isinstance(node, (A.Index, A.Member)):
            node = node.obj
            continue
        raise ExprSyntaxError(Diagnostic(
            "X203", "this cannot be assigned to: write a name, optionally followed by "
            "[key] or .field steps", node.span))
