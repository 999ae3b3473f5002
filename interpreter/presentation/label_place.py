"""Where a board's texts and pieces go so that nothing overprints: each is a box tried at
places around its node, nearest first (beside it, then further out in rings), and kept at
the first place that covers no node and nothing placed before.  When every ring is
taken, it goes under everything drawn so far, which is always free; the drawing then joins
it to its node with a thin line.

Text widths are estimated from the font size (no font is measured here): WIDE is above
the average advance of sans-serif letters, so a box is never narrower than its text.
"""
from __future__ import annotations

from dataclasses import dataclass

WIDE = 0.62  # a character's advance, in font sizes (sans-serif letters and digits are 0.5-0.6)
GAP = 3  # pixels kept free around every box
RINGS = (0, 14, 34, 60, 95, 140, 200)  # how far from its node a box is tried, in pixels


def text_width(text: str, size: float) -> float:
    return len(text) * size * WIDE


@dataclass
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: "Box") -> bool:
        return (self.x0 < other.x1 + GAP and other.x0 < self.x1 + GAP
                and self.y0 < other.y1 + GAP and other.y0 < self.y1 + GAP)

    def moved(self, dx: float, dy: float) -> "Box":
        return Box(self.x0 + dx, self.y0 + dy, self.x1 + dx, self.y1 + dy)

    def distance_to(self, x: float, y: float) -> float:
        """From (x, y) to the nearest point of the box."""
        px, py = min(max(x, self.x0), self.x1), min(max(y, self.y0), self.y1)
        return ((px - x) ** 2 + (py - y) ** 2) ** 0.5


_SIDES = {  # where a box of size (w, h) goes at distance d from a node of radius r at (x, y)
    "below": lambda x, y, r, w, h, d: (x - w / 2, y + r + GAP + d),
    "above": lambda x, y, r, w, h, d: (x - w / 2, y - r - GAP - d - h),
    "right": lambda x, y, r, w, h, d: (x + r + GAP + d, y - h / 2),
    "left": lambda x, y, r, w, h, d: (x - r - GAP - d - w, y - h / 2),
    "below-right": lambda x, y, r, w, h, d: (x + r * 0.7 + d, y + r * 0.7 + d),
    "below-left": lambda x, y, r, w, h, d: (x - r * 0.7 - d - w, y + r * 0.7 + d),
    "above-right": lambda x, y, r, w, h, d: (x + r * 0.7 + d, y - r * 0.7 - d - h),
    "above-left": lambda x, y, r, w, h, d: (x - r * 0.7 - d - w, y - r * 0.7 - d - h),
}


class Placer:
    def __init__(self, taken: list[Box]):
        self.taken = list(taken)

    def place(self, size: tuple[float, float], x: float, y: float, r: float, prefer: str = "below") -> Box:
        w, h = size
        sides = [prefer] + [s for s in _SIDES if s != prefer]
        for d in RINGS:
            for side in sides:
                x0, y0 = _SIDES[side](x, y, r, w, h, d)
                box = Box(x0, y0, x0 + w, y0 + h)
                if not any(box.overlaps(t) for t in self.taken):
                    self.taken.append(box)
                    return box
        bottom = max(t.y1 for t in self.taken) + 2 * GAP
        box = Box(x - w / 2, bottom, x + w / 2, bottom + h)  # nothing is drawn below: always free
        self.taken.append(box)
        return box

    def extent(self, where: dict, radius: dict) -> tuple[float, float, float, float]:
        """left, top, right, bottom of everything placed (nodes included)."""
        boxes = self.taken or [Box(0, 0, 1, 1)]
        return (min(b.x0 for b in boxes), min(b.y0 for b in boxes),
                max(b.x1 for b in boxes), max(b.y1 for b in boxes))
