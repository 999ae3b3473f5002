"""Sampling a whole state that one player cannot tell from the real one.

A search bot with hidden information (information-set MCTS) needs full states to play
on, but may only use what its player knows.  `observe` takes from a real state exactly
that: the player's view, plus the public place in the flow that a view leaves out (the
control point, the flow's own bookkeeping with items named as the player names them,
the whole log) and the *backs* of the items the player cannot see — their component
kind, which a real table shows (a treasure tile does not look like an adventurer card
from behind).  `determinize` builds a state from an `Observation` alone:

- every item the view names by id is put where the view shows it, with its visible
  properties; items shown face down only to this player get them in `seen_by`;
- the items the view does not name are redistributed at random among the places the
  player cannot see, respecting each place's count and backs, and for a two-sided item
  seen from one side, the fields that side shows;
- a hidden variable (visibility `none`, or another player's `owner` entry) takes its
  declared initial value: the view says nothing about it, and the initial value is one
  the ruleset allows;
- the generator's state is drawn fresh from the caller's `rng`: the real one would tell
  the future draws.

Nothing here reads a state the observation was not made from, so two real states with
the same observation give the same determinizations for the same `rng`.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from meeple.dsl.eval_errors import EvalError
from meeple.dsl.functions import want_list
from meeple.dsl.values import Item

from . import rng as chance
from .context import Ctx
from .knowledge import WHOLE, Namer, _groups, handle_text
from .state import State, from_plain
from .views import seers


class DeterminizeError(ValueError):
    """An observation no state can match (it was not made by `observe` for this game)."""


@dataclass(frozen=True, eq=False)
class Observation:
    """What `player` knows in one state: their view and the public rest of the position."""
    player: int
    view: dict
    flow: dict  # pc, pending, over, ending, end_reason, phase, move_count, log
    bookkeeping: dict  # the flow's locals but the draws hidden from the player, items named as the player names them
    backs: dict  # (zone, key) -> kinds of the items there the player does not see whole

    def __eq__(self, other):
        return isinstance(other, Observation) and self.to_data() == other.to_data()

    __hash__ = None

    def to_data(self) -> dict:
        return {"player": self.player, "view": self.view, "flow": self.flow, "bookkeeping": self.bookkeeping,
                "backs": sorted([repr(k), v] for k, v in self.backs.items())}


@dataclass(eq=False)
class _Plan:
    """What every sample of one observation shares, worked out at its first sample."""
    seen: Observation
    named: set  # ids of the items the view names
    slots: dict  # (zone, key) -> its group: Items where named, else (kind, what shows)
    mixed: list  # the groups whose order the view does not show
    pool: dict  # kind -> the unseen items of that kind
    sided: list  # (place, index, kind, face, printed signature) of slots showing a side
    fits: dict  # printed signature -> the unseen items that print it
    order: list  # indices into `sided`, fewest candidates first
    settled: set  # kinds whose unseen items all go to one group of `mixed`
    holes: list  # (place, index, kind, what shows) of the other hidden slots
    memo: dict = field(default_factory=lambda: {"decoded": {}})  # decoded view values and more


def observe(game, state: State, player: int) -> Observation:
    namer = Namer(game, state, player)
    backs = {}
    for name, key, group in _groups_of(game, state.zones):
        decl = game.rules.zones[name]
        hidden = [(i, item.kind) for i, item in enumerate(group) if namer.sight(item) != WHOLE]
        if not hidden:
            continue
        if _count_only(decl, key, player):  # where they lie in a hidden zone is not shown
            backs[(name, key)] = tuple(sorted(kind for _, kind in hidden))
        else:
            backs[(name, key)] = tuple(hidden)
    flow = {"pc": state.pc, "pending": list(state.pending), "over": state.over, "ending": state.ending,
            "end_reason": state.end_reason, "phase": state.phase, "move_count": state.move_count,
            "log": list(state.log)}
    hidden = hidden_draws(game, state, player)
    bookkeeping = {k: namer.plain(v) for k, v in sorted(state.locals.items()) if k not in hidden}
    return Observation(player, game.view(state, player), flow, bookkeeping, backs)


def hidden_draws(game, state: State, player: int) -> dict:
    """name -> the chance point that drew it, for each outcome of a `chance` step in scope
    where play waits that `player` may not know (its step's `seen_by` does not name them).
    The rest of the flow's locals (loop variables, the flow's own bookkeeping) are where the
    flow stands, which the table knows; items among them are named as the player names them."""
    point = game.rules.points[state.pc]
    if point.op not in ("decide", "chance"):  # over, and resting elsewhere: no scope to go by
        return {name: None for name in game.rules.drawn_names if name in state.locals}
    out = {}
    for name, (seen, drawn) in point.in_scope.items():
        if drawn is not None and name in state.locals and \
                (seen is None or player not in seers(game, state, seen, point)):
            out[name] = drawn
    return out


def determinize(game, seen: Observation, rng) -> State:
    """A state whose observation for `seen.player` is `seen`, drawn with `rng`
    (a `random.Random`); see the module's docstring for what is assumed."""
    return _Builder(game, seen, rng).build()


