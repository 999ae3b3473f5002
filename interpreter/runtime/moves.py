"""Moves: one canonical text form, enumeration from an action's parameter
domains and requirements, and the explanation of why a move is illegal.

Legality and effect come from the same action declaration; there is no
second, hand-written list of moves.
"""
from __future__ import annotations

import re
from dataclasses import FrozenInstanceError, dataclass

from meeple.dsl.expr_ast import names_read
from meeple.dsl.functions import arith, want_list
from meeple.dsl.values import Item

from .store import read_in

_BARE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")


class Unknown:
    """What a reader of another player's move sees in place of a value they may not know:
    a secret parameter, or what a chance step drew out of their sight (Game.seen_move)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "?"


UNKNOWN = Unknown()


def format_value(v, name_item=None) -> str:
    """A value in move text; `name_item` names items as one player may (knowledge.Namer)."""
    if v is UNKNOWN:
        return "?"
    if isinstance(v, Item):
        return v.id if name_item is None else name_item(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "none"
    if isinstance(v, str):
        return v if _BARE.match(v) and v not in ("true", "false", "none") else repr(v)
    if isinstance(v, (tuple, list)):
        return "[" + ",".join(format_value(x, name_item) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(f"{format_value(k, name_item)}:{format_value(x, name_item)}"
                              for k, x in v.items()) + "}"
    return str(v)


class Move:
    """One legal move: who plays it, the action and its arguments.

    Immutable and compared by (player, action, args); `shown` is the canonical
    text when it differs from the ids (an item the mover cannot see whole is named
    by its handle; set by Game when it lists the legal moves) and takes no part in
    equality.  Moves are built for every candidate a listing finds, so this is a
    small slotted class whose constructor writes the slots directly rather than a
    frozen dataclass (whose constructor goes through `object.__setattr__`)."""

    __slots__ = ("player", "action", "args", "shown")
    __match_args__ = ("player", "action", "args", "shown")

    def __init__(self, player: int, action: str, args: tuple = (), shown: str | None = None):
        _set_player(self, player)
        _set_action(self, action)
        _set_args(self, args)  # ((name, value), ...) in declaration order
        _set_shown(self, shown)

    def __setattr__(self, name, value):
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other):
        if other.__class__ is not Move:
            return NotImplemented
        return self.player == other.player and self.action == other.action and self.args == other.args

    def __hash__(self):
        return hash((self.player, self.action, self.args))

    def __repr__(self):
        return (f"Move(player={self.player!r}, action={self.action!r}, args={self.args!r}, "
                f"shown={self.shown!r})")

    def __reduce__(self):
        return (Move, (self.player, self.action, self.args, self.shown))

    def __str__(self) -> str:
        if self.shown is not None:
            return self.shown
        return move_text(self)

    @property
    def text(self) -> str:
        return str(self)

    def arg(self, name):
        for k, v in self.args:
            if k == name:
                return v
        raise KeyError(name)


_set_player = Move.__dict__["player"].__set__
_set_action = Move.__dict__["action"].__set__
_set_args = Move.__dict__["args"].__set__
_set_shown = Move.__dict__["shown"].__set__


PASS = "pass"
CHANCE_STEP_ACTION = "chance"  # the action of a flow `chance` step's outcomes
DRAW, DRAW_INDEX = "draw", "index"  # a draw inside a step (draw_points.py): draw(index=i)
CHANCE = -1  # the "player" who moves at a chance point (Game.explicit_chance)


def move_text(move: Move, name_item=None) -> str:
    """A move's text with items named by `name_item` (by their ids when None)."""
    if not move.args:
        return move.action
    return f"{move.action}(" + ",".join(f"{k}={format_value(v, name_item)}" for k, v in move.args) + ")"


def _scan(text: str):
    """Each character with whether it lies inside a quoted string (quotes included)."""
    quote, escaped = None, False
    for i, ch in enumerate(text):
        if quote:
            yield i, ch, True
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = None
        else:
            if ch in "'\"":
                quote = ch
            yield i, ch, quote is not None


def canonical_text(text: str) -> str:
    """A move as typed, in its canonical form: whitespace outside quoted strings dropped."""
    return "".join(ch for _, ch, quoted in _scan(text) if quoted or not ch.isspace())


def split_args(text: str) -> list[str]:
    """`a=1,b=[2,3],c='x,y'` into its top-level parts (commas in brackets or quotes kept)."""
    depth, start, out = 0, 0, []
    for i, ch, quoted in _scan(text):
        if quoted:
            continue
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    if text[start:]:
        out.append(text[start:])
    return out


