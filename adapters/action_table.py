"""A stable action id for every move of one game (ruleset + options + player count).

The table lists the ruleset's actions in declaration order, then `pass`; each action
owns a block of ids, one per combination of its parameters' values (universe.py,
closed.py), in mixed radix: the first parameter varies slowest.  Those *declared* ids
mean the same move in every position and every process.

A parameter's domain is an expression, and most cannot be bounded from the
declarations alone: a list of wild gems as long as the wilds a player happens to hold,
a number read from the state.  So the table ends with `spare` ids for the moves its
blocks do not hold.  In each position, a player's legal moves outside the blocks are
ranked (by action, then by their values as that player names them) and numbered from
`fixed` up: the same position gives the same ids in every process, and two positions
its mover cannot tell apart give the same ids; what a spare id means varies from one
position to the next.  The spare ids are sized from the seeded probe games (twice the
most moves a player had at once, at least SPARE_MIN), so a move the rules allow never
lacks an id unless a single position offers more unforeseen moves than that.

Chance outcomes have a table of their own (OpenSpiel numbers them apart from the
players' actions), with spare ids in the same way.  An item its mover cannot see is
named in an id by its handle, never by its identity.
"""
from __future__ import annotations

from meeple.interpreter.runtime.game import CHANCE
from meeple.interpreter.runtime.moves import CHANCE_STEP_ACTION, DRAW, DRAW_INDEX as INDEX, PASS

from .atoms import Unencodable, atom_of, atom_text, has_items, sort_key
from .closed import exact_atoms
from .facts import has_chance_steps
from .probe import PROBE_GAMES, Probe, probe
from .universe import LIMIT, Families, TooMany, static_atoms

SPARE_MIN = 64  # spare ids of a table whose blocks may not hold every move
CHANCE_SPARE_MIN = 16


class ActionSpaceError(ValueError):
    """This game's moves cannot be numbered in a bounded table; the message says which
    parameter (or which move) is at fault."""


class _Block:
    def __init__(self, action: str, order: int, params: list, universes: list, base: int):
        self.action, self.order, self.params, self.base = action, order, params, base
        self.universes = universes
        self.index = [{a: i for i, a in enumerate(u)} for u in universes]
        self.strides = []
        stride = 1
        for u in reversed(universes):
            self.strides.insert(0, stride)
            stride *= len(u)
        self.size = stride

    def id_of(self, atoms) -> int | None:
        """The declared id of these parameter values, or None if one is outside the block."""
        out = self.base
        for index, stride, atom in zip(self.index, self.strides, atoms):
            j = index.get(atom)
            if j is None:
                return None
            out += j * stride
        return out


_UNKNOWN = object()
_PLAIN_KEPT = 1 << 16  # moves whose ids are kept (ActionTable._plain_ids)


