"""The syntax tree of expressions.

Nodes are frozen so a parsed expression can be shared by the checker, both
evaluators and the static passes without anyone changing it under the others.
Every node keeps the span of the source text it came from, in file
coordinates, so any later stage can point at it.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Iterator

from .source import Span


class Node:
    """Base of every syntax node; lets walkers tell nodes from plain data."""

    span: Span


class Expr(Node):
    pass


@dataclass(frozen=True, slots=True)
class Const(Expr):
    value: Any  # int, bool, str or None
    span: Span


@dataclass(frozen=True, slots=True)
class Name(Expr):
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class ListLit(Expr):
    items: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class MapLit(Expr):
    entries: tuple[tuple[Expr, Expr], ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Unary(Expr):
    op: str  # "-" or "not"
    operand: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class Binary(Expr):
    op: str  # + - * // % ** == != < <= > >= in "not in"
    left: Expr
    right: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class BoolOp(Expr):
    op: str  # "and" or "or"; kept apart from Binary because it short-circuits
    left: Expr
    right: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class Cond(Expr):
    """`then if test else orelse`."""

    test: Expr
    then: Expr
    orelse: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class Index(Expr):
    obj: Expr
    index: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class Slice(Expr):
    """`obj[start:stop:step]`; a part left out is None."""

    obj: Expr
    start: Expr | None
    stop: Expr | None
    step: Expr | None
    span: Span


@dataclass(frozen=True, slots=True)
class Member(Expr):
    obj: Expr
    name: str
    span: Span
    name_span: Span


@dataclass(frozen=True, slots=True)
class Call(Expr):
    func: str
    args: tuple[Expr, ...]
    span: Span
    func_span: Span


@dataclass(frozen=True, slots=True)
class Lambda(Expr):
    param: str
    body: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class Let(Expr):
    """`let name = value in body`: `name` is bound to `value` inside `body` only."""

    name: str
    value: Expr
    body: Expr
    span: Span
    name_span: Span


@dataclass(frozen=True, slots=True)
class For(Node):
    """One `for a, b in xs` clause of a comprehension."""

    names: tuple[str, ...]
    iter: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class If(Node):
    cond: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class ListComp(Expr):
    element: Expr
    clauses: tuple[For | If, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class MapComp(Expr):
    key: Expr
    value: Expr
    clauses: tuple[For | If, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Generator(Expr):
    """`f(e for x in xs)`: only ever the sole argument of a call."""

    element: Expr
    clauses: tuple[For | If, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Assign(Node):
    target: Expr
    op: str  # = += -= *=
    value: Expr
    span: Span


def binds(node: Node) -> tuple[str, ...]:
    """The names `node` binds for some of its children: a comprehension clause's, a
    lambda's parameter, a let's name (walkers that track bound names ask this)."""
    if isinstance(node, For):
        return node.names
    if isinstance(node, Lambda):
        return (node.param,)
    if isinstance(node, Let):
        return (node.name,)
    return ()


def iter_children(node: Node) -> Iterator[Node]:
    """Direct sub-nodes in source order, found through the dataclass fields so
    that a new node kind needs no walker change."""
    for f in dataclasses.fields(node):
        if f.name.endswith("span"):
            continue
        yield from _nodes_in(getattr(node, f.name))


def _nodes_in(value) -> Iterator[Node]:
    if isinstance(value, Node):
        yield value
    elif isinstance(value, tuple):
        for v in value:
            yield from _nodes_in(v)


def walk(node: Node) -> Iterator[Node]:
    """Every node of the tree, parents before children."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(list(iter_children(n))))


def names_read(expr: Node) -> set[str]:
    """Free names: those the surrounding scope must provide."""
    out: set[str] = set()
    _free(expr, frozenset(), out)
    return out


def _free(node: Node, bound: frozenset, out: set) -> None:
    if isinstance(node, Name):
        if node.name not in bound:
            out.add(node.name)
        return
    for child, inner in scoped_children(node, bound):
        _free(child, inner, out)


def scoped_children(node: Node, bound: frozenset) -> Iterator[tuple[Node, frozenset]]:
    """(child, the names bound where it is read) for each direct sub-node: a lambda's
    parameter, a `let`'s name and a comprehension's loop names are bound in what follows
    them, so a walk that must tell a local from a declared name (a zone, a variable)
    passes them down."""
    if isinstance(node, Lambda):
        yield node.body, bound | {node.param}
    elif isinstance(node, Let):
        yield node.value, bound
        yield node.body, bound | {node.name}
    elif isinstance(node, (ListComp, MapComp, Generator)):
        inner = bound
        for clause in node.clauses:
            if isinstance(clause, For):
                yield clause.iter, inner
                inner = inner | set(clause.names)
            else:
                yield clause.cond, inner
        for head in ((node.key, node.value) if isinstance(node, MapComp) else (node.element,)):
            yield head, inner
    else:
        for child in iter_children(node):
            yield child, bound


def functions_called(expr: Node) -> set[str]:
    return {n.func for n in walk(expr) if isinstance(n, Call)}
