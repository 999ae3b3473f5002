"""A board's `grid:`: its nodes and edges, for its size as written or as a game's options
make it.

A grid's `rows` and `cols` are numbers, or expressions over the options
(`rows: "options.size"`), so that one ruleset offers a 6x6 and an 8x8 board.  When the
ruleset is loaded, such an expression is checked (it may read the options only) and
worked out with the options' defaults, and the board is built for that size: every
static reader (the checks, the editor, the display's declarations) sees that board.
A game whose options give another size gets its own board from `sized_board`.
"""
from __future__ import annotations

import dataclasses

from .build_flow import value_span
from .compare import kind_of
from .compile_expr import compile_expr
from .diagnostics import Diagnostic
from .eval_errors import EvalError, EvalLimitError
from .model import BoardDecl, GridDecl
from .schema.limits import MAX_BOARD_NODES
from .options import choice_sets, options_read, options_symbol  # noqa: F401 (options_read: read from here too)
from .scope import Scope
from .source import Span, span_of
from .typecheck import expect_type
from .types import INT
from .values import option_value

SHAPES = ("square", "hex")
# A square grid's neighbours: east and north, and with `diagonal` both northern corners;
# a hex grid's: east, north-east and north-west (each row lies half a cell east of the
# one below, so the cell north-west of (r, c) is (r + 1, c - 1)).  Edges go both ways.
_SQUARE = ((0, 1), (1, 0))
_SQUARE_DIAGONAL = ((1, 1), (1, -1))
_HEX = ((0, 1), (1, 0), (1, -1))
# A size expression reads only the options: a little arithmetic, never a walk.
SIZE_COST_LIMIT = 10_000


class BoardSizeError(ValueError):
    """A game's options give a grid a size it cannot have (a clear error, when the game
    is created)."""


def grid_column(col: int) -> str:
    """A grid column's letters: a ... z, then aa, ab, ... (as spreadsheets name them)."""
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def grid_node(row: int, col: int) -> str:
    """A grid node's name: column letters, then the 1-based row (`a1`, `aa12`)."""
    return f"{grid_column(col)}{row + 1}"


def grid_parts(rows: int, cols: int, diagonal: bool, shape: str) -> tuple[dict, list]:
    """The nodes (with their row and col) and edges of a rows x cols grid."""
    steps = _HEX if shape == "hex" else _SQUARE + (_SQUARE_DIAGONAL if diagonal else ())
    nodes = {grid_node(row, col): {"row": row, "col": col} for row in range(rows) for col in range(cols)}
    edges = [(grid_node(row, col), grid_node(row + dr, col + dc), {})
             for row in range(rows) for col in range(cols) for dr, dc in steps
             if 0 <= row + dr < rows and 0 <= col + dc < cols]
    return nodes, edges


def size_problem(rows: int, cols: int) -> str | None:
    if rows < 1 or cols < 1 or rows * cols > MAX_BOARD_NODES.value:
        return (f"a grid needs at least 1 row and 1 column and at most {MAX_BOARD_NODES.value:,} "
                f"nodes, not {rows} x {cols}")
    return None


# -- reading `grid:` ---------------------------------------------------------------------

def build_grid(r, value, span: Span | None, declared: dict) -> tuple[GridDecl | None, dict, list]:
    """The grid's declaration and, when its size is known, its nodes and edges; problems
    go to the reader `r` (S112 for a size out of bounds, at the size).  `declared`: the
    game's options (name -> OptionDecl)."""
    options = {name: o.default for name, o in declared.items()}
    g = r.mapping(value, "grid", parent_span=span)
    if g is None:
        return None, {}, []
    shape = r.string(g.get("shape"), "shape", value_span(g, "shape"), choices=SHAPES) or "square"
    diagonal = r.boolean(g.get("diagonal"), "diagonal", value_span(g, "diagonal"))
    if shape == "hex" and diagonal:
        r.error("S122", "a hex grid has no diagonals: each cell already has six neighbours",
                value_span(g, "diagonal", g.span), beyond_schema=True)
    rows, row_count = _size(r, g, "rows", options)
    cols, col_count = _size(r, g, "cols", options)
    if rows is None or cols is None:
        return None, {}, []
    decl = GridDecl(rows, cols, diagonal, shape, g.span)
    if row_count is None or col_count is None:
        return decl, {}, []
    problem = size_problem(row_count, col_count)
    if problem is not None:
        sized = [value_span(g, k) for k in ("rows", "cols") if not isinstance(g.get(k), int)]
        r.error(MAX_BOARD_NODES.code, problem + (" with the options' defaults" if sized else ""),
                sized[0] if sized else span)
        return decl, {}, []
    _check_choices(r, g, decl, declared)
    nodes, edges = grid_parts(row_count, col_count, diagonal, shape)
    decl.built = (row_count, col_count)
    return decl, nodes, edges


