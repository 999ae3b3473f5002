"""One player's table as text: what `meeple play` prints and `Game.render` returns.

It is made from the player's view (views.py) and nothing else, so it cannot show what
the view hides: a hidden zone is a count, an item seen from one side is its visible
fields, and only an item the player sees whole is named by its id and described by its
kind's `show` text.  The table is grouped as a player sits at it: their own area, then
each other player's (what they show openly), then the common table, then boards drawn
as grids, other boards as a list of places (what each place prints, who stands there,
where one can go).  Variables and zones declared `show: false` are bookkeeping and left out.
Every name and text goes through the ruleset's labels for `lang`.
"""
from __future__ import annotations

from meeple.dsl.build import template_places

from .phrases import find_label, table_word

ROW_LIMIT = 400  # characters of a value (not a list of items) before it is cut ("...")
LINE = 100  # a list of items longer than this goes on several lines
_ITEM = "\x1f"  # between the items of a zone until the row is laid out


class TableText:
    def __init__(self, game, view: dict, lang: str | None = None, width: int | None = None):
        self.game, self.view, self.lang = game, view, lang
        self.width = width  # the screen's columns, when known: rows of items are fitted to it
        self.words = lambda text, **kw: table_word(lang, text, **kw)  # the table's own words
        self.rules = game.rules
        self.drawn = _board_drawing(game, view, self)

    # -- the whole table ---------------------------------------------------------------------
    def text(self) -> str:
        viewer = self.view["viewer"]
        sections = [(self.words("your area (player {p})", p=viewer), self.area(viewer))]
        for p in range(self.game.player_count):
            if p != viewer:
                sections.append((self.words("player {p}", p=p), self.area(p)))
        sections.append((self.words("table"), self.common()))
        lines = []
        if self.view.get("phase"):
            lines.append(f"{self.words('phase')}: {self.label(self.view['phase'], 'phase')}")
        for title, rows in sections:
            if rows:
                lines.append(f"{title}:")
                width = max(len(name) for name, _ in rows)
                for name, value in rows:
                    lines += self.row(name.ljust(width), value)
        if self.drawn:
            lines.append(self.drawn[0])
        for name, graph in self.game.boards.items():
            if not (self.drawn and self.drawn[2] == name):
                lines += self.board_map(name, graph)
        for line in self.view.get("log", [])[-3:]:
            lines.append(f"  {line}")
        return "\n".join(lines)

    def row(self, name: str, value: str) -> list[str]:
        """One name and its value; a long list of items goes on as many lines as it needs,
        broken between items, so no card a player holds is ever cut off."""
        parts = value.split(_ITEM)
        lines = [parts[0]]
        room = LINE if self.width is None else max(40, self.width - len(name) - 5)
        for part in parts[1:]:  # items fill a line; a line breaks only between two items
            if len(lines[-1]) + 2 + len(part) <= room:
                lines[-1] += ", " + part
            else:
                lines[-1] += ","
                lines.append(part)
        pad = " " * (len(name) + 4)
        return [f"  {name}  {lines[0]}"] + [pad + line for line in lines[1:]]

    def board_map(self, name: str, graph) -> list[str]:
        """A board that is not a grid: drawn as a map when it fits 80 columns (board_text.py),
        then listed place by place, each with its text (the board's `display: show`, else its
        attributes), what stands there and where one can go from it."""
        if not graph.nodes:
            return []
        from .board_scene import board_scene
        from .board_text import draw_board
        scene = board_scene(self, name)
        lines = [f"{self.words('board')} {self.label(name, 'board')}:"]
        lines += [f"  {line}".rstrip() for line in draw_board(scene) or ()]
        width = max(len(n.label) for n in scene.nodes)
        for node in scene.nodes:
            text = node.text if node.text is not None else node.attributes
            parts = [text] if text else []
            if node.pieces:
                parts.append(self.words("here") + ": " + ", ".join(
                    self.words("player {p}", p=p.player) if p.player is not None else p.label for p in node.pieces))
            ways = ", ".join(scene.neighbours[node.name])
            if ways:
                parts.append("→ " + ways)
            lines.append(f"  {node.label.ljust(width)}  {'; '.join(parts)}")
        return lines

    def area(self, player: int) -> list[tuple[str, str]]:
        """A player's own variables and zones, as far as the view holds them."""
        rows = []
        for name, decl in self.rules.variables.items():
            if decl.per != "player" or not decl.shown or name not in self.view["vars"]:
                continue
            if self.drawn and name == self.drawn[1]:
                continue  # each sheet drawn as a grid
            value = self.view["vars"][name]
            if isinstance(value, dict):  # visible to its owner only: {"<owner>": value}
                if str(player) not in value:
                    continue
                value = value[str(player)]
            else:
                value = value[player]
            rows.append((self.label(name, "variable"), self.value(value)))
        for name, decl in self.rules.zones.items():
            if decl.per == "player" and decl.shown:
                rows.append((self.label(name, "zone"), self.zone(self.view["zones"][name][player])))
        return rows

    def common(self) -> list[tuple[str, str]]:
        """The common table, less what the boards show place by place (a variable or zone
        keyed by node that a board's node text reads)."""
        rows = []
        on_boards = _shown_on_boards(self.rules.ruleset)
        for name, decl in self.rules.variables.items():
            if decl.per == "player" or not decl.shown or name not in self.view["vars"] or name in on_boards:
                continue
            if self.drawn and name == self.drawn[1]:
                continue  # drawn as a grid below
            rows.append((self.label(name, "variable"), self.value(self.view["vars"][name])))
        for name, decl in self.rules.zones.items():
            if decl.per == "player" or not decl.shown or name in on_boards:
                continue
            contents = self.view["zones"][name]
            if decl.per is None:
                rows.append((self.label(name, "zone"), self.zone(contents)))
            else:
                rows += [(f"{self.label(name, 'zone')} {self.label(key)}", self.zone(sub)) for key, sub in contents.items()]
        return rows

    # -- values ----------------------------------------------------------------------------------
    def zone(self, contents) -> str:
        """A zone as the view gives it: its items, or a count with what shows of it."""
        if isinstance(contents, list):
            return self.items(contents) if contents else self.words("empty")
        count = contents.get("count", 0)
        if not count:
            return self.words("empty")
        parts, hidden = [], count
        if "items" in contents:  # a bag, or a row with some items face down
            visible = [x for x in contents["items"] if x != "?"]
            if visible:
                parts.append(self.items(visible))
            hidden = count - len(visible)
        elif contents.get("top") is not None:
            parts.append(self.words("top") + ": " + self.item(contents["top"]))
            hidden = count - 1
        if hidden:
            parts.append(self.words("{n} hidden", n=hidden))
        if contents.get("known"):
            parts.append(self.words("you know") + ": " + self.items(contents["known"]))
        return "; ".join(parts)

    def items(self, shown: list) -> str:
        return _ITEM.join(self.item(x) for x in shown if x != "?")

    def item(self, shown) -> str:
        """An item as the view gives it: its id (seen whole), its visible fields, or '?'."""
        if isinstance(shown, str):
            item = self.rules.items.get(shown)
            if item is None:
                return self.label(shown)
            text = self.describe(item)
            return f"{shown} ({text})" if text else shown
        if isinstance(shown, dict) and "$item" in shown:
            return self.item(shown["$item"])
        if isinstance(shown, dict):  # one side of it: the fields that side shows
            text = self.describe_side(shown)
            if text:
                return f"[{text}]"
            return "[" + ", ".join(f"{self.label(k, 'field')} {self.value(v)}" for k, v in shown.items()) + "]"
        return "?"

    def describe_side(self, face: dict) -> str | None:
        """An item seen from one side, described by its kind's text for that side when that
        text reads only what this side shows (the view gives no id and no kind: the kind is
        the one two-sided kind whose text fits)."""
        fitting = []
        for kind in self.rules.ruleset.components.values():
            if kind.sides is None:
                continue
            text = kind.show
            if kind.show_cases is not None:
                text = kind.show_cases.get(str(face.get("side"))) if kind.show_by == kind.sides.by else None
            if text is None:
                continue
            places = set(template_places(text) or ())
            if places and places <= set(face):
                fitting.append(text)
        if len(fitting) != 1:
            return None
        values = {k: self.placed(v) for k, v in face.items()}
        return self.label(fitting[0], None).format(**values)

    def describe(self, item) -> str | None:
        """The kind's `show` text filled with this item's fields and properties (in the
        view's values where the view has them; an unchanged property is its default)."""
        kind = self.rules.ruleset.components.get(item.kind)
        if kind is None:
            return None
        props = self.view.get("props", {}).get(item.id, {})
        text = kind.show
        if kind.show_cases is not None:
            by = kind.show_by
            sort = item.fields.get(by) if by in kind.fields else \
                (props[by] if by in props else self.game.prop_default(item, by))
            text = kind.show_cases.get(str(sort))
        if text is None:
            return None
        values = {"id": item.id, "kind": self.label(item.kind, "kind")}
        for name in kind.fields:
            values[name] = self.placed(item.fields.get(name))
        for name in (*kind.props, "face"):
            values[name] = self.placed(props[name] if name in props else self.game.prop_default(item, name))
        return self.label(text, None).format(**values)

    def describe_node(self, node) -> str | None:
        """What a place means, for a move that names it: the node text its board's
        `display: show` gives it in this view (a gem site's gems, a space's cost)."""
        from .board_scene import node_text
        for name, graph in self.game.boards.items():
            if type(node) in (str, int) and node in graph:
                text = node_text(self, name, node)
                if text:
                    return text
        return None

    def placed(self, value) -> str:
        """A value in a `show` place.  A map of counts (a price, a stock) reads as a sum of
        its non-zero entries, `2 ruby + 1 gold` ('nothing' when all are zero)."""
        counts = value["$map"] if isinstance(value, dict) and "$map" in value else value
        if isinstance(counts, dict) and counts and all(type(v) is int for v in counts.values()):
            parts = [f"{v} {self.label(k)}" for k, v in counts.items() if v]
            return " + ".join(parts) if parts else self.words("nothing")
        return self.value(value)

    def value(self, value) -> str:
        if isinstance(value, dict):
            if "$item" in value:
                return self.item(value["$item"])
            if "$map" in value:
                counts = value["$map"]
                if all(type(v) is int and v >= 0 for v in counts.values()):  # a stock, a price list; or empty
                    return ", ".join(f"{self.label(k)} {v}" for k, v in counts.items() if v) or self.words("nothing")
                return "{" + ", ".join(f"{self.label(k)}: {self.value(v)}" for k, v in counts.items()) + "}"
            if "$pairs" in value:
                return "{" + ", ".join(f"{self.value(k)}: {self.value(v)}" for k, v in value["$pairs"]) + "}"
            if "$set" in value:
                return self._cut("{" + ", ".join(self.value(v) for v in value["$set"]) + "}")
            return "{" + ", ".join(f"{self.label(k)}: {self.value(v)}" for k, v in value.items()) + "}"
        if isinstance(value, list):
            return self._cut("[" + ", ".join(self.value(v) for v in value) + "]")
        if value is None:
            return "—"
        if isinstance(value, bool):
            return self.words("yes" if value else "no")
        if isinstance(value, str):
            return self.label(value) if value else "—"
        return str(value)

    def label(self, name: str, scope: str | None = "value") -> str:
        """`name` in the table's language, as shown in `scope` (phrases.py): most names on
        the table are values, map keys and places; rows name variables and zones."""
        found = find_label(self.rules.ruleset, self.lang, name, scope)
        return name if found is None else found

    @staticmethod
    def _cut(text: str) -> str:
        return text if len(text) <= ROW_LIMIT else text[:ROW_LIMIT - 3] + "..."


