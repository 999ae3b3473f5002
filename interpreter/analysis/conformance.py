"""The conformance report: for each page or section of the rulebook, the spec
elements that encode it and the scenarios that check it.

A ruleset lists the rulebook's rule-bearing pages under `game.rulebook.sections`;
every element may carry `rule: "p.8"` (several: "p.8, p.9", a range: "p.7-8").
A section with no spec element or no scenario is a gap, and so is a citation
that names no listed section.
"""
from __future__ import annotations

import re
from pathlib import Path

from meeple.dsl.model import Ruleset

from .scenario import load_scenarios

_RANGE = re.compile(r"^(?P<prefix>[^\d]*)(?P<a>\d+)\s*[-–]\s*(?P<b>\d+)$")


def split_citation(text: str | None) -> list[str]:
    """'p.8, p.10-11' -> ['p.8', 'p.10', 'p.11']"""
    if not text:
        return []
    out = []
    for part in re.split(r"[;,]", text):
        part = part.strip()
        if not part:
            continue
        m = _RANGE.match(part)
        if m and int(m.group("b")) >= int(m.group("a")) and int(m.group("b")) - int(m.group("a")) < 50:
            out += [f"{m.group('prefix')}{i}" for i in range(int(m.group("a")), int(m.group("b")) + 1)]
        else:
            out.append(part)
    return out


def spec_citations(rs: Ruleset):
    """(citation, element description, span) for every cited element of the spec."""
    def cite(rule, what, span):
        for c in split_citation(rule):
            yield c, what, span

    for kind, table in (("component", rs.components), ("variable", rs.variables), ("zone", rs.zones),
                        ("board", rs.boards), ("definition", rs.defines), ("trigger", rs.triggers)):
        for name, decl in table.items():
            yield from cite(decl.rule, f"{kind} {name}", decl.span)
    for name, a in rs.actions.items():
        yield from cite(a.rule, f"action {name}", a.span)
        for chk in a.require:
            yield from cite(chk.rule, f"action {name}: requirement '{chk.reason}'", chk.span)
        yield from _effects(a.effects, f"action {name}")
        yield from _flow(a.then, f"action {name}")
    yield from _effects(rs.setup, "setup")
    yield from _flow(rs.flow, "flow")
    for name, t in rs.triggers.items():
        yield from _effects(t.effects, f"trigger {name}")
    for e in rs.end:
        yield from cite(e.rule, f"end: {e.reason or 'end rule'}", e.span)
    if rs.scoring:
        yield from cite(rs.scoring.rule, "scoring", rs.scoring.span)
    for inv in rs.invariants:
        yield from cite(inv.rule, f"invariant: {inv.reason}", inv.span)


def _effects(effects, where):
    for e in effects:
        for c in split_citation(e.rule):
            yield c, f"{where}: {e.kind} effect", e.span
        for key in ("then", "else", "do"):
            yield from _effects(e.args.get(key) or [], where)


def _flow(nodes, where):
    for n in nodes:
        name = n.args.get("name") or n.label or n.kind
        for c in split_citation(n.rule):
            yield c, f"{where}: {n.kind} {name}", n.span
        if n.kind == "effects":
            yield from _effects(n.args.get("effects", []), f"{where}: {name}")
        yield from _flow(n.body, where)
        yield from _flow(n.orelse, where)


def scenario_citations(folder: Path):
    for f in sorted(folder.glob("*.yaml")):
        for sc in load_scenarios(f):
            for c in split_citation(sc.rule):
                yield c, f"{f.name}: {sc.name}", sc.span


def conformance_report(rs: Ruleset) -> dict:
    sections = rs.game.rulebook.sections
    spec = list(spec_citations(rs))
    root = Path(rs.root)
    scen = list(scenario_citations(root / "scenarios")) if (root / "scenarios").is_dir() else []
    rows = []
    for key, title in sections.items():
        rows.append({"section": key, "title": title,
                     "spec": sorted({what for c, what, _ in spec if c == key}),
                     "scenarios": sorted({what for c, what, _ in scen if c == key})})
    unknown = sorted({(c, what, str(span)) for c, what, span in spec + scen if c not in sections})
    gaps = [r["section"] for r in rows if not r["spec"] or not r["scenarios"]]
    return {"ruleset": rs.game.name, "rulebook": rs.game.rulebook.title, "sections": rows,
            "gaps": gaps, "unknown_citations": [{"citation": c, "where": w, "at": s} for c, w, s in unknown],
            "complete": bool(sections) and not gaps and not unknown}
