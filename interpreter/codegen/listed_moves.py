"""The moves a generated playout listed where it stopped, as `Game.legal_moves` lists them.

A step of the compiled back end (`Game.apply`, game_steps.py) plays its one move with the
playout function and lets it run on to the next decision, where the function lists the
moves before it sees that its move limit is reached.  Handing that listing over as the
next state's legal moves saves listing them a second time.  Each generated function keeps
its moves as tuples of its own shape; a decision's `ListedShape` (plain data made when the
function is written, never source text) turns them into `Move`s in the same order.
"""
from __future__ import annotations

from itertools import repeat

from ..runtime.moves import PASS, Move

PASS_TAG = -1  # the tag of a pass in the generated listings (kernel.py, fused_decisions.py)


class ListedShape:
    """How the entries of one decision's listing hold a move.

    `actions[tag]` is (action name, its parameters' names).  `form` is one of:
    - "tagged": (tag, player, *values), a pass as (PASS_TAG, player)  (the kernel tier);
    - "bare": the decision's only action's values, one value bare  (fused, one action);
    - "tags": (tag, *values), a pass as (PASS_TAG,)  (fused, several actions or a pass);
    - "with_player": (player, *values) or (player, tag, *values)  (fused, simultaneous);
    - "plain": the values of the only parameter, all of them moves  (fused, pick_directly);
    - "plain_by_player": (player, values) pairs  (fused, pick_directly at a simultaneous step).
    `respond`: the listing's last entry is the responder's pass."""

    __slots__ = ("form", "actions", "respond", "made", "by_entry")

    def __init__(self, form: str, actions: tuple, respond: bool = False):
        self.form, self.actions, self.respond = form, actions, respond
        # (player, tag, values) -> its Move: moves are immutable, and a decision offers the
        # same few again and again (the columns of a board, the cards of a hand).
        self.made: dict = {}
        # (player, the listing's own entry) -> its Move, for entries that are keys: found by
        # one lookup each, with no key built per move.  The player and the entry name the
        # move in every form (an entry without its player is that player's move).
        self.by_entry: dict = {}

    def __eq__(self, other):
        return isinstance(other, ListedShape) and (self.form, self.actions, self.respond) == \
            (other.form, other.actions, other.respond)

    __hash__ = None

    def keep_in(self, ns: dict, name: str) -> None:
        """Bind `name` to this shape in a generated module's namespace, keeping an equal one
        already there (writing a tier again replaces none of the objects it shares)."""
        if ns.get(name) != self:
            ns[name] = self

    def moves(self, player, out) -> tuple:
        if self.form == "plain_by_player":  # (mover, their values) pairs: each mover's moves in turn
            return tuple(m for p, values in out for m in self._found(p, values))
        if self.respond:
            key = (player, PASS_TAG, ())
            return self._found(player, out[:-1]) + (self.made.get(key) or self._move(key),)
        return self._found(player, out)

    def _found(self, player, entries) -> tuple:
        """The moves of `player`'s entries, found by the entries themselves."""
        by_entry = self.by_entry
        try:
            try:
                found = tuple(map(by_entry.__getitem__, zip(repeat(player), entries)))
            except KeyError:  # a move not met before: made once, then found by its entry
                if len(by_entry) >= _KEPT:
                    return self._moves_by_key(player, entries)
                for entry in entries:
                    if (player, entry) not in by_entry:
                        by_entry[(player, entry)] = self._move(self._key(player, entry), keep=False)
                found = tuple(map(by_entry.__getitem__, zip(repeat(player), entries)))
        except TypeError:  # an entry that is no key (a list, from the kernel tier)
            return self._moves_by_key(player, entries)
        return found

    def _moves_by_key(self, player, entries) -> tuple:
        """The moves of `player`'s entries (no pass among them), each found by its key."""
        made, found, keys = self.made, [], [self._key(player, m) for m in entries]
        try:
            for key in keys:
                move = made.get(key)
                if move is None:
                    move = self._move(key)
                found.append(move)
        except TypeError:  # a value that is no key (none in the language's moves so far)
            return tuple(self._move(key, keep=False) for key in keys)
        return tuple(found)

    def _key(self, player, m):
        """(player, tag, values) of one entry of the listing."""
        form = self.form
        if form in ("plain", "plain_by_player") or (form == "bare" and len(self.actions[0][1]) == 1):
            return (player, 0, (_held(m),))
        if form == "bare":
            return (player, 0, tuple(map(_held, m)))
        if form == "tagged":
            return (m[1], m[0], tuple(map(_held, m[2:])))
        if form == "tags":
            return (player, m[0], tuple(map(_held, m[1:])))
        if form == "with_player":
            if len(self.actions) == 1:
                return (m[0], 0, tuple(map(_held, m[1:])))
            return (m[0], m[1], tuple(map(_held, m[2:])))
        raise AssertionError(f"no listing of the form {form!r}")

    def _move(self, key, keep: bool = True) -> Move:
        player, tag, values = key
        if tag == PASS_TAG:
            move = Move(player, PASS)
        else:
            name, params = self.actions[tag]
            move = Move(player, name, tuple(zip(params, values)))
        if keep and len(self.made) < _KEPT:
            self.made[key] = move
        return move


_KEPT = 1 << 16  # moves kept per decision: far more than any shipped game offers


def _held(value):
    """A value as a move holds it: the kernel tier's lists are the language's lists, which
    the listing of `Game.legal_moves` holds as tuples."""
    return tuple(map(_held, value)) if type(value) is list else value
