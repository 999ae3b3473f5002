"""The generic leak test: histories a player cannot tell apart must look the same to them.

For a player p, a history is mirrored by another that p cannot tell from it by what the
declarations let p know: it starts from the real opening with the items hidden from p
exchanged among the places p cannot see, within each zone and between zones
(view_support.perturb), and follows the real
history move by move, each other player's move (or chance outcome, chance being
explicit) replaced by a random one that p reads the same (`reading`, which names items
by what p sees of them, not by their handles), p's own moves kept.  As long as what the
declarations show p (`fingerprint`, worked out from the declarations and
knowledge.Namer's sight, not from views.py) is the same in both, everything made for p
must be the same: the view, the texts of p's legal moves and of the move played as p
reads it, the narrated log of that move (Game.narrate), the observation tensor of the adapters.  Where the fingerprints part (a hidden
draw became visible), the views must part too, and the mirror ends.

So a die a `chance` step rolled and stored in an owner-only variable, a secret bid, a
card dealt into another's hand, and the position an item was dealt from are all put to
the test, in any ruleset, with nothing known about it beforehand.
"""
from __future__ import annotations

import random

from meeple.dsl.values import Item
from meeple.interpreter.runtime.game import CHANCE
from meeple.interpreter.runtime.knowledge import WHOLE, Namer, ranks_erased
from meeple.interpreter.runtime.views import seen_locals, seers

from view_support import perturb


class Leak(AssertionError):
    pass


def _look(namer, item: Item):
    """An item as p tells it apart: its id when seen whole, else what shows of it and where
    it lies, as far as p sees the order of its zone (the table sees a card taken from the
    third place of a row, not from which place of a hidden hand)."""
    if namer.sight(item) == WHOLE:
        return ("item", item.id)
    place = namer.where.get(item.id)
    if place is not None and namer.order_hidden(*place):
        place = place[:2]
    return ("hidden", item.kind, tuple(sorted(namer.face(item).items())), place)


