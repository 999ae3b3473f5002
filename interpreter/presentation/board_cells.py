"""A grid board's cells as one player sees them: which variable fills them, and how each
value is drawn.

A grid is filled from a variable keyed by its nodes (the board's `display: cells`, or the
first variable whose value in the view has an entry for every node).  A board without one
may still be drawn as a grid from per-player sheets: a per-player map whose keys are nodes
(each player's own record of the board, seen by its owner only), one grid per sheet the
view holds.  A value is drawn by its declared mark (`display: marks`: a glyph, a colour or
its owner's colour, a label), else as written; an empty value ('' or none) as a dot.

The terminal (display.py) and the browser (web/grid_svg.py) both draw from these, so a
crowned piece looks crowned in both, and neither can show more than the view.
"""
from __future__ import annotations

from dataclasses import dataclass

from meeple.dsl.build import grid_column

PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
EMPTY = "."


@dataclass
class Sheet:
    """One grid's worth of values: the board's own (player None) or one player's sheet."""
    player: int | None
    cells: dict  # node -> value, as the view holds it (a node left out is empty)


@dataclass
class Grid:
    board: str
    variable: str
    sheets: list[Sheet]


@dataclass
class CellMark:
    glyph: str  # what the cell shows ('' for nothing)
    colour: str | None  # None: the drawing's own choice
    label: str | None  # what the glyph stands for


def is_grid(graph) -> bool:
    return bool(graph.nodes) and all("row" in d and "col" in d for _, d in graph.nodes(data=True))


def find_grid(game, view: dict) -> Grid | None:
    """The first grid board with something to draw in its cells, in the view."""
    for board, graph in game.boards.items():
        if not is_grid(graph):
            continue
        display = game.rules.ruleset.boards[board].display
        nodes = set(graph.nodes)
        named = display.cells if display is not None else None
        for name in game.rules.variables:
            if named is not None and name != named:
                continue
            value = view["vars"].get(name)
            if isinstance(value, dict) and "$map" in value and (named or set(value["$map"]) == nodes):
                return Grid(board, name, [Sheet(None, value["$map"])])
        if named is None:
            sheets = _sheets(game, view, nodes)
            if sheets:
                return Grid(board, sheets[0], sheets[1])
    return None


def _sheets(game, view: dict, nodes: set):
    """A per-player map variable whose keys are nodes: (its name, the sheets the view holds)."""
    for name, decl in game.rules.variables.items():
        if decl.per != "player" or not decl.shown:
            continue
        value = view["vars"].get(name)
        held = {int(p): v for p, v in value.items()} if isinstance(value, dict) and "$map" not in value else \
            dict(enumerate(value)) if isinstance(value, list) else {}
        maps = {p: v["$map"] for p, v in held.items() if isinstance(v, dict) and "$map" in v}
        typed = getattr(decl.type, "name", None) == "map" and getattr(decl.type.args[0], "name", None) == "str"
        if typed and maps and len(maps) == len(held) and all(set(m) <= nodes for m in maps.values()):
            return name, [Sheet(p, maps[p]) for p in sorted(maps)]
    return None


class CellMarks:
    """value -> CellMark, from the board's `display: marks`."""

    def __init__(self, game, board: str, label=str):
        display = game.rules.ruleset.boards[board].display
        self.marks = display.marks if display is not None else {}
        self.label = label  # a name in the table's language

    def __call__(self, value) -> CellMark:
        if value in ("", None) and str(value) not in self.marks:
            return CellMark("", None, None)
        mark = self.marks.get(_key(value))
        if mark is None:
            return CellMark(self.label(str(value)), None, None)
        colour = mark.colour
        if colour is None and isinstance(mark.owner, int):
            colour = PLAYER_COLOURS[mark.owner % len(PLAYER_COLOURS)]
        glyph = self.label(str(value)) if mark.glyph is None else mark.glyph
        return CellMark(glyph, colour, self.label(mark.label) if mark.label else None)


def _key(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def grid_lines(graph, cells: dict, mark: CellMarks) -> list[str]:
    """The grid as rows of text, top row first, each cell as wide as the widest glyph, the
    row numbers on the left and the column letters under it (as move texts write cells)."""
    rows = max(d["row"] for _, d in graph.nodes(data=True)) + 1
    cols = max(d["col"] for _, d in graph.nodes(data=True)) + 1
    at = {(d["row"], d["col"]): n for n, d in graph.nodes(data=True)}
    glyphs = {n: mark(cells.get(n)).glyph or EMPTY for n in graph.nodes}
    width = max(len(g) for g in glyphs.values())
    hexes = graph.graph.get("shape") == "hex"  # each row half a cell east of the one below
    lines = []
    for r in reversed(range(rows)):
        marks = [glyphs[at[(r, c)]].rjust(width) if (r, c) in at else " " * width for c in range(cols)]
        lines.append(f"{r + 1:>2} " + " " * (r * (width + 1) // 2 if hexes else 0) + " ".join(marks))
    lines.append("   " + " ".join(grid_column(c).rjust(width) for c in range(cols)))
    return lines


def legend(cells: dict, mark: CellMarks) -> str | None:
    """`● black stone, ○ white stone`: the labelled marks on the grid, in declared order."""
    present = {_key(v) for v in cells.values()}
    parts = []
    for key, declared in mark.marks.items():
        if key in present and declared.label:
            shown = mark(_value_of(key, cells))
            parts.append(f"{shown.glyph or EMPTY} {shown.label}")
    return ", ".join(parts) or None


def _value_of(key: str, cells: dict):
    return next(v for v in cells.values() if _key(v) == key)
