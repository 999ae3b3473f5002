"""Lint L112: an item picked out of a bag by its place.

A `kind: bag` zone gives up its items at random: a `move` or a `deal` that takes items
out of it without naming them draws each one with the game's generator (a chance node
when chance is explicit).  An expression that names an item of a bag by where it lies,
`top(bag)`, `first(bag)`, `last(bag)`, `bag[i]` or a slice, reads the order the items
went in, which is no draw at all: moving that item takes the same one in every game
dealt alike, and the author who wrote `move: "top(bag)"` for "draw a tile" gets a
game with less chance than the rules say.  Counting (`len(bag)`), walking every item
(`for t in bag`, `any(...)`) and choosing by a property stay quiet: they do not depend on
the order.  The warning names the read and says how to draw instead.
"""
from __future__ import annotations

from meeple.dsl import expr_ast as A
from meeple.dsl.diagnostics import Diagnostic
from meeple.dsl.names import global_scope
from meeple.dsl.walk import all_sites

_BY_PLACE = ("top", "first", "last")  # library functions that pick a list's element by its place


def bag_by_place_diagnostics(rs) -> list[Diagnostic]:
    bags = {n for n, z in rs.zones.items() if z.kind == "bag"}
    if not bags:
        return []
    out: list[Diagnostic] = []
    seen: set = set()  # a definition is one site, however often it is called

    def bag_of(node, scope, bound) -> str | None:
        """The bag `node` is: `bag`, or `pouch[p]` of a bag per player or per key."""
        per = isinstance(node, A.Index)
        name = node.obj if per else node
        if not isinstance(name, A.Name) or name.name not in bags or name.name in bound:
            return None
        sym = scope.lookup(name.name)
        kinds = ("player_zone", "keyed_zone") if per else ("zone",)
        return name.name if sym is not None and sym.kind in kinds else None

    def warn(bag: str, read: str, span) -> None:
        key = (span.file, span.line, span.col)
        if key not in seen:
            seen.add(key)
            out.append(Diagnostic("L112", f"{read} picks an item of the bag '{bag}' by its place, which follows "
                                  "the order items went in, not a random draw: a `move` or `deal` out of the bag "
                                  "that does not name its items draws them at random", span, severity="warning"))

    def visit(node, scope, bound: frozenset) -> None:
        if isinstance(node, A.Call) and node.func == "len" and len(node.args) == 1 and \
                isinstance(node.args[0], A.Slice):  # a part of a bag counted: its order is not read
            for part in A.iter_children(node.args[0]):
                visit(part, scope, bound)
            return
        if isinstance(node, A.Call) and node.func in _BY_PLACE and len(node.args) == 1:
            bag = bag_of(node.args[0], scope, bound)
            if bag is not None:
                warn(bag, f"'{node.func}' of a bag", node.span)
        elif isinstance(node, (A.Index, A.Slice)):
            bag = bag_of(node.obj, scope, bound)
            if bag is not None:
                warn(bag, "an index into a bag" if isinstance(node, A.Index) else "a slice of a bag", node.span)
        for child, inner in A.scoped_children(node, bound):
            visit(child, scope, inner)

    for site in all_sites(rs, global_scope(rs)):
        if isinstance(site.expr, A.Node):
            visit(site.expr, site.scope, frozenset())
    return out
