"""`meeple explain`: what a ruleset contains, with its rulebook citations."""
from __future__ import annotations

from rich.markup import escape
from rich.table import Table

from .render import console, label


def _flow_lines(nodes, depth=0):
    for n in nodes:
        pad = "  " * depth
        head = n.kind
        if n.kind == "phase":
            head = f"phase {n.args.get('name')}"
        elif n.kind in ("choose", "simultaneous", "respond"):
            head = f"{n.kind}: {', '.join(a for a, _ in n.args.get('actions', []) if a)}"
        elif n.kind in ("for", "turns"):
            head = f"{n.kind} ({n.args.get('var')})"
        if n.args.get("call"):  # the outer step of a fragment's expanded call
            head += f", call {n.args['call']}"
        cite = f"  [dim](rule {escape(n.rule)})[/]" if n.rule else ""
        lbl = escape(f" [{n.label}]") if n.label and n.kind != "phase" else ""
        yield f"{pad}{escape(head)}{lbl}{cite}  [dim]{escape(str(n.span))}[/]"
        yield from _flow_lines(n.body, depth + 1)
        if n.orelse:
            yield f"{pad}else"
            yield from _flow_lines(n.orelse, depth + 1)


def print_explanation(rules, lang=None):
    rs = rules.ruleset
    g = rs.game
    console.print(f"[bold]{escape(g.title)}[/] ({escape(g.name)}), {g.min_players}-{g.max_players} players")
    if g.rulebook.title:
        console.print(escape(f"transcribes: {g.rulebook.title}" +
                             (f", {g.rulebook.edition}" if g.rulebook.edition else "") +
                             (f" [{g.rulebook.language}]" if g.rulebook.language else "")))
    console.print("\n[bold]flow[/]")
    for line in _flow_lines(rs.flow, 1):
        console.print(line)
    t = Table("action", "parameters", "requirements", "rule", title="actions")
    for name, a in rs.actions.items():
        t.add_row(escape(label(_G(rules), name, lang, "action")),
                  escape(", ".join(p for p, _, _ in a.params)),
                  escape("\n".join(f"{c.reason}" + (f" ({c.rule})" if c.rule else "") for c in a.require)),
                  escape(a.rule or ""))
    console.print(t)
    if rs.triggers:
        t = Table("trigger", "on", "rule", title="triggers")
        for name, tr in rs.triggers.items():
            t.add_row(escape(name), escape(tr.on or "condition"), escape(tr.rule or ""))
        console.print(t)
    if rs.end:
        console.print("[bold]the game ends[/]")
        for e in rs.end:
            console.print(escape(f"  {e.reason or 'when its condition holds'} (after: {e.after})") +
                          (f" [dim](rule {escape(e.rule)})[/]" if e.rule else ""))


class _G:
    """label() looks labels up through game.rules; a Rules alone is enough."""

    def __init__(self, rules):
        self.rules = rules


def print_conformance(report: dict) -> None:
    console.print(f"[bold]{escape(report['ruleset'])}[/]: conformance to {escape(report['rulebook'] or 'its rulebook')}")
    if not report["sections"]:
        console.print("[yellow]the ruleset lists no rulebook sections (game.rulebook.sections)[/]")
    t = Table("section", "title", "spec elements", "scenarios")
    for row in report["sections"]:
        mark = "" if row["spec"] and row["scenarios"] else "[red]"
        t.add_row(f"{mark}{escape(row['section'])}", escape(row["title"]),
                  escape("\n".join(row["spec"])) or "[red]none[/]",
                  escape("\n".join(row["scenarios"])) or "[red]none[/]")
    console.print(t)
    for u in report["unknown_citations"]:
        console.print(f"[yellow]citation '{escape(u['citation'])}' names no listed section[/] ({escape(str(u['where']))}, {escape(str(u['at']))})")
    console.print("complete" if report["complete"] else f"[red]gaps:[/] {escape(', '.join(report['gaps'])) or 'see above'}")
