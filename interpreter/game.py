"""The game API: a compiled ruleset bound to a player count and options.

    game = load_game("tic-tac-toe", players=2)
    state = game.new_state(seed=1)
    game.legal_moves(state)        -> tuple[Move, ...], deterministic order
    game.apply(state, move)        -> a new State (the input is never changed)
    game.is_terminal(state); game.outcome(state); game.view(state, player)

`apply` rejects an illegal move with `IllegalMove`, whose `rejection` holds the
reason and the rulebook citation.
"""
from __future__ import annotations

import random

from meeple.dsl.compare import map_key, strict_key
from meeple.dsl.eval_errors import EvalError, EvalLimitError
from meeple.dsl.functions import fail, want_list
from meeple.dsl.generate import GenerateError
from meeple.dsl.options import fits_option, option_type, type_name
from meeple.dsl.values import Item, option_value

from . import draw_points, kernel_step, rng
from .context import Ctx, RuleError, Stalled
from .draws import may_draw, mixed
from .flowgraph import (ASSIGN, BRANCH, CHANCE as CHANCE_STEP, CHECKPOINT, COUNT_DOWN, COUNT_TEST, DECIDE, DROP,
                        END, EXEC, LOOP_BIND, LOOP_STEP, LOOP_TEST, NOP, PHASE, RESPOND_START, RESTORE, SIM_START)
from .knowledge import WHOLE, Namer, chosen_from_own_zones
from .moves import CHANCE, CHANCE_STEP_ACTION, PASS, UNKNOWN, IllegalMove, Move, Rejection, canonical_text, move_text
from .outcome import Outcome, compute_outcome
from .state import State, to_plain
from .views import seers
from .store import pay_costs

STEP_LIMIT = 100_000
MAX_KEYS = 10_000  # keys of one keyed variable or zone: every state copy carries them all
MAX_ASKING = 4  # has_move inside the rules of an action has_move asks about, nested


class _MoveFound(BaseException):
    """Raised by `_FirstMoveSink` at the first legal move.  A BaseException, so that a
    generated listing's fallback (which catches Exception) does not list again."""


class _FirstMoveSink(list):
    """What `has_move` hands a listing: one move answers the question, so the listing
    stops there rather than working out the rest of the action's moves."""

    def append(self, move):
        raise _MoveFound

    def extend(self, moves):
        for _ in moves:
            raise _MoveFound


