"""The items of the games of one ruleset.

Most rulesets have one set of items for every game.  A component whose `generate:`
works its values out at set-up (dsl/generate.py: `{from: 1, to: "options.top_bid"}`,
`"range(0, player_count())"`) has the items a game's options and player count give, so a
game asks for its own (`for_game`), made once per distinct set of values and shared by
the games that have it, as the boards sized by options are (Rules.boards_for).

`known` maps every id any game of these rules has had to its item: an id names the same
item in every game (one made again equal is the same object), so what looks an item up
by its id alone (a view, a save) finds it whichever game it comes from.  What a game
lists, walks or counts are its own items: `Game.items`, `Game.items_of`.
"""
from __future__ import annotations

from types import MappingProxyType

from meeple.dsl.generate import GenerateError, generated_items
from meeple.dsl.values import Item

MAX_ITEM_SETS = 16  # sets of items made for other options or player counts, kept at once


class ItemSets:
    def __init__(self, ruleset):
        self.ruleset = ruleset
        self.known: dict[str, Item] = {}
        by_kind = {kind.name: self._made(kind.name, kind.items) for kind in ruleset.components.values()}
        self.default = (dict(self.known), by_kind)
        self._generated = [k for k in ruleset.components.values() if k.generated is not None]
        self._made_for: dict = {}

    @property
    def depend_on_the_game(self) -> bool:
        return bool(self._generated)

    def for_game(self, options: dict, players: int) -> tuple[dict, dict]:
        """(id -> item, kind -> its items in order) of a game with these options and this
        player count.  GenerateError (a ValueError) when a generate cannot make them."""
        if not self._generated:
            return self.default
        key = tuple((kind.name, self._key(kind.generated, options, players)) for kind in self._generated)
        found = self._made_for.get(key)
        if found is None:
            if len(self._made_for) >= MAX_ITEM_SETS:  # a server offering many settings keeps the latest only
                self._made_for.clear()
            found = self._made_for[key] = self._make(options, players)
        return found

    @staticmethod
    def _key(decl, options: dict, players: int) -> tuple:
        """What the kind's generated values depend on."""
        read = sorted(options) if decl.reads is None else sorted(decl.reads)
        return (players if decl.reads_players else None, tuple((n, repr(options.get(n))) for n in read))

    def _make(self, options: dict, players: int) -> tuple[dict, dict]:
        _, default_by_kind = self.default
        by_kind = dict(default_by_kind)
        for kind in self._generated:
            decl = kind.generated
            listed = by_kind[kind.name][:decl.listed]
            by_kind[kind.name] = listed + self._made(kind.name, generated_items(decl, options, players))
        items: dict = {}
        for name, made in by_kind.items():
            for item in made:
                if item.id in items:
                    raise GenerateError("S108", f"item id '{item.id}' would be used twice in this game (by "
                                        f"'{items[item.id].kind}' and '{name}')", None)
                items[item.id] = item
        return items, by_kind

    def _made(self, kind: str, data: list) -> tuple:
        out = []
        for entry in data:
            fields = {k: v for k, v in entry.items() if not k.startswith("_") and k != "id"}
            item_id = str(entry["id"])
            item = self.known.get(item_id)
            if item is None:
                item = self.known[item_id] = Item(item_id, kind, MappingProxyType(fields))
            elif item.kind != kind or dict(item.fields) != fields:
                raise GenerateError("S108", f"item id '{item_id}' names another item in another game of these "
                                    f"rules ({item.kind} {dict(item.fields)}, here {kind} {fields}): an id "
                                    "template must name every generated field that varies", None)
            out.append(item)
        return tuple(out)


__all__ = ["GenerateError", "ItemSets"]
