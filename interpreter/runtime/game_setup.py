"""A new game: set-up of the variables, zones and items from the declarations, and the
walk of the flow to the first decision (mixed into game.Game)."""
from __future__ import annotations

from meeple.dsl.compare import map_key
from meeple.dsl.eval_errors import EvalError
from meeple.dsl.functions import want_list
from meeple.dsl.values import Item
from . import draw_points, rng
from .context import Ctx, RuleError
from .flowgraph import DECIDE
from .state import State

STEP_LIMIT = 100_000
MAX_KEYS = 10_000  # keys of one keyed variable or zone: every state copy carries them all
MAX_ASKING = 4  # has_move inside the rules of an action has_move asks about, nested
_UNKNOWN = object()


class GameSetup:
    # ctx.game protocol -------------------------------------------------------------
    def items_of(self, kind: str) -> tuple:
        return self._items_by_kind.get(kind, ())

    def prop_default(self, item, name):
        # A default reads only the item and the game (its context has no state), so each
        # item's is worked out once per game.
        key = (item.kind, item.id, name)
        value = self._defaults.get(key, _UNKNOWN)
        if value is _UNKNOWN:
            value = self._defaults[key] = self._work_out_default(item, name)
        return value

    def _work_out_default(self, item, name):
        entry = self.rules.prop_defaults.get((item.kind, name))
        if entry is None:
            return "up" if name == "face" else (() if name == "seen_by" else None)
        decl, fn = entry
        if fn is None:
            return None
        return fn(_ItemCtx(self, item))

    # -- new game ---------------------------------------------------------------------
    def new_state(self, seed: int = 0) -> State:
        # Nothing but the setup's shuffles and draws depends on the seed: the declared
        # initial values are worked out once per game; when the setup drew nothing, the
        # state its walk starts from is kept, and when the walk to the first decision drew
        # nothing either, the whole first state is kept and copied.
        if self.on_skip is None:
            first = self._first_state
            if first is not None:
                state = first.copy()
                state.rng = rng.seed_state(seed)
                state._moves = first._moves  # listed once: they depend on nothing the seed changes
                return state
            if self._before_walk is not None:
                return self._walk_to_first_decision(self._fresh_before_walk(seed), lambda: self._fresh_before_walk(seed))
        if self.explicit_chance and self._may_draw:  # the setup's draws are chance points
            return draw_points.play_step(self, self._before_setup(seed), None)
        state = self._before_setup(seed)
        self._set_up(state)
        if state.rng == rng.seed_state(seed) and self.on_skip is None:
            self._before_walk = state.copy()
        state = self._walk_to_first_decision(state)
        if state.rng == rng.seed_state(seed) and self.on_skip is None:
            self._first_state = state.copy()
            self._first_state._moves = self._moves_at(state)  # made once, for every new game
        return state

    def _before_setup(self, seed: int) -> State:
        """The declared initial contents, worked out once per game, and the seeded generator."""
        state = State()
        state.rng = rng.seed_state(seed)
        if self._initial_contents is None:
            ctx = Ctx(self, state)
            for name, (decl, per, init) in self.rules.initials.items():
                state.vars[name] = self._initial(ctx, decl, per, init, default=_default_of(decl))
            for name, (decl, per, init) in self.rules.zone_initials.items():
                state.zones[name] = self._initial(ctx, decl, per, init, default=(), zone=True)
            self._check_one_place_each(state)
            self._place_faces(ctx)
            self._initial_contents = (dict(state.vars), dict(state.zones), dict(state.props))
        else:  # containers are replaced on write, never changed: sharing them is safe
            state.vars, state.zones, state.props = (dict(part) for part in self._initial_contents)
        return state

    def _set_up(self, state: State) -> None:
        """Run the setup on `state` and stand it at the start of the flow."""
        ctx = Ctx(self, state)
        try:
            self.rules.setup(ctx)
        except EvalError as exc:
            raise RuleError(exc.code, exc.message, exc.span) from None
        state.pc = self.rules.start
        state.locals = {}
        self._check_end(ctx)  # a game may be over before its first decision

    def _fresh_before_walk(self, seed: int) -> State:
        state = self._before_walk.copy()
        state.rng = rng.seed_state(seed)
        return state

    def _walk_to_first_decision(self, state: State, again=None) -> State:
        """The state the flow's walk reaches from `state`: where a back end has a playout
        kernel, the kernel walks it (with no move to play), since a game's first walk may
        deal, shuffle and draw as much as a whole round does.  The kernel stops at a
        decision without listing its moves for later; at a point it does not run, the usual
        walk goes on from there.  If it stops on anything unusual, the usual walk starts
        again from `state` and meets the same trouble, as a playout's loop does.  The
        kernel walks a copy of `state`, or `state` itself when `again()` can make it anew
        for that walk."""
        kernel = self._walk_kernel()
        if kernel is not None and not state.over and state.pc in kernel[1]:
            run, points_run = kernel
            before = self._before_walk if again is not None else state
            walked = state if again is not None else state.copy()
            try:
                run(self, walked, _no_draw, 0, 0, [])
            except Exception:  # noqa: BLE001 - the walk below reports it in the language's terms
                self.kernel_fallbacks += 1
                walked = None
                if again is not None:
                    state = again()
            if walked is not None:
                stopped = walked.pc in points_run and self.rules.points[walked.pc].code == DECIDE
                if not walked.over and not stopped:
                    self._advance(walked)
                # The kernel hands back every zone anew: those the walk left as they were
                # stay the objects new games share, as after the usual walk.
                _share_unchanged(before.zones, walked.zones)
                return walked
        self._advance(state)
        return state

    def _check_one_place_each(self, state):
        """Zones' `initial` contents must not share an item: an item is in one place."""
        where: dict = {}
        for name, contents in state.zones.items():
            groups = contents.items() if isinstance(contents, dict) else (
                enumerate(contents) if self.rules.zones[name].per is not None else [(None, contents)])
            for key, group in groups:
                here = name if key is None else f"{name}[{key!r}]"
                for item in group:
                    if not isinstance(item, Item):
                        decl = self.rules.zones[name]
                        raise RuleError("R705", f"the initial contents of {here} hold {item!r}, which is "
                                        "not an item", decl.span, decl.rule)
                    if item.id in where:
                        decl = self.rules.zones[name]
                        raise RuleError("R710", f"item '{item.id}' starts both in {where[item.id]} and in {here}",
                                        decl.span, decl.rule)
                    where[item.id] = here

    def _initial(self, ctx, decl, per, init, default, zone=False):
        shared = []  # an initial value that reads neither `player` nor `key` is the same for each

        def value(bindings):
            if init is None:
                return default
            if shared:
                return shared[0]
            ctx.bindings.update(bindings)
            try:
                v = init(ctx)
            except EvalError as exc:
                raise RuleError(exc.code, exc.message, exc.span or decl.span, decl.rule) from None
            except KeyError as exc:  # a variable or zone read before its own initial value
                raise RuleError("R711", f"the initial value of '{decl.name}' reads '{exc.args[0]}', which "
                                "has no value yet: variables start in the order they are declared, "
                                "then zones", decl.span, decl.rule) from None
            if zone:
                v = tuple(v) if isinstance(v, (tuple, list)) else (v,)
            else:
                from .store import check_bounds
                v = check_bounds(decl, v, decl.name, decl.span)
            if decl.name in self.rules.initial_shared:
                shared.append(v)
            return v
        if decl.per is None:
            return value({})
        if decl.per == "player":
            return tuple(value({"player": p}) for p in range(self.player_count))
        try:
            keys = [map_key(k, decl.span) for k in want_list(per(ctx), f"the keys of '{decl.name}'")]
            if len(keys) > MAX_KEYS:
                raise EvalError("R702", f"'{decl.name}' is keyed by {len(keys):,} values; at most "
                                f"{MAX_KEYS:,} are allowed (as many as a board's nodes)", decl.span)
        except EvalError as exc:
            raise RuleError(exc.code, exc.message, exc.span or decl.span, decl.rule) from None
        return {k: value({"key": k}) for k in keys}

    def _place_faces(self, ctx):
        for name, (decl, _, _) in self.rules.zone_initials.items():
            if decl.face == "down":
                z = ctx.state.zones[name]
                groups = [z] if decl.per is None else (z.values() if isinstance(z, dict) else z)
                for group in groups:
                    for item in group:
                        ctx.state.props[item.id] = {**ctx.state.props.get(item.id, {}), "face": "down"}


