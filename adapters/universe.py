"""The values a parameter may take, closed over the ruleset's declarations.

A parameter's domain is an expression, and the language gives most domains no
finite static type (`any`, `list[item]` without a kind).  So the kinds of value a
parameter takes are learnt from a fixed, seeded set of random games (probe.py), and
each kind seen is then widened to everything the declarations allow of it:

- an item of kind K -> every item of K (a handle -> every position and rank of that zone, any key);
- a text that names a board node, a node attribute's value, an item field's value or
  a key of a keyed variable or zone -> every member of that family;
- a whole number -> every number from min(0, smallest seen) to the largest of what was
  seen, the options' numbers and the last player's number;
- a list -> every sequence, up to the longest length seen, of its elements' universe.

So the table depends only on the ruleset, its options and the player count, never on
the process.  A value outside it (a kind the probe never met, a longer list) is not an
error: its move takes one of the table's spare ids (action_table.py).  Domains that read
nothing of the state need none of this: closed.py works their values out exactly.
"""
from __future__ import annotations

import itertools

from .atoms import sort_key


class Families:
    """The finite sets of values the declarations name, for widening what was seen."""

    def __init__(self, game, state):
        self.game = game
        self.players = game.player_count
        rs = game.rules.ruleset
        texts: list[frozenset] = []
        for graph in game.boards.values():  # the game's: a grid's size may be an option's
            texts.append(frozenset(graph.nodes))
            attrs: dict = {}
            for _, node_attrs in graph.nodes(data=True):
                for k, v in node_attrs.items():
                    if isinstance(v, str):
                        attrs.setdefault(k, set()).add(v)
            texts.extend(frozenset(v) for v in attrs.values())
        for kind in rs.components.values():
            by_field: dict = {}
            for item in kind.items:
                for k, v in item.items():
                    if isinstance(v, str) and k != "id":
                        by_field.setdefault(k, set()).add(v)
            texts.extend(frozenset(v) for v in by_field.values())
        for part in (state.vars, state.zones):
            for value in part.values():
                if isinstance(value, dict) and value and all(isinstance(k, str) for k in value):
                    texts.append(frozenset(value))
        self.texts = [t for t in texts if t]
        self.option_ints = [v for v in _flat(game.options.values()) if isinstance(v, int) and not isinstance(v, bool)]
        self.zone_keys = {name: _keys(contents, decl.per) for name, contents in state.zones.items()
                          for decl in (game.rules.zones[name],)}
        self.item_count = len(game.items)

    def widen(self, atoms: set) -> list:
        """Every value of the kinds in `atoms`, in a fixed order."""
        out: set = set()
        ints = [a[1] for a in atoms if a[0] == "int"]
        if ints:
            top = max(ints + self.option_ints + [self.players - 1])
            low = min(0, min(ints))
            if top + 1 - low > LIMIT:  # refused before millions of values are made
                raise TooMany(f"{top + 1 - low:,} different numbers")
            out.update(("int", i) for i in range(low, top + 1))
        for atom in atoms:
            tag = atom[0]
            if tag == "item":
                kind = self.game.rules.items[atom[1]].kind
                out.update(("item", it.id) for it in self.game.items_of(kind))
            elif tag == "handle":
                zone = atom[1]
                for key in self.zone_keys[zone]:
                    out.update(("handle", zone, key, i, mark) for i in range(self.item_count) for mark in "@#")
            elif tag == "str":
                out.add(atom)
                for family in self.texts:
                    if atom[1] in family:
                        out.update(("str", s) for s in family)
            elif tag == "bool":
                out.update((("bool", False), ("bool", True)))
            elif tag == "none":
                out.add(atom)
        lists = [a[1] for a in atoms if a[0] == "list"]
        if lists:
            elements = self.widen({e for seq in lists for e in seq})
            longest = max(len(seq) for seq in lists)
            for n in range(longest + 1):
                if len(elements) ** n > LIMIT:
                    raise TooMany(f"lists of {len(elements) ** n:,} or more different values")
                out.update(("list", combo) for combo in itertools.product(elements, repeat=n))
        return sorted(out, key=sort_key)


def static_atoms(game, action: str, index: int) -> set:
    """For a parameter the probe never met (its action was never legal there): one value
    of each kind its domain's static type allows, for `widen` to complete.  An item of
    no known kind stands for every component kind; `any` for items and numbers."""
    from meeple.dsl.typecheck import infer_type
    from meeple.dsl.types import INT, element_type

    decl = game.rules.ruleset.actions[action]
    scope = game.rules.scope.bind({"player": INT}, kind="param")
    for name, _, _ in decl.params[:index]:
        scope = scope.bind({name: None}, kind="param")
    t = element_type(infer_type(decl.params[index][1], scope)[0])
    kinds = [t.args[0]] if t.name == "item" and t.args and t.args[0] else list(game.rules.items_by_kind)
    out: set = set()
    if t.name in ("item", "any"):
        out.update(("item", game.items_of(k)[0].id) for k in kinds if game.items_of(k))
    if t.name in ("int", "any"):
        out.add(("int", 0))
    if t.name == "bool":
        out.add(("bool", False))
    return out


LIMIT = 1 << 20  # ids in one table: a PettingZoo action mask holds one byte per id


class TooMany(Exception):
    def __init__(self, what: str):
        super().__init__(what)
        self.what = what  # how many of what, for a message


def _keys(contents, per):
    if per is None:
        return [None]
    if isinstance(contents, dict):
        return list(contents)
    return list(range(len(contents)))


def _flat(values):
    for v in values:
        if isinstance(v, (tuple, list)):
            yield from _flat(v)
        elif isinstance(v, dict):
            yield from _flat(v.values())
        else:
            yield v
