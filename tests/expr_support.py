"""A tiny stand-in for the interpreter's context, so expression tests need no game.

It offers exactly the protocol documented in dsl/scope.py: bindings, a game
with boards and items, a player count, mutable item properties and a cost
counter with a limit.
"""
from __future__ import annotations

from types import MappingProxyType, SimpleNamespace

import networkx as nx

from meeple.dsl.compile_expr import compile_expr
from meeple.dsl.eval_errors import EvalError, EvalLimitError
from meeple.dsl.evaluate import evaluate
from meeple.dsl.expr_parser import parse_expression
from meeple.dsl.scope import Scope, Symbol, binding_reader
from meeple.dsl.types import ANY, BOOL, INT, NONE, STR, Type, item_of, list_of, map_of
from meeple.dsl.values import Item


def make_item(id_, kind, **fields):
    return Item(id_, kind, MappingProxyType(fields))


CARDS = (make_item("c1", "card", value=3, suit="red"),
         make_item("c2", "card", value=5, suit="blue"),
         make_item("c3", "card", value=5, suit="red"))
TILES = (make_item("t1", "tile", shape="L"),)
ITEM_KINDS = {"card": {"value": INT, "suit": STR}, "tile": {"shape": STR}}
ITEM_PROPS = {"card": {"load": INT, "face": STR}}


def grid(rows: int, cols: int) -> nx.Graph:
    """A rows x cols grid of nodes 'r<row>c<col>' with row/col attributes."""
    g = nx.Graph()
    for r in range(rows):
        for c in range(cols):
            g.add_node(f"r{r}c{c}", row=r, col=c, colour="dark" if (r + c) % 2 else "light")
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                g.add_edge(f"r{r}c{c}", f"r{r}c{c + 1}", cost=1)
            if r + 1 < rows:
                g.add_edge(f"r{r}c{c}", f"r{r + 1}c{c}", cost=2)
    return g


def track() -> nx.DiGraph:
    """A one-way loop a -> b -> c -> a, plus an island d."""
    g = nx.DiGraph()
    g.add_nodes_from(["a", "b", "c", "d"])
    g.add_edges_from([("a", "b"), ("b", "c"), ("c", "a")])
    return g


MOVES_PLAYED = 7  # the moves the stand-in's game has seen (move_count())


class FakeGame:
    def __init__(self):
        self.boards = {"grid": grid(3, 3), "track": track()}
        self.items = {i.id: i for i in CARDS + TILES}
        self.item_kinds = ITEM_KINDS

    def items_of(self, kind):
        return tuple(i for i in self.items.values() if i.kind == kind)


class FakeCtx:
    def __init__(self, bindings=None, player_count=3, limit=1_000_000):
        self.bindings = dict(bindings or {})
        self.game = FakeGame()
        self.player_count = player_count
        self.props = {"c1": {"load": 2}}
        self.state = SimpleNamespace(move_count=MOVES_PLAYED)  # what move_count() reads
        self.cost = 0
        self.limit = limit

    def item_prop(self, item, name):
        if name not in ITEM_PROPS.get(item.kind, {}):
            raise KeyError(name)
        return self.props.get(item.id, {}).get(name, 0)

    def charge(self, n=1):
        self.cost += n
        if self.cost > self.limit:
            raise EvalLimitError("R702", "cost limit exceeded", None)


def type_of(value) -> Type:
    """The most precise static type of a Python value, for typed test scopes."""
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, str):
        return STR
    if value is None:
        return NONE
    if isinstance(value, Item):
        return item_of(value.kind)
    if isinstance(value, (list, tuple)):
        kinds = {type_of(v) for v in value}
        return list_of(kinds.pop() if len(kinds) == 1 else ANY)
    if isinstance(value, dict):
        ks, vs = {type_of(k) for k in value}, {type_of(v) for v in value.values()}
        return map_of(ks.pop() if len(ks) == 1 else ANY, vs.pop() if len(vs) == 1 else ANY)
    return ANY


def to_value(v):
    """YAML data to language values: lists become tuples, '@id' strings become items."""
    if isinstance(v, list):
        return tuple(to_value(x) for x in v)
    if isinstance(v, dict):
        return {k: to_value(x) for k, x in v.items()}
    if isinstance(v, str) and v.startswith("@"):
        return FakeGame().items[v[1:]]
    return v


def scope_for(bindings: dict, typed: bool = True) -> Scope:
    symbols = {n: Symbol(n, type_of(v) if typed else ANY, binding_reader(n), "binding")
               for n, v in bindings.items()}
    symbols["limit"] = Symbol("limit", INT, lambda ctx: 10, "const")
    # A function the ruleset defines: the interpreter's convention is a reader
    # that yields call(ctx, *args).
    symbols["twice"] = Symbol("twice", ANY, lambda ctx: _twice, "function", meta={"params": ["n"]})
    return Scope(symbols, item_kinds=ITEM_KINDS, item_props=ITEM_PROPS)


def _twice(ctx, n):
    if not isinstance(n, int):
        raise EvalError("R701", "twice needs an int")
    return n * 2


def run_both(text: str, bindings=None, player_count=3, limit=1_000_000):
    """Evaluate with the compiler and the reference; return (compiled, reference) outcomes,
    each ("ok", value) or ("error", code, span)."""
    bindings = {k: to_value(v) for k, v in (bindings or {}).items()}
    expr = parse_expression(text)
    scope = scope_for(bindings)
    outcomes = []
    for run in (lambda ctx: compile_expr(expr, scope)(ctx), lambda ctx: evaluate(expr, scope, ctx)):
        ctx = FakeCtx(bindings, player_count, limit)
        try:
            outcomes.append(("ok", run(ctx)))
        except EvalError as exc:
            outcomes.append(("error", exc.code, exc.span))
        assert ctx.bindings == bindings, "bindings were not restored"
    return outcomes[0], outcomes[1]
