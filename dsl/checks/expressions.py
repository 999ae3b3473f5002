"""Every expression: names defined, functions known, types consistent,
conditions boolean, assignment targets assignable."""
from __future__ import annotations

from typing import Iterator

from .. import expr_ast as A
from ..diagnostics import Diagnostic
from ..model import Effect, FlowNode, Ruleset
from ..names import global_scope
from ..typecheck import check_assignment, expect_type, infer_type
from ..types import BOOL, INT
from ..walk import all_sites

ASSIGNABLE = ("var", "player_var", "keyed_var")
ZONES = ("zone", "player_zone", "keyed_zone")


def _root(expr):
    while isinstance(expr, (A.Index, A.Member)):
        expr = expr.obj
    return expr


def check_expressions(rs: Ruleset) -> Iterator[Diagnostic]:
    scope = global_scope(rs)
    scope.boards = frozenset(rs.boards)  # so `nodes('gird')` is caught here (N307)
    scope.actions = frozenset(rs.actions)  # and `has_move(p, ['slid'])` (N312)
    counts = count_expressions(rs)
    for site in all_sites(rs, scope):
        if site.role == "cond":
            yield from expect_type(site.expr, site.scope, BOOL, site.what)
        elif site.role == "value" and id(site.expr) in counts:
            yield from expect_type(site.expr, site.scope, INT, site.what)
        elif site.role in ("value", "list"):
            t, diags = infer_type(site.expr, site.scope)
            yield from diags
            if site.role == "list" and t.name not in ("list", "map", "any", "str"):
                yield Diagnostic("T409", f"{site.what} must be a list, found {t}", site.expr.span)
        elif site.role == "target":
            yield from _check_place(site, zone=True)
        elif site.role == "var_target":
            yield from _check_place(site, zone=False)
        elif site.role == "assign":
            place = list(_check_place(site, zone=False, target=site.expr.target))
            yield from place
            if place:  # not a place that can be written: its type says nothing
                yield from infer_type(site.expr.value, site.scope)[1]
            else:
                yield from check_assignment(site.expr, site.scope)


def count_expressions(rs: Ruleset) -> set[int]:
    """The ids of the expressions that must be ints: how many items a `deal` or `move`
    hands out, how far `pass_zones` passes, how often a loop runs `times`, the most rounds
    of a `while`."""
    out: set[int] = set()
    for node in _effects_and_steps(rs):
        keys = {"deal": ("count",), "move": ("count",), "pass_zones": ("direction",),
                "loop": ("times",), "while": ("max",)}.get(node.kind, ())
        out.update(id(node.args[k]) for k in keys if node.args.get(k) is not None)
    return out


def _effects_and_steps(rs: Ruleset) -> Iterator:
    """Every effect and flow step of the ruleset, however deeply nested."""
    todo: list = [rs.setup, rs.flow, [a.effects for a in rs.actions.values()],
                  [a.then for a in rs.actions.values()], [t.effects for t in rs.triggers.values()]]
    while todo:
        obj = todo.pop()
        if isinstance(obj, (Effect, FlowNode)):
            yield obj
            todo.extend(v for v in obj.args.values() if isinstance(v, list))
            todo.extend(getattr(obj, k) for k in ("body", "orelse") if hasattr(obj, k))
        elif isinstance(obj, list):
            todo.extend(obj)


def _check_place(site, zone: bool, target=None) -> Iterator[Diagnostic]:
    target = target if target is not None else site.expr
    root = _root(target)
    if not isinstance(root, A.Name):
        yield Diagnostic("T408", "only a variable, an item property or a zone can be written here",
                         target.span)
        return
    sym = site.scope.lookup(root.name)
    # Index expressions inside the target are ordinary reads.
    node = target
    while isinstance(node, (A.Index, A.Member)):
        if isinstance(node, A.Index):
            _, diags = infer_type(node.index, site.scope)
            yield from diags
        node = node.obj
    if sym is None:
        _, diags = infer_type(root, site.scope)
        yield from diags
        return
    if zone:
        if sym.kind not in ZONES:
            yield Diagnostic("T408", f"'{root.name}' is not a zone", root.span)
        elif sym.kind != "zone" and target is root:
            yield Diagnostic("T408", f"zone '{root.name}' is kept per player or per key; "
                             f"write {root.name}[...]", root.span)
        return
    if sym.kind in ASSIGNABLE:
        if sym.kind != "var" and target is root:
            yield Diagnostic("T408", f"'{root.name}' is kept per player or per key; write "
                             f"{root.name}[...] = ...", root.span)
        return
    if isinstance(target, A.Member):
        return  # an item property; its existence is checked when the item is known
    yield Diagnostic("T408", f"'{root.name}' cannot be assigned: only variables and item "
                     "properties can", root.span)
