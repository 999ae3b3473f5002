"""The view property, shared by the random-playout test and the fixtures that
show it catches leaks.

For a viewer, take a state and swap items the viewer cannot tell apart: two
items of one kind that the viewer cannot see whole and that look the same to
them (nothing shows, or the same visible side), wherever they lie: within one
zone (the order of a hand, a deck, a bag) and between zones (an opponent's hand
and the deck, two face-down tiles, two books' hidden backs).  Also change
others' private amounts.  Then, with the generator as it was:

- the viewer's view must not change, not even in a handle's rank;
- the text of any move, as the viewer reads it, must not change (the move that
  takes the item now at the place the real move takes it from, ranks included);
- after the same move is played in both states, the viewer's view may differ
  only if something the viewer sees differs: who moves next, the phase and the
  open decision must not be what gives the hidden change away.

And with the generator changed as well, the same holds but for the ranks, which
the generator keys (knowledge.relabelling_key): the view never shows the
generator itself.

Which items "look the same" is decided by `knowledge.Namer`, independently of
the view function under test, so a view that shows an id it should not fails.
"""
from __future__ import annotations

from meeple.dsl.values import Item
from meeple.interpreter.runtime.knowledge import WHOLE, Namer, locate, ranks_erased
from meeple.interpreter.runtime.moves import Move

FLOW_KEYS = ("to_move", "phase", "over")


def perturb(game, state, viewer, rnd, keep_generator: bool = False):
    """A state that differs only in what `viewer` cannot know, and the item swap
    (the item first at a place -> the item now there).  The hidden items of each zone
    are exchanged among themselves first (the order a known deck was dealt in, the
    order of a bag), then among all the places of their kind."""
    new = state.copy()
    if not keep_generator:
        new.rng = rnd.getrandbits(64)
    namer = Namer(game, state, viewer)
    at = {}      # place -> the item there now
    looks = {}   # place -> what the viewer sees there (before any swap)
    kinds: dict = {}
    zones: dict = {}
    for item_id, place in locate(game, state).items():
        item = game.rules.items[item_id]
        if namer.sight(item) == WHOLE:
            continue
        at[place], looks[place] = item, _look(namer, item)
        kinds.setdefault(item.kind, []).append(place)
        zones.setdefault((item.kind, place[:2]), []).append(place)
    first = dict(at)
    props_at = {place: state.props.get(item.id) for place, item in at.items()}
    for places in [*zones.values(), *kinds.values()]:
        for _ in range(min(3 * len(places), 60) if len(places) > 1 else 0):
            pa, pb = rnd.sample(places, 2)
            a, b = at[pa], at[pb]
            _place(new, pa, b, props_at[pa])
            _place(new, pb, a, props_at[pb])
            trial = Namer(game, new, viewer)
            if _look(trial, b) == looks[pa] and _look(trial, a) == looks[pb]:
                at[pa], at[pb] = b, a
            else:  # the viewer would see the difference: undo
                _place(new, pa, a, props_at[pa])
                _place(new, pb, b, props_at[pb])
    swap = {first[place]: item for place, item in at.items() if first[place] != item}
    if swap:  # variables and flow locals that hold a swapped item follow it
        new.vars = {k: _sub(v, swap) for k, v in new.vars.items()}
        new.locals = {k: _sub(v, swap) for k, v in new.locals.items()}
    for name, decl in game.rules.variables.items():
        if decl.per == "player" and decl.visibility == "owner":
            values = list(new.vars[name])
            for p in range(len(values)):
                if p != viewer and isinstance(values[p], int) and not isinstance(values[p], bool):
                    values[p] += rnd.randint(1, 3)
            new.vars[name] = tuple(values)
    return new, swap


def _look(namer, item):
    return namer.sight(item), sorted(namer.face(item).items())


def _place(state, place, item, props):
    """Put `item` at `place`; properties that lie with a place (face, the side up,
    who has seen it) stay with the place."""
    _put(state, place, item)
    if props is None:
        state.props.pop(item.id, None)
    else:
        state.props[item.id] = props


def _put(state, place, item):
    name, key, i = place
    z = state.zones[name]
    if key is None:
        state.zones[name] = z[:i] + (item,) + z[i + 1:]
        return
    sub = z[key]
    sub = sub[:i] + (item,) + sub[i + 1:]
    state.zones[name] = {**z, key: sub} if isinstance(z, dict) else z[:key] + (sub,) + z[key + 1:]


def _sub(value, swap):
    if isinstance(value, Item):
        return swap.get(value, value)
    if isinstance(value, tuple):
        return tuple(_sub(v, swap) for v in value)
    if isinstance(value, list):
        return [_sub(v, swap) for v in value]
    if isinstance(value, dict):
        return {_sub(k, swap): _sub(v, swap) for k, v in value.items()}
    if isinstance(value, frozenset):
        return frozenset(_sub(v, swap) for v in value)
    return value


def swapped_move(move, swap):
    return Move(move.player, move.action, tuple((k, _sub(v, swap)) for k, v in move.args))


def check_view_property(game, state, viewer, rnd, view=None, move=None):
    """Assert the view property at `state` for `viewer` (see the module docstring).
    `view` is the view function under test (the game's by default)."""
    view = view or game.view
    other, swap = perturb(game, state, viewer, rnd, keep_generator=True)
    assert view(other, viewer) == view(state, viewer), "the view shows something hidden from its viewer"
    regenerated = other.copy()
    regenerated.rng = rnd.getrandbits(64)
    assert ranks_erased(view(regenerated, viewer)) == ranks_erased(view(state, viewer)), \
        "the view shows the generator"
    if move is None:
        return
    twin = swapped_move(move, swap)
    assert game.move_text(other, twin, viewer) == game.move_text(state, move, viewer), \
        "a move's text names something hidden from the viewer"
    if twin not in game.legal_moves(other):
        return
    after, after_other = game.apply(state, move), game.apply(other, twin)
    a, b = view(after, viewer), view(after_other, viewer)
    same_data = {k: v for k, v in a.items() if k not in FLOW_KEYS} == \
        {k: v for k, v in b.items() if k not in FLOW_KEYS}
    if same_data:
        assert {k: a[k] for k in FLOW_KEYS} == {k: b[k] for k in FLOW_KEYS} and \
            _decision(game, after) == _decision(game, after_other), \
            "who moves next (or the phase) depends on something hidden from the viewer"


def _decision(game, state):
    point = game.rules.points[state.pc]
    return (point.op, getattr(point, "kind", None), state.pending)
