"""A board drawn as text: each node's name (with what stands on it in brackets) at its
place, and the connections as lines of `-`, `|`, `/` and `\\` between them.

The drawing is at most WIDTH columns wide, so it reads on an 80-column terminal.  When the
names cannot all be placed apart within HEIGHT rows, even with the pieces only marked, there
is no drawing (None): the table then shows the place-by-place list alone, which always fits.
"""
from __future__ import annotations

WIDTH = 76  # columns of the drawing (it is indented by 2 in the table)
HEIGHT = 40  # the most rows a drawing may take
MAX_MARKS = 3  # pieces named on the map itself; more are counted (the list names them all)


def map_label(node, short: int = 0) -> str:
    """`G6`, `H[0 2]` (players 0 and 2 there), `out[+7]` (seven pieces there).  Shorter
    forms, for a crowded map: `[+n]` for any pieces (short=1), a bare `*` (short=2)."""
    if not node.pieces:
        return node.label
    if short == 2:
        return node.label + "*"
    if short == 1 or len(node.pieces) > MAX_MARKS:
        return f"{node.label}[+{len(node.pieces)}]"
    return f"{node.label}[{' '.join(p.label for p in node.pieces)}]"


def draw_board(scene, width: int = WIDTH, height: int = HEIGHT) -> list[str] | None:
    """The drawing's lines, with the pieces named as fully as the room allows; None when
    even the shortest names cannot be placed apart."""
    for short in range(3):
        lines = _draw(scene, {n.name: map_label(n, short) for n in scene.nodes}, width, height)
        if lines is not None:
            return lines
    return None


def _draw(scene, labels: dict, width: int, height: int) -> list[str] | None:
    nodes = scene.nodes
    if not nodes:
        return None
    widest = max(len(t) for t in labels.values())
    if widest > width:
        return None
    xs, ys = [n.x for n in nodes], [n.y for n in nodes]
    x0, y0 = min(xs), min(ys)
    xspan, yspan = (max(xs) - x0) or 1.0, (max(ys) - y0) or 1.0
    # A text row is about twice as tall as a column is wide.
    rows = max(3, min(height, round((width - widest) * yspan / xspan / 2) + 1))
    while rows <= height:
        cells = _place(nodes, labels, x0, y0, xspan, yspan, width, widest, rows)
        if cells is not None:
            return _render(scene, labels, cells, width, rows)
        rows += 2
    return None


def _place(nodes, labels, x0, y0, xspan, yspan, width, widest, rows) -> dict | None:
    """node -> (row, first column, centre column), or None if two names would touch."""
    cells, taken = {}, {}
    usable = width - widest
    for n in nodes:
        label = labels[n.name]
        centre = round(widest / 2 + (n.x - x0) / xspan * usable)
        start = min(max(0, centre - len(label) // 2), width - len(label))
        row = round((1 - (n.y - y0) / yspan) * (rows - 1)) if rows > 1 else 0
        for a, b in taken.get(row, []):
            if start <= b + 1 and a <= start + len(label):  # a column of space between names
                return None
        taken.setdefault(row, []).append((start, start + len(label) - 1))
        cells[n.name] = (row, start, start + len(label) // 2)
    return cells


def _render(scene, labels, cells, width, rows) -> list[str]:
    canvas = [[" "] * width for _ in range(rows)]
    for a, b in scene.edges:
        _line(canvas, cells[a][0], cells[a][2], cells[b][0], cells[b][2])
    for name, (row, start, _) in cells.items():
        for i, ch in enumerate(labels[name]):
            canvas[row][start + i] = ch
        if start > 0 and canvas[row][start - 1] != " ":  # a name never runs into a line
            canvas[row][start - 1] = " "
        end = start + len(labels[name])
        if end < width and canvas[row][end] != " ":
            canvas[row][end] = " "
    return ["".join(line).rstrip() for line in canvas]


def _line(canvas, r1, c1, r2, c2) -> None:
    dr, dc = r2 - r1, c2 - c1
    steps = max(abs(dr), abs(dc))
    if steps == 0:
        return
    slope = abs(dr) * 2 / abs(dc) if dc else float("inf")  # as it looks: rows are tall
    if slope < 0.6:
        ch = "-"
    elif slope > 3.5:
        ch = "|"
    else:
        ch = "\\" if (dr > 0) == (dc > 0) else "/"
    for i in range(1, steps):
        r, c = round(r1 + dr * i / steps), round(c1 + dc * i / steps)
        if canvas[r][c] == " ":
            canvas[r][c] = ch