class ActionTable:
    def __init__(self, game, probe_games: int = PROBE_GAMES):
        self.game = game
        # move -> its declared id (or None), for moves that name no item: their id is a
        # function of the move alone, and a search asks for the same few again and again.
        self._plain_ids: dict = {}
        first = game.new_state(0)
        declared = [(a.name, [p for p, _, _ in a.params]) for a in game.rules.ruleset.actions.values()]
        exact = {(action, i): exact_atoms(game, action, i, first)
                 for action, params in declared for i in range(len(params))}
        open_params = any(v is None for v in exact.values())
        found = probe(game, probe_games) if open_params or has_chance_steps(game) else Probe()
        if found.problem is not None:
            action, name, what = found.problem
            raise ActionSpaceError(f"{game.name}: parameter '{name}' of action '{action}' takes {what}; "
                                   "an action table holds only items, numbers, texts, booleans and lists of them")
        families = Families(game, first)
        self.blocks: list[_Block] = []
        self.by_action: dict = {}
        base = 0
        passing = any(getattr(p, "allow_pass", False) for p in game.rules.points)
        for order, (action, params) in enumerate(declared + ([(PASS, [])] if passing else [])):
            universes = []
            for i, name in enumerate(params):
                known = exact.get((action, i))
                if known is not None:
                    universes.append(sorted(known, key=sort_key))
                    continue
                seen = found.params.get((action, i)) or static_atoms(game, action, i)
                universes.append(_widened(families, seen, game.name, f"parameter '{name}' of action '{action}'"))
            block = _Block(action, order, params, universes, base)
            if base + block.size > LIMIT:
                widest = max(range(len(params)), key=lambda i: len(universes[i])) if params else 0
                raise ActionSpaceError(
                    f"{game.name}: the action space cannot be bounded: action '{action}' alone would need "
                    f"{block.size:,} ids (at most {LIMIT:,} in all); its parameter '{params[widest]}' takes "
                    f"{len(universes[widest]):,} values")
            self.blocks.append(block)
            self.by_action[action] = block
            base += block.size
        self.fixed = base  # the declared ids; spare ids follow
        self.spare = min(LIMIT - base, max(SPARE_MIN, 2 * found.most_moves)) if open_params else 0
        self.size = self.fixed + self.spare
        self.chance = []  # (action, name, atom): a flow chance step's outcomes, then draws'
        for var in sorted(found.chance):
            self.chance.extend((CHANCE_STEP_ACTION, var, a) for a in _widened(
                families, found.chance[var], game.name, f"the outcome '{var}' of a chance step"))
        if game.effects_draw:  # a draw is over at most every item of the game: all reserved
            self.chance.extend((DRAW, INDEX, ("int", i)) for i in range(len(game.rules.items)))
        self.chance_index = {c: i for i, c in enumerate(self.chance)}
        self.chance_spare = max(CHANCE_SPARE_MIN, 2 * found.most_outcomes) if has_chance_steps(game) else 0
        self.chance_size = len(self.chance) + self.chance_spare

    # -- moves to ids -------------------------------------------------------------------
    def action_id(self, state, move, namer=None) -> int:
        """The id of a legal move of `state`, its items named as its mover names them."""
        known = self._declared_id(state, move, namer)
        if known is not None:
            return known
        mover = None if move.player == CHANCE else move.player
        moves = self.game.legal_moves(state, mover) if mover is not None else \
            tuple(m for m in self.game.legal_moves(state) if m.player == CHANCE)
        for i, m in self._number(state, moves).items():
            if m == move:
                return i
        raise ActionSpaceError(f"{self.game.name}: {move} is not a legal move of this position")

    def legal(self, state, player: int | None = None) -> dict:
        """id -> move for the legal moves of `state` (those of `player` when given).  Ids
        are a player's: where several players move at once, ask for each player apart."""
        return self._number(state, self.game.legal_moves(state, player))

    def chance_ids(self, state) -> dict:
        """id -> move for the outcomes of the chance step `state` stands at."""
        return self._number(state, [m for m in self.game.legal_moves(state) if m.player == CHANCE])

    def _number(self, state, moves) -> dict:
        out: dict = {}
        namers: dict = {}
        unforeseen: dict = {}  # player (or CHANCE) -> [(rank key, move)]
        plain = self._plain_ids
        for move in moves:
            i = plain.get(move, _UNKNOWN)
            if i is _UNKNOWN:
                namer = None
                if move.player != CHANCE and any(has_items(v) for _, v in move.args):
                    namer = namers.get(move.player) or namers.setdefault(
                        move.player, self.game.namer(state, move.player))
                i = self._declared_id(state, move, namer)
                if namer is None and len(plain) < _PLAIN_KEPT:
                    plain[move] = i
            else:
                namer = None  # a move kept here names no item
            if i is None:
                unforeseen.setdefault(move.player, []).append((self._rank_key(move, namer), move))
            else:
                out[i] = move
        for player, rest in unforeseen.items():
            rest.sort(key=lambda pair: pair[0])
            base, room = (len(self.chance), self.chance_spare) if player == CHANCE else (self.fixed, self.spare)
            if len(rest) > room:
                what = "chance outcomes" if player == CHANCE else f"moves of player {player}"
                raise ActionSpaceError(
                    f"{self.game.name}: {len(rest)} {what} lie outside the table built for this game "
                    f"(first: {rest[0][1]}), more than its {room} spare ids")
            for k, (_, move) in enumerate(rest):
                out[base + k] = move
        return out

    def _atoms(self, move, namer) -> tuple:
        try:
            return tuple(atom_of(value, namer) for _, value in move.args)
        except Unencodable as exc:
            raise ActionSpaceError(f"{self.game.name}: action '{move.action}' takes {exc}") from None

    def _declared_id(self, state, move, namer) -> int | None:
        if move.player == CHANCE:
            (var, value), = move.args
            return self.chance_index.get((move.action, var, atom_of(value)))
        block = self.by_action[move.action]
        if namer is None and any(has_items(v) for _, v in move.args):
            namer = self.game.namer(state, move.player)
        return block.id_of(self._atoms(move, namer))

    def _rank_key(self, move, namer) -> tuple:
        """How a move outside the blocks is ranked among its position's others: by action,
        then by its values as its mover names them (never by a hidden identity)."""
        if move.player == CHANCE:
            (var, value), = move.args
            return (move.action, var, sort_key(atom_of(value)))
        return (self.by_action[move.action].order, tuple(sort_key(a) for a in self._atoms(move, namer)))

    # -- ids to text -------------------------------------------------------------------
    def describe(self, action_id: int, state=None, player: int | None = None) -> str:
        """An id as text: the action and its parameters' values, items as the mover names
        them.  A spare id means a move only in a position: given `state` (and `player`),
        that move as the player names it."""
        for block in self.blocks:
            if block.base <= action_id < block.base + block.size:
                rest = action_id - block.base
                parts = []
                for name, universe, stride in zip(block.params, block.universes, block.strides):
                    parts.append(f"{name}={atom_text(universe[rest // stride])}")
                    rest %= stride
                return block.action + (f"({','.join(parts)})" if parts else "")
        if self.fixed <= action_id < self.size:
            move = self.legal(state, player).get(action_id) if state is not None else None
            if move is None:
                return f"spare {action_id - self.fixed}"
            return self.game.move_text(state, move, move.player)
        raise ValueError(f"no action has id {action_id}")

    def describe_chance(self, outcome_id: int, state=None) -> str:
        if outcome_id < len(self.chance):
            action, var, atom = self.chance[outcome_id]
            return f"{action}({var}={atom_text(atom)})"
        move = self.chance_ids(state).get(outcome_id) if state is not None else None
        return str(move) if move is not None else f"chance spare {outcome_id - len(self.chance)}"


def _widened(families, seen, game_name, what) -> list:
    try:
        return families.widen(seen)
    except TooMany as exc:
        raise ActionSpaceError(f"{game_name}: the action space cannot be bounded: {what} takes "
                               f"{exc.what}") from None
