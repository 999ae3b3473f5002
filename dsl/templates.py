"""Display templates: the places a text such as "{owner}'s {kind}" fills from an item or
a node.  Read by the builder, the board checks and the board drawings alike, so it lives
apart from all of them."""
from __future__ import annotations

import string


def template_places(text: str) -> list[str] | None:
    """The names a display text puts in its places, or None if it is not well formed
    (only bare names are allowed: no format specs, conversions or indexing)."""
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        return None
    places = []
    for _, place, spec, conversion in parsed:
        if place is None:
            continue
        if not place.isidentifier() or spec or conversion:
            return None
        places.append(place)
    return places
