"""What kind of game a ruleset is, in the terms the frameworks ask: are turns ever
simultaneous, is there chance (explicit chance steps, or shuffles and bag draws made
from the state's own generator), and can a player ever lack information."""
from __future__ import annotations

from meeple.interpreter.flowgraph import CHANCE as CHANCE_STEP, DECIDE


def has_simultaneous(game) -> bool:
    return any(p.code == DECIDE and p.kind == "simultaneous" for p in game.rules.points)


def has_chance_steps(game) -> bool:
    return any(p.code == CHANCE_STEP for p in game.rules.points)


def draws_in_secret(game) -> bool:
    """True when effects draw from the state's generator: a `shuffle`, or any move out of
    a bag (which draws at random).  Those draws are not chance steps anybody can see, so
    an adapter makes the generator's seed the game's first, hidden, chance outcome."""
    rs = game.rules.ruleset
    if any(z.kind == "bag" for z in rs.zones.values()):
        return True
    return any(_shuffles(effects) for effects in _effect_lists(rs))


def hides_information(game) -> bool:
    return bool(game.hides_information) or has_simultaneous(game) or draws_in_secret(game)


def _effect_lists(rs):
    yield rs.setup
    for a in rs.actions.values():
        yield a.effects
        yield from _flow_effects(a.then)
    for t in rs.triggers.values():
        yield t.effects
    yield from _flow_effects(rs.flow)


def _flow_effects(nodes):
    for n in nodes:
        if n.kind == "effects":
            yield n.args.get("effects", [])
        yield from _flow_effects(n.body)
        yield from _flow_effects(n.orelse)


def _shuffles(effects) -> bool:
    for e in effects:
        if e.kind == "shuffle":
            return True
        if any(_shuffles(e.args.get(k) or []) for k in ("then", "else", "do")):
            return True
    return False
