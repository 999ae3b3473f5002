"""What `meeple play` shows before a human decides.

The compact screen (the default) fits a terminal: the player panel (the ruleset's
`summary:`, public values of every player), what happened since this player's last
decision, their own area and the common table (with a board drawn as a grid), then the
moves.  The full table (every player's area, boards listed place by place) is one key
away (`t`), or always with `--full`.

Everything here is made from what the deciding player may know: the panel reads only
public values (S130 checks it at load), the area comes from their view, and the news
names moves as they may read them.
"""
from __future__ import annotations

import textwrap

from rich.markup import escape

from .phrases import phrase
from .render import console, label, show_view


def show_news(lines: list[str]) -> None:
    """The one place where the lines about what happened since a player's last decision
    are printed (moves now; whatever else a caller adds later, such as narration)."""
    for part in news_text(lines, console.width if console.is_terminal else None):
        console.print(escape(part), soft_wrap=True)


def news_text(lines: list[str], width: int | None) -> list[str]:
    """The news as printed: indented, and on a terminal of `width` columns a long sentence
    broken to go on under its own start (a narrated line under its move), not at the
    screen's edge; in a pipe (`width` None) each line whole."""
    out = []
    for line in lines:
        text = f"  {line}"
        if width is None or len(text) <= width:
            out.append(text)
            continue
        hang = " " * (len(text) - len(text.lstrip()) + 2)
        out += textwrap.wrap(text, width, subsequent_indent=hang, break_on_hyphens=False)
    return out


def panel_lines(game, state, viewer: int, lang: str | None) -> list[str]:
    """The player panel as aligned text: a row per `summary:` entry, a column per player
    (the viewer's marked), or nothing when the ruleset declares no panel."""
    rows = game.summary(state)
    if not rows:
        return []
    heads = [phrase(lang, "you") if p == viewer else phrase(lang, "player {p}", p=p) for p in range(game.player_count)]
    names = [summary_label(game, row.name, lang) for row in rows]
    cells = [[summary_cell(v, lang) for v in row.values] for row in rows]
    first = max(len(n) for n in names)
    widths = [max(len(heads[p]), *(len(c[p]) for c in cells)) for p in range(game.player_count)]
    out = [" " * (first + 4) + "  ".join(h.rjust(w) for h, w in zip(heads, widths))]
    for name, row in zip(names, cells):
        out.append(f"  {name.ljust(first)}" + "".join("  " + c.rjust(w) for c, w in zip(row, widths)))
    return out


def summary_label(game, name: str, lang: str | None) -> str:
    shown = label(game, name, lang, "summary")
    return shown.replace("_", " ") if shown == name else shown


def summary_cell(value, lang) -> str:
    if isinstance(value, bool):
        return phrase(lang, "yes" if value else "no")
    return str(value)


def compact_lines(game, view: dict, lang: str | None, width: int | None) -> list[str]:
    """The deciding player's own area and the common table as the full table shows them
    (less the rows that hold nothing), and a board drawn as a grid (a chess board, a go
    board).  The other players' areas are shown only where no panel sums them up; boards
    listed place by place are left to the full table (`t`)."""
    from meeple.interpreter.presentation.display import TableText
    table = TableText(game, view, lang, width)
    lines = []
    blank = {table.words("empty"), table.words("nothing")}  # rows of nothing are left to the full table
    viewer = view["viewer"]
    sections = [(table.words("your area (player {p})", p=viewer), table.area(viewer))]
    if not game.rules.ruleset.summary:  # no panel to sum the others up: their areas, then
        sections += [(table.words("player {p}", p=p), table.area(p)) for p in range(game.player_count) if p != viewer]
    sections.append((table.words("table"), table.common()))
    for n, (title, rows) in enumerate(sections):
        rows = [(name, value) for name, value in rows if value not in blank]
        if rows:
            pad = max(len(name) for name, _ in rows)
            lines.append(f"{title}:")
            for name, value in rows:
                lines += table.row(name.ljust(pad), value)
        if n == 0:
            lines += [f"  {text}" for text in own_texts(game, view, lang)]
    if table.drawn:
        lines += table.drawn[0].split("\n")
    return lines


def own_texts(game, view: dict, lang: str | None) -> list[str]:
    """What the cards in the viewer's own zones do (their kinds' `text:`), each text once,
    in the order the cards lie: the screen says what a card does where the player holds it,
    without a `rules` question.  Only items the view shows whole are named."""
    items, viewer, seen = game.rules.items, view["viewer"], []
    for name, decl in game.rules.ruleset.zones.items():
        if decl.per == "player":
            _item_ids(view["zones"][name][viewer], items, seen)
    texts = []
    for item in seen:
        text = game.item_text(item, lang, ViewProps(view))
        if text and text not in texts:
            texts.append(text)
    return texts


def _item_ids(shown, items, out: list) -> None:
    if isinstance(shown, str):
        if shown in items and shown not in out:
            out.append(shown)
    elif isinstance(shown, dict):
        for key in ("items", "top", "known", "$item"):
            if key in shown:
                _item_ids(shown[key], items, out)
    elif isinstance(shown, list):
        for one in shown:
            _item_ids(one, items, out)


class ViewProps:
    """The item properties a view holds, where Game.item_text reads a state's."""

    def __init__(self, view: dict):
        self.props = view.get("props") or {}


def show_decision_screen(game, state, player: int, lang: str | None, news: list[str], full: bool) -> None:
    """Everything above the moves: the panel, the news, then the player's area (compact)
    or the whole table they see (full)."""
    for line in panel_lines(game, state, player, lang):
        console.print(escape(line))
    show_news(news)
    view = game.view(state, player)
    if full:
        show_view(game, view, lang, title=phrase(lang, "what player {p} sees", p=player))
        return
    width = console.width if console.is_terminal else None
    for line in compact_lines(game, view, lang, width):
        console.print(line, markup=False, highlight=False)
