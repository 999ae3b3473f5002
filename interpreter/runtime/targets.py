"""Assignable places: `silver[player]`, `gems[p]['ruby']`, `card.load`, `hand[p]`.

A target compiles to a resolver that, given a context, names the place
(a variable and a key path, an item property, or a zone and its key).
"""
from __future__ import annotations

from meeple.dsl import expr_ast as A
from meeple.dsl.values import Item

from .context import RuleError


def split_target(expr):
    """Return (root_name, [index/member nodes]) or None if not a plain chain."""
    chain = []
    node = expr
    while True:
        if isinstance(node, A.Name):
            return node.name, list(reversed(chain))
        if isinstance(node, A.Index):
            chain.append(("index", node.index))
            node = node.obj
        elif isinstance(node, A.Member):
            chain.append(("member", node.name))
            node = node.obj
        else:
            return None


class VarPlace:
    __slots__ = ("decl", "keys")

    def __init__(self, decl, keys):
        self.decl, self.keys = decl, keys


class PropPlace:
    __slots__ = ("item", "name")

    def __init__(self, item, name):
        self.item, self.name = item, name


class ZonePlace:
    __slots__ = ("name", "key", "decl")

    def __init__(self, name, key, decl):
        self.name, self.key, self.decl = name, key, decl

    def __str__(self):
        return self.name if self.key is None else f"{self.name}[{self.key}]"


def compile_place(expr, scope, rules, want: str):
    """want: 'var' (assignment target) or 'zone'.  Returns resolve(ctx) -> place."""
    parts = split_target(expr)
    span = expr.span
    if parts is None:
        raise RuleError("T408", "this cannot be assigned to", span)
    root, chain = parts
    if want == "zone":
        decl = rules.zones.get(root)
        if decl is None:
            raise RuleError("T408", f"'{root}' is not a zone", span)
        if decl.per is None:
            if chain:
                raise RuleError("T408", f"zone '{root}' is shared, it takes no index", span)
            return lambda ctx: ZonePlace(root, None, decl)
        if len(chain) != 1 or chain[0][0] != "index":
            raise RuleError("T408", f"zone '{root}' is kept per {('player' if decl.per == 'player' else 'key')}"
                            f"; write {root}[...]", span)
        key_fn = rules.expr(chain[0][1], scope)
        return lambda ctx: ZonePlace(root, key_fn(ctx), decl)
    decl = rules.variables.get(root)
    if decl is not None:
        key_fns = []
        for kind, part in chain:
            if kind == "index":
                key_fns.append(rules.expr(part, scope))
            else:
                key_fns.append(lambda ctx, k=part: k)
        return lambda ctx: VarPlace(decl, tuple(f(ctx) for f in key_fns))
    # An item property: everything before the last `.name` evaluates to an item.
    if chain and chain[-1][0] == "member":
        item_fn = rules.expr(expr.obj, scope)
        name = chain[-1][1]

        def resolve(ctx):
            item = item_fn(ctx)
            if not isinstance(item, Item):
                raise RuleError("R704", f"'.{name}' is assigned on something that is not an item", span)
            if name != "face" and rules.prop_decl(item.kind, name) is None:
                raise RuleError("R704", f"items of kind '{item.kind}' have no property '{name}'", span)
            return PropPlace(item, name)
        return resolve
    raise RuleError("T408", f"'{root}' is not a variable; only variables and item properties "
                    "can be assigned", span)
