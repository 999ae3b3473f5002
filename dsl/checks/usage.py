"""Things declared but never used, and rules that can never apply: warnings.

Reads are collected from every expression; a `set` target reads its variable
only for `+=`-style updates.  A component kind counts as used when some
expression names it in a string (as `items('card')` does) or a zone holds it
from the start.
"""
from __future__ import annotations

from typing import Iterator

from .. import expr_ast as A
from ..compile_expr import compile_expr
from ..diagnostics import Diagnostic
from ..model import Ruleset
from ..names import global_scope
from ..walk import all_sites, event_payloads


def _reads(rs: Ruleset, scope):
    names, strings = set(), set()
    for site in all_sites(rs, scope):
        expr = site.expr
        if site.role == "assign":
            target = expr.target
            if expr.op != "=":
                names |= A.names_read(target)
            else:
                while isinstance(target, (A.Index, A.Member)):
                    if isinstance(target, A.Index):
                        names |= A.names_read(target.index)
                    target = target.obj
            expr = expr.value
        elif site.role == "target":
            names |= A.names_read(expr)  # a zone moved from or to is in use
        names |= A.names_read(expr)
        for node in A.walk(expr):
            if isinstance(node, A.Const) and isinstance(node.value, str):
                strings.add(node.value)
    return names, strings


def check_unused(rs: Ruleset) -> Iterator[Diagnostic]:
    scope = global_scope(rs)
    names, strings = _reads(rs, scope)
    for effect_zone in _zone_names_in_effects(rs):
        names.add(effect_zone)
    for name, decl in rs.variables.items():
        if name not in names:
            yield Diagnostic("L103", f"variable '{name}' is never read", decl.span, severity="warning",
                             rule=decl.rule)
    for name, decl in rs.zones.items():
        if name not in names:
            yield Diagnostic("L102", f"zone '{name}' is never used", decl.span, severity="warning",
                             rule=decl.rule)
    for name, kind in rs.components.items():
        if name not in strings:
            yield Diagnostic("L101", f"component '{name}' is never used: no expression names it "
                             f"(as items('{name}') would)", kind.span, severity="warning", rule=kind.rule)


def _zone_names_in_effects(rs: Ruleset):
    """`deal` and `pass_zones` name their per-player zone as plain text."""
    def visit(effects):
        for e in effects:
            if e.kind == "deal" and e.args.get("to"):
                yield e.args["to"]
            if e.kind == "pass_zones" and e.args.get("zone"):
                yield e.args["zone"]
            for key in ("then", "else", "do"):
                yield from visit(e.args.get(key) or [])

    def flow(nodes):
        for n in nodes:
            if n.kind == "effects":
                yield from visit(n.args.get("effects", []))
            yield from flow(n.body)
            yield from flow(n.orelse)
    yield from visit(rs.setup)
    yield from flow(rs.flow)
    for a in rs.actions.values():
        yield from visit(a.effects)
        yield from flow(a.then)
    for t in rs.triggers.values():
        yield from visit(t.effects)


def _constant(expr, scope):
    if expr is None:
        return None
    try:
        fn = compile_expr(expr, scope)
    except Exception:  # the expression checks report real problems; lint only looks for constants
        return None
    return getattr(fn, "const_value", None) if hasattr(fn, "const_value") else None


def check_never_applies(rs: Ruleset) -> Iterator[Diagnostic]:
    scope = global_scope(rs)
    inner = scope.bind({"player": None})
    for name, action in rs.actions.items():
        s = inner.bind({p: None for p, _, _ in action.params})
        for check in action.require:
            if _constant(check.cond, s) is False:
                yield Diagnostic("L105", f"action '{name}' can never be taken: this requirement is "
                                 "always false", check.span, severity="warning", rule=check.rule or action.rule)
    emitted = event_payloads(rs)
    for name, t in rs.triggers.items():
        if t.on and t.on not in emitted:
            yield Diagnostic("L104", f"trigger '{name}' waits for event '{t.on}', which no effect emits",
                             t.span, severity="warning", rule=t.rule)
        s = scope.bind({n: None for n, _ in t.each})
        if t.when is not None and _constant(t.when, s) is False:
            yield Diagnostic("L106", f"trigger '{name}' can never fire: its condition is always false",
                             t.span, severity="warning", rule=t.rule)


PASSES = [check_unused, check_never_applies]