def _count_only(decl, key, viewer) -> bool:
    vis = decl.visibility
    return vis == "none" or (vis == "owner" and not (decl.per == "player" and key == viewer))


def _groups_of(game, zones):
    """(zone, key, contents) of every group of every zone, in declaration order."""
    for name in game.rules.zone_order:
        for key, group in _groups(zones[name], game.rules.zones[name].per):
            yield name, key, group


class _Builder:
    def __init__(self, game, seen: Observation, rng):
        self.game, self.seen, self.rng = game, seen, rng
        self.rules, self.viewer = game.rules, seen.player
        if game._initial_contents is None:
            game.new_state(0)
        self.initial_vars, self.initial_zones, _ = game._initial_contents

    def build(self) -> State:
        state = State()
        flow = self.seen.flow
        state.pc, state.pending, state.over = flow["pc"], tuple(flow["pending"]), flow["over"]
        state.ending, state.end_reason, state.phase = flow["ending"], flow["end_reason"], flow["phase"]
        state.move_count, state.log = flow["move_count"], tuple(flow["log"])
        state.rng = chance.seed_state(self.rng.getrandbits(63))
        named, slots, placed, dealt = self._fill()
        state.zones = self._zones_from(placed)
        handles: list = []  # {handle: the item there}, made when a value names a hidden item

        def by_handle():
            """Each handle the view may hold: a position, and where the order is hidden a rank
            (`hand[1]#2`), which stands for any of the unseen items there, each rank another."""
            if not handles:
                found = {}
                for name, key, group in _groups_of(self.game, state.zones):
                    found.update((handle_text((name, key, i)), item) for i, item in enumerate(group))
                    unseen = [item for item in group if item.id not in named]
                    found.update((handle_text((name, key, k), "#"), item) for k, item in enumerate(unseen))
                handles.append(found)
            return handles[0]
        self.memo = self.game._determinize_plan.memo  # what this observation's samples share
        decoded = self.memo["decoded"]  # view value (by id) -> itself decoded, if no handle is in it
        items = self.rules.items

        def decode(v):
            hit = decoded.get(id(v))
            if hit is not None:
                return hit[0]
            if _has_handle(v):
                return from_plain(_resolve(v, by_handle(), self._unplaced), items)
            out = from_plain(v, items)
            decoded[id(v)] = (out,)
            return out
        self.decode = decode
        state.props = self._props(dealt)
        state.vars = self._vars()
        state.locals = {k: self.decode(v) for k, v in self.seen.bookkeeping.items()}
        self._mark_seen(state, named)
        self._draw_hidden(state)
        return state

    def _draw_hidden(self, state: State) -> None:
        """The outcomes of chance steps in scope that the player may not know, drawn again
        from what each step could have drawn (worked out in the sampled state)."""
        point = self.rules.points[state.pc]
        for name, (_, drawn) in point.in_scope.items():
            if drawn is None or name in state.locals:
                continue
            ctx = Ctx(self.game, state)
            ctx.bindings = dict(state.locals)
            try:
                outcomes = want_list(drawn.fn(ctx), "the outcomes of a chance step")
            except EvalError:
                continue  # not drawable in this sample: the name stays unbound, as before its step
            if outcomes:
                state.locals[name] = outcomes[self.rng.randrange(len(outcomes))]

    # -- zones ------------------------------------------------------------------------------
    def _read_zones(self):
        """Each group's slots as the view shows them: an Item where it names one, else
        (kind, what shows: a side's fields, "?" face down in sight, or None unseen); and
        the groups whose order the view does not show (shuffled in each sample)."""
        named: set = set()
        slots: dict = {}
        mixed: list = []
        for name, key, _ in _groups_of(self.game, self.initial_zones):
            shown = self._view_of(name, key)
            backs = self.seen.backs.get((name, key), ())
            decl = self.rules.zones[name]
            if _count_only(decl, key, self.viewer):
                known = [self._item(i) for i in shown.get("known", ())]
                group = known + [(kind, None) for kind in backs]
                mixed.append((name, key))
            else:
                entries = self._entries(shown)
                kinds = dict(backs)
                group = []
                for i, entry in enumerate(entries):
                    if isinstance(entry, str) and entry != "?":
                        group.append(self._item(entry))
                    elif i in kinds:
                        group.append((kinds[i], entry))
                    else:
                        raise DeterminizeError(f"{handle_text((name, key, i))} is hidden but has no back")
            named.update(s.id for s in group if isinstance(s, Item))
            slots[(name, key)] = group
        return named, slots, mixed

    def _view_of(self, name, key):
        zone = self.seen.view["zones"][name]
        if key is None:
            return zone
        return zone[key] if isinstance(zone, list) else zone[str(key)]

    @staticmethod
    def _entries(shown) -> list:
        if isinstance(shown, list):
            return shown
        if "top" in shown:
            top = shown["top"]
            return ([top if top is not None else "?"] if shown["count"] else []) + [None] * (shown["count"] - 1)
        return list(shown["items"])

    def _item(self, item_id) -> Item:
        try:
            return self.rules.items[item_id]
        except KeyError:
            raise DeterminizeError(f"the view names '{item_id}', which is no item of {self.game.name}") from None

    def _fill(self):
        """(named, slots, placed, dealt): the items nobody named dealt to the hidden slots
        (`dealt`: each one's item, what shows and its zone); the slots that show a side
        first, fewest candidates first, each from the items printed that way.  What follows
        from the observation alone is worked out once for it (a search samples one
        observation many times; `_Plan`); each call only draws."""
        plan = self.game.__dict__.get("_determinize_plan")
        if plan is None or plan.seen is not self.seen:
            plan = self.game._determinize_plan = self._plan()
        named, slots, mixed, pool, sided = plan.named, plan.slots, plan.mixed, plan.pool, plan.sided
        fits, order, settled, holes = plan.fits, plan.order, plan.settled, plan.holes
        self._unplaced = self.game._out_of_play_items
        rng = self.rng
        placed = {place: list(group) for place, group in slots.items()}
        pool = {kind: list(items) for kind, items in pool.items()}
        dealt = []
        if sided:
            owner = _match([fits[sided[h][4]] for h in range(len(sided))], order, rng)
            unmatched = [h for h in order if h not in owner]
            if unmatched:
                place, i, kind, face, _ = sided[unmatched[0]]
                raise DeterminizeError(f"no unseen {kind} shows {face} at {handle_text((*place, i))}")
            for h, item in owner.items():
                place, i, kind, face, _ = sided[h]
                placed[place][i] = (item, face)
                dealt.append((item, face, place[0]))
            taken = {item.id for item in owner.values()}
            for kind in pool:
                pool[kind] = [item for item in pool[kind] if item.id not in taken]
        for kind, items in pool.items():
            if kind not in settled:
                rng.shuffle(items)
        for place, i, kind, face in holes:
            items = pool.get(kind)
            if not items:
                raise DeterminizeError(f"no unseen {kind} is left for {handle_text((*place, i))}")
            item = items.pop()
            placed[place][i] = (item, face)
            dealt.append((item, face, place[0]))
        for place in mixed:  # a group whose order the view does not show: any order, uniformly
            rng.shuffle(placed[place])
        return named, slots, placed, dealt

    def _plan(self):
        named, slots, mixed = self._read_zones()
        pool: dict = defaultdict(list)
        for item in self._in_play():
            if item.id not in named:
                pool[item.kind].append(item)
        hidden = [(place, i, slot) for place, group in slots.items() for i, slot in enumerate(group)
                  if not isinstance(slot, Item)]
        if sum(map(len, pool.values())) != len(hidden):
            raise DeterminizeError(f"{len(hidden)} hidden places but {sum(map(len, pool.values()))} unseen items")
        sided = [(place, i, kind, face, self._printed(kind, face)) for place, i, (kind, face) in hidden
                 if isinstance(face, dict)]
        fits = self._fits(pool, {sig for *_, sig in sided}) if sided else {}
        order = sorted(range(len(sided)), key=lambda h: len(fits[sided[h][4]]))
        # Kinds whose unseen items all go to one group that is shuffled after the deal: which
        # items go there is settled, and that shuffle orders them, so their pool needs none.
        places: dict = defaultdict(set)
        for place, i, (kind, face) in hidden:
            places[kind].add(place if not isinstance(face, dict) else None)
        settled = {kind for kind, where in places.items() if len(where) == 1 and next(iter(where)) in mixed}
        holes = [(place, i, kind, face) for place, i, (kind, face) in hidden if not isinstance(face, dict)]
        return _Plan(self.seen, named, slots, mixed, dict(pool), sided, fits, order, settled, holes)

    def _in_play(self) -> list:
        """The items in zones, by id: the same in every state (an item enters play only
        where a zone's initial contents put it, and never leaves the zones)."""
        found = self.game.__dict__.get("_in_play_items")
        if found is None:
            found = sorted((item for _, _, group in _groups_of(self.game, self.initial_zones) for item in group),
                           key=lambda item: item.id)
            ids = {item.id for item in found}
            self.game._in_play_items = found
            self.game._out_of_play_items = [item for item_id, item in sorted(self.game.items.items())
                                            if item_id not in ids]
        self._unplaced = self.game._out_of_play_items
        return found

    def _printed(self, kind, face) -> tuple:
        """What a side shown face up says: (kind, side, the values of the fields it prints)."""
        sides = self.rules.sides.get(kind)
        if sides is None:
            raise DeterminizeError(f"a {kind} shows a side, but {kind} has no sides")
        fields = sides.shown.get(face.get("side"), sides.common)
        return kind, face.get("side"), tuple((f, _hashable(face.get(f))) for f in fields)

    def _fits(self, pool, printed: set) -> dict:
        """For each printed signature, the unseen items that print it."""
        fits: dict = {sig: [] for sig in printed}
        wanted: dict = defaultdict(list)
        for sig in printed:
            wanted[(sig[0], sig[1])].append(sig)
        # An item's fields never change: what it prints on a side is worked out once per game.
        known = self.game.__dict__.setdefault("_printed_sides", {})
        for (kind, side), sigs in wanted.items():
            fields = tuple(f for f, _ in sigs[0][2])
            for item in pool[kind]:
                sig = known.get((item.id, side, fields))
                if sig is None:
                    sig = known[(item.id, side, fields)] = (
                        kind, side, tuple((f, _hashable(item.fields.get(f))) for f in fields))
                if sig in fits:
                    fits[sig].append(item)
        return fits

    def _zones_from(self, placed) -> dict:
        zones = {}
        for name in self.rules.zone_order:
            start = self.initial_zones[name]
            def group(key):
                return tuple(s if isinstance(s, Item) else s[0] for s in placed[(name, key)])
            if self.rules.zones[name].per is None:
                zones[name] = group(None)
            elif isinstance(start, dict):
                zones[name] = {key: group(key) for key in start}
            else:
                zones[name] = tuple(group(key) for key in range(len(start)))
        return zones

    # -- properties, variables -------------------------------------------------------------------
    def _props(self, dealt) -> dict:
        faces = self.memo.get("zone faces")  # zone -> the properties of an unseen item there
        if faces is None:
            faces = self.memo["zone faces"] = {name: {"face": decl.face} if decl.face else {}
                                               for name, decl in self.rules.zones.items()}
        shown = self.memo.get("props")  # the view's properties decoded, when no handle is in them
        if shown is None:
            shown = {item_id: {k: self.decode(v) for k, v in p.items()} for item_id, p in self.seen.view["props"].items()}
            if not _has_handle(self.seen.view["props"]):
                self.memo["props"] = shown
        props = dict(shown)  # each entry is replaced, never changed, below and in play
        for item, face, name in dealt:  # face None: unseen, the zone's face (one shared dict)
            props[item.id] = faces[name] if face is None else self._hidden_props(item, face, self.rules.zones[name])
        return {k: v for k, v in props.items() if v}

    def _hidden_props(self, item, face, decl) -> dict:
        """The properties of an item the viewer cannot see whole: what its visible side
        shows, face down where it is in sight, the zone's face where it is not."""
        if face == "?":
            return {"face": "down"}
        if face is None:
            return {"face": decl.face} if decl.face else {}
        sides = self.rules.sides[item.kind]
        shown = set(sides.shown.get(face["side"], sides.common))
        out = {k: self.decode(v) for k, v in face.items() if k != "side" and k not in shown}
        out[sides.by] = face["side"]
        return out

    def _vars(self) -> dict:
        shown = self.seen.view["vars"]
        out = {}
        for name, decl in self.rules.variables.items():
            if name not in shown:
                out[name] = self.initial_vars[name]
            elif decl.visibility == "owner" and decl.per == "player":
                values = list(self.initial_vars[name])
                values[self.viewer] = self.decode(shown[name][str(self.viewer)])
                out[name] = tuple(values)
            else:
                out[name] = self.decode(shown[name])
        return out

    def _mark_seen(self, state, named):
        """An item the view names but that lies where only a `reveal` shows it: the viewer
        is among those it was revealed to.  The named items lie where the view shows them in
        every sample, so which ones these are is worked out at the first."""
        marks = self.memo.get("marks")
        if marks is None:
            namer = Namer(self.game, state, self.viewer)
            marks = self.memo["marks"] = [item_id for item_id in sorted(named)
                                          if namer.sight(self.rules.items[item_id]) != WHOLE]
        for item_id in marks:
            props = dict(state.props.get(item_id, {}))
            props["seen_by"] = tuple(sorted({*props.get("seen_by", ()), self.viewer}))
            state.props[item_id] = props


