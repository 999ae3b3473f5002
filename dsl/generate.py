"""A component's `generate:`: one item for every combination of field values.

A field's values are written out (`suit: [sun, moon]`), a range `{from: 1, to: 13}`,
or worked out when a game is set up from its options and its player count: a range
whose ends are expressions (`{from: 1, to: "options.top_bid"}`) or an expression giving
the values (`"range(0, player_count())"`, `"range(2, options.top + 1, 2)"`).  Such
expressions may read the options and the player count only: the state does not exist
yet, and the items are what it will be made of.

When the ruleset is read, each expression is checked (an int for a range's ends, a list
of the field's type otherwise), and the items are made with the options' defaults and
the fewest players, so every static check sees them.  Every player count the game
allows, with every combination of the declared choices of the options read, is tried
too, so that an expression that cannot be worked out for one of them is an error where
it is written (with the choice named), not a game that fails to start.  A game whose
options or player count give other values gets its own items (`generated_items`, through
`Rules.items_for`).
"""
from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field
from typing import Any

from . import expr_ast as A
from .compile_expr import compile_expr
from .diagnostics import Diagnostic
from .eval_errors import EvalError, EvalLimitError
from .options import choice_sets, fits_option, option_type, options_read, options_symbol
from .schema.limits import MAX_GENERATED
from .scope import Scope
from .source import Span, plain, span_of
from .typecheck import infer_type
from .types import ANY, INT, Type, list_of
from .values import option_value

SETUP_COST_LIMIT = 200_000  # the work one generated field's values may take to work out
# Functions whose value depends on the player count: a generate that calls one is tried
# with every player count the game allows.
_READ_PLAYERS = frozenset({"players", "player_count", "next_player", "clockwise", "counterclockwise"})


@dataclass
class Axis:
    """One generated field: its values written out (`values`), a range whose ends are ints
    or expressions (`low`, `high`), or an expression giving the values (`expr`)."""
    field: str
    span: Span
    values: list | None = None
    low: Any = None
    high: Any = None
    expr: A.Expr | None = None

    @property
    def worked_out(self) -> bool:
        return self.expr is not None or isinstance(self.low, A.Expr) or isinstance(self.high, A.Expr)


@dataclass
class GenerateDecl:
    """A `generate:` some of whose values are worked out at set-up: kept so that a game
    with other options or another player count makes its own items."""
    axes: list[Axis]
    template: str
    field_types: dict  # field -> Type
    span: Span
    template_span: Span
    reads: set | None = field(default_factory=set)  # the options the expressions read; None: any
    reads_players: bool = False
    listed: int = 0  # how many of the kind's items are listed (`items:`), before the generated ones


class GenerateError(ValueError):
    """A game's options or player count give a `generate` values it cannot make items of."""

    def __init__(self, code: str, message: str, span: Span | None):
        super().__init__(message)
        self.code, self.message, self.span = code, message, span


# -- reading -------------------------------------------------------------------------------

def build_generate(r, name: str, node, fields: dict, players: tuple[int, int]):
    """(the items for the options' defaults and the fewest players, the GenerateDecl when
    some values are worked out at set-up, else None).  Problems are reported on `r`."""
    gen = r.mapping(node["generate"], "generate", parent_span=node.span)
    template = r.string(node.get("id"), "the id template", node.span)
    if gen is None:
        return [], None
    if template is None:
        r.error("S102", f"component '{name}' generates items, so it needs an 'id' template such as "
                "\"{suit}{rank}\"", node.span)
        return [], None
    axes, ok = [], True
    for key, spec in gen.items():
        if str(key) not in fields:
            r.error("N303", f"'{key}' is not a declared field of '{name}'", gen.key_spans.get(key))
        axis = _axis(r, str(key), spec, gen.value_spans.get(key, gen.span), fields.get(str(key)) or ANY,
                     r.options)
        ok = ok and axis is not None
        if axis is not None:
            axes.append(axis)
    if not ok:
        return [], None
    decl = GenerateDecl(axes, template, {a.field: fields.get(a.field) or ANY for a in axes},
                        span_of(node["generate"], node.span), span_of(node.get("id"), node.span), *_reads(axes))
    defaults = {n: o.default for n, o in r.options.items()}
    try:
        items = _items(decl, defaults, players[0])
    except GenerateError as exc:
        given = f"with the options' defaults and {players[0]} players: " if any(a.worked_out for a in axes) else ""
        r.diagnostics.append(Diagnostic(exc.code, given + exc.message, exc.span or decl.span))
        return [], None
    if not any(a.worked_out for a in axes):
        return items, None
    _try_every_game(r, decl, players)
    return items, decl