class Game:
    def __init__(self, rules, players: int, options: dict | None = None):
        info = rules.ruleset.game
        if not info.min_players <= players <= info.max_players:
            raise ValueError(f"{info.name} is for {info.min_players}-{info.max_players} players, not {players}")
        self.rules = rules
        self.backend = rules.backend
        self._asking = 0  # has_move calls under way (has_move)
        self.name = info.name
        self.player_count = players
        self.options = {k: o.default for k, o in info.options.items()}
        for k, v in (options or {}).items():
            if k not in self.options:
                raise ValueError(f"unknown option '{k}'; options: {', '.join(self.options) or '(none)'}")
            decl = info.options[k]
            wanted = option_type(decl.default)  # an option's type is its default's, all the way down
            if not fits_option(v, wanted):
                raise ValueError(f"option '{k}' must be {type_name(wanted)} like its default "
                                 f"{decl.default!r}, not {v!r}")
            if decl.choices is not None and v not in decl.choices:
                raise ValueError(f"option '{k}' must be one of {list(decl.choices)}")
            self.options[k] = v
        self.options = {k: option_value(v) for k, v in self.options.items()}
        # Normally chance points draw from the state's generator as play passes them.
        # Analysis tools set this to stop there instead and branch over the outcomes:
        # at `chance` steps of the flow, and at every draw an effect makes (draw_points.py).
        self.explicit_chance = False
        self._may_draw = may_draw(rules.ruleset)  # can an effect draw (a shuffle, a bag)?
        self.on_skip = None  # analysis hook: called when nobody can act at a decision
        self._within = None  # while trying a move for `then_required`: the points its walk may visit
        self.kernel_fallbacks = 0  # playouts, walks and steps the kernel handed back to the loop (tests read it)
        # Whether `apply` asks the back end's playout function to play its move (kernel_step.py):
        # None for whichever way is faster for this game, as a trial of its first steps finds.
        self._steps_by_kernel = None if getattr(rules, "playout_kernel", None) is not None else False
        self._step_trial = None
        self._own_choices = None  # actions whose moves never need a handle (knowledge.chosen_from_own_zones)
        self.kernel_steps = 0  # moves `apply` had the playout function play (tests read it)
        self._invariant_cache = None  # built on the first invariant check
        self._end_cache = None  # end rules, re-evaluated only when what they read changed
        self.memo: dict = {}  # values of the definitions that read no state (rules.py)
        self.boards = rules.boards_for(self.options)  # a grid's size may depend on the options
        # False when every player always knows everything (no hidden zone, face, side or amount).
        self.hides_information = rules.hides_information
        try:  # a generate may follow the options and the player count (item_sets.py)
            self.items, self._items_by_kind = rules.items_for(self.options, players)
        except GenerateError as exc:
            where = f"{exc.span}: " if exc.span is not None else ""
            raise GenerateError(exc.code, f"{where}with these options and {players} players: {exc.message}",
                                exc.span) from None
        self.item_kinds = {k.name: dict(k.fields) for k in rules.ruleset.components.values()}
        # Per decision point: (action, whether its moves must reach their `then` steps) for
        # each action offered there, so listing moves looks nothing up by name.
        self._defaults: dict = {}  # (kind, item id, property) -> its default (prop_default)
        self._initial_contents = None  # (vars, zones, props) before the setup (new_state)
        self._first_state = None  # the first state, when reaching it drew nothing (new_state)
        self._before_walk = None  # the state the first walk starts from, when the setup drew nothing
        self._kernels: dict = {}  # explicit chance -> the back end's playout kernel (_playout_kernel)
        self._offers = {p.id: tuple((rules.actions[n], rules.actions[n].then_required and p.kind == "choose")
                                    for n in p.actions) for p in rules.points if p.code == DECIDE}

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
            self._first_state._moves = state._moves
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

    def _walk_kernel(self):
        if self.on_skip is not None:  # an analysis hook the kernel does not call
            return None
        return self._playout_kernel()

    def _playout_kernel(self):
        """The back end's playout kernel for this game's player count and chance setting,
        asked of the back end once per setting (a new game and a playout each ask).  None
        with chance explicit where effects draw: a kernel cannot stop at those draws."""
        explicit = self.explicit_chance
        if explicit and self._may_draw:
            return None
        kernel = self._kernels.get(explicit, _UNKNOWN)
        if kernel is _UNKNOWN:
            make = getattr(self.rules, "playout_kernel", None)
            try:
                # A game whose options resized a grid hands its boards over: they may be too large for a tier.
                boards = self.boards if self.boards is not self.rules.boards else None
                kernel = make(explicit, self.player_count, boards) if make is not None else None
            except Exception:  # noqa: BLE001 - a ruleset the kernel's writer cannot take still plays
                kernel = None
            self._kernels[explicit] = kernel
        return kernel

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

    # -- whose turn --------------------------------------------------------------------
    def current_players(self, state: State) -> tuple:
        if state.over:
            return ()
        if state.drawing is not None:
            return (CHANCE,)
        point = self.rules.points[state.pc]
        if point.code != DECIDE:
            return (CHANCE,) if point.code == CHANCE_STEP else ()
        if point.kind == "simultaneous":
            return state.pending
        return (self._decider(state, point),)

    def _players_of(self, value, point) -> tuple:
        """The players a simultaneous or respond step asks: distinct players, in order."""
        if not isinstance(value, (tuple, list)) or any(
                not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < self.player_count
                for p in value) or len(set(value)) != len(value):
            raise RuleError("R707", f"the players asked must be distinct players 0..{self.player_count - 1}, "
                            f"got {value!r}"[:300], point.span, point.rule)
        return tuple(value)

    def _decider(self, state, point) -> int:
        if point.kind == "respond":
            order, who, _ = state.locals[point.var]
            return order[who]
        p = point.player_const
        if p is None:
            if point.player_var is not None:  # the loop's or the acting player: no context needed
                p = state.locals[point.player_var]
            else:
                try:
                    p = point.player_fn(Ctx(self, state))
                except EvalError as exc:
                    raise RuleError(exc.code, exc.message, exc.span or point.span, point.rule) from None
        if not isinstance(p, int) or not 0 <= p < self.player_count:
            raise RuleError("R707", f"the deciding player must be 0..{self.player_count - 1}, got {p!r}",
                            point.span, point.rule)
        return p

    @property
    def effects_draw(self) -> bool:
        """Can an effect draw from the generator (a `shuffle`, anything out of a bag)?  With
        chance explicit each such draw is a chance point `draw(index=i)` (draw_points.py)."""
        return self._may_draw

    def decision_kind(self, state: State) -> str | None:
        """"choose", "simultaneous" or "respond" at a decision, "chance" at an explicit
        chance step, None when the game is over.  A simultaneous choice is not shown
        to the others until the rules reveal it."""
        if state.over:
            return None
        point = self.rules.points[state.pc]
        return "chance" if point.code == CHANCE_STEP or state.drawing is not None else point.kind

    def is_terminal(self, state: State) -> bool:
        return state.over

    # -- legal moves ---------------------------------------------------------------------
    def legal_moves(self, state: State, player: int | None = None) -> tuple:
        moves = state._shown
        if moves is None:
            if state._moves is None:
                state._moves = self._all_moves(state)
            moves = state._moves
            if self.rules.may_hide:
                moves = self._named_by_movers(state, moves)
            state._shown = moves
        if player is None:
            return moves
        return tuple(m for m in moves if m.player == player)

    def _list_moves(self, state: State, walk: Ctx) -> tuple:
        """The legal moves, listed afresh while the flow walks on: their cost is charged to the
        walk, so a flow that keeps finding nobody able to act is stopped by the cost limit."""
        try:
            state._moves = self._all_moves(state, walk)
            state._shown = None
        except EvalError as exc:
            point = self.rules.points[state.pc]
            raise RuleError(exc.code, exc.message, exc.span or point.span, point.rule) from None
        return state._moves

    def _all_moves(self, state, charge_to: Ctx | None = None) -> tuple:
        if state.over:
            return ()
        point = self.rules.points[state.pc]
        if point.code != DECIDE or state.drawing is not None:
            return tuple(m for m, _ in self.chance_outcomes(state))
        players = state.pending if point.kind == "simultaneous" else (self._decider(state, point),)
        offers = self._offers[point.id]
        out: list = []
        for player in players:
            ctx = Ctx(self, state)
            for action, filtered in offers:
                try:
                    if filtered:
                        found: list = []
                        action.enumerate(ctx, player, found)
                        out.extend(m for m in found if self.reaches_then(state, m))
                    else:
                        action.enumerate(ctx, player, out)
                except EvalError as exc:
                    raise RuleError(exc.code, exc.message, exc.span or action.decl.span, action.rule) from None
            if point.allow_pass and (point.pass_fn is None or self.may_pass(ctx, point, player)):
                out.append(Move(player, PASS))
            if charge_to is not None:
                charge_to.charge(ctx.cost)
        return tuple(out)

    def has_move(self, asking: Ctx, player: int, names) -> bool:
        """`has_move(p, [actions])`: would one of these actions give `player` a legal move
        in the state `asking` evaluates, by its parameters, requirements and costs?  Asked
        of the move rules themselves, so an end or pass rule about a stuck player needs no
        second copy of them.  (`then_required` is not tried: it belongs to a decision.)"""
        actions = self.rules.actions
        if self._asking >= MAX_ASKING:
            # A requirement asking about its own action would recurse until the call limit,
            # and each level a generated listing hands to the reference doubles the work.
            raise EvalLimitError("R702", f"has_move asks about actions whose rules ask has_move in turn, "
                                 f"more than {MAX_ASKING} deep")
        self._asking += 1
        try:
            for name in names:
                action = actions.get(name)
                if action is None:
                    fail(f"has_move: there is no action '{name}'")
                ctx = Ctx(self, asking.state)
                try:
                    action.enumerate(ctx, player, _FirstMoveSink())
                except _MoveFound:
                    return True
                finally:
                    asking.charge(ctx.cost)
            return False
        finally:
            self._asking -= 1

    def may_pass(self, ctx: Ctx, point, player: int) -> bool:
        """Whether the condition of a conditional `pass:` holds for `player`, read over the
        flow's locals with `player` bound to the decider (what listing the actions bound
        is left aside); its cost is charged to `ctx`, as the listing's is."""
        listed = ctx.bindings
        ctx.bindings = {**ctx.state.locals, "player": player}
        try:
            return point.pass_fn(ctx) is True
        except EvalError as exc:
            raise RuleError(exc.code, exc.message, exc.span or point.span, point.rule) from None
        finally:
            ctx.bindings = listed

    def _named_by_movers(self, state, moves) -> tuple:
        """Give each move whose items its mover cannot all see whole its canonical
        text, in which those items are handles."""
        namers: dict = {}
        whole: dict = {}  # (player, item id) -> whether that player sees the item whole
        own = self._own_choices
        if own is None:
            own = self._own_choices = chosen_from_own_zones(self.rules)
        out = []
        for m in moves:
            player = m.player
            if player == CHANCE or not m.args or m.action in own:  # the draw itself is nobody's move: it names what was drawn
                out.append(m)
                continue
            hidden = False
            for _, value in m.args:
                for item in _items_of(value):
                    seen = whole.get((player, item.id))
                    if seen is None:
                        namer = namers.get(player)
                        if namer is None:
                            namer = namers[player] = Namer(self, state, player)
                        seen = whole[(player, item.id)] = namer.sight(item) == WHOLE
                    if not seen:
                        hidden = True
                        break
                if hidden:
                    break
            out.append(Move(player, m.action, m.args, move_text(m, namers[player].name)) if hidden else m)
        return tuple(out)

    def namer(self, state: State, viewer: int) -> Namer:
        """How `viewer` names items in `state`: `.name(item)` is the id or a handle,
        `.face(item)` the visible side of an item that viewer cannot name."""
        return Namer(self, state, viewer)

    def move_text(self, state: State, move: Move, viewer: int) -> str:
        """The move as `viewer` may read it in `state` (the state it is played from):
        items that viewer cannot see whole are named by their handles, and what viewer may
        not know of another's move (a secret, a draw out of their sight) is `?`."""
        move = self.seen_move(state, move, viewer)
        if not self.rules.may_hide:
            return str(move)
        return move_text(move, Namer(self, state, viewer).name)

    def seen_move(self, state: State, move: Move, viewer: int) -> Move:
        """`move` as `viewer` may know it, played from `state`: a secret action of another
        player (or any move of another at a simultaneous decision) as `?`, its secret
        parameters as UNKNOWN; a chance draw whose step's `seen_by` does not name the
        viewer with the value UNKNOWN, and a draw made inside a step (draw_points.py) so
        for every player.  Every text and screen that tells a player about a move starts
        from this."""
        if move.player == viewer:
            return move
        if move.player == CHANCE:
            point = self.rules.points[state.pc]
            seen = point.seen if point.code == CHANCE_STEP and state.drawing is None else None
            if seen is not None and viewer in seers(self, state, seen, point):
                return move
            return Move(CHANCE, move.action, tuple((k, UNKNOWN) for k, _ in move.args))
        secret = self.rules.secret.get(move.action)
        if not state.over and self.rules.points[state.pc].kind == "simultaneous":
            secret = True  # chosen at once: nobody sees another's choice until effects show it
        if not secret:
            return move
        if secret is True:
            return Move(move.player, "?", ())
        return Move(move.player, move.action, tuple((k, UNKNOWN if k in secret else v) for k, v in move.args))

    def chance_outcomes(self, state: State) -> list:
        """At an explicit chance point: each distinct outcome with its probability."""
        from fractions import Fraction
        if state.drawing is not None:
            return draw_points.outcomes(state.drawing)
        point = self.rules.points[state.pc]
        if state.over or point.code != CHANCE_STEP:
            return []
        ctx = Ctx(self, state)
        try:
            outcomes = want_list(point.fn(ctx), "the outcomes of a chance step")
            counts: dict = {}
            first: dict = {}
            for o in outcomes:  # outcomes equal in the language (true is not 1) are one
                k = strict_key(o, ctx)
                counts[k] = counts.get(k, 0) + 1
                first.setdefault(k, o)
        except EvalError as exc:
            raise RuleError(exc.code, exc.message, exc.span or point.span, point.rule) from None
        return [(Move(CHANCE, CHANCE_STEP_ACTION, ((point.var, first[k]),)), Fraction(c, len(outcomes)))
                for k, c in counts.items()]

    # -- apply -----------------------------------------------------------------------------
    def reaches_then(self, state: State, move: Move) -> bool:
        """For `then_required`: does playing `move` lead to a decision of its own `then`
        steps?  Paying for a follow-up that cannot happen would only waste the price."""
        point = self.rules.points[state.pc]
        then = point.then_points.get(move.action, frozenset())
        hook, self.on_skip = self.on_skip, None  # a trial, not play: analysis hooks stay quiet
        within, self._within = self._within, then  # the walk stops where it leaves the `then` steps
        if type(state.rng) is not int:  # tried inside a step played with chance explicit: not on its tape
            state = state.copy()
            state.rng = state.rng.generator
        try:
            after = self._play(state, move)
        finally:
            self.on_skip, self._within = hook, within
        return not after.over and after.pc in then

    def apply(self, state: State, move: Move | str, player: int | None = None) -> State:
        """Play a move.  A text may name items by id even where its mover would use a
        handle: whoever holds the whole state (a test, a replay) is the referee."""
        if isinstance(move, str):
            move = self.parse_move(state, move, player, referee=True)
        elif not _holds(self.legal_moves(state), move):
            raise IllegalMove(move_text(move), self.explain(state, move_text(move), move.player, referee=True))
        return self._play(state, move)

    def _play(self, state: State, move: Move) -> State:
        if self._steps_by_kernel is not False:
            return kernel_step.play(self, state, move)
        return self._play_by_loop(state, move)

    def _play_by_loop(self, state: State, move: Move) -> State:
        new = state.copy()
        self._play_in_place(new, move)
        return new

    def _play_in_place(self, new: State, move: Move) -> None:
        """Play `move` on `new` itself: only a copy made for it (`_play`) or a playout's
        own state may be changed in place.  With chance explicit, where effects may draw,
        the step is played with a tape (draw_points.py); a trial (`_within`) is not."""
        if new.drawing is not None:
            draw_points.take_over(new, draw_points.resume(self, new, move))
        elif self.explicit_chance and self._may_draw and self._within is None:
            draw_points.take_over(new, draw_points.play_step(self, new, move))
        else:
            self._play_move(new, move)

    def _play_move(self, new: State, move: Move) -> None:
        point = self.rules.points[new.pc]
        if point.code == CHANCE_STEP:
            new.locals[point.var] = move.args[0][1]
            if type(new.rng) is int:  # chosen, not drawn (draws.mixed); within a step, play_step mixes it
                new.rng = mixed(new.rng, to_plain(move.args[0][1]))
            new.pc = point.next
            self._advance(new)
            return
        ctx = Ctx(self, new)
        if move.action != PASS:
            action = self.rules.actions[move.action]
            bindings = ctx.bindings
            bindings["player"] = move.player
            if move.args:
                bindings.update(move.args)
            try:
                if action.costs:
                    pay_costs(ctx, action)
                action.effects(ctx)
            except EvalError as exc:
                raise RuleError(exc.code, exc.message, exc.span or action.decl.span, action.rule) from None
            if action.has_then and point.kind == "choose":
                names = ("player",) + tuple(k for k, _ in move.args)
                new.locals[point.var] = tuple((n, new.locals[n]) if n in new.locals else (n,) for n in names)
                new.locals["player"] = move.player
                new.locals.update(move.args)
        new.move_count += 1
        if point.kind == "choose":  # _after_move's first case, inline
            new.pc = point.cont[move.action] if move.action != PASS else point.next
        else:
            self._after_move(new, point, move)
        self._check_end(ctx)
        self._advance(new, ctx)

    # -- playouts ----------------------------------------------------------------------------
    def playout(self, state: State, policy=None, rng=None, max_moves: int | None = None) -> State:
        """Play from `state` to the end and return the final state; `state` is not changed.

        `policy(game, state, moves, rng) -> Move` picks each move (uniform random over the
        legal moves when None); `rng` is the policy's own `random.Random`, never the game's
        generator.  At an explicit chance point the outcome is drawn with its probability.
        Only one state is kept and it is changed in place, and no move texts are built:
        this is the loop search bots and simulations run thousands of times.

        With the uniform policy, a back end that has a playout kernel (codegen/kernel.py)
        plays it, noting each index it draws.  If the kernel stops on anything unusual, the
        playout is played again from `state` by the loop below, which takes those indices
        first (they are the draws it would have made itself) and then draws on: it meets
        the same trouble at the same move and reports it, and leaves `rng` where a playout
        of its own would."""
        rng = rng if rng is not None else random.Random()
        kernel = None
        if policy is None and type(rng) is random.Random and self.on_skip is None:
            kernel = self._playout_kernel()
        if kernel is not None and state.drawing is None:
            # An explicit chance step draws with rng.random(), which no index notes.
            before = rng.getstate() if self.explicit_chance else None
            drawn: list = []
            try:
                return self._kernel_playout(state, kernel, rng, max_moves, drawn)
            except Exception:  # noqa: BLE001 - the loop below meets it again and reports it
                self.kernel_fallbacks += 1
                if before is not None:
                    rng.setstate(before)
                else:
                    policy = _Replay(drawn)
        return self._loop_playout(state, policy, rng, max_moves)

    def _loop_playout(self, state, policy, rng, max_moves):
        # `randrange(n)` is `_randbelow(n)` for n > 0; a generator of another type is asked as given.
        below = rng._randbelow if type(rng) is random.Random else rng.randrange
        state = state.copy()
        played = 0
        while not state.over and (max_moves is None or played < max_moves):
            if not self._playout_step(state, policy, rng, below):
                break
            played += 1
        state._moves = state._shown = None
        return state

    def _kernel_playout(self, state, kernel, rng, max_moves, drawn: list):
        """The kernel plays the points it runs; at any other point the loop's one step.
        Every index drawn for a move is noted in `drawn`."""
        run, points_run = kernel
        randbelow = rng._randbelow

        def below(n):  # only for the loop's steps between kernel runs: the kernel notes its own
            i = randbelow(n)
            drawn.append(i)
            return i

        limit = max_moves if max_moves is not None else 1 << 62
        state = state.copy()
        played = 0
        while not state.over and played < limit:
            if state.pc in points_run:
                played = run(self, state, randbelow, limit, played, drawn)
                if state.over or played >= limit or state.pc in points_run:
                    break
                self._advance(state)  # to where the loop plays a move, as after a move of its own
                continue
            if not self._playout_step(state, None, rng, below):
                break
            played += 1
        state._moves = state._shown = state._where = None
        return state

    def _playout_step(self, state, policy, rng, below) -> bool:
        """One move of a playout at a decision or an explicit chance step: False when
        nobody can move."""
        # The walk that reached this decision listed its moves already (state._moves).
        if state.drawing is not None or self.rules.points[state.pc].code == CHANCE_STEP:  # chance to move
            move = draw_outcome(self.chance_outcomes(state), rng)
        else:
            moves = state._moves
            if moves is None:
                moves = state._moves = self._all_moves(state)
            if not moves:
                return False
            move = moves[below(len(moves))] if policy is None else policy(self, state, moves, rng)
        state._moves = state._shown = state._where = None
        self._play_in_place(state, move)
        return True

    def _after_move(self, state, point, move):
        if point.kind == "choose":
            state.pc = point.cont[move.action] if move.action != PASS else point.next
        elif point.kind == "simultaneous":
            state.pending = tuple(p for p in state.pending if p != move.player)
        elif point.kind == "respond":
            order, who, passes = state.locals[point.var]
            passes = passes + 1 if move.action == PASS else 0
            state.locals[point.var] = (order, (who + 1) % len(order), passes)
            if passes >= len(order):
                del state.locals[point.var]
                state.pc = point.next

    def _check_end(self, ctx):
        state = ctx.state
        if state.over:
            return
        cache = self._end_cache
        if cache is None:
            from .invariant_deps import ReadsCache, cache_reads
            cache = self._end_cache = ReadsCache([cache_reads(rule.when, self.rules.ruleset)
                                                  for _, rule in self.rules.end_rules])
        i = -1
        for fn, rule in self.rules.end_rules:
            i += 1
            hit = cache.lookup(i, state)
            if hit is None:  # something it reads changed since it was last evaluated
                try:
                    hit = fn(ctx) is True
                except EvalError as exc:
                    raise RuleError(exc.code, exc.message, exc.span or rule.span, rule.rule) from None
                cache.store(i, hit)
            if hit:
                if rule.after == "now":
                    state.over = True
                    state.end_reason = rule.reason or "an end condition was met"
                    return
                if state.ending is None:
                    state.ending = rule.after
                    state.end_reason = rule.reason or f"an end condition was met; the {rule.after} is finished"

    def _advance(self, state: State, ctx: Ctx | None = None):
        """Run automatic control points until a decision, or the end.

        One context serves the whole walk, its bindings mirroring the flow's locals;
        `ctx` may hand over the context of an evaluation that is over (the move's), which
        is then reset to what a fresh one would be.  Points are dispatched on their
        small-int `code`, most frequent first; the bookkeeping of `for`, `turns` and
        `times` loops is done here inline, as the functions of those points would."""
        points, within = self.rules.points, self._within
        if ctx is None:
            ctx = Ctx(self, state)
        else:
            ctx.bindings = state.locals.copy()
            ctx.cost = ctx.trigger_depth = ctx.event_depth = ctx.call_depth = 0
        passed = None  # the last decision nobody could act at: what a stalled flow goes round
        for _ in range(STEP_LIMIT):
            if state.over or (within is not None and state.pc not in within):
                return
            point = points[state.pc]
            code = point.code
            if code == DECIDE:
                if self._stop_at(state, point, ctx):
                    return
                passed = point
                continue
            try:
                if code >= LOOP_TEST:
                    b = ctx.bindings
                    if code == DROP:  # the names a scope bound end with it
                        for name in point.names:
                            state.locals.pop(name, None)
                            b.pop(name, None)
                        state.pc = point.next
                        continue
                    if code == LOOP_TEST:
                        state.pc = point.next if (b[point.index] < len(b[point.seq])) is True else point.alt
                        continue
                    if code == COUNT_TEST:
                        state.pc = point.next if (b[point.index] > 0) is True else point.alt
                        continue
                    if code == LOOP_BIND:
                        value = b[point.seq][b[point.index]]
                    elif code == LOOP_STEP:
                        value = b[point.var] + 1
                    elif code == COUNT_DOWN:
                        value = b[point.var] - 1
                    else:  # LOOP_ZERO
                        value = 0
                    state.locals[point.var] = value
                    b[point.var] = value
                    state.pc = point.next
                elif code == ASSIGN:
                    value = point.fn(ctx)
                    state.locals[point.var] = value
                    ctx.bindings[point.var] = value
                    state.pc = point.next
                elif code == BRANCH:
                    state.pc = point.next if point.fn(ctx) is True else point.alt
                elif code == EXEC:
                    point.fn(ctx)
                    self._check_end(ctx)
                    ctx.bindings = state.locals.copy()  # drop names an effect's `let` bound
                    state.pc = point.next
                elif code == PHASE:
                    state.phase = point.name
                    state.pc = point.next
                elif code == CHECKPOINT:
                    if state.ending == point.label:
                        state.over = True
                        return
                    state.pc = point.next
                elif code == SIM_START:
                    state.pending = self._players_of(point.fn(ctx), point)
                    state.pc = point.next
                elif code == RESPOND_START:
                    order = self._players_of(point.fn(ctx), point)
                    state.locals[point.var] = (order, 0, 0)
                    ctx.bindings[point.var] = (order, 0, 0)
                    state.pc = point.next
                    if not order:
                        del state.locals[point.var]
                        state.pc = points[point.next].next
                elif code == CHANCE_STEP:
                    if self.explicit_chance:
                        state._moves = state._shown = None
                        return
                    outcomes = want_list(point.fn(ctx), "the outcomes of a chance step")
                    if not outcomes:
                        raise RuleError("R708", "a chance step has no outcomes", point.span, point.rule)
                    state.rng, i = rng.below(state.rng, len(outcomes))
                    state.locals[point.var] = outcomes[i]
                    ctx.bindings[point.var] = outcomes[i]
                    state.pc = point.next
                elif code == RESTORE:
                    for entry in state.locals.pop(point.var):
                        if len(entry) == 2:
                            state.locals[entry[0]] = entry[1]
                        else:
                            state.locals.pop(entry[0], None)
                    ctx.bindings = state.locals.copy()
                    state.pc = point.next
                elif code == NOP:
                    state.pc = point.next
                elif code == END:
                    state.over = True
                    state.end_reason = state.end_reason or "the flow of play is complete"
                    return
            except EvalError as exc:
                raise RuleError(exc.code, exc.message, exc.span or point.span, point.rule) from None
        if passed is not None:
            raise Stalled(f"nobody could move: the flow ran {STEP_LIMIT} automatic steps, passing "
                          f"over this decision ({passed.kind}: {', '.join(passed.actions) or 'pass'}) "
                          "because no player had a legal move there; end the game, or let a player "
                          "pass, when nobody can move", passed.span, passed.rule, state.move_count)
        raise RuleError("R709", f"the flow ran {STEP_LIMIT} automatic steps without a decision",
                        _span_near(points, state.pc))

    def _stop_at(self, state: State, point, ctx: Ctx) -> bool:
        """At a decision: list its moves (charged to the walk `ctx`) and say whether play
        waits here; when nobody can act, move on past it (and tell `on_skip`)."""
        if point.kind == "simultaneous":
            if state.pending:
                # Those with nothing they can do are not waited for.
                moves = self._list_moves(state, ctx)
                movers = {m.player for m in moves}
                able = tuple(p for p in state.pending if p in movers)
                if able != state.pending:
                    if self.on_skip is not None:
                        self.on_skip(state, point)
                    state.pending = able
                    state._moves = state._shown = None
                if able:
                    return True
            state.pc = point.next
            return False
        moves = self._list_moves(state, ctx)
        # A responder whose only move is `pass` is still asked: skipping them
        # would tell everyone that they hold nothing playable.
        if moves:
            return True
        # Nobody can act here: a choose is skipped, a responder passes.
        state._moves = state._shown = None
        if self.on_skip is not None:
            self.on_skip(state, point)
        if point.kind == "respond":
            self._after_move(state, point, Move(self._decider(state, point), PASS))
            ctx.bindings = state.locals.copy()
        else:
            state.pc = point.next
        return False

    # -- moves as text ------------------------------------------------------------------------
    def parse_move(self, state: State, text: str, player: int | None = None, referee: bool = False) -> Move:
        """The legal move whose canonical text is `text`.  A player names items as they
        see them (ids or handles); only a referee may also name hidden items by id, so a
        player cannot probe what lies face down by guessing ids."""
        text = canonical_text(text)
        for m in self.legal_moves(state):
            if (player is None or m.player == player) and (
                    str(m) == text or (referee and m.shown is not None and move_text(m) == text)):
                return m
        raise IllegalMove(text, self.explain(state, text, player, referee))

    def explain(self, state: State, text: str, player: int | None = None, referee: bool = False) -> Rejection:
        from .explain import explain_rejection
        return explain_rejection(self, state, text, player, referee)

    def invariant_failures(self, state: State) -> list:
        """The declared invariants that do not hold in this state, as Rejections with
        the invariant's reason and citation (empty when all hold)."""
        out = []
        ctx = Ctx(self, state)
        if self._invariant_cache is None:
            from .invariant_deps import InvariantCache
            self._invariant_cache = InvariantCache(self.rules)
        cache = self._invariant_cache
        for i, (fn, check) in enumerate(self.rules.invariants):
            ok = cache.lookup(i, state)
            if ok is None:
                try:
                    ok = fn(ctx) is True
                except EvalError as exc:
                    raise RuleError(exc.code, exc.message, exc.span or check.span, check.rule) from None
                cache.store(i, ok)
            if not ok:
                out.append(Rejection("I901", check.reason, check.rule))
        return out

    # -- results ----------------------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome:
        return compute_outcome(self, state)

    def standings(self, state: State) -> Outcome:
        """The outcome as if the game ended now (scores, ranks, winners by the scoring
        rules), for any state: how a search judges a position it stops short of the end."""
        from .outcome import standings
        return standings(self, state)

    def estimates(self, state: State) -> tuple | None:
        """Each player's `scoring.estimate` in this state, or None when the ruleset has
        none: what a search that stops short of the end needs, without the rest of the
        standings."""
        from .outcome import estimates
        return estimates(self, state)

    def move_costs(self, state: State, move: Move) -> list:
        """What a legal move's action declares it costs (`cost:`), as (variable, amount)
        pairs evaluated for this move: a menu shows the price of each choice with it."""
        action = self.rules.actions.get(move.action)
        if action is None or not action.costs:
            return []
        ctx = Ctx(self, state)
        ctx.bindings["player"] = move.player
        ctx.bindings.update(move.args)
        try:
            return [(place_fn(ctx).decl.name, amount_fn(ctx)) for place_fn, amount_fn, _ in action.costs]
        except EvalError as exc:
            raise RuleError(exc.code, exc.message, exc.span) from None

    def summary(self, state: State) -> list:
        """The player panel: one `SummaryRow(name, values)` per entry of the ruleset's
        `summary:`, each value a player's (empty when the ruleset has none).  Only public
        values, so any seat may be shown all of it (summary.py)."""
        from .summary import summary
        return summary(self, state)

    def render(self, state: State, player: int, lang: str | None = None, width: int | None = None) -> str:
        """The table as `player` sees it, as text (display.py): the same text `meeple play`
        shows before that player's decision, made from their view alone.  Given the
        screen's `width`, rows of items are broken to fit it."""
        from .display import TableText
        return TableText(self, self.view(state, player), lang, width).text()

    # -- packed states -----------------------------------------------------------------------
    def pack(self, state: State) -> tuple:
        """The position as one small hashable tuple, for a search that keeps many
        (packing.py); `unpack` gives back a state that plays exactly the same."""
        return self._packer().pack(state)

    def unpack(self, packed) -> State:
        """The state `pack` made `packed` from; a tuple that is not one says so (PackError)."""
        return self._packer().unpack(packed)

    def _packer(self):
        packer = self.__dict__.get("_packer_made")
        if packer is None:
            from .packing import Packer
            hook, self.on_skip = self.on_skip, None  # the layout's game is no game played
            try:
                tag = f"{self.rules.ruleset.content_hash[:16]}/{self.player_count}p"
                packer = self._packer_made = Packer(self.new_state(0), tag)
            finally:
                self.on_skip = hook
        return packer

    def view(self, state: State, player: int) -> dict:
        from .views import player_view
        return player_view(self, state, player)

    def observe(self, state: State, player: int):
        """What `player` knows here, for a search that samples states (determinize.py):
        their view plus the public rest of the position; never a hidden value."""
        from .determinize import observe
        return observe(self, state, player)

    def determinize(self, seen, player: int, rng) -> State:
        """A full state `player` cannot tell from the real one, drawn with `rng` (a
        `random.Random`).  `seen` is their `observe(...)`, or a state (reduced to that
        observation first, so nothing else of it is used)."""
        from .determinize import determinize
        if isinstance(seen, State):
            seen = self.observe(seen, player)
        if seen.player != player:
            raise ValueError(f"the observation is player {seen.player}'s, not player {player}'s")
        return determinize(self, seen, rng)


