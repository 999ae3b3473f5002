"""What every player may see, read from the text of an expression: the zones and variables
that are hidden from some player (an owner's hand, a face-down stack, a private variable),
and which of them an expression reads other than by counting.  Lint L108 asks it of who is
asked to move (interpreter/lint_hidden.py); S130 of the player panel, `summary:`, which every
player sees, so it may read only what all of them see."""
from __future__ import annotations

from typing import Iterator

from meeple.dsl import expr_ast as A
from meeple.dsl.diagnostics import Diagnostic


def hidden_names(rs) -> set[str]:
    zones = {n for n, z in rs.zones.items() if z.visibility in ("owner", "none") or z.face == "down"}
    return zones | {n for n, v in rs.variables.items() if v.visibility != "all"}


def hidden_reads(expr, rs, hidden=None) -> set[str]:
    """The hidden zones and variables `expr` reads other than by counting, through definitions."""
    hidden = hidden_names(rs) if hidden is None else hidden
    found: set[str] = set()
    seen: set[str] = set()

    def visit(node, bound: frozenset, counted: bool):
        if isinstance(node, A.Name):
            name = node.name
            if name in bound:
                return
            if name in hidden and not (counted and name in rs.zones):
                found.add(name)
            elif name in rs.defines and name not in seen:
                seen.add(name)
                visit(rs.defines[name].expr, frozenset(rs.defines[name].params or ()), False)
            return
        if isinstance(node, A.Call):
            if node.func in rs.defines and node.func not in seen:
                seen.add(node.func)
                decl = rs.defines[node.func]
                visit(decl.expr, frozenset(decl.params or ()), False)
            for arg in node.args:
                visit(arg, bound, node.func == "len")
            return
        if isinstance(node, A.Index):
            visit(node.obj, bound, counted)
            visit(node.index, bound, False)
            return
        if isinstance(node, (A.ListComp, A.MapComp, A.Generator)):
            inner = bound
            for clause in node.clauses:
                if isinstance(clause, A.For):
                    visit(clause.iter, inner, False)
                    inner = inner | set(clause.names)
                else:
                    visit(clause.cond, inner, False)
            for part in ((node.key, node.value) if isinstance(node, A.MapComp) else (node.element,)):
                visit(part, inner, False)
            return
        if isinstance(node, A.Lambda):
            visit(node.body, bound | {node.param}, False)
            return
        if isinstance(node, A.Let):
            visit(node.value, bound, False)
            visit(node.body, bound | {node.name}, False)
            return
        for child in A.iter_children(node):
            visit(child, bound, False)

    visit(expr, frozenset(), False)
    return found


def check_summary_public(rs) -> Iterator[Diagnostic]:
    """S130: a `summary:` value that reads something hidden from some player.  The panel is
    shown to everyone, so it would tell the table what the rules keep from it; a count
    (`len(hand[player])`) is public and allowed."""
    hidden = hidden_names(rs)
    for row in rs.summary:
        reads = hidden_reads(row.expr, rs, hidden) if row.expr is not None and hidden else set()
        if reads:
            yield Diagnostic("S130", f"the summary's '{row.name}' reads {', '.join(sorted(reads))}, which some "
                             "players may not see; the panel is shown to every player, so it may read only "
                             "public values (a hidden zone may be counted with len)", row.expr.span)
