"""A board on its own, as text or SVG, for `meeple board` and for programs: made from one
player's view (`game.view(state, player)`), which is all these functions are given."""
from __future__ import annotations

from .board_scene import board_scene
from .board_svg import board_svg
from .display import TableText, _board_drawing


def drawn_boards(game) -> list[str]:
    """The boards that have nodes, in declaration order."""
    return [name for name, graph in game.boards.items() if graph.nodes]


def board_as_text(game, view: dict, board: str, lang: str | None = None) -> str:
    """A grid board as the table draws it (coordinates as in move texts); any other board
    as a map with its list of places."""
    table = TableText(game, view, lang)
    grid = _board_drawing(game, view, table)
    if grid and grid[2] == board:
        return f"{table.words('board')} {table.label(board, 'board')}:\n" + grid[0]
    return "\n".join(table.board_map(board, game.boards[board]))


def board_as_svg(game, view: dict, board: str, lang: str | None = None) -> str:
    table = TableText(game, view, lang)
    return board_svg(board_scene(table, board), caption=table.words("as player {p} sees it", p=view["viewer"]))
