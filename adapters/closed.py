"""The parameters whose every value is known from the declarations alone.

A domain that reads nothing of the state (no variable, zone or item property, and no
flow local or earlier parameter: only `player`, the options and the library) gives the
same list in every position, so its values for each player, worked out once at set-up,
are exactly the values the parameter can ever take: `range(7)`, `nodes('grid')`.  Such
a parameter needs no probe, no widening and no spare ids.  A domain that yields items
is left out: how its mover names an item (by id or by handle) depends on the position.
"""
from __future__ import annotations

from meeple.dsl.eval_errors import EvalError
from meeple.interpreter.runtime.context import Ctx, RuleError
from meeple.interpreter.runtime.invariant_deps import state_reads

from .atoms import Unencodable, atom_of, has_items, holds_map

_FREE = frozenset({"player", "options"})


def exact_atoms(game, action: str, index: int, state) -> set | None:
    """Every value (as atoms) parameter `index` of `action` can take, or None when the
    declarations do not settle it."""
    rs = game.rules.ruleset
    domain = rs.actions[action].params[index][1]
    others: set = set()
    variables, zones, props = state_reads(domain, rs, others)
    if variables or zones or props or not others <= _FREE:
        return None
    domain_fn = game.rules.actions[action].params[index][1]
    out: set = set()
    for player in range(game.player_count):
        try:
            values = domain_fn(Ctx(game, state, {"player": player}))
        except (EvalError, RuleError):  # left to the probe games, which meet it where play reaches it
            return None
        if not isinstance(values, (tuple, list)):
            return None
        for value in values:
            if has_items(value):
                return None
            try:
                atom = atom_of(value)
            except Unencodable:
                return None
            if holds_map(atom):
                return None
            out.add(atom)
    return out

