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


from meeple.dsl.compare import strict_key
from meeple.dsl.eval_errors import EvalError, EvalLimitError
from meeple.dsl.functions import fail, want_list
from meeple.dsl.generate import GenerateError
from meeple.dsl.options import fits_option, option_type, type_name
from meeple.dsl.values import option_value

from . import draw_points, kernel_step
from .context import Ctx, RuleError
from .draws import may_draw, mixed
from .flowgraph import CHANCE as CHANCE_STEP, DECIDE
from .knowledge import WHOLE, Namer, chosen_from_own_zones
from .moves import (CHANCE, CHANCE_STEP_ACTION, PASS, UNKNOWN, IllegalMove, Move, Rejection, UnmadeMoves, canonical_text,
                    move_text, place_of)
from .outcome import Outcome, compute_outcome
from .recording import Narrator
from .state import State, to_plain
from .views import seers
from .store import pay_costs

STEP_LIMIT = 100_000
MAX_KEYS = 10_000  # keys of one keyed variable or zone: every state copy carries them all
MAX_ASKING = 4  # has_move inside the rules of an action has_move asks about, nested
from .game_flow import GameFlow
from .game_playouts import GamePlayouts, draw_outcome  # noqa: F401 (the tools read draw_outcome here)
from .game_setup import GameSetup, _items_of


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


class Game(GameSetup, GameFlow, GamePlayouts):
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
        self._step_facts = None  # what kernel_step keeps of the playout function it steps with
        self._own_choices = None  # actions whose moves never need a handle (knowledge.chosen_from_own_zones)
        self._narration = None  # while a step is narrated (narration.py): the sentences its effects note
        self._narrator = None  # made on the first Game.narrate
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
            moves = self._moves_at(state)
            if self.rules.may_hide:
                moves = self._named_by_movers(state, moves)
            state._shown = moves
        if player is None:
            return moves
        return tuple(m for m in moves if m.player == player)

    def _moves_at(self, state: State) -> tuple:
        """The legal moves at `state` (its `_moves`): those the generated playout function
        listed where it stopped, made into moves now (UnmadeMoves), else listed afresh."""
        moves = state._moves
        if moves is None:
            moves = state._moves = self._all_moves(state)
        elif type(moves) is UnmadeMoves:
            moves = state._moves = moves.made()
        return moves

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
        said, self._narration = self._narration, None  # and tells the narrated log nothing
        within, self._within = self._within, then  # the walk stops where it leaves the `then` steps
        if type(state.rng) is not int:  # tried inside a step played with chance explicit: not on its tape
            state = state.copy()
            state.rng = state.rng.generator
        try:
            after = self._play(state, move)
        finally:
            self.on_skip, self._within, self._narration = hook, within, said
        return not after.over and after.pc in then

    def apply(self, state: State, move: Move | str, player: int | None = None) -> State:
        """Play a move.  A text may name items by id even where its mover would use a
        handle: whoever holds the whole state (a test, a replay) is the referee."""
        if isinstance(move, str):
            return self._play(state, self.parse_move(state, move, player, referee=True))
        index = place_of(self.legal_moves(state), move)
        if index is None:
            raise IllegalMove(move_text(move), self.explain(state, move_text(move), move.player, referee=True))
        return self._play(state, move, index)

    def _play(self, state: State, move: Move, index: int | None = None) -> State:
        """The state after `move`; `index` is its place among the legal moves, where known."""
        if self._steps_by_kernel is not False:
            return kernel_step.play(self, state, move, index)
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

    def narrate(self, state: State, move: Move | str, seat: int, lang: str | None = None) -> list[str]:
        """What the rules did when `move` was played from `state`, as `seat` may read it in
        `lang`: one sentence per narrated effect that ran (`narrate:`), then, if the game
        ended, why.  The step is played again by the reference interpreter
        with a recorder on (recording.py), so every back end narrates alike."""
        if isinstance(move, str):
            move = self.parse_move(state, move, referee=True)
        from ..presentation.narration import sentences
        if self._narrator is None:
            from .rules import Rules
            self._narrator = Narrator(self, Rules)
        return sentences(self._narrator, state, move, seat, lang)

    def item_text(self, item, lang: str | None = None, state: State | None = None) -> str | None:
        """What `item` (an Item or its id) does, in words: its kind's `text:` in `lang`, with
        its fields and properties (in `state`) filled in; None when its kind has none.  For
        an item the asking seat may name (texts.py)."""
        from ..presentation.texts import item_text
        return item_text(self, self.rules.items[item] if isinstance(item, str) else item, lang, state)


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
        from ..presentation.display import TableText
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


_UNKNOWN = object()
