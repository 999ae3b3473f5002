"""Name resolution for expressions: the contract between the expression
compiler and whoever declares names (the ruleset compiler, the interpreter).

The expression compiler never knows how state is stored.  Each name it may
read is a `Symbol` whose `read(ctx)` fetches the value at run time; the
compiled closure just calls it.  Names bound inside an expression
(comprehension variables) and names bound by the runtime (action parameters,
loop variables, `player`) are read from `ctx.bindings`.

The runtime context (`ctx`) offers:
  ctx.bindings       dict[str, value]  -- parameters, loop and comprehension vars
  ctx.game           .boards: dict[str, networkx.Graph]
                     .items: dict[str, Item]; .items_of(kind) -> tuple[Item, ...]
                     .item_kinds: dict[kind, {field: Type}]
  ctx.player_count   int
  ctx.item_prop(item, name) -> value     a mutable property of an item
  ctx.charge(n)      adds n to the evaluation cost; raises EvalLimitError past the limit
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .source import Span
from .types import ANY, Type


@dataclass
class Symbol:
    name: str
    type: Type
    read: Callable[[Any], Any]
    kind: str = "value"  # var | player_var | zone | player_zone | local | param | const | binding
    span: Span | None = None
    # For names the static passes want to know more about (e.g. which state a trigger reads).
    meta: dict = field(default_factory=dict)


def binding_reader(name: str) -> Callable[[Any], Any]:
    def read(ctx):
        return ctx.bindings[name]

    read.__name__ = f"read_binding_{name}"
    return read


class Scope:
    """A chain of symbol tables; the innermost binding of a name wins."""

    def __init__(self, symbols: dict[str, Symbol] | None = None, parent: "Scope | None" = None,
                 item_kinds: dict[str, dict[str, Type]] | None = None,
                 item_props: dict[str, dict[str, Type]] | None = None,
                 boards: frozenset[str] | None = None):
        self.symbols = dict(symbols or {})
        self.parent = parent
        # The board names the ruleset declares; None where they are not known (tests).
        self.boards = boards if boards is not None else (parent.boards if parent else None)
        # Likewise the action names, for `has_move(p, ['slide'])` (N312).
        self.actions = parent.actions if parent else None
        self.item_kinds = item_kinds if item_kinds is not None else (parent.item_kinds if parent else {})
        self.item_props = item_props if item_props is not None else (parent.item_props if parent else {})

    def lookup(self, name: str) -> Symbol | None:
        scope = self
        while scope is not None:
            sym = scope.symbols.get(name)
            if sym is not None:
                return sym
            scope = scope.parent
        return None

    def names(self) -> set[str]:
        out = set()
        scope = self
        while scope is not None:
            out.update(scope.symbols)
            scope = scope.parent
        return out

    def bind(self, types: dict[str, Type], kind: str = "binding") -> "Scope":
        """A child scope where the given names are read from ctx.bindings."""
        return Scope({n: Symbol(n, t or ANY, binding_reader(n), kind) for n, t in types.items()},
                     parent=self)