def _items_of(value) -> tuple:
    """The items in a move's argument: most arguments are a number, a text or one item."""
    if isinstance(value, Item):
        return (value,)
    if isinstance(value, (tuple, list)):
        return tuple(_items_in(value))
    return ()


def _items_in(value):
    if isinstance(value, Item):
        yield value
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _items_in(v)


def _default_of(decl):
    t = decl.type.name
    return {"int": 0, "bool": False, "str": "", "list": (), "map": {}, "set": frozenset()}.get(t, None) \
        if decl.min is None \
        else decl.min


def _share_unchanged(before: dict, after: dict) -> None:
    """Zones are lists of items (per player or per key: a list or map of such lists), and
    an item equals only itself, so Python's == tells exactly which the walk left as they
    were (a map's keys are the zone's, in their order)."""
    for name, value in after.items():
        old = before.get(name)
        if old is not value and old == value:
            after[name] = old


class _ItemCtx:
    """Enough of a context to compute an item property's default."""

    def __init__(self, game, item):
        self.game, self.bindings, self.player_count = game, {"item": item}, game.player_count
        self.options, self.cost, self.state = game.options, 0, None

    def charge(self, n=1):
        pass

    def item_prop(self, item, name):
        return self.game.prop_default(item, name)


def _no_draw(n: int) -> int:
    raise AssertionError("the walk to the first decision plays no move")
