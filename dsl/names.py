"""The global scope of a ruleset: every name an expression may read.

Readers fetch from `ctx.state.vars` / `ctx.state.zones` (the interpreter's state
layout) so that compiled expressions need no lookup by declaration at run time.
"""
from __future__ import annotations

from .model import Ruleset, VarDecl, ZoneDecl
from .options import options_symbol
from .scope import Scope, Symbol
from .types import ANY, INT, STR, item_of, list_of, map_of


def _var_reader(name):
    def read(ctx):
        return ctx.state.vars[name]
    return read


def _zone_reader(name):
    def read(ctx):
        return ctx.state.zones[name]
    return read


def var_type(decl: VarDecl):
    # A per-player value is kept as a list indexed by player (see interpreter/state.py),
    # so it is typed as one: `len(coins)`, `coins == [1, 2]` and `for c in coins` mean
    # what they do at run time.
    if decl.per is None:
        return decl.type
    return list_of(decl.type) if decl.per == "player" else map_of(ANY, decl.type)


def zone_type(decl: ZoneDecl):
    items = list_of(item_of())
    if decl.per is None:
        return items
    return list_of(items) if decl.per == "player" else map_of(ANY, items)


def global_scope(rs: Ruleset, define_readers: dict | None = None) -> Scope:
    symbols: dict[str, Symbol] = {}
    for decl in rs.variables.values():
        kind = "var" if decl.per is None else ("player_var" if decl.per == "player" else "keyed_var")
        symbols[decl.name] = Symbol(decl.name, var_type(decl), _var_reader(decl.name), kind, decl.span)
    for decl in rs.zones.values():
        kind = "zone" if decl.per is None else ("player_zone" if decl.per == "player" else "keyed_zone")
        symbols[decl.name] = Symbol(decl.name, zone_type(decl), _zone_reader(decl.name), kind, decl.span)
    symbols["options"] = options_symbol(rs.game.options, rs.game.span)
    for decl in rs.defines.values():
        reader = (define_readers or {}).get(decl.name, _unavailable(decl.name))
        kind = "function" if decl.params else "define"
        symbols[decl.name] = Symbol(decl.name, ANY, reader, kind, decl.span, meta={"params": decl.params})
    item_kinds = {k.name: dict(k.fields) for k in rs.components.values()}
    item_props = {k.name: {p: d.type for p, d in k.props.items()} | {"face": STR, "seen_by": list_of(INT)}
                  for k in rs.components.values()}
    return Scope(symbols, item_kinds=item_kinds, item_props=item_props)


def _unavailable(name):
    def read(ctx):
        raise RuntimeError(f"definition '{name}' was read before it was compiled")
    return read


__all__ = ["global_scope", "var_type", "zone_type", "item_of", "ANY"]
