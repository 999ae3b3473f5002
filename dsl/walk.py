"""Visit every expression of a ruleset together with the names bound where it
stands (action parameters, `player`, loop variables, trigger bindings).

Both the checker and the compiler need "which names are visible here"; this
is the one place that knows it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from .model import Effect, FlowNode, Ruleset
from .scope import Scope
from .typecheck import infer_type
from .types import ANY, INT, element_type


@dataclass
class Site:
    expr: object
    scope: Scope
    role: str  # cond | value | list | target (a zone) | var_target (a variable) | assign
    what: str


def _elem(expr, scope: Scope):
    if expr is None:
        return ANY
    t, _ = infer_type(expr, scope)
    return element_type(t)


def event_payloads(rs: Ruleset) -> dict[str, set[str]]:
    """Names each event carries: those that *every* `emit` of it gives, since a trigger
    runs after any of them (a name only some emits give would be missing after the others)."""
    out: dict[str, set[str]] = {}

    def visit(effects):
        for e in effects:
            if e.kind == "emit" and e.args.get("event"):
                names = set(e.args.get("with", {}))
                event = e.args["event"]
                out[event] = out[event] & names if event in out else names
            for key in ("then", "else", "do"):
                visit(e.args.get(key) or [])

    visit(rs.setup)
    for a in rs.actions.values():
        visit(a.effects)
        _visit_flow_effects(a.then, visit)
    for t in rs.triggers.values():
        visit(t.effects)
    _visit_flow_effects(rs.flow, visit)
    return out


def _visit_flow_effects(nodes, visit):
    for n in nodes:
        if n.kind == "effects":
            visit(n.args.get("effects", []))
        _visit_flow_effects(n.body, visit)
        _visit_flow_effects(n.orelse, visit)


def effect_sites(effects: list[Effect], scope: Scope) -> Iterator[Site]:
    for e in effects:
        yield from _one_effect_sites(e, scope)
        if e.kind == "let":
            scope = scope.bind({n: ANY for n in e.args["bindings"]})
        if e.narrate:  # evaluated once the effect has run: a `let`'s names are bound
            for template in e.narrate.values():
                for place in template.places:
                    yield Site(place.expr, scope, "value", "a place of a narration")


def _one_effect_sites(e: Effect, scope: Scope) -> Iterator[Site]:
    a = e.args
    if e.kind == "set":
        for assign in a.get("assignments", []):
            yield Site(assign, scope, "assign", "an assignment")
    elif e.kind == "let":
        for name, value in a["bindings"].items():
            if value is not None:
                yield Site(value, scope, "value", f"the value of '{name}'")
    elif e.kind == "if":
        if a["cond"] is not None:
            yield Site(a["cond"], scope, "cond", "an 'if' condition")
        yield from effect_sites(a["then"], scope)
        yield from effect_sites(a["else"], scope)
    elif e.kind == "while":
        if a["cond"] is not None:
            yield Site(a["cond"], scope, "cond", "a 'while' condition")
        if a["max"] is not None:
            yield Site(a["max"], scope, "value", "the 'max' of a 'while'")
        yield from effect_sites(a["do"], scope)
    elif e.kind == "for":
        if a["in"] is not None:
            yield Site(a["in"], scope, "list", "the list of a 'for'")
        inner = scope.bind({a["var"]: _elem(a["in"], scope)}) if a["var"] else scope
        yield from effect_sites(a["do"], inner)
    else:
        for key, value in a.items():
            if key in ("from", "to", "zone") and e.kind != "reveal" and value is not None \
                    and not isinstance(value, str):
                yield Site(value, scope, "target", f"the '{key}' zone")
            elif key == "with":
                for name, v in value.items():
                    if v is not None:
                        yield Site(v, scope, "value", f"the value of '{name}'")
            elif hasattr(value, "span") and key not in ("reason",):
                role = "list" if key == "players" else "value"
                yield Site(value, scope, role, f"the '{key}' of a '{e.kind}' effect")


def action_scope(action, scope: Scope) -> Scope:
    inner = scope.bind({"player": INT}, kind="param")
    for name, domain, _ in action.params:
        inner = inner.bind({name: _elem(domain, inner)}, kind="param")
    return inner


def action_sites(action, scope: Scope) -> Iterator[Site]:
    inner = scope.bind({"player": INT}, kind="param")
    for name, domain, _ in action.params:
        if domain is not None:
            yield Site(domain, inner, "list", f"the domain of parameter '{name}'")
        inner = inner.bind({name: _elem(domain, inner)}, kind="param")
    for check in action.require:
        if check.cond is not None:
            yield Site(check.cond, inner, "cond", "a requirement")
    for target, amount, _ in action.cost:
        if target is not None:
            yield Site(target, inner, "var_target", "a cost")
        if amount is not None:
            yield Site(amount, inner, "value", "a cost amount")
    yield from effect_sites(action.effects, inner)
    yield from flow_sites(action.then, inner)


def flow_sites(nodes: list[FlowNode], scope: Scope) -> Iterator[Site]:
    for n in nodes:
        a = n.args
        if n.kind == "loop":
            for k in ("while", "until"):
                if a.get(k) is not None:
                    yield Site(a[k], scope, "cond", f"the '{k}' of a loop")
            if a.get("times") is not None:
                yield Site(a["times"], scope, "value", "the 'times' of a loop")
            yield from flow_sites(n.body, scope)
        elif n.kind in ("for", "turns"):
            key = "in" if n.kind == "for" else "players"
            if a.get(key) is not None:
                yield Site(a[key], scope, "list", f"the list of a '{n.kind}'")
            if a.get("until") is not None:  # tested before the turn's player is bound
                yield Site(a["until"], scope, "cond", "the 'until' of a 'turns'")
            inner = scope.bind({a["var"]: _elem(a.get(key), scope)}) if a.get("var") else scope
            if a.get("seen_by") is not None:
                yield Site(a["seen_by"], inner, "list", "the players who may know it")
            yield from flow_sites(n.body, inner)
        elif n.kind == "if":
            if a.get("cond") is not None:
                yield Site(a["cond"], scope, "cond", "an 'if' condition")
            yield from flow_sites(n.body, scope)
            yield from flow_sites(n.orelse, scope)
        elif n.kind == "effects":
            yield from effect_sites(a.get("effects", []), scope)
        elif n.kind == "choose":
            if a.get("player") is not None:
                yield Site(a["player"], scope, "value", "the deciding player")
            decider = scope.bind({"player": INT}, kind="param")  # `player` is who decides here
            if a.get("pass") is not None and not isinstance(a["pass"], bool):
                yield Site(a["pass"], decider, "cond", "the condition for passing")
            if a.get("again") is not None:
                yield Site(a["again"], decider, "cond", "the 'again' of a 'choose'")
        elif n.kind in ("simultaneous", "respond"):
            if a.get("players") is not None:
                yield Site(a["players"], scope, "list", "the players")
        elif n.kind == "chance":
            if a.get("from") is not None:
                yield Site(a["from"], scope, "list", "the outcomes of a chance step")
            scope = scope.bind({a["var"]: _elem(a.get("from"), scope)}) if a.get("var") else scope
            if a.get("seen_by") is not None:
                yield Site(a["seen_by"], scope, "list", "the players who may know it")
        else:
            yield from flow_sites(n.body, scope)


def all_sites(rs: Ruleset, scope: Scope) -> Iterator[Site]:
    player_scope = scope.bind({"player": INT})
    for v in list(rs.variables.values()) + [p for k in rs.components.values() for p in k.props.values()]:
        if v.per is not None and v.per != "player":
            yield Site(v.per, scope, "list", f"the keys of '{v.name}'")
        if v.initial is not None:
            inner = player_scope if v.per == "player" else scope.bind({"key": ANY, "item": ANY})
            yield Site(v.initial, inner, "value", f"the initial value of '{v.name}'")
    for z in rs.zones.values():
        if z.per is not None and z.per != "player":
            yield Site(z.per, scope, "list", f"the keys of zone '{z.name}'")
        if z.initial is not None:
            inner = player_scope if z.per == "player" else scope.bind({"key": ANY})
            yield Site(z.initial, inner, "list", f"the initial contents of '{z.name}'")
    for d in rs.defines.values():
        if d.expr is not None:
            yield Site(d.expr, scope.bind({p: ANY for p in d.params}), "value", f"definition '{d.name}'")
    yield from effect_sites(rs.setup, scope)
    yield from flow_sites(rs.flow, scope)
    for action in rs.actions.values():
        yield from action_sites(action, scope)
    payloads = event_payloads(rs)
    for t in rs.triggers.values():
        inner = scope.bind({n: ANY for n in payloads.get(t.on or "", ())}) if t.on else scope
        for name, domain in t.each:
            if domain is not None:
                yield Site(domain, inner, "list", f"the domain of '{name}'")
            inner = inner.bind({name: _elem(domain, inner)})
        if t.when is not None:
            yield Site(t.when, inner, "cond", f"the condition of trigger '{t.name}'")
        yield from effect_sites(t.effects, inner)
    for inv in rs.invariants:
        if inv.cond is not None:
            yield Site(inv.cond, scope, "cond", "an invariant")
    for e in rs.end:
        if e.when is not None:
            yield Site(e.when, scope, "cond", "an end condition")
    if rs.scoring:
        if rs.scoring.score is not None:
            yield Site(rs.scoring.score, player_scope, "value", "the score")
        for t in rs.scoring.tiebreak:
            if t is not None:
                yield Site(t, player_scope, "value", "a tie-breaker")
        if rs.scoring.winners is not None:
            yield Site(rs.scoring.winners, scope, "list", "the winners")
        if rs.scoring.estimate is not None:
            yield Site(rs.scoring.estimate, player_scope, "value", "the estimate")
    for row in rs.summary:
        if row.expr is not None:
            yield Site(row.expr, player_scope, "value", f"the summary's '{row.name}'")