def _shown_on_boards(rs) -> set[str]:
    """The names the boards' node texts read: each node shows its own entry of them."""
    from meeple.dsl.checks.boards import node_keyed
    keyed, read = node_keyed(rs), set()
    for board in rs.boards.values():
        d = board.display
        if d is not None:
            for text in (d.show, *(d.show_cases or {}).values(), *d.texts.values()):
                read.update(template_places(text or "") or ())
    return read & keyed


def _board_drawing(game, view, table=None):
    """A grid board with values for its cells (board_cells.py) drawn as a grid, coordinates
    as in move texts: (text, the variable drawn, the board, the Grid).  `table`: the
    TableText whose language names the marks and the sheets' owners."""
    from .board_cells import CellMarks, find_grid, grid_lines, legend
    grid = find_grid(game, view)
    if grid is None:
        return None
    label = (lambda name: table.label(name)) if table is not None else str
    graph, marks, lines = game.boards[grid.board], CellMarks(game, grid.board, label), []
    for sheet in grid.sheets:
        if sheet.player is not None:
            who = table.words("player {p}", p=sheet.player) if table is not None else f"player {sheet.player}"
            lines.append(f"{table.label(grid.variable, 'variable') if table is not None else grid.variable}, {who}:")
        lines += grid_lines(graph, sheet.cells, marks)
        key = legend(sheet.cells, marks)
        if key:
            lines.append("   " + key)
    return "\n".join(lines), grid.variable, grid.board, grid