def _check_choices(r, g, decl: GridDecl, declared: dict) -> None:
    """When the options a size reads all declare their choices, every size they can give is
    tried here, so that a choice the grid cannot take is reported where the size is
    written rather than when a game is made with it."""
    read: set[str] = set()
    for written in (decl.rows, decl.cols):
        names = set() if isinstance(written, int) else options_read(written)
        if names is None:
            return
        read |= names
    sets = choice_sets(read, declared) if read else None
    if not sets:
        return
    names = sorted(read)
    combinations = [tuple(chosen[n] for n in names) for chosen in sets]
    defaults = {name: o.default for name, o in declared.items()}
    at = value_span(g, "rows" if not isinstance(decl.rows, int) else "cols")
    for combination in combinations:
        chosen = ", ".join(f"{n} = {v!r}" for n, v in zip(names, combination))
        try:
            problem = size_problem(*_counts(decl, {**defaults, **dict(zip(names, combination))}))
        except EvalError as exc:
            r.diagnostics.append(Diagnostic(exc.code, f"with the option choice {chosen}: {exc.message}",
                                            exc.span or at))
            return
        if problem is not None:
            r.error(MAX_BOARD_NODES.code, f"with the option choice {chosen}: {problem}", at)
            return


def _size(r, g, key: str, options: dict):
    """(what is written: an int or an expression, the count with the defaults or None)."""
    value = g.get(key)
    if value is None or isinstance(value, bool):
        return None, None  # reported by the shape pass
    if isinstance(value, int):
        return int(value), int(value)
    expr = r.expr(value, f"the {key} of a grid", g.span)
    if expr is None:
        return None, None
    problems = expect_type(expr, _size_scope(options, g.span), INT, f"the {key} of a grid")
    for d in problems:
        if d.code == "N301":
            d = dataclasses.replace(d, notes=d.notes + ("a grid's size may read the options only: options.NAME",))
        r.diagnostics.append(d)
    if problems:
        return expr, None
    try:
        return expr, _work_out(expr, key, options)
    except EvalError as exc:
        r.diagnostics.append(Diagnostic(exc.code, f"the {key} of the grid with the options' defaults: "
                                        f"{exc.message}", exc.span or span_of(value, g.span)))
        return expr, None


def _size_scope(options: dict, span) -> Scope:
    return Scope({"options": options_symbol(options, span)}, boards=frozenset())


def _work_out(expr, key: str, options: dict) -> int:
    value = compile_expr(expr, _size_scope(options, expr.span))(_OptionsOnly(options))
    if not isinstance(value, int) or isinstance(value, bool):
        raise EvalError("T403", f"the {key} of a grid must be an int, found {kind_of(value)}", expr.span)
    return value


class _OptionsOnly:
    """The context a size expression runs in: the options and a small cost counter, and
    no game (a board function finds no board; the players are not known yet)."""

    def __init__(self, options: dict):
        self.options = {k: option_value(v) for k, v in options.items()}
        self.bindings: dict = {}
        self.game = _NoGame()
        self.cost = 0

    @property
    def player_count(self):
        raise EvalError("R701", "a grid's size may read the options only, not the players")

    def charge(self, n: int = 1) -> None:
        self.cost += n
        if self.cost > SIZE_COST_LIMIT:
            raise EvalLimitError("R702", f"a grid's size takes more than {SIZE_COST_LIMIT:,} steps to work out")


class _NoGame:
    boards: dict = {}
    items: dict = {}
    item_kinds: dict = {}

    def items_of(self, kind):
        return ()


# -- a game's own size ---------------------------------------------------------------------

def _counts(grid: GridDecl, options: dict) -> tuple[int, int]:
    """The grid's rows and cols with these options (EvalError when one fails)."""
    return tuple(written if isinstance(written, int) else _work_out(written, key, options)
                 for key, written in (("rows", grid.rows), ("cols", grid.cols)))


def grid_size(grid: GridDecl, options: dict) -> tuple[int, int]:
    """The grid's rows and cols with these options; BoardSizeError when they cannot be."""
    try:
        return _counts(grid, options)
    except EvalError as exc:
        raise BoardSizeError(f"its size cannot be worked out with these options: {exc.message}") from None


def sized_board(decl: BoardDecl, options: dict) -> BoardDecl:
    """The board as a game with these options has it: `decl` itself unless its grid's
    size is an expression that gives another size."""
    grid = decl.grid
    if grid is None or not grid.sized_by_options:
        return decl
    try:
        rows, cols = grid_size(grid, options)
        problem = size_problem(rows, cols)
        if problem is not None:
            raise BoardSizeError(problem)
    except BoardSizeError as exc:
        raise BoardSizeError(f"board '{decl.name}': {exc}") from None
    if (rows, cols) == grid.built:
        return decl
    nodes, edges = grid_parts(rows, cols, grid.diagonal, grid.shape)
    nodes.update(grid.listed_nodes)
    for a, b, _ in grid.listed_edges:
        for end in (a, b):
            if end not in nodes:
                raise BoardSizeError(f"board '{decl.name}': its edge [{a}, {b}] names '{end}', which a "
                                     f"{rows} x {cols} grid does not have")
    for line in decl.lines:
        for n in line:
            if n not in nodes:
                raise BoardSizeError(f"board '{decl.name}': its line [{', '.join(line)}] names '{n}', which a "
                                     f"{rows} x {cols} grid does not have")
    return dataclasses.replace(decl, nodes=nodes, edges=edges + list(grid.listed_edges),
                               grid=dataclasses.replace(grid, built=(rows, cols)))


__all__ = ["BoardSizeError", "build_grid", "grid_column", "grid_node", "grid_parts", "sized_board"]
