"""A grid board as a grid of cells, each with the value the view gives its node (a mark,
a disc), coordinates as move texts write them (`a1` at the bottom left).

The terminal draws such a board as rows of characters (display.py); in the browser each
cell is a square that can be clicked.  Each cell carries its node's name (`data-node`)
and its attributes as `name=value` (`data-attrs`), so a click finds both the moves that
name the cell (`place(at=b2)`) and those that name its column (`drop(col=3)`).
"""
from __future__ import annotations

from meeple.dsl.build import grid_column
from meeple.interpreter.board_svg import PLAYER_COLOURS

from .html import Markup, attrs, esc

CELL = 60
EDGE = 28  # room for the coordinates


def grid_board(table, board: str, variable: str) -> Markup:
    """`table`: the TableText of the seat's view; `variable` holds one value per node."""
    game = table.game
    graph = game.boards[board]
    cells = table.view["vars"][variable]["$map"]
    at = {(d["row"], d["col"]): (n, d) for n, d in graph.nodes(data=True)}
    rows = max(r for r, _ in at) + 1
    cols = max(c for _, c in at) + 1
    colours = _colours(game.rules.ruleset.variables[variable].choices, cells)
    shift = CELL // 2 if graph.graph.get("shape") == "hex" else 0  # a hex grid's rows step east
    width, height = EDGE + cols * CELL + (rows - 1) * shift + 4, rows * CELL + EDGE + 4
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board grid" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif"'
           f'{attrs(data_board=board, aria_label=table.label(board, "board"))}>']
    for (r, c), (node, data) in sorted(at.items()):
        x, y = EDGE + c * CELL + r * shift, (rows - 1 - r) * CELL
        value = cells.get(node)
        marked = value not in ("", None)
        shown = table.value(value) if marked else ""
        tokens = [f"{k}={v}" for k, v in sorted(data.items()) if isinstance(v, (int, str))]
        out.append(f'<g{attrs(class_="node cell", data_node=node, data_attrs=tokens)}>'
                   f'<title>{esc(table.label(str(node)))}{esc(": " + shown) if shown else ""}</title>'
                   f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#f4f1e8" stroke="#555"/>')
        if marked:
            colour = colours.get(str(value), "#222")
            out.append(f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + 10}" font-size="30" font-weight="bold" '
                       f'text-anchor="middle" fill="{colour}">{esc(shown)}</text>')
        out.append("</g>")
    for c in range(cols):
        out.append(f'<text x="{EDGE + c * CELL + CELL / 2}" y="{rows * CELL + 20}" font-size="14" '
                   f'text-anchor="middle" fill="#555">{grid_column(c)}</text>')
    for r in range(rows):
        out.append(f'<text x="{EDGE / 2}" y="{(rows - 1 - r) * CELL + CELL / 2 + 5}" font-size="14" '
                   f'text-anchor="middle" fill="#555">{r + 1}</text>')
    out.append("</svg>")
    return Markup("".join(out))


def _colours(choices, cells: dict) -> dict:
    """A colour per value: the declared choices' order when there is one (so X is always
    red), else the order values first appear on the board."""
    values = [str(v) for v in (choices or ()) if v not in ("", None)]
    values += sorted({str(v) for v in cells.values() if v not in ("", None)} - set(values))
    return {v: PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i, v in enumerate(values)}