def _axis(r, key: str, spec, span: Span, field_type: Type, options: dict) -> Axis | None:
    if isinstance(spec, list):
        return Axis(key, span, values=[plain(v) for v in spec])
    if isinstance(spec, dict):
        ends = []
        for end in ("from", "to"):
            written = spec.get(end)
            if written is None:
                return None  # reported by the shape pass
            if isinstance(written, int) and not isinstance(written, bool):
                ends.append(int(written))
                continue
            expr = r.expr(written, f"'{end}' of a generated range", span)
            if expr is None or not _checked(r, expr, INT, f"'{end}' of a generated range", options, "T403"):
                return None
            ends.append(expr)
        return Axis(key, span, low=ends[0], high=ends[1])
    expr = r.expr(spec, "a generated field's values", span)  # a text, or a number: never a list
    if expr is None or not _checked(r, expr, list_of(field_type), "a generated field's values", options, "T409"):
        return None
    return Axis(key, span, expr=expr)


def _checked(r, expr, expected: Type, what: str, options: dict, code: str) -> bool:
    t, problems = infer_type(expr, _scope(options, expr.span))
    for d in problems:
        if d.code == "N301":
            d = dataclasses.replace(d, notes=d.notes + (
                "a generated field is worked out at set-up, from the options (options.NAME) and the "
                "player count (player_count()) only",))
        r.diagnostics.append(d)
    if not problems and not expected.accepts(t):
        element = expected.args[0] if expected.name == "list" else None
        if element is not None and t.name == "list":  # a list of another type: the field's
            problems = [Diagnostic("T407", f"{what} must be {element} values for the field, found {t}", expr.span)]
        else:
            problems = [Diagnostic(code, f"{what} must be {expected}, found {t}", expr.span)]
        r.diagnostics.extend(problems)
    return not problems


def _scope(options: dict, span) -> Scope:
    return Scope({"options": options_symbol(options, span)}, boards=frozenset())


def _reads(axes: list[Axis]) -> tuple[set | None, bool]:
    """(the options the axes' expressions read, None if some read them other than by name;
    whether they read the player count)."""
    read: set | None = set()
    players = False
    for axis in axes:
        for part in (axis.low, axis.high, axis.expr):
            if not isinstance(part, A.Expr):
                continue
            names = options_read(part)
            read = None if names is None or read is None else read | names
            players = players or any(isinstance(n, A.Call) and n.func in _READ_PLAYERS for n in A.walk(part))
    return read, players


def _try_every_game(r, decl: GenerateDecl, players: tuple[int, int]) -> None:
    """Work the values out for every player count (when they read it) with every
    combination of the declared choices of the options they read; the first that fails
    is reported where the failing expression is written."""
    counts = range(players[0], players[1] + 1) if decl.reads_players else range(players[0], players[0] + 1)
    sets = choice_sets(decl.reads, r.options) if decl.reads else None
    defaults = {n: o.default for n, o in r.options.items()}
    for count, chosen in itertools.product(counts, sets or [{}]):
        try:
            axes = _values(decl, {**defaults, **chosen}, count)
            _size(decl, axes)
        except GenerateError as exc:
            given = ", ".join(f"{n} = {v!r}" for n, v in chosen.items())
            r.diagnostics.append(Diagnostic(exc.code, f"with {count} players{' and ' + given if given else ''}: "
                                            f"{exc.message}", exc.span or decl.span))
            return


