"""A stable action id for every move of one game (ruleset + options + player count).

The table lists the ruleset's actions in declaration order, then `pass`; each action
owns a block of ids, one per combination of its parameters' values (universe.py), in
mixed radix: the first parameter varies slowest.  Chance outcomes have a table of their
own (OpenSpiel numbers them apart from the players' actions).  The same move gets the
same id in every process, and an item its mover cannot see is named in the id by its
handle, never by its identity.
"""
from __future__ import annotations

from meeple.interpreter.game import CHANCE
from meeple.interpreter.moves import PASS

from .atoms import Unencodable, atom_of, atom_text, has_items
from .probe import PROBE_GAMES, probe
from .universe import LIMIT, Families, TooMany, static_atoms


class ActionSpaceError(ValueError):
    """This game's moves cannot be numbered in a bounded table; the message says which
    parameter (or which move) is at fault."""


class _Block:
    def __init__(self, action: str, params: list, universes: list, base: int):
        self.action, self.params, self.base = action, params, base
        self.universes = universes
        self.index = [{a: i for i, a in enumerate(u)} for u in universes]
        self.strides = []
        stride = 1
        for u in reversed(universes):
            self.strides.insert(0, stride)
            stride *= len(u)
        self.size = stride


class ActionTable:
    def __init__(self, game, probe_games: int = PROBE_GAMES):
        self.game = game
        found = probe(game, probe_games)
        if found.problem is not None:
            action, name, what = found.problem
            raise ActionSpaceError(f"{game.name}: parameter '{name}' of action '{action}' takes {what}; "
                                   "an action table holds only items, numbers, texts, booleans and lists of them")
        families = Families(game, game.new_state(0))
        self.blocks: list[_Block] = []
        self.by_action: dict = {}
        base = 0
        declared = [(a.name, [p for p, _, _ in a.params]) for a in game.rules.ruleset.actions.values()]
        passing = any(getattr(p, "allow_pass", False) for p in game.rules.points)
        for action, params in declared + ([(PASS, [])] if passing else []):
            universes = []
            for i, name in enumerate(params):
                seen = found.params.get((action, i)) or static_atoms(game, action, i)
                universes.append(_widened(families, seen, game.name, f"parameter '{name}' of action '{action}'"))
            block = _Block(action, params, universes, base)
            if base + block.size > LIMIT:
                widest = max(range(len(params)), key=lambda i: len(universes[i])) if params else 0
                raise ActionSpaceError(
                    f"{game.name}: the action space cannot be bounded: action '{action}' alone would need "
                    f"{block.size:,} ids (at most {LIMIT:,} in all); its parameter '{params[widest]}' takes "
                    f"{len(universes[widest]):,} values")
            self.blocks.append(block)
            self.by_action[action] = block
            base += block.size
        self.size = base
        self.chance = []
        for var in sorted(found.chance):
            self.chance.extend((var, a) for a in _widened(families, found.chance[var], game.name,
                                                           f"the outcome '{var}' of a chance step"))
        self.chance_index = {c: i for i, c in enumerate(self.chance)}

    # -- moves to ids -------------------------------------------------------------------
    def action_id(self, state, move, namer=None) -> int:
        """The id of a legal move of `state`, its items named as its mover names them."""
        if move.player == CHANCE:
            (var, value), = move.args
            key = (var, atom_of(value))
            if key not in self.chance_index:
                raise ActionSpaceError(f"{self.game.name}: the chance outcome {var}={atom_text(key[1])} is "
                                       "outside the table built for this game")
            return self.chance_index[key]
        block = self.by_action[move.action]
        if namer is None and any(has_items(v) for _, v in move.args):
            namer = self.game.namer(state, move.player)
        out = block.base
        for i, (name, value) in enumerate(move.args):
            try:
                atom = atom_of(value, namer)
            except Unencodable as exc:
                raise ActionSpaceError(f"{self.game.name}: parameter '{name}' of action '{move.action}' "
                                       f"takes {exc}") from None
            j = block.index[i].get(atom)
            if j is None:
                raise ActionSpaceError(f"{self.game.name}: parameter '{name}' of action '{move.action}' takes "
                                       f"{atom_text(atom)}, outside the {len(block.universes[i])} values of "
                                       "the table built for this game")
            out += j * block.strides[i]
        return out

    def legal(self, state, player: int | None = None) -> dict:
        """id -> move for the legal moves of `state` (those of `player` when given)."""
        out: dict = {}
        namers: dict = {}
        for move in self.game.legal_moves(state, player):
            namer = None
            if move.player != CHANCE and any(has_items(v) for _, v in move.args):
                namer = namers.get(move.player) or namers.setdefault(
                    move.player, self.game.namer(state, move.player))
            out[self.action_id(state, move, namer)] = move
        return out

    def describe(self, action_id: int) -> str:
        """An id as text: the action and its parameters' values, items as the mover names them."""
        for block in self.blocks:
            if block.base <= action_id < block.base + block.size:
                rest = action_id - block.base
                parts = []
                for name, universe, stride in zip(block.params, block.universes, block.strides):
                    parts.append(f"{name}={atom_text(universe[rest // stride])}")
                    rest %= stride
                return block.action + (f"({','.join(parts)})" if parts else "")
        raise ValueError(f"no action has id {action_id}")

    def describe_chance(self, outcome_id: int) -> str:
        var, atom = self.chance[outcome_id]
        return f"chance({var}={atom_text(atom)})"


def _widened(families, seen, game_name, what) -> list:
    try:
        return families.widen(seen)
    except TooMany as exc:
        raise ActionSpaceError(f"{game_name}: the action space cannot be bounded: {what} takes "
                               f"{exc.what}") from None
