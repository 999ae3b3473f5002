"""One seat's table as HTML: the same rows as the terminal's table (display.TableText),
with each item the seat sees whole as a chip that can be clicked, and the boards drawn as
SVG (grids as grids, other boards as maps).

Made from the seat's view alone, through TableText: its words, labels, `show` texts,
counts of hidden zones and one-side descriptions are the terminal's, so the browser can
show no more than `meeple play` does.
"""
from __future__ import annotations

import re

from meeple.interpreter.presentation.board_export import board_as_svg
from meeple.cli.screen import ViewProps
from meeple.interpreter.presentation.display import _ITEM, TableText

from .grid_svg import grid_boards
from .html import Markup, attrs, esc, tag

_MARK = "\x1e"  # around a chip's number in the text TableText builds, until it is made HTML
_MARKED = re.compile(_MARK + r"(\d+)" + _MARK)


class HtmlTable(TableText):
    def __init__(self, game, view: dict, lang: str | None = None, bots: dict | None = None):
        super().__init__(game, view, lang)
        self.bots = bots or {}  # seat -> bot spec, named in the seat's heading
        self._chips: list[Markup] = []

    # -- items become chips ------------------------------------------------------------------
    def item(self, shown) -> str:
        """TableText's text of an item, kept aside as a chip; the text holds its number."""
        if isinstance(shown, dict) and "$item" in shown:
            return self.item(shown["$item"])
        text = super().item(shown)
        whole = isinstance(shown, str) and shown in self.rules.items
        # What a card does, on hover: its kind's `text:` filled from its fields and the
        # properties this seat's view shows of it (only for an item the seat sees whole).
        said = self.game.item_text(shown, self.lang, ViewProps(self.view)) if whole else None
        chip = tag("span", text, class_="item" if whole else "item side", data_item=shown if whole else None,
                   title=said or None)
        self._chips.append(chip)
        return f"{_MARK}{len(self._chips) - 1}{_MARK}"

    def value(self, value) -> str:
        """A map of counts (a market's prices, a supply, a player's gems) as one chip per
        entry, each standing for its key (`data-value`), so a click on a market's row
        chooses the moves that name it."""
        counts = value.get("$map") if isinstance(value, dict) else None
        if isinstance(counts, dict) and counts and all(type(v) is int and v >= 0 for v in counts.values()) \
                and all(isinstance(k, str) for k in counts):
            marks = []
            for key, count in counts.items():
                self._chips.append(tag("span", f"{self.label(key)} {count}", class_="entry" + ("" if count else " none"),
                                       data_value=key))
                marks.append(f"{_MARK}{len(self._chips) - 1}{_MARK}")
            return _ITEM.join(marks)
        return super().value(value)

    def html(self, text: str) -> Markup:
        """A value TableText wrote, as HTML: its chips put back, items side by side."""
        out, last = [], 0
        for m in _MARKED.finditer(text):
            out.append(esc(text[last:m.start()].replace(_ITEM, " ")))
            out.append(self._chips[int(m.group(1))])
            last = m.end()
        out.append(esc(text[last:].replace(_ITEM, " ").replace(_MARK, "")))
        return Markup("".join(out))

    # -- the table ---------------------------------------------------------------------------
    def sections(self) -> Markup:
        viewer = self.view["viewer"]
        parts = [self._section(self.words("your area (player {p})", p=viewer), self.area(viewer), "mine")]
        for p in range(self.game.player_count):
            if p != viewer:
                title = self.words("player {p}", p=p) + (f" ({self.bots[p]})" if p in self.bots else "")
                parts.append(self._section(title, self.area(p), "other"))
        parts.append(self._section(self.words("table"), self.common(), "common"))
        return Markup("".join(parts))

    def _section(self, title: str, rows, kind: str) -> Markup:
        if not rows:
            return Markup("")
        body = "".join(f"<tr><th>{esc(name)}</th><td>{self.html(value)}</td></tr>" for name, value in rows)
        return Markup(f'<section class="area {kind}"><h3>{esc(title)}</h3><table class="rows">{body}</table></section>')

    def boards(self) -> Markup:
        out = []
        for name, graph in self.game.boards.items():
            if not graph.nodes:
                continue
            if self.drawn and self.drawn[2] == name:
                picture = grid_boards(self, self.drawn[3])
            else:
                picture = Markup(_no_smaller(board_as_svg(self.game, self.view, name, self.lang)))
            out.append(f'<figure class="board"{attrs(data_board=name)}>{picture}</figure>')
        return Markup("".join(out))


_SIZE = re.compile(r'<svg ([^>]*?)width="(\d+)"')


def _no_smaller(svg: str) -> str:
    """A map may shrink to its column by a tenth at most (so its smallest text stays
    readable); a wider one scrolls within its figure."""
    m = _SIZE.search(svg)
    if m is None:
        return svg
    least = round(int(m.group(2)) * 0.91)
    return svg[:m.start()] + f'<svg {m.group(1)}style="min-width: {least}px" width="{m.group(2)}"' + svg[m.end():]
