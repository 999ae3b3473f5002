"""`meeple lint`: static warnings about a ruleset, its compiled flow graph, and
(optionally) what random playouts reveal.

Static: everything the checks report (unused declarations, requirements and
triggers that can never apply), plus control points the flow can never reach
(a branch whose condition is constant) and automatic loops with no decision
and no exit.  Sampled: actions never legal, decisions nobody could make, and
games that hit the move limit without ending.
"""
from __future__ import annotations

import networkx as nx

from meeple.dsl.diagnostics import Diagnostic
from meeple.dsl.load import check_ruleset

from ..presentation.label_check import display_diagnostics, label_diagnostics
from .lint_bags import bag_by_place_diagnostics
from .lint_hidden import exposed_secret_diagnostics, who_is_asked_diagnostics
from .sampling import RANDOM_GAME_MOVES, sample


def flow_diagnostics(rules) -> list[Diagnostic]:
    points = rules.points
    g = nx.DiGraph()  # edges that can be taken
    full = nx.DiGraph()  # every edge, taken or not
    for p in points:
        g.add_node(p.id)
        full.add_node(p.id)
        for t in (p.next, p.alt, *p.cont.values()):
            if t is not None:
                full.add_edge(p.id, t)
        targets = []
        if p.op == "branch" and hasattr(p.fn, "const_value"):
            targets = [p.next if p.fn.const_value is True else p.alt]
        else:
            targets = [p.next, p.alt, *p.cont.values()]
        for t in targets:
            if t is not None:
                g.add_edge(p.id, t)
        if p.op == "decide" and p.kind == "respond":
            g.add_edge(p.id, p.id)
    out = []
    reachable = nx.descendants(g, rules.start) | {rules.start}
    reported = set()
    for p in points:
        if p.id in reachable or p.span is None or p.op in ("end", "nop"):
            continue
        if not any(q in reachable for q in full.predecessors(p.id)):
            continue  # inside a dead region already reported at its entry
        key = (p.span.file, p.span.line, p.span.col)
        if key in reported:
            continue
        reported.add(key)
        what = f"phase '{p.name}'" if p.op == "phase" else ("this decision" if p.op == "decide" else "this step")
        out.append(Diagnostic("L201", f"{what} can never be reached: every path to it passes a condition "
                              "that is always false", p.span, severity="warning", rule=p.rule))
    for component in nx.strongly_connected_components(g):
        ids = sorted(component)
        cyclic = len(ids) > 1 or g.has_edge(ids[0], ids[0])
        if not cyclic or any(points[i].op in ("decide", "chance") for i in ids):
            continue
        if not any(t not in component for i in ids for t in g.successors(i)):
            span = next((points[i].span for i in ids if points[i].span), None)
            if span is not None and ids[0] in reachable:
                out.append(Diagnostic("L202", "this loop has no decision and no way out: once entered, "
                                      "it runs until the step limit", span, severity="warning"))
    return out


def sampled_diagnostics(game, playouts: int, seed: int = 0, max_moves: int = RANDOM_GAME_MOVES):
    report = sample(game, playouts, seed, max_moves)
    out = []
    for name, stats in report["actions"].items():
        decl = game.rules.ruleset.actions.get(name)
        if decl is not None and stats["games_legal"] == 0:
            out.append(Diagnostic("L301", f"action '{name}' was never legal in {playouts} random games",
                                  decl.span, severity="warning", rule=decl.rule))
    for where, count in report["skipped_decisions"].items():
        out.append(Diagnostic("L302", f"{count} time(s) a player had no legal move and no pass ({where}); "
                              "the decision was skipped", game.rules.ruleset.game.span, severity="warning"))
    if report["stalled"]:
        out.append(Diagnostic("L304", f"{report['stalled']} of {playouts} random games stalled: the flow went "
                              "round a decision nobody could act at (R709); end the game, or let a player "
                              "pass, when nobody can move", game.rules.ruleset.game.span, severity="warning"))
    if report["unfinished"]:
        out.append(Diagnostic("L303", f"{report['unfinished']} of {playouts} random games reached "
                              f"{max_moves} moves without ending", game.rules.ruleset.game.span,
                              severity="warning"))
    return out, report


def lint(rules, game=None, playouts: int = 0, seed: int = 0, max_moves: int = RANDOM_GAME_MOVES):
    diags = [d for d in check_ruleset(rules.ruleset)]
    diags += flow_diagnostics(rules)
    diags += label_diagnostics(rules.ruleset)
    diags += display_diagnostics(rules.ruleset)
    diags += who_is_asked_diagnostics(rules.ruleset)
    diags += exposed_secret_diagnostics(rules.ruleset)
    diags += bag_by_place_diagnostics(rules.ruleset)
    report = None
    if playouts and game is not None:
        more, report = sampled_diagnostics(game, playouts, seed, max_moves)
        diags += more
    diags.sort(key=lambda d: (d.span.file, d.span.line, d.span.col, d.code))
    return diags, report
