"""How the CLI shows things to people: diagnostics, a player's view, moves.

stdout carries data and the game; stderr carries diagnostics and errors.
"""
from __future__ import annotations

import sys
from typing import NoReturn

from rich.console import Console, ConsoleDimensions
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from meeple.dsl.build import grid_column
from meeple.interpreter.moves import format_value

from .phrases import phrase

PIPED_WIDTH = 100_000  # "no wrapping" for rich, which always lays text out to some width
RULE_WIDTH = 80  # a rule's width in piped output, where the console is PIPED_WIDTH wide


class _Console(Console):
    """A terminal's lines wrap at its width.  Output to a pipe or a file is read by
    programs (grep, diff, a test) for which a line is a record, so there a line is never
    cut; rich would cut it at 80 columns.  COLUMNS, when set, still decides."""

    @property
    def size(self) -> ConsoleDimensions:
        size = Console.size.fget(self)
        if self.is_terminal or self._width is not None or "COLUMNS" in self._environ:
            return size
        return ConsoleDimensions(PIPED_WIDTH, size.height)

    @size.setter
    def size(self, new_size) -> None:
        Console.size.fset(self, new_size)


# No emoji codes and no highlighting: user text such as `game.yaml:100:` must print as
# written (with emoji on, `:100:` becomes a picture).  Markup stays on for our own styles,
# so user text inside a styled line is always passed through `escape`.
console = _Console(highlight=False, emoji=False)
error_console = _Console(stderr=True, highlight=False, emoji=False)


def rule(title: str) -> None:
    """A horizontal rule with a title: the terminal's width, or RULE_WIDTH when piped."""
    console.print(Rule(title), width=None if console.width < PIPED_WIDTH else RULE_WIDTH)


def fail(message: str, code: int = 2) -> NoReturn:
    error_console.print(f"[bold red]error:[/] {escape(str(message))}", markup=True, soft_wrap=True)
    raise SystemExit(code)


def print_diagnostics(diagnostics) -> None:
    for d in diagnostics:
        colour = "red" if d.severity == "error" else "yellow"
        text = d.render()
        head, _, rest = text.partition("\n")
        error_console.print(f"[{colour}]{escape(head)}[/]", soft_wrap=True)
        if rest:
            error_console.print(rest, soft_wrap=True, markup=False)


def label(game, name: str, lang: str | None) -> str:
    """A name or a message of the ruleset in `lang`: `game.labels[lang]` is keyed by the
    identifier, or by the English text of a reason, like a gettext catalogue."""
    if lang:
        table = game.rules.ruleset.game.labels.get(lang, {})
        if name in table:
            return table[name]
    action = game.rules.ruleset.actions.get(name)
    return action.label if action is not None and action.label else name


def move_text(game, move, lang: str | None, state=None, viewer: int | None = None) -> str:
    """A move for people: its label and labelled parameters, then the text that can be
    typed when the labels changed anything.  Given the state it is played from and who
    reads it, items that reader cannot see whole are named by their handles."""
    name_item = game.namer(state, viewer).name if state is not None and viewer is not None else None
    typed = game.move_text(state, move, viewer) if name_item else str(move)
    name = label(game, move.action, lang)
    raw = [(k, format_value(v, name_item)) for k, v in move.args]
    shown = [(label(game, k, lang), label(game, v, lang)) for k, v in raw]
    if name == move.action and shown == raw:
        return typed
    return name + (": " + ", ".join(f"{k}={v}" for k, v in shown) if shown else "") + f"  ({typed})"


def rejection_text(game, rejection, lang: str | None) -> str:
    text = label(game, rejection.reason, lang)
    return text + (f" ({phrase(lang, 'rule')} {rejection.rule})" if rejection.rule else "")


def show_view(game, view: dict, lang: str | None = None, title: str = "") -> None:
    """Print one player's view: variables, zones and whose turn it is."""
    if title:
        console.print(f"[bold]{escape(title)}[/]")
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold cyan")
    table.add_column()
    if view.get("phase"):
        table.add_row(phrase(lang, "phase"), Text(label(game, view["phase"], lang)))
    board = _board_picture(game, view)
    def tr(text):
        return phrase(lang, label(game, text, lang))
    for name, value in view["vars"].items():
        if board and name == board[1]:
            continue
        table.add_row(Text(label(game, name, lang)), Text(_short(value, tr)))
    for name, value in view["zones"].items():
        table.add_row(Text(label(game, name, lang)), Text(_short(value, tr)))
    for name, value in view.get("locals", {}).items():
        table.add_row(Text(label(game, name, lang)), Text(_short(value, tr)))
    console.print(table)
    if board:
        console.print(board[0], markup=False)
    for line in view.get("log", [])[-3:]:
        console.print(f"  [dim]{escape(line)}[/]")


def _board_picture(game, view):
    """A grid board whose nodes carry row/col and one str variable per node is drawn as a grid."""
    for bname, g in game.boards.items():
        if not all("row" in d and "col" in d for _, d in g.nodes(data=True)) or not g.nodes:
            continue
        nodes = set(g.nodes)
        for vname, decl in game.rules.variables.items():
            value = view["vars"].get(vname)
            if isinstance(value, dict) and "$map" in value and set(value["$map"]) == nodes:
                cells = value["$map"]
                rows = max(d["row"] for _, d in g.nodes(data=True)) + 1
                cols = max(d["col"] for _, d in g.nodes(data=True)) + 1
                by_pos = {(d["row"], d["col"]): n for n, d in g.nodes(data=True)}
                lines = []
                for r in reversed(range(rows)):
                    cells_text = []
                    for c in range(cols):
                        v = cells.get(by_pos.get((r, c)), "")
                        cells_text.append(str(v) if v not in ("", None) else ".")
                    lines.append(f"{r + 1:>2} " + " ".join(cells_text))
                lines.append("   " + " ".join(grid_column(c) for c in range(cols)))
                return "\n".join(lines), vname
    return None


def _short(value, tr=str) -> str:
    text = _plain_text(value, tr)
    return text if len(text) < 200 else text[:197] + "..."


def _plain_text(value, tr=str) -> str:
    """A view value as text; `tr` translates map keys and text values (item ids are kept)."""
    if isinstance(value, dict):
        if "$map" in value:
            return "{" + ", ".join(f"{tr(k)}: {_plain_text(v, tr)}" for k, v in value["$map"].items()) + "}"
        if "$item" in value:
            return value["$item"]
        if "$pairs" in value:
            return "{" + ", ".join(f"{_plain_text(k, tr)}: {_plain_text(v, tr)}" for k, v in value["$pairs"]) + "}"
        return "{" + ", ".join(f"{tr(k)}: {_plain_text(v, tr)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_plain_text(v, tr) for v in value) + "]"
    if value is None:
        return "?"
    if isinstance(value, bool):
        return tr("true" if value else "false")
    if isinstance(value, str):
        return tr(value)
    return str(value)


def show_moves(game, state, moves, lang: str | None = None) -> None:
    """A player's own legal moves, named as that player sees the items."""
    for i, m in enumerate(moves, 1):
        console.print(f"  [bold]{i:>3}[/]  {escape(move_text(game, m, lang, state, m.player))}")


def is_tty() -> bool:
    return sys.stdin.isatty()
