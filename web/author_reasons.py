"""Why each action is or is not legal now, for the author panel: the reasons `meeple play`'s
`why MOVE` gives (`Game.explain`), asked of the first move an action could be.

An action that is not offered at this control point is refused for that (M807).  One that
is offered but has no legal move is asked with the first value of each of its parameters'
choices, so the refusal names the first requirement (or cost) that fails, with its rule;
a parameter with no choice at all says so (M803, "choices: (none)").
"""
from __future__ import annotations

from dataclasses import dataclass

from meeple.dsl.eval_errors import EvalError
from meeple.dsl.functions import want_list
from meeple.interpreter.runtime.context import Ctx
from meeple.interpreter.runtime.moves import format_value


@dataclass
class ActionNow:
    name: str
    legal: int  # legal moves of it for the seat now
    asked: str  # the move text the reason is about ('' when legal)
    rejection: object = None  # Rejection, when not legal


def actions_now(game, state, seat: int) -> list[ActionNow]:
    counts: dict = {}
    for move in game.legal_moves(state, seat):
        counts[move.action] = counts.get(move.action, 0) + 1
    out = []
    for name, action in game.rules.actions.items():
        if counts.get(name):
            out.append(ActionNow(name, counts[name], ""))
            continue
        asked = first_move(game, state, seat, name, action)
        out.append(ActionNow(name, 0, asked, game.explain(state, asked, seat)))
    return out


def first_move(game, state, seat: int, name: str, action) -> str:
    """The text of the action's first candidate move, as `seat` names things."""
    if not action.params or state.over:
        return name
    ctx = Ctx(game, state)
    ctx.bindings["player"] = seat
    namer = game.namer(state, seat)
    parts = []
    for param, domain_fn in action.params:
        try:
            domain = want_list(domain_fn(ctx), f"the choices of '{param}'")
        except EvalError:
            domain = ()
        if not domain:
            parts.append(f"{param}=?")
            break
        ctx.bindings[param] = domain[0]
        parts.append(f"{param}={format_value(domain[0], namer.name)}")
    return f"{name}({','.join(parts)})"
