"""A board as an SVG picture: connections as lines (with arrowheads on a directed board),
nodes as circles with their names, each node's text beside it, and what stands on a node
as marks beside it (a player as a coloured disc with their number, an item as a square
with its glyph in its owner's colour, grouped by owner).  Drawn from a BoardScene, so from
one player's view only.

No two texts overprint and no text is smaller than MIN_FONT: each node's pieces and its
text are boxes placed by label_place.py where they cover no node, no piece and no other
text, with a thin line back to the node when they had to move away from it; the picture
grows to hold them.  Plain SVG 1.1 text written here: no drawing library."""
from __future__ import annotations

import textwrap
from xml.sax.saxutils import escape, quoteattr

from .board_cells import PLAYER_COLOURS
from .label_place import Box, Placer, text_width

WIDTH = 800  # pixels of the nodes' drawing area (the texts may add to it)
MARGIN = 40
NODE = 14  # the smallest node radius
MIN_FONT = 11  # no text of a board is smaller than this
NAME_FONT, TEXT_FONT, PIECE_FONT = 12, 11, 11
PIECE = 18  # a piece's square
ROW_PIECES = 6  # pieces of one owner side by side, before a new row
WRAP = 24  # characters of a node text's line
GROUP_FILLS = ("#fdf6e3", "#e3f2fd", "#e8f5e9", "#fff3e0", "#f3e5f5", "#efebe9", "#fce4ec", "#e0f7fa")


def board_svg(scene, caption: str = "") -> str:
    xs, ys = [n.x for n in scene.nodes] or [0.0], [n.y for n in scene.nodes] or [0.0]
    x0, y0 = min(xs), min(ys)
    xspan, yspan = (max(xs) - x0) or 1.0, (max(ys) - y0) or 1.0
    scale = min(WIDTH / xspan, WIDTH * 0.8 / yspan)
    where = {n.name: (MARGIN + (n.x - x0) * scale, MARGIN + (max(ys) - n.y) * scale) for n in scene.nodes}
    radius = {n.name: max(NODE, text_width(n.label, NAME_FONT) / 2 + 4) for n in scene.nodes}
    placer = Placer([Box(x - radius[name], y - radius[name], x + radius[name], y + radius[name])
                     for name, (x, y) in where.items()])
    placed = {}
    for n in _crowded_first(scene.nodes, where):
        x, y = where[n.name]
        r = radius[n.name]
        pieces = _pieces_box(n.pieces)
        at_pieces = placer.place(pieces, x, y, r, prefer="right") if pieces else None
        lines = textwrap.wrap(n.text if n.text is not None else n.attributes, WRAP)[:5]
        size = (max(text_width(line, TEXT_FONT) for line in lines), len(lines) * (TEXT_FONT + 2)) if lines else None
        at_text = placer.place(size, x, y, r, prefer="below") if size else None
        placed[n.name] = (at_pieces, lines, at_text)
    left, top, right, bottom = placer.extent(where, radius)
    dx, dy = MARGIN - left, MARGIN + 30 - top  # everything moves so the picture starts at its margin
    width, height = round(right - left + 2 * MARGIN), round(bottom - top + 2 * MARGIN + 30)

    fills = {}
    for n in scene.nodes:
        if n.group is not None and n.group not in fills:
            fills[n.group] = GROUP_FILLS[len(fills) % len(GROUP_FILLS)]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
           f"<title>{escape(scene.title)}</title>",
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#777"/></marker></defs>',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{MARGIN // 2}" y="28" font-size="18" font-weight="bold">'
           f'{escape(scene.title + (" — " + caption if caption else ""))}</text>']
    shifted = {name: (x + dx, y + dy) for name, (x, y) in where.items()}
    arrow = ' marker-end="url(#arrow)"' if scene.directed else ""
    for a, b in scene.edges:
        (x1, y1), (x2, y2) = shifted[a], shifted[b]
        if scene.directed:  # end at the circle's edge, where the arrowhead shows
            d = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1e-6)
            x2, y2 = x2 - (x2 - x1) / d * radius[b], y2 - (y2 - y1) / d * radius[b]
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#999" '
                   f'stroke-width="2"{arrow}/>')
    for n in scene.nodes:
        at_pieces, lines, at_text = placed[n.name]
        out += _node(n, *shifted[n.name], radius[n.name], fills.get(n.group, "#ffffff"),
                     at_pieces and at_pieces.moved(dx, dy), lines, at_text and at_text.moved(dx, dy))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _crowded_first(nodes, where) -> list:
    """Nodes with the most others near them are placed first, while room is left."""
    def near(n):
        x, y = where[n.name]
        return -sum(1 for m in nodes if abs(where[m.name][0] - x) + abs(where[m.name][1] - y) < 160)
    return sorted(nodes, key=near)


