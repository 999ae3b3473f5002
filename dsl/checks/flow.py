"""Flow structure: referenced actions and labels exist, nothing is unreachable,
simultaneous steps hold no sub-decisions."""
from __future__ import annotations

import difflib
from typing import Iterator

from ..diagnostics import Diagnostic
from ..model import FlowNode, Ruleset

DECISIONS = ("choose", "simultaneous", "respond")


def _nodes(nodes: list[FlowNode]) -> Iterator[FlowNode]:
    for n in nodes:
        yield n
        yield from _nodes(n.body)
        yield from _nodes(n.orelse)


def all_flow_nodes(rs: Ruleset) -> Iterator[FlowNode]:
    yield from _nodes(rs.flow)
    for a in rs.actions.values():
        yield from _nodes(a.then)


def check_action_references(rs: Ruleset) -> Iterator[Diagnostic]:
    for node in all_flow_nodes(rs):
        if node.kind not in DECISIONS:
            continue
        for name, span in node.args.get("actions", []):
            if name is None:
                continue
            if name == "pass" and node.kind != "simultaneous":
                continue
            if name not in rs.actions:
                close = difflib.get_close_matches(name, list(rs.actions), n=1)
                yield Diagnostic("F502", f"'{name}' is not a declared action" +
                                 (f"; did you mean '{close[0]}'?" if close else ""), span,
                                 suggestions=tuple(close))
            elif node.kind != "choose" and rs.actions[name].then:
                yield Diagnostic("F504", f"action '{name}' has sub-decisions ('then'), which a "
                                 f"{node.kind} step cannot hold", span)


def check_recursive_actions(rs: Ruleset) -> Iterator[Diagnostic]:
    """Sub-decisions are expanded into the flow graph, so an action may not offer
    itself again, directly or through other actions, inside its own 'then'.  What
    authors mean by it (a jump that goes on, a second move after a completed box) is
    the step that offered the action coming again to the same player: `again:`."""
    offers = {name: [(n, span) for node in _nodes(a.then) if node.kind == "choose"
                     for n, span in node.args.get("actions", []) if n in rs.actions and rs.actions[n].then]
              for name, a in rs.actions.items()}
    done: set = set()

    def visit(name, path):
        for nxt, span in offers.get(name, ()):
            if nxt in path:
                cycle = path[path.index(nxt):] + [nxt]
                yield Diagnostic("F509", f"action '{nxt}' is offered again inside its own "
                                 f"sub-decisions ({' -> '.join(cycle)}); to let the same player take it "
                                 f"again, give the choose step that offers '{nxt}' an 'again' "
                                 "condition (again: \"...\") and leave it out of the 'then'", span)
            elif nxt not in done:
                yield from visit(nxt, path + [nxt])
        done.add(name)
    for name in rs.actions:
        if name not in done:
            yield from visit(name, [name])


def check_then_required(rs: Ruleset) -> Iterator[Diagnostic]:
    for name, a in rs.actions.items():
        if a.then_required and not a.then:
            yield Diagnostic("F510", f"action '{name}' has 'then_required' but no 'then' steps", a.span)


def check_flow_names(rs: Ruleset) -> Iterator[Diagnostic]:
    """A name a flow step binds (`for`, `turns`, `chance`) ends with the step's scope, so
    a step may not bind a name an enclosing step (or, in an action's `then`, the action)
    has bound: ending the inner one would end the outer one too."""
    yield from _bound_twice(rs, rs.flow, frozenset(), frozenset())


def _bound_twice(rs: Ruleset, nodes: list[FlowNode], bound: frozenset, within: frozenset) -> Iterator[Diagnostic]:
    """`within`: the actions whose `then` steps these are (a cycle among them is F509)."""
    for n in nodes:
        var = n.args.get("var") if n.kind in ("for", "turns", "chance") else None
        if var and var in bound:
            yield Diagnostic("F511", f"'{var}' is already bound here by an enclosing step; a step's name ends with "
                             f"its scope, so give this one another name" +
                             (" (with 'as:')" if n.kind == "turns" else ""), n.span, rule=n.rule)
        if n.kind == "chance" and var:
            bound = bound | {var}  # for the steps after it in the same list
        elif n.kind in ("for", "turns"):
            yield from _bound_twice(rs, n.body, bound | {var} if var else bound, within)
        elif n.kind in DECISIONS:
            for name, _ in n.args.get("actions", ()):
                action = rs.actions.get(name)
                if action is not None and action.then and name not in within:
                    params = {"player", *(p for p, _, _ in action.params)}
                    yield from _bound_twice(rs, action.then, bound | params, within | {name})
        else:
            yield from _bound_twice(rs, n.body, bound, within)
            yield from _bound_twice(rs, n.orelse, bound, within)


def _labels(rs: Ruleset) -> dict:
    return {n.label: n for n in all_flow_nodes(rs) if n.label}


def check_labels(rs: Ruleset) -> Iterator[Diagnostic]:
    seen = {}
    for node in all_flow_nodes(rs):
        if node.label and node.kind != "phase":
            if node.label in seen:
                yield Diagnostic("F505", f"label '{node.label}' is used twice", node.span,
                                 notes=[f"first used at {seen[node.label]}"])
            seen[node.label] = node.span
    labels = _labels(rs)
    for rule in rs.end:
        if rule.after != "now" and rule.after not in labels:
            close = difflib.get_close_matches(rule.after, list(labels), n=1)
            yield Diagnostic("F503", f"end rule waits for '{rule.after}', which labels no flow step" +
                             (f"; did you mean '{close[0]}'?" if close else ""), rule.span,
                             notes=["'after' takes 'now' or the label of a flow step (phases are "
                                    "labelled by their name)"])


def _never_exits(node: FlowNode) -> bool:
    """A loop with no condition and no way out runs until the game ends."""
    return node.kind == "loop" and not any(k in node.args for k in ("while", "until", "times"))


def check_unreachable(rs: Ruleset) -> Iterator[Diagnostic]:
    def visit(nodes: list[FlowNode]):
        for i, n in enumerate(nodes):
            if _never_exits(n) and i + 1 < len(nodes):
                nxt = nodes[i + 1]
                yield Diagnostic("F501", f"this '{nxt.kind}' step can never be reached: the loop "
                                 "before it has no 'while', 'until' or 'times', so only the end of "
                                 "the game leaves it", nxt.span, rule=nxt.rule)
            yield from visit(n.body)
            yield from visit(n.orelse)
    yield from visit(rs.flow)
    for a in rs.actions.values():
        yield from visit(a.then)


def check_actions_offered(rs: Ruleset) -> Iterator[Diagnostic]:
    offered = {name for n in all_flow_nodes(rs) if n.kind in DECISIONS
               for name, _ in n.args.get("actions", [])}
    for name, action in rs.actions.items():
        if name not in offered:
            yield Diagnostic("F506", f"action '{name}' is never offered by any choose, "
                             "simultaneous or respond step", action.span, severity="warning",
                             rule=action.rule)


def check_flow_present(rs: Ruleset) -> Iterator[Diagnostic]:
    if not rs.flow:
        yield Diagnostic("F507", "the ruleset has no flow: nobody would ever move", rs.game.span)
    elif not any(n.kind in DECISIONS for n in all_flow_nodes(rs)):
        yield Diagnostic("F508", "the flow has no decision step (choose, simultaneous or respond)",
                         rs.game.span, severity="warning")


PASSES = [check_action_references, check_recursive_actions, check_then_required, check_labels,
          check_unreachable, check_actions_offered, check_flow_present, check_flow_names]
