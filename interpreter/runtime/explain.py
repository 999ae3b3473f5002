"""Why a move is illegal, in the words of the ruleset: the failed requirement's
reason and its rulebook citation, or what was wrong with the move's text."""
from __future__ import annotations

import re

from meeple.dsl.functions import want_list

from .context import Ctx
from .knowledge import Namer
from .moves import CHANCE, PASS, Move, Rejection, cost_shortfall, format_value, split_args

_MOVE = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_\-]*)(\((?P<args>.*)\))?$")


def explain_rejection(game, state, text: str, player: int | None, referee: bool = False) -> Rejection:
    if state.over:
        return Rejection.of("M806", "the game is over")
    match = _MOVE.match(text)
    if not match:
        return Rejection.of("M802", "'{move}' is not a move; write action or action(param=value,...)", move=text)
    name = match.group("name")
    point = game.rules.points[state.pc]
    acting = game.current_players(state)
    if player is not None and player not in acting:
        return Rejection.of("M805", "it is not player {player}'s turn (to move: {acting})", player=player,
                            acting=", ".join(map(str, acting)))
    if acting == (CHANCE,):  # a chance step of the flow, or a draw inside a step
        outcomes = [str(m) for m, _ in game.chance_outcomes(state)]
        known = ", ".join(outcomes[:12]) + (f", ... ({len(outcomes)} in all)" if len(outcomes) > 12 else "")
        return Rejection.of("M807", "'{move}' is not an outcome of this chance point; outcomes: {known}",
                            move=text, known=known)
    who = player if player is not None else (acting[0] if acting else None)
    if name == PASS:
        if not point.allow_pass:
            return Rejection.of("M807", "passing is not allowed here", point.rule)
        if point.pass_fn is not None and who is not None and not game.may_pass(Ctx(game, state), point, who):
            # the step's own condition for passing is its requirement
            return Rejection.of("M804", "passing here requires {condition}", point.rule,
                                condition=point.pass_text or "the step's condition")
        return Rejection.of("M808", "pass takes no parameters")
    if name not in game.rules.actions:
        known = ", ".join(point.actions) or "(none)"
        return Rejection.of("M801", "there is no action '{name}'; possible now: {known}", name=name, known=known)
    action = game.rules.actions[name]
    if name not in point.actions:
        known = ", ".join(point.actions) or "(none)"
        if state.phase:
            return Rejection.of("M807", "'{name}' cannot be taken now in phase '{phase}'; possible now: {known}",
                                point.rule, name=name, phase=state.phase, known=known)
        return Rejection.of("M807", "'{name}' cannot be taken now; possible now: {known}", point.rule,
                            name=name, known=known)
    given = {}
    for part in split_args(match.group("args") or ""):
        key, eq, value = part.partition("=")
        if not eq:
            return Rejection.of("M802", "parameter '{part}' must be written name=value", part=part)
        given[key] = value
    declared = [p[0] for p in action.params]
    for key in given:
        if key not in declared:
            return Rejection.of("M802", "'{name}' has no parameter '{key}'; parameters: {declared}", name=name,
                                key=key, declared=", ".join(declared) or "(none)")
    ctx = Ctx(game, state)
    ctx.bindings["player"] = who
    # Values are named as the mover sees them; the referee may also use hidden ids.
    name_item = Namer(game, state, who).name if who is not None and who >= 0 else None
    for pname, domain_fn in action.params:
        if pname not in given:
            return Rejection.of("M802", "'{name}' needs the parameter '{param}'", name=name, param=pname)
        domain = want_list(domain_fn(ctx), f"the choices of '{pname}'")
        chosen = [v for v in domain if format_value(v, name_item) == given[pname]
                  or (referee and format_value(v) == given[pname])]
        if not chosen:
            shown = ", ".join(format_value(v, name_item) for v in domain[:12]) + (", ..." if len(domain) > 12 else "")
            return Rejection.of("M803", "{param}={value} is not possible; choices: {choices}", action.rule,
                                param=pname, value=given[pname], choices=shown or "(none)")
        ctx.bindings[pname] = chosen[0]
    for fn, reason, rule, _ in action.checks:
        if fn(ctx) is not True:
            return Rejection("M804", reason, rule)
    for place_fn, amount_fn, _ in action.costs:
        short = cost_shortfall(ctx, place_fn, amount_fn)
        if short is not None:
            place = place_fn(ctx)
            has, needs = short
            return Rejection.of("M809", "cannot pay {needs} {place} (has {has})", action.rule or place.decl.rule,
                                needs=needs, place=place.decl.name, has=has)
    if action.then_required and point.kind == "choose":
        move = Move(who, name, tuple((p, ctx.bindings[p]) for p, _ in action.params))
        if not game.reaches_then(state, move):
            return Rejection.of("M811", "nothing could be done after '{name}': none of its follow-up steps would "
                                "have a possible move", action.rule, name=name)
    return Rejection.of("M810", "'{move}' is not legal here", action.rule, move=text)
