"""How the CLI shows things to people: diagnostics, a player's view, moves.

stdout carries data and the game; stderr carries diagnostics and errors.
"""
from __future__ import annotations

import sys
from typing import NoReturn

from rich.console import Console, ConsoleDimensions
from rich.markup import escape
from rich.rule import Rule

from meeple.interpreter.runtime.moves import format_value
from meeple.interpreter.presentation.phrases import find_label

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

    def print(self, *objects, soft_wrap=None, **kwargs) -> None:
        """Lines of plain text are records in a pipe even when COLUMNS is set (CI consoles
        export COLUMNS=80): they are never cut there.  Tables and rules still take the
        width, since they must be laid out to some width."""
        if soft_wrap is None and not self.is_terminal and all(isinstance(o, str) for o in objects):
            soft_wrap = True
        super().print(*objects, soft_wrap=soft_wrap, **kwargs)


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


def label(game, name: str, lang: str | None, scope: str | None = None) -> str:
    """A name or a message of the ruleset in `lang` (English labels when no language is
    asked): `game.labels[lang]` is keyed by the identifier, scoped or not (`action.load`,
    interpreter/phrases.py), or by the English text of a reason, like a gettext catalogue.
    An action without a label is named by its declaration's `label`."""
    found = find_label(game.rules.ruleset, lang, name, scope)
    if found is not None:
        return found
    action = game.rules.ruleset.actions.get(name) if scope in (None, "action") else None
    return action.label if action is not None and action.label else name


def move_text(game, move, lang: str | None, state=None, viewer: int | None = None) -> str:
    """A move for people: its label and labelled parameters, then the text that can be
    typed when the labels changed anything.  Given the state it is played from and who
    reads it, items that reader cannot see whole are named by their handles and what the
    reader may not know of another's move is `?` (Game.seen_move)."""
    name_item = None
    if state is not None and viewer is not None:
        move = game.seen_move(state, move, viewer)
        name_item = game.namer(state, viewer).name
    typed = game.move_text(state, move, viewer) if name_item else str(move)
    name = label(game, move.action, lang, "action")
    raw = [(k, format_value(v, name_item)) for k, v in move.args]
    shown = [(label(game, k, lang, "param"),
              phrase(lang, "yes" if arg else "no") if type(arg) is bool else label(game, v, lang, "value"))
             for (k, v), (_, arg) in zip(raw, move.args)]
    if name == move.action and shown == raw:
        return typed
    return name + (": " + ", ".join(f"{k}={v}" for k, v in shown) if shown else "") + f"  ({typed})"


def show_view(game, view: dict, lang: str | None = None, title: str = "") -> None:
    """Print one player's table (interpreter/display.py): their area, what the others
    show, the common table and the boards, made from their view alone."""
    from meeple.interpreter.presentation.display import TableText
    if title:
        console.print(f"[bold]{escape(title)}[/]")
    width = console.width if console.is_terminal else None  # a pipe keeps whole records
    text = TableText(game, view, lang, width).text()
    console.print(text, markup=False, highlight=False)


def show_moves(game, state, moves, lang: str | None = None) -> None:
    """A player's own legal moves, named as that player sees the items; each item the mover
    sees whole is described by its kind's `show` text."""
    describe = MoveDescriber(game, state, lang)
    for i, m in enumerate(moves, 1):
        text = move_text(game, m, lang, state, m.player)
        about = describe(m)
        console.print(f"  [bold]{i:>3}[/]  {escape(text)}" + (f"  [dim]— {escape(about)}[/]" if about else ""))


class MoveDescriber:
    """The items and board places a move names, described as its mover's table describes them."""

    def __init__(self, game, state, lang):
        self.game, self.state, self.lang = game, state, lang
        self.tables: dict = {}  # mover -> TableText of their view, made on first need

    def __call__(self, move) -> str:
        from meeple.dsl.values import Item
        from meeple.interpreter.presentation.display import TableText
        from meeple.interpreter.runtime.knowledge import WHOLE
        namer = self.game.namer(self.state, move.player)
        items = [v for _, v in move.args if isinstance(v, Item) and namer.sight(v) == WHOLE]
        places = [v for _, v in move.args if type(v) is str and self.game.boards and
                  any(v in graph for graph in self.game.boards.values())]
        if not items and not places:
            return ""
        table = self.tables.get(move.player)
        if table is None:
            table = self.tables[move.player] = TableText(
                self.game, self.game.view(self.state, move.player), self.lang)
        parts = [f"{item.id}: {text}" for item in items if (text := table.describe(item))]
        parts += [f"{table.label(node)}: {text}" for node in places if (text := table.describe_node(node))]
        return "; ".join(parts)


def is_tty() -> bool:
    return sys.stdin.isatty()