def _owners(pieces) -> list[list]:
    """The pieces in rows: players' discs first, then items by owner, at most ROW_PIECES a row."""
    groups: dict = {}
    for piece in pieces:
        key = ("player",) if piece.player is not None else ("owner", piece.owner if piece.owner is not None else -1)
        groups.setdefault(key, []).append(piece)
    rows = []
    for key in sorted(groups, key=lambda k: (k[0] != "player", k[1:] or (0,))):
        group = groups[key]
        rows += [group[i:i + ROW_PIECES] for i in range(0, len(group), ROW_PIECES)]
    return rows


def _piece_width(piece) -> float:
    if piece.player is not None:
        return PIECE
    return max(PIECE, text_width(_glyph(piece), PIECE_FONT) + 6)


def _glyph(piece) -> str:
    return piece.glyph if piece.glyph is not None else piece.label


def _pieces_box(pieces) -> tuple[float, float] | None:
    rows = _owners(pieces)
    if not rows:
        return None
    return max(sum(_piece_width(p) + 2 for p in row) for row in rows), len(rows) * (PIECE + 2)


def _node(n, x: float, y: float, r: float, fill: str, at_pieces, lines, at_text) -> list[str]:
    out = [f'<g class="node" data-node={quoteattr(n.name)}>',
           f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" stroke="#333" stroke-width="1.5"/>',
           f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="{NAME_FONT}" text-anchor="middle">{escape(n.label)}</text>']
    if at_text is not None:
        out += _leader(at_text, x, y, r)
        for i, line in enumerate(lines):
            out.append(f'<text class="node-text" x="{(at_text.x0 + at_text.x1) / 2:.1f}" '
                       f'y="{at_text.y0 + TEXT_FONT + i * (TEXT_FONT + 2):.1f}" font-size="{TEXT_FONT}" fill="#333" '
                       f'text-anchor="middle" stroke="white" stroke-width="3" paint-order="stroke">{escape(line)}</text>')
    if at_pieces is not None:
        out += _leader(at_pieces, x, y, r)
        for row_no, row in enumerate(_owners(n.pieces)):
            px = at_pieces.x0
            py = at_pieces.y0 + row_no * (PIECE + 2)
            for piece in row:
                out += _piece(piece, px, py)
                px += _piece_width(piece) + 2
    out.append("</g>")
    return out


def _leader(box, x: float, y: float, r: float) -> list[str]:
    """A thin line from the node to a box placed away from it."""
    cx, cy = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
    if box.distance_to(x, y) <= r + 12:
        return []
    return [f'<line class="leader" x1="{x:.1f}" y1="{y:.1f}" x2="{cx:.1f}" y2="{cy:.1f}" stroke="#bbb" '
            f'stroke-dasharray="3 3"/>']


def _piece(piece, px: float, py: float) -> list[str]:
    mark = quoteattr(piece.label)
    if piece.player is not None:
        colour = PLAYER_COLOURS[piece.player % len(PLAYER_COLOURS)]
        c = PIECE / 2
        return [f'<g class="piece" data-piece={mark}><circle cx="{px + c:.1f}" cy="{py + c:.1f}" r="{c - 1:.1f}" '
                f'fill="{colour}" stroke="#000"/><text x="{px + c:.1f}" y="{py + c + 4:.1f}" font-size="{PIECE_FONT}" '
                f'fill="white" text-anchor="middle">{escape(piece.label)}</text></g>']
    colour = piece.colour or (PLAYER_COLOURS[piece.owner % len(PLAYER_COLOURS)] if piece.owner is not None else "#666")
    w = _piece_width(piece)
    title = f"{piece.title} ({piece.label})" if piece.title else piece.label
    return [f'<g class="piece" data-piece={mark}><title>{escape(title)}</title><rect x="{px:.1f}" y="{py:.1f}" '
            f'width="{w:.1f}" height="{PIECE}" rx="3" fill="{colour}" stroke="#000"/>'
            f'<text x="{px + w / 2:.1f}" y="{py + PIECE / 2 + 4:.1f}" font-size="{PIECE_FONT}" fill="white" '
            f'text-anchor="middle">{escape(_glyph(piece))}</text></g>']