def _hashable(value):
    """A field value as a dict key (view data gives lists where fields may hold tuples)."""
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    return value


def _has_handle(value) -> bool:
    if isinstance(value, list):
        return any(_has_handle(v) for v in value)
    if isinstance(value, dict):
        return "$hidden" in value or any(_has_handle(v) for v in value.values())
    return False


def _resolve(value, by_handle: dict, unplaced: list):
    """View data with each `{"$hidden": handle}` turned into the item now at that place."""
    if isinstance(value, list):
        return [_resolve(v, by_handle, unplaced) for v in value]
    if isinstance(value, dict):
        if "$hidden" in value:
            item = by_handle.get(value["$hidden"])
            if item is None:  # `kind@?`: an item in no zone, told apart from none of its kind
                kind = value["$hidden"].split("@")[0]
                item = next((i for i in unplaced if i.kind == kind), None)
                if item is None:
                    raise DeterminizeError(f"no item can stand for {value['$hidden']}")
            return {"$item": item.id}
        return {k: _resolve(v, by_handle, unplaced) for k, v in value.items()}
    return value


def _match(candidates: list, order: list, rng) -> dict:
    """Slot -> item, each item used once, as many slots filled as can be: each slot (in
    `order`) takes a free candidate at random, and when none is free, an augmenting path
    moves earlier slots to other candidates that fit them (Kuhn's algorithm).  Picking
    at random first keeps the samples varied; the paths make a greedy dead end (two slots
    that fit only the item a third one took) no reason to fail."""
    holder: dict = {}  # item id -> slot
    owner: dict = {}  # slot -> item

    def augment(slot, visited) -> bool:
        options = list(candidates[slot])
        rng.shuffle(options)
        for item in options:
            if item.id in visited:
                continue
            visited.add(item.id)
            other = holder.get(item.id)
            if other is None or augment(other, visited):
                holder[item.id], owner[slot] = slot, item
                return True
        return False

    for slot in order:
        free = [item for item in candidates[slot] if item.id not in holder]
        if free:
            item = free[rng.randrange(len(free))]
            holder[item.id], owner[slot] = slot, item
        else:
            augment(slot, set())
    return owner
