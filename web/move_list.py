"""A seat's legal moves as the page lists them: grouped by action, each group one line
(its label and how many moves it holds) that opens to the moves, each named by its
parameters alone (`gem=ruby, n=2`), the text that can be typed as the button's tooltip.

The list is the second way to choose: a click on the table (a card, a place, a row of a
market) narrows it first (table.js), and a group that still holds a move opens.  Groups
stay open while the whole list is short.
"""
from __future__ import annotations

from meeple.cli.phrases import phrase
from meeple.cli.render import MoveDescriber, label
from meeple.interpreter.runtime.game import _items_of
from meeple.interpreter.runtime.moves import format_value

from .html import Markup, attrs, tag

OPEN_UNDER = 13  # a list of at most this many moves shows every group open


def move_list(game, state, seat: int, moves, lang: str, nothing: str) -> Markup:
    describe = MoveDescriber(game, state, lang)
    namer = game.namer(state, seat)
    groups: dict[str, list] = {}
    for m in moves:
        groups.setdefault(m.action, []).append(m)
    out = []
    for action, group in groups.items():
        items = []
        for m in group:
            seen = game.seen_move(state, m, seat)
            short = _params(game, seen, namer, lang) or label(game, action, lang, "action")
            about = describe(m)
            items.append("<li>" + tag("button", short, class_="move", title=game.move_text(state, m, seat),
                                      data_move=game.move_text(state, m, seat),
                                      data_mentions=_mentions(game, m, namer))
                         + (tag("span", about, class_="about") if about else "") + "</li>")
        opened = len(moves) < OPEN_UNDER or len(groups) == 1
        head = tag("summary", label(game, action, lang, "action"), tag("span", str(len(group)), class_="count"))
        out.append(f'<details class="group"{attrs(open=opened, data_action=action)}>{head}'
                   f'<ol>{"".join(items)}</ol></details>')
    return Markup(f'<div id="moves"{attrs(data_nothing=nothing)}>' + "".join(out) + "</div>")


def _params(game, move, namer, lang) -> str:
    """`gem=ruby, n=2` in the page's language: the labelled parameters of a move."""
    parts = []
    for name, value in move.args:
        shown = phrase(lang, "yes" if value else "no") if type(value) is bool else \
            label(game, format_value(value, namer.name), lang, "value")
        parts.append(f"{label(game, name, lang, 'param')}={shown}")
    return ", ".join(parts)


def _mentions(game, move, namer) -> list[str]:
    """What a click may select this move by: the items it names (as the mover names them),
    the board places and other plain texts it names (a market's row: `ruby`), and each
    argument as `name=value`."""
    out = []
    for name, value in move.args:
        for item in _items_of(value):
            out.append(namer.name(item))
        if type(value) is str:
            out.append(value)
        out.append(f"{name}={format_value(value, namer.name)}")
    return out