def _value(namer, value):
    if isinstance(value, Item):
        return _look(namer, value)
    if isinstance(value, (tuple, list)):
        return tuple(_value(namer, v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted(((repr(_value(namer, k)), _value(namer, v)) for k, v in value.items()), key=repr))
    if isinstance(value, (set, frozenset)):
        return tuple(sorted((_value(namer, v) for v in value), key=repr))
    return value


def fingerprint(game, state, p) -> tuple:
    """What the declarations let p know of `state`, made from them and from which items p
    sees (knowledge.Namer.sight), never from the view under test."""
    rules, namer = game.rules, Namer(game, state, p)
    out = [state.phase, tuple(game.current_players(state)), state.over, tuple(state.log[-20:])]
    for name, decl in rules.variables.items():
        value = state.vars[name]
        if decl.visibility == "none":
            continue
        if decl.visibility == "owner" and decl.per == "player":
            value = value[p]
        out.append((name, _value(namer, value)))
    for name, decl in rules.zones.items():
        groups = state.zones[name]
        if decl.per is None:
            groups = {None: groups}
        elif decl.per == "player":
            groups = dict(enumerate(groups))
        for key, group in sorted(groups.items(), key=lambda kv: repr(kv[0])):
            hidden = decl.visibility == "none" or (decl.visibility == "owner" and key != p)
            if hidden:
                seen = sorted(i.id for i in group if p in (state.props.get(i.id, {}).get("seen_by") or ()))
                out.append((name, key, len(group), tuple(seen)))
            elif decl.visibility == "top":
                out.append((name, key, len(group), _look(namer, group[0]) if group else None))
            else:
                looks = [_look(namer, i) for i in group]
                out.append((name, key, tuple(sorted(looks, key=repr)) if decl.kind == "bag" else tuple(looks)))
    for item_id, props in sorted(state.props.items()):
        public = {k: v for k, v in props.items() if k != "seen_by"}
        if public and namer.sight(rules.items[item_id]) == WHOLE:
            out.append((item_id, _value(namer, public)))
    for name in sorted(seen_locals(game, state, p)):
        out.append(("local", name, _value(namer, state.locals[name])))
    return tuple(out)


def reading(game, state, move, p):
    """How the declarations let p read `move` played from `state`: another's secret action
    as "?" and its secret parameters as "?", a draw of a `chance` step whose `seen_by` does
    not name p as "?", and each item as p tells it apart rather than by its handle.
    Made from the declarations, not from Game.seen_move, which is under test."""
    namer = Namer(game, state, p)
    if move.player == p:
        return move.player, move.action, tuple((k, _value(namer, v)) for k, v in move.args)
    if move.player == CHANCE:
        point = game.rules.points[state.pc]
        seen = point.seen is not None and p in seers(game, state, point.seen, point)
        return CHANCE, move.action, tuple((k, _value(namer, v) if seen else "?") for k, v in move.args)
    secret = game.rules.ruleset.actions[move.action].secret if move.action in game.rules.ruleset.actions else False
    if secret is True:
        return move.player, "?", ()
    return move.player, move.action, tuple((k, "?" if secret and k in secret else _value(namer, v))
                                          for k, v in move.args)


def _moves(game, state):
    if game.current_players(state) == (CHANCE,):
        return [m for m, _ in game.chance_outcomes(state)]
    return list(game.legal_moves(state))


def random_history(game, seed: int, rnd, limit: int) -> list:
    """(state, move) pairs of one random game with chance explicit, cut at `limit` moves;
    the draws inside a step (a shuffle's, a bag's: draw_points.py) are not counted, so a
    long shuffle in the setup does not use up the history, and a step is not cut short."""
    state, out, counted = game.new_state(seed), [], 0
    while not game.is_terminal(state) and (counted < limit or state.drawing is not None):
        moves = _moves(game, state)
        if not moves:
            break
        move = moves[rnd.randrange(len(moves))]
        out.append((state, move))
        counted += state.drawing is None
        state = game.apply(state, move)
    out.append((state, None))
    return out


def compare(game, real, alt, p, extra=(), exchanged: bool = False) -> None:
    """Everything made for p from two states p cannot tell apart must be the same.  When
    `alt` is `real` with hidden items exchanged and nothing else changed, to the letter:
    handles' ranks are keyed by places and the generator, never by items.  Otherwise but
    for the ranks: twin histories may have moved the generator apart (a draw p did not
    see), or point at another of the places p cannot see (another's choice of a hidden
    card), and a rank is a label drawn afresh for each state, as good as any other."""
    same = _as_is if exchanged else ranks_erased
    a, b = same(game.view(real, p)), same(game.view(alt, p))
    if a != b:
        raise Leak(f"p{p}'s view tells apart what p may not: {_first_difference(a, b)}")
    if p in game.current_players(real):
        texts = sorted(same(game.move_text(real, m, p)) for m in game.legal_moves(real) if m.player == p)
        twins = sorted(same(game.move_text(alt, m, p)) for m in game.legal_moves(alt) if m.player == p)
        if texts != twins:
            raise Leak(f"p{p}'s move texts tell apart what p may not: {sorted(set(texts) ^ set(twins))[:4]}")
    for made in extra:
        if not _same(same(made(real, p)), same(made(alt, p))):
            raise Leak(f"p{p}'s {getattr(made, '__name__', 'input')} tells apart what p may not")


def same_narration(game, real, move, alt, twin, p) -> None:
    """The narrated log of a move and of its twin, which p cannot tell apart and which lead
    to states p cannot tell apart, must read the same to p (Game.narrate)."""
    said, twin_said = ranks_erased(game.narrate(real, move, p)), ranks_erased(game.narrate(alt, twin, p))
    if said != twin_said:
        raise Leak(f"p{p}'s narration of {move} tells apart what p may not: {said} != {twin_said}")


def _as_is(value):
    return value


def _same(x, y) -> bool:
    try:
        return bool((x == y).all())  # numpy arrays
    except AttributeError:
        return x == y


def _first_difference(a, b, path="view"):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                return _first_difference(a.get(k), b.get(k), f"{path}.{k}")
    return f"{path}: {a!r} != {b!r}"


def mirror(game, history: list, p: int, rnd, extra=(), swap: bool = True) -> int:
    """Follow `history` with a twin p cannot tell apart, checking each step (module
    docstring); the number of steps followed (where the twin stayed the same to p).
    Of the moves p reads as the real one, the twin takes one that keeps it looking the
    same to p where there is one (a draw that the table then sees is drawn alike)."""
    real0 = history[0][0]
    # The generator kept: the draws still to come are the real ones unless chance is explicit.
    alt = perturb(game, real0, p, rnd, keep_generator=True)[0] if swap else real0.copy()
    steady = False  # both are still inside the step they were in at the last check: nothing changed
    for i, (real, move) in enumerate(history):
        if not steady:
            compare(game, real, alt, p, extra, exchanged=i == 0)
        if move is None:
            return i
        want, text = reading(game, real, move, p), ranks_erased(game.move_text(real, move, p))
        twins = [m for m in _moves(game, alt) if m.player == move.player and reading(game, alt, m, p) == want]
        if not twins:
            return i  # the others' choices here depend on what p cannot see
        rnd.shuffle(twins)
        if real.drawing is not None and move in twins:
            # A draw inside a step: the twin draws the same outcome first, as both drew from
            # one generator when such draws were not chance points (`alt.rng` above).
            twins.insert(0, twins.pop(twins.index(move)))
        after = history[i + 1][0]
        # A draw inside a step that leads to another draw of it leaves the table as it was
        # (draw_points.py): where the twin's does too, there is nothing new to compare.
        within = real.drawing is not None and after.drawing is not None
        goal = None
        for twin in twins:
            if ranks_erased(game.move_text(alt, twin, p)) != text:
                raise Leak(f"p{p} reads the move {move} as {text!r}, and {twin} that p may not tell from it "
                           f"as {game.move_text(alt, twin, p)!r}")
            nxt = game.apply(alt, twin)
            steady = within and alt.drawing is not None and nxt.drawing is not None
            if steady:
                alt = nxt
                break
            goal = fingerprint(game, after, p) if goal is None else goal
            if fingerprint(game, nxt, p) == goal:
                same_narration(game, real, move, alt, twin, p)
                alt = nxt
                break
        else:  # whatever the twin does, p now sees a difference: p's view must show it
            if ranks_erased(game.view(nxt, p)) == ranks_erased(game.view(after, p)):
                raise Leak(f"after {i + 1} moves p{p}'s view hides a difference the declarations show")
            return i + 1
    return len(history)


def check_no_leaks(game, seeds, limit: int = 200, extra=()) -> int:
    """The mirror test for every player over one random history per seed, chance explicit,
    three times: from the start with the hidden items as they are (so that the others'
    secret choices and the draws p does not see are what differs), from the start with
    them exchanged, and from the middle with them exchanged.  The total number of steps
    followed (to tell a test that mirrors nothing)."""
    game.explicit_chance = True
    total = 0
    for seed in seeds:
        history = random_history(game, seed, random.Random(seed), limit)
        middle = len(history) // 2
        # Not inside a step (a draw's chance point): its pending move names the real items.
        while history[middle][0].drawing is not None:
            middle += 1
        for p in range(game.player_count):
            rnd = random.Random(seed * 31 + p)
            total += mirror(game, history, p, rnd, extra, swap=False)
            total += mirror(game, history, p, rnd, extra)
            total += mirror(game, history[middle:], p, rnd, extra)
    return total
