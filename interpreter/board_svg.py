"""A board as an SVG picture: connections as lines (with arrowheads on a directed board),
nodes as circles with their names, each node's text beneath it, and what stands on a node
as small marks beside it (a player as a coloured disc with their number, an item as a
labelled square).  Drawn from a BoardScene, so from one player's view only.

Plain SVG 1.1 text written here: no drawing library."""
from __future__ import annotations

import textwrap
from xml.sax.saxutils import escape, quoteattr

WIDTH = 900  # pixels of the picture's drawing area
MARGIN = 70
NODE = 14  # node radius
PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
GROUP_FILLS = ("#fdf6e3", "#e3f2fd", "#e8f5e9", "#fff3e0", "#f3e5f5", "#efebe9", "#fce4ec", "#e0f7fa")


def board_svg(scene, caption: str = "") -> str:
    xs, ys = [n.x for n in scene.nodes] or [0.0], [n.y for n in scene.nodes] or [0.0]
    x0, y0 = min(xs), min(ys)
    xspan, yspan = (max(xs) - x0) or 1.0, (max(ys) - y0) or 1.0
    scale = min(WIDTH / xspan, WIDTH * 0.8 / yspan)
    width = round(xspan * scale) + 2 * MARGIN
    height = round(yspan * scale) + 2 * MARGIN + 30

    def at(node):
        return MARGIN + (node.x - x0) * scale, MARGIN + 30 + (max(ys) - node.y) * scale

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
    where = {n.name: at(n) for n in scene.nodes}
    arrow = ' marker-end="url(#arrow)"' if scene.directed else ""
    for a, b in scene.edges:
        (x1, y1), (x2, y2) = where[a], where[b]
        if scene.directed:  # end at the circle's edge, where the arrowhead shows
            d = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1e-6)
            x2, y2 = x2 - (x2 - x1) / d * NODE, y2 - (y2 - y1) / d * NODE
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#999" '
                   f'stroke-width="2"{arrow}/>')
    for n in scene.nodes:
        out += _node(n, *where[n.name], fills.get(n.group, "#ffffff"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _node(n, x: float, y: float, fill: str) -> list[str]:
    out = [f'<g class="node" data-node={quoteattr(n.name)}>',
           f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{NODE}" fill="{fill}" stroke="#333" stroke-width="1.5"/>',
           f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="11" text-anchor="middle">{escape(n.label)}</text>']
    text = n.text if n.text is not None else n.attributes
    for i, line in enumerate(textwrap.wrap(text, 30)[:4]):
        out.append(f'<text x="{x:.1f}" y="{y + NODE + 12 + 11 * i:.1f}" font-size="9" fill="#444" '
                   f'text-anchor="middle">{escape(line)}</text>')
    for i, piece in enumerate(n.pieces):
        px, py = x + NODE + 6 + 16 * (i % 4), y - NODE + 16 * (i // 4)
        if piece.player is not None:
            colour = PLAYER_COLOURS[piece.player % len(PLAYER_COLOURS)]
            out.append(f'<g class="piece" data-piece={quoteattr(piece.label)}><circle cx="{px:.1f}" '
                       f'cy="{py:.1f}" r="7" fill="{colour}" stroke="#000"/><text x="{px:.1f}" y="{py + 3:.1f}" '
                       f'font-size="9" fill="white" text-anchor="middle">{escape(piece.label)}</text></g>')
        else:
            out.append(f'<g class="piece" data-piece={quoteattr(piece.label)}><rect x="{px - 7:.1f}" '
                       f'y="{py - 7:.1f}" width="14" height="14" fill="#666" stroke="#000"/>'
                       f'<title>{escape(piece.label)}</title></g>')
    if any(p.player is None for p in n.pieces):  # the items' names, which the squares cannot hold
        names = ", ".join(p.label for p in n.pieces if p.player is None)
        rows = (len(n.pieces) + 3) // 4
        out.append(f'<text x="{x + NODE + 2:.1f}" y="{y - NODE + 16 * rows + 2:.1f}" font-size="8" '
                   f'fill="#222">{escape(names)}</text>')
    out.append("</g>")
    return out