class _Replay:
    """The uniform policy, taking the indices a failed kernel run drew before drawing more."""

    def __init__(self, drawn: list):
        self.drawn, self.next = drawn, 0

    def __call__(self, game, state, moves, rng):
        if self.next < len(self.drawn):
            i = self.drawn[self.next]
            self.next += 1
            return moves[i]
        return moves[rng._randbelow(len(moves))]


def draw_outcome(outcomes, rng):
    """One chance outcome, drawn with its probability by the policy's generator."""
    x = rng.random()
    for move, p in outcomes:
        x -= p
        if x < 0:
            return move
    return outcomes[-1][0]


def _holds(moves: tuple, move) -> bool:
    """`move in moves`, first by identity: a caller usually plays one of the listed moves."""
    for m in moves:
        if m is move:
            return True
    return move in moves


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


_UNKNOWN = object()


def _share_unchanged(before: dict, after: dict) -> None:
    """Zones are lists of items (per player or per key: a list or map of such lists), and
    an item equals only itself, so Python's == tells exactly which the walk left as they
    were (a map's keys are the zone's, in their order)."""
    for name, value in after.items():
        old = before.get(name)
        if old is not value and old == value:
            after[name] = old


def _no_draw(n: int) -> int:
    raise AssertionError("the walk to the first decision plays no move")


class _ItemCtx:
    """Enough of a context to compute an item property's default."""

    def __init__(self, game, item):
        self.game, self.bindings, self.player_count = game, {"item": item}, game.player_count
        self.options, self.cost, self.state = game.options, 0, None

    def charge(self, n=1):
        pass

    def item_prop(self, item, name):
        return self.game.prop_default(item, name)


def _span_near(points, pc: int):
    """The first located step from `pc` on: the flow is going round a cycle of steps, and
    the bookkeeping ones (jumps, restores) carry no position of their own."""
    seen = set()
    while pc not in seen and 0 <= pc < len(points):
        seen.add(pc)
        if points[pc].span is not None:
            return points[pc].span
        pc = getattr(points[pc], "next", None)
        if pc is None:
            break
    return next((p.span for p in points if p.span is not None), None)
