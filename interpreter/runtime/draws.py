"""Every draw an effect makes from the game's generator goes through here.

A `shuffle`, and a `move` or `deal` out of a `kind: bag` zone, draw from the state's
generator (`state.rng`, rng.py).  In play that is all there is to it, and it stays
exactly as it was: seeded replays and recorded playthroughs do not change.

An analysis that branches over chance (`Game.explicit_chance`: the OpenSpiel adapter,
`meeple explore`, the leak tests) needs each of those draws as a chance node with its
real outcomes.  An effect, though, is a closure that runs to its end: it cannot stop
half way and wait.  So while Game plays a step with chance explicit (a move, or the
setup, each with the walk to where play waits next), `state.rng` holds a `Tape` in place
of the generator: the outcomes already chosen for that step's draws, in order.  A draw
takes the next one; when there is none left it raises `NeedDraw` with the number of
outcomes it has, and Game answers with a chance point (draw_points.py).  Choosing an
outcome plays the step again, from the state before it, with one more on the tape.

Both back ends come here: generated effect blocks call `below` (a deal out of a bag),
`shuffled` and `bag_pick` with `S.rng` and put `S.rng` back with the rest of the state
when they hand a block to the reference, so the tape's place is restored with everything
else.  The fused playout tier (codegen/fused_zones.py) draws from rng.py itself, the
same numbers in the same order: with chance explicit a ruleset that draws has no playout
kernel, so a tape never reaches it.
"""
from __future__ import annotations

import hashlib

from . import rng


class NeedDraw(Exception):
    """The next draw has no chosen outcome yet: it has `size` outcomes, each as likely.
    Generated blocks pass it on as it is (emit_effects.py): the reference, run instead,
    would stop at the same draw."""

    meeple_reference = True

    def __init__(self, size: int):
        super().__init__(f"a draw of one of {size} outcomes is still to be chosen")
        self.size = size


class Tape:
    """The outcomes chosen for one step's draws and how many are used so far.  A tape is
    never changed (a draw gives a new one), so keeping `state.rng` is keeping its place.
    `generator` is the state's own generator, which a trial of a move (`then_required`)
    draws from instead: such a trial is not play."""

    __slots__ = ("generator", "outcomes", "used")

    def __init__(self, generator: int, outcomes: tuple, used: int = 0):
        self.generator, self.outcomes, self.used = generator, outcomes, used

    def take(self, size: int) -> tuple["Tape", int]:
        if self.used == len(self.outcomes):
            raise NeedDraw(size)
        i = self.outcomes[self.used]
        if not 0 <= i < size:  # the step drew otherwise when played again: it must not
            raise AssertionError(f"outcome {i} of a draw of {size} outcomes")
        return Tape(self.generator, self.outcomes, self.used + 1), i


def mixed(generator: int, outcomes) -> int:
    """The generator after explicit outcomes were chosen in place of its own draws.

    With chance explicit nothing else moves the generator, and it keys the ranks of
    hidden items' handles (knowledge.py): folded into it, the outcomes make those ranks
    as unknown to a player as the outcomes themselves, where a generator left at the
    seed would let anyone who knows the seed work them out."""
    text = f"{generator}|{outcomes!r}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")


def generator(r) -> int:
    """The generator's own state, whether `r` is it or a tape over it."""
    return r if type(r) is int else r.generator


def below(r, n: int):
    """(the generator or tape after the draw, a uniform integer in [0, n))."""
    if type(r) is int:
        return rng.below(r, n)
    return r.take(n)


def shuffled(r, items: tuple):
    """(after, the items shuffled).  From a tape: the same Fisher-Yates as rng.shuffled,
    one draw of k, k-1, ..., 2 outcomes for k items, so every order is as likely.  Not
    one draw of k! outcomes, even for a few items: one rule for every shuffle keeps each
    chance point's outcomes within the number of items (an action table stays small)."""
    if type(r) is int:
        return rng.shuffled(r, items)
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        r, j = r.take(i + 1)
        out[i], out[j] = out[j], out[i]
    return r, tuple(out)


def bag_pick(r, contents: tuple, n: int):
    """`n` items drawn at random from a bag, one draw each: (after, drawn, left)."""
    picked, rest = [], list(contents)
    for _ in range(min(n, len(rest))):
        r, i = below(r, len(rest))
        picked.append(rest.pop(i))
    return r, tuple(picked), tuple(rest)


def may_draw(ruleset) -> bool:
    """Can an effect of this ruleset draw: is there a bag, or a `shuffle` anywhere?  (A
    bag's items come out at random whichever effect takes them.)  When not, playing a
    step with chance explicit needs no tape, and a playout kernel may run it."""
    if any(z.kind == "bag" for z in ruleset.zones.values()):
        return True
    blocks = [ruleset.setup, *(t.effects for t in ruleset.triggers.values())]
    flows = [ruleset.flow]
    for action in ruleset.actions.values():
        blocks.append(action.effects)
        flows.append(action.then)
    while flows:
        for node in flows.pop():
            if node.kind == "effects":
                blocks.append(node.args.get("effects") or [])
            flows += [node.body, node.orelse]
    while blocks:
        for effect in blocks.pop():
            if effect.kind == "shuffle":
                return True
            blocks += [effect.args.get(k) or [] for k in ("then", "else", "do")]
    return False