# -- making the items ----------------------------------------------------------------------

def generated_items(decl: GenerateDecl, options: dict, players: int) -> list[dict]:
    """The items a game with these options and this player count has: {"id", field: value}
    each, in the order of the product of the fields' values.  GenerateError if they cannot
    be made."""
    return _items(decl, options, players)


def _items(decl: GenerateDecl, options: dict, players: int) -> list[dict]:
    axes = _values(decl, options, players)
    _size(decl, axes)
    out = []
    names = [a.field for a in decl.axes]
    for combo in itertools.product(*axes):
        data = dict(zip(names, combo))
        try:
            item_id = decl.template.format(**data)
        except (KeyError, IndexError, ValueError) as exc:
            raise GenerateError("S110", f"the id template cannot be filled: {exc}", decl.template_span) from None
        out.append({"id": item_id, "_span": decl.span, **data})
    return out


def _size(decl: GenerateDecl, axes: list) -> None:
    size = 1
    for values in axes:
        size *= len(values)
    if size > MAX_GENERATED.value:
        raise GenerateError(MAX_GENERATED.code, f"'generate' would make {size:,} items; at most "
                            f"{MAX_GENERATED.value:,}", decl.span)


def _values(decl: GenerateDecl, options: dict, players: int) -> list:
    """Each axis's values (a range is kept as a range: its size is checked before anything
    is made)."""
    ctx = _SetUpCtx(options, players)
    out = []
    for axis in decl.axes:
        if axis.values is not None:
            out.append(axis.values)
        elif axis.expr is None:
            low, high = (_work_out(ctx, end, INT) for end in (axis.low, axis.high))
            out.append(range(low, high + 1))
        else:
            out.append(list(_work_out(ctx, axis.expr, list_of(decl.field_types.get(axis.field) or ANY))))
    return out


def _work_out(ctx, written, expected: Type):
    if not isinstance(written, A.Expr):
        return written
    try:
        value = compile_expr(written, _scope(ctx.options, written.span))(ctx)
    except EvalError as exc:
        raise GenerateError(exc.code, exc.message, exc.span or written.span) from None
    wanted = expected.args[0] if expected.name == "list" else expected
    values = value if expected.name == "list" and isinstance(value, tuple) else (value,)
    if (expected.name == "list" and not isinstance(value, tuple)) or not all(_fits(v, wanted) for v in values):
        raise GenerateError("R701", f"a generated field's values must be {expected}, found {option_type(value)}",
                            written.span)
    return value


def _fits(value, t: Type) -> bool:
    """A worked-out value of the field's type (an option of type `any` may give anything)."""
    return fits_option(value, t) if t.name in ("int", "bool", "str", "list", "map", "any") else True


class _SetUpCtx:
    """What a generated field's expression runs in: the options, the player count and a
    small cost counter; no state (move_count() is 0), no board, and no items (they are
    being made)."""

    def __init__(self, options: dict, players: int):
        self.options = {k: option_value(v) for k, v in options.items()}
        self.player_count = players
        self.bindings: dict = {}
        self.game = _NothingYet()
        self.state = None
        self.cost = 0

    def charge(self, n: int = 1) -> None:
        self.cost += n
        if self.cost > SETUP_COST_LIMIT:
            raise EvalLimitError("R702", f"a generated field takes more than {SETUP_COST_LIMIT:,} steps to work out")


class _NothingYet:
    boards: dict = {}
    items: dict = {}
    item_kinds: dict = {}

    def items_of(self, kind):
        raise EvalError("R701", "a generated field cannot read items: they are what it makes")

    def has_move(self, ctx, player, names):
        raise EvalError("R701", "a generated field is worked out before any move: has_move cannot be asked")


__all__ = ["Axis", "GenerateDecl", "GenerateError", "build_generate", "generated_items"]
