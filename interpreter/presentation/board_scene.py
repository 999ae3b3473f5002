"""One board as one player may see it: each node where it is drawn, the text it shows
and what stands on it, and the connections.  The text map (board_text.py), the SVG
(board_svg.py) and the table's list of places (display.py) are all drawn from it.

It reads the player's view and the ruleset, nothing else, so a drawing made from it cannot
show what the view hides:
- a node's text fills the board's `display: show` places from the node's attributes (fixed
  for the game), `node`, and the view's values of variables and zones keyed by node;
- pieces are the view's per-player variables whose value names a node (a variable seen by
  its owner only is in its owner's view only), and the view's item properties naming a
  node (the view gives an item's properties only when the player sees the item whole).
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field

from .board_layout import node_positions

_POSITIONS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # graph -> {seed: positions}


@dataclass
class Piece:
    label: str  # what the map prints: a player's number or an item's id
    player: int | None = None  # the player it stands for (a per-player variable), if any
    glyph: str | None = None  # an item's mark (`display: kinds`), else None: drawn by its id
    owner: int | None = None  # the player an item belongs to, by its mark's `owner`
    title: str | None = None  # what the item is, by its mark's `label`
    colour: str | None = None  # its mark's colour


@dataclass
class PlacedNode:
    name: str
    label: str  # the node's name in the language shown
    x: float
    y: float
    text: str | None  # the node text of `display: show`; None without one
    attributes: str  # the attributes as a list ("toll 2"), used when there is no node text
    group: str | None  # the value of the `show: {by: ...}` attribute
    pieces: list[Piece] = field(default_factory=list)


@dataclass
class BoardScene:
    name: str
    title: str
    nodes: list[PlacedNode]
    edges: list[tuple[str, str]]
    directed: bool
    neighbours: dict[str, list[str]]

    def node(self, name: str) -> PlacedNode:
        return next(n for n in self.nodes if n.name == name)


def positions(game, name: str, seed: int = 0) -> dict:
    """The board's node positions (declared, grid, or laid out), worked out once per game."""
    graph = game.boards[name]
    decl = game.rules.ruleset.boards[name]
    made = _POSITIONS.setdefault(graph, {})
    if seed not in made:
        made[seed] = node_positions(graph, decl.display.positions if decl.display else None, seed)
    return made[seed]


def board_scene(table, name: str, seed: int = 0) -> BoardScene:
    """`table`: the TableText of one player's view (its labels, values and zones)."""
    game, view = table.game, table.view
    graph = game.boards[name]
    display = game.rules.ruleset.boards[name].display
    at = positions(game, name, seed)
    here = _pieces(table, graph, display)
    nodes = []
    for node, data in graph.nodes(data=True):
        group = str(data.get(display.show_by)) if display and display.show_by in data else None
        nodes.append(PlacedNode(node, table.label(str(node)), at[node][0], at[node][1],
                                _node_text(table, display, node, data, group), _attributes(table, data),
                                group, here.get(node, [])))
    neighbours = {n: [table.label(str(m)) for m in graph.neighbors(n)] for n in graph.nodes}
    return BoardScene(name, table.label(name, "board"), nodes, list(graph.edges), graph.is_directed(), neighbours)


def node_text(table, name: str, node) -> str | None:
    """One node's text in `table`'s view, or None when its board gives it none."""
    graph = table.game.boards[name]
    display = table.game.rules.ruleset.boards[name].display
    data = graph.nodes[node]
    group = str(data.get(display.show_by)) if display and display.show_by in data else None
    return _node_text(table, display, node, data, group)


def _attributes(table, data: dict) -> str:
    return ", ".join(f"{table.label(str(k))} {table.value(v)}" for k, v in data.items()
                     if k not in ("row", "col", "pos"))


def _node_text(table, display, node: str, data: dict, group: str | None) -> str | None:
    if display is None:
        return None
    text = display.texts.get(str(node))
    if text is None:
        text = display.show if display.show_cases is None else display.show_cases.get(group or "")
    if text is None:
        return None
    from meeple.dsl.templates import template_places
    values = {}
    for place in template_places(text) or ():
        if place == "node":
            values[place] = table.label(str(node))
        elif place in data:  # a mapping written in YAML reads like a map of the state
            value = data[place]
            values[place] = table.placed({"$map": value} if isinstance(value, dict) else value)
        elif place in table.view["zones"]:
            values[place] = table.zone(_keyed(table.view["zones"][place], node, {"count": 0}))
        else:
            values[place] = table.placed(_keyed(table.view["vars"].get(place), node, None))
    return table.label(text).format(**values)


def _keyed(value, node: str, missing):
    """A node's entry of a value keyed by node, as the view holds it."""
    if isinstance(value, dict):
        value = value.get("$map", value)
        return value.get(node, missing)
    return missing


def _pieces(table, graph, display) -> dict[str, list[Piece]]:
    """node -> what stands there, in the view."""
    rules, view = table.rules, table.view
    names = display.pieces if display and display.pieces is not None else None
    here: dict[str, list[Piece]] = {}
    for var, decl in rules.variables.items():
        if decl.per != "player" or (names is not None and var not in names):
            continue
        value = view["vars"].get(var)
        if isinstance(value, dict):  # seen by its owner only: {"<owner>": value}
            held = {int(p): v for p, v in value.items()}
        elif isinstance(value, list):
            held = dict(enumerate(value))
        else:
            continue
        for p, node in held.items():
            if isinstance(node, str) and node in graph.nodes:
                here.setdefault(node, []).append(Piece(str(p), p))
    wanted = None if names is None else {tuple(n.split(".", 1)) for n in names if "." in n}
    for item_id, props in view.get("props", {}).items():
        kind = rules.items[item_id].kind
        for prop, node in props.items():
            if wanted is not None and (kind, prop) not in wanted:
                continue
            if isinstance(node, str) and node in graph.nodes:
                here.setdefault(node, []).append(_item_piece(table, display, item_id, props))
    return here


def _item_piece(table, display, item_id: str, props: dict) -> Piece:
    """An item standing on a node, marked as its kind's `display: kinds` entry says: a
    glyph and a label filled from its fields and the view's properties, its owner's
    colour.  Only items the view gives properties of get here: items seen whole."""
    item = table.rules.items[item_id]
    mark = display.kinds.get(item.kind) if display is not None else None
    if mark is None:
        return Piece(item_id)
    kind = table.rules.ruleset.components[item.kind]
    values = {"id": item_id, "kind": table.label(item.kind, "kind"), **item.fields,
              **{name: props[name] if name in props else table.game.prop_default(item, name) for name in kind.props}}

    def fill(text):
        if text is None:
            return None
        return table.label(text, None).format(**{k: table.placed(v) for k, v in values.items()})
    owner = values.get(mark.owner) if isinstance(mark.owner, str) else None
    return Piece(item_id, glyph=fill(mark.glyph), owner=owner if type(owner) is int else None,
                 title=fill(mark.label), colour=mark.colour)