@dataclass(frozen=True)
class Rejection:
    """Why a move is not legal: a code, a reason, and the rule it cites.  The
    interpreter's own refusals also keep the template of their reason and its values, so
    a front end can say them in another language without reading the English back."""

    code: str
    reason: str
    rule: str | None = None
    template: str | None = None
    values: tuple = ()  # (name, value) pairs filling `template`

    @classmethod
    def of(cls, code: str, template: str, rule: str | None = None, **values) -> "Rejection":
        return cls(code, template.format(**values), rule, template, tuple(values.items()))

    def __str__(self):
        return self.reason + (f" (rule {self.rule})" if self.rule else "")


class IllegalMove(Exception):
    def __init__(self, move_text: str, rejection: Rejection):
        self.move_text, self.rejection = move_text, rejection
        super().__init__(f"illegal move '{move_text}': {rejection}")


def enumerate_action(ctx, action, player: int, out: list):
    """Append every legal Move of `action` for `player` (ctx.bindings already hold locals).

    Each requirement is tested as soon as the parameters it reads are chosen
    (`action.levels`), so a requirement on the first parameter prunes before the
    second is enumerated; requirements ready at the same point are tested in the
    order written.  Costs are tested last, on complete moves."""
    params = action.params
    bindings = ctx.bindings
    bindings["player"] = player
    levels = action.levels
    costs = action.costs

    def passes(checks):
        for fn in checks:
            if fn(ctx) is not True:
                return False
        return True

    def affordable():
        for place_fn, amount_fn, _ in costs:
            if cost_shortfall(ctx, place_fn, amount_fn) is not None:
                return False
        return True

    if not passes(levels[0]):
        return
    if not params:
        if affordable():
            out.append(Move(player, action.name))
        return

    names = [p[0] for p in params]
    last = len(params) - 1

    def rec(i, chosen):
        name, domain_fn = params[i]
        checks = levels[i + 1]
        domain = domain_fn(ctx)
        if type(domain) is not tuple:  # an `any`-typed domain is checked when it is used
            domain = want_list(domain, f"the choices of '{name}'")
        ctx.charge(len(domain))  # a step per choice, charged before the first is tried
        for value in domain:
            bindings[name] = value
            if checks and not passes(checks):
                continue
            if i == last:
                if affordable():
                    out.append(Move(player, action.name, tuple(zip(names, chosen + (value,)))))
            else:
                rec(i + 1, chosen + (value,))
    rec(0, ())


def requirement_levels(params: list, conds: list) -> list:
    """For each parameter position (0 = before any is chosen), the indexes of the
    requirements whose last parameter read is the one chosen there."""
    names = [p if isinstance(p, str) else p[0] for p in params]
    levels: list = [[] for _ in range(len(names) + 1)]
    for j, cond in enumerate(conds):
        read = names_read(cond)
        level = max((i + 1 for i, n in enumerate(names) if n in read), default=0)
        levels[level].append(j)
    return levels


def cost_shortfall(ctx, place_fn, amount_fn):
    """None if the cost can be paid, else (has, needs)."""
    place = place_fn(ctx)
    amount = amount_fn(ctx)
    decl = place.decl
    try:
        have = read_in(ctx.state.vars[decl.name], place.keys)
    except (KeyError, IndexError, TypeError):
        return (None, amount)
    floor = decl.min if decl.min is not None else None
    if floor is not None and arith("-", have, amount) < floor:
        return (have, amount)
    return None


class UnmadeMoves:
    """The legal moves a generated playout function listed where it stopped, kept as its
    own listing until they are asked for (`made`): a new game's walk stops at the first
    decision, and a playout from there never asks for them.  It stands in `State._moves`,
    so a caller who changes a state and clears `_moves` clears it too."""

    __slots__ = ("shape", "player", "listing")

    def __init__(self, shape, player, listing):
        self.shape, self.player, self.listing = shape, player, listing

    def made(self) -> tuple:
        return self.shape.moves(self.player, self.listing)


def place_of(moves: tuple, move) -> int | None:
    """`moves.index(move)`, first by identity (a caller usually plays one of the listed
    moves); None where it is not there."""
    for i, m in enumerate(moves):
        if m is move:
            return i
    try:
        return moves.index(move)
    except ValueError:
        return None
