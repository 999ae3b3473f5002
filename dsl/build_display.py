"""A board's `display:` -> BoardDisplay.  Positions are checked here, against the board's
own nodes; the places of the node text and the pieces name variables, zones and item
kinds of the whole ruleset, so they are checked later (checks/boards.py)."""
from __future__ import annotations

import math

from .templates import template_places
from .build_flow import value_span
from .build_support import Reader
from .model import BoardDisplay
from .source import LDict, span_of


def build_board_display(r: Reader, board: str, value, nodes: dict, span) -> BoardDisplay | None:
    node = r.mapping(value, f"the display of board '{board}'", parent_span=span)
    if node is None:
        return None
    display = BoardDisplay({}, node.span)
    raw = node.get("positions")
    if isinstance(raw, dict):
        for name, at in raw.items():
            where = raw.key_spans.get(name) if isinstance(raw, LDict) else None
            if str(name) not in nodes:
                r.error("N309", f"'{name}' is not a node of board '{board}'", where or span_of(raw),
                        notes=[f"nodes: {', '.join(list(nodes)[:12])}{' ...' if len(nodes) > 12 else ''}"])
            elif not _is_point(at):
                r.error("S118", f"the position of '{name}' must be [x, y], two numbers", span_of(at, where),
                        beyond_schema=True)
            else:
                display.positions[str(name)] = (float(at[0]), float(at[1]))
    if "show" in node:
        _build_node_show(r, board, display, node["show"], value_span(node, "show"))
    raw = node.get("texts")
    if isinstance(raw, dict):
        _build_node_texts(r, board, display, raw, nodes, span)
    if isinstance(node.get("pieces"), list):
        display.pieces = []
        for piece in node["pieces"]:
            if isinstance(piece, str):
                display.pieces.append(piece)
                display.spans[f"pieces:{piece}"] = span_of(piece, node.span)
    return display


def _build_node_texts(r: Reader, board: str, display: BoardDisplay, raw: dict, nodes: dict, span) -> None:
    """`texts: {H: "the port city"}`: a node's own text, for a node that `show`'s cases
    would describe wrongly (a city without the attribute the other cities have)."""
    for name, text in raw.items():
        where = raw.key_spans.get(name) if isinstance(raw, LDict) else None
        if str(name) not in nodes:
            r.error("N309", f"'{name}' is not a node of board '{board}'", where or span_of(raw),
                    notes=[f"nodes: {', '.join(list(nodes)[:12])}{' ...' if len(nodes) > 12 else ''}"])
        elif not isinstance(text, str):
            continue  # the schema has said what a text must be
        elif template_places(text) is None:
            r.error("S117", f"the text of node '{name}' of board '{board}' is not well formed: write a place "
                            "as {name} and a brace as {{ or }}", span_of(text, where))
        else:
            display.texts[str(name)] = text
            display.spans[f"text:{name}"] = span_of(text, where)


def _is_point(at) -> bool:
    return (isinstance(at, list) and len(at) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in at))


def _build_node_show(r: Reader, board: str, display: BoardDisplay, value, span) -> None:
    """`show: "{cost}"` or `show: {by: type, site: "{gems}", city: "book {book}"}`; only the
    form of each text is checked here (S117)."""
    texts = {"show": value} if isinstance(value, str) else {}
    if isinstance(value, dict):
        display.show_by = value.get("by") if isinstance(value.get("by"), str) else None
        display.spans["show:by"] = span_of(value.get("by"), span)
        texts = {f"show:{case}": text for case, text in value.items() if case != "by" and isinstance(text, str)}
    kept = {}
    for key, text in texts.items():
        where = span_of(text, span)
        if template_places(text) is None:
            r.error("S117", f"a node text of board '{board}' is not well formed: write a place as {{name}} "
                            "and a brace as {{ or }}", where)
            continue
        display.spans[key] = where
        kept[key] = text
    if isinstance(value, str):
        display.show = kept.get("show")
    elif isinstance(value, dict):
        display.show_cases = {key.removeprefix("show:"): text for key, text in kept.items()}
