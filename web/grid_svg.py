"""A grid board as a grid of cells, each with the value the view gives its node (a mark,
a disc), coordinates as move texts write them (`a1` at the bottom left).

The terminal draws such a board as rows of characters (display.py); in the browser each
cell is a square that can be clicked.  Each cell carries its node's name (`data-node`)
and its attributes as `name=value` (`data-attrs`), so a click finds both the moves that
name the cell (`place(at=b2)`) and those that name its column (`drop(col=3)`).
"""
from __future__ import annotations

from meeple.dsl.build import grid_column
from meeple.interpreter.presentation.board_cells import PLAYER_COLOURS, CellMarks, legend

from .html import Markup, attrs, esc

CELL = 60
EDGE = 28  # room for the coordinates


def grid_boards(table, grid) -> Markup:
    """Every sheet of `grid` (board_cells.Grid): the board's own cells, or each player's
    sheet the seat's view holds, titled with its player."""
    out = []
    for sheet in grid.sheets:
        title = None if sheet.player is None else \
            f"{table.label(grid.variable, 'variable')}, {table.words('player {p}', p=sheet.player)}"
        out.append(grid_board(table, grid.board, grid.variable, sheet.cells, title))
    return Markup("".join(out))


def grid_board(table, board: str, variable: str, cells: dict, title: str | None = None) -> Markup:
    """`table`: the TableText of the seat's view; `cells`: node -> value of `variable`."""
    game = table.game
    graph = game.boards[board]
    at = {(d["row"], d["col"]): (n, d) for n, d in graph.nodes(data=True)}
    rows = max(r for r, _ in at) + 1
    cols = max(c for _, c in at) + 1
    marks = CellMarks(game, board, table.label)
    colours = _colours(game.rules.ruleset.variables[variable].choices, cells)
    shift = CELL // 2 if graph.graph.get("shape") == "hex" else 0  # a hex grid's rows step east
    top = 24 if title else 0
    width, height = EDGE + cols * CELL + (rows - 1) * shift + 4, rows * CELL + EDGE + 4 + top
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board grid" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif"'
           f'{attrs(data_board=board, aria_label=title or table.label(board, "board"))}>']
    if title:
        out.append(f'<text x="{EDGE}" y="16" font-size="14" font-weight="bold">{esc(title)}</text>')
    for (r, c), (node, data) in sorted(at.items()):
        x, y = EDGE + c * CELL + r * shift, (rows - 1 - r) * CELL + top
        shown = marks(cells.get(node))
        tip = shown.label or shown.glyph
        tokens = [f"{k}={v}" for k, v in sorted(data.items()) if isinstance(v, (int, str))]
        out.append(f'<g{attrs(class_="node cell", data_node=node, data_attrs=tokens)}>'
                   f'<title>{esc(table.label(str(node)))}{esc(": " + tip) if tip else ""}</title>'
                   f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#f4f1e8" stroke="#555"/>')
        if shown.glyph:
            colour = shown.colour or colours.get(str(cells.get(node)), "#222")
            size = 30 if len(shown.glyph) <= 2 else max(12, 60 // len(shown.glyph))
            out.append(f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + size // 3}" font-size="{size}" '
                       f'font-weight="bold" text-anchor="middle" fill="{colour}">{esc(shown.glyph)}</text>')
        out.append("</g>")
    for c in range(cols):
        out.append(f'<text x="{EDGE + c * CELL + CELL / 2}" y="{rows * CELL + 20 + top}" font-size="14" '
                   f'text-anchor="middle" fill="#555">{grid_column(c)}</text>')
    for r in range(rows):
        out.append(f'<text x="{EDGE / 2}" y="{(rows - 1 - r) * CELL + CELL / 2 + 5 + top}" font-size="14" '
                   f'text-anchor="middle" fill="#555">{r + 1}</text>')
    out.append("</svg>")
    key = legend(cells, marks)
    return Markup("".join(out) + (f'<p class="legend">{esc(key)}</p>' if key else ""))


def _colours(choices, cells: dict) -> dict:
    """A colour per value: the declared choices' order when there is one (so X is always
    red), else the order values first appear on the board."""
    values = [str(v) for v in (choices or ()) if v not in ("", None)]
    values += sorted({str(v) for v in cells.values() if v not in ("", None)} - set(values))
    return {v: PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i, v in enumerate(values)}
