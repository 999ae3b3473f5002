"""A board's `display:` -> BoardDisplay.  Positions are checked here, against the board's
own nodes; the places of the node text and the pieces name variables, zones and item
kinds of the whole ruleset, so they are checked later (checks/boards.py)."""
from __future__ import annotations

import math
import re

from .templates import template_places
from .build_flow import value_span
from .build_support import Reader
from .model import BoardDisplay, Mark
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
    if isinstance(node.get("cells"), str):
        display.cells = node["cells"]
        display.spans["cells"] = value_span(node, "cells")
    if isinstance(node.get("marks"), dict):
        _build_marks(r, board, display, node["marks"], "mark")
    if isinstance(node.get("kinds"), dict):
        _build_marks(r, board, display, node["kinds"], "kind")
    return display


# A colour goes into SVG and CSS as written, so it may only be one of these forms.
COLOUR = re.compile(r"#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-zA-Z]{3,20}")


def _build_marks(r: Reader, board: str, display: BoardDisplay, raw: dict, what: str) -> None:
    """`marks: {0: "●", 1: {glyph: "○", colour: white, label: white stone}}` (a cell's value
    -> its mark) or `kinds: {dwarf: {glyph: "{num}", owner: seat}}` (an item kind -> the
    mark of its pieces).  The names and places they read are checked with the whole
    ruleset (checks/boards.py); here, the form: a colour (S126) and templates (S117)."""
    for key, value in raw.items():
        where = raw.key_spans.get(key) if isinstance(raw, LDict) else None
        at = span_of(value, where or span_of(raw))
        if isinstance(value, str):
            value = {"glyph": value}
        if not isinstance(value, dict):
            continue  # the schema has said what a mark must be
        mark = Mark(*(value.get(k) if isinstance(value.get(k), str) else None for k in ("glyph", "colour", "label")))
        owner = value.get("owner")
        mark.owner = owner if isinstance(owner, (int, str)) and not isinstance(owner, bool) else None
        if mark.colour is not None and not COLOUR.fullmatch(mark.colour):
            r.error("S126", f"the colour '{mark.colour}' of a mark of board '{board}' must be #rgb, #rrggbb or "
                            "a colour's name (letters only)", span_of(value.get("colour"), at), beyond_schema=True)
            mark.colour = None
        if what == "kind":
            for text in (mark.glyph, mark.label):
                if text is not None and template_places(text) is None:
                    r.error("S117", f"a mark of board '{board}' is not well formed: write a place as {{name}} "
                                    "and a brace as {{ or }}", span_of(text, at))
                    mark.glyph = mark.label = None
        kept = display.marks if what == "mark" else display.kinds
        key = ("true" if key else "false") if isinstance(key, bool) else str(key)
        kept[key] = mark
        display.spans[f"{what}:{key}"] = at


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
