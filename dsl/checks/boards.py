"""A board's `display:` against the whole ruleset: every place of a node text names an
attribute of the board's nodes, `node`, or a variable or zone keyed by node; `by` names an
attribute; every piece names a per-player variable or a property of an item kind."""
from __future__ import annotations

from typing import Iterator

from ..templates import template_places
from ..diagnostics import Diagnostic
from ..model import Ruleset


def node_keyed(rs: Ruleset) -> set[str]:
    """Variables and zones with one value per key of a `per` expression (not per player):
    the state a node text may show, for the nodes among those keys."""
    return {name for section in (rs.variables, rs.zones) for name, decl in section.items()
            if decl.per is not None and decl.per != "player"}


def check_board_displays(rs: Ruleset) -> Iterator[Diagnostic]:
    keyed = node_keyed(rs)
    for board in rs.boards.values():
        display = board.display
        if display is None:
            continue
        attributes = {a for attrs in board.nodes.values() for a in attrs}
        if display.show_by is not None and display.show_by not in attributes:
            yield Diagnostic("N303", f"the display's 'by' must name an attribute of the nodes of '{board.name}'",
                             display.spans.get("show:by", display.span),
                             notes=[f"attributes: {', '.join(sorted(attributes)) or '(none)'}"])
        elif display.show_cases is not None and display.show_by is None:
            yield Diagnostic("S102", "a node text given per value needs 'by': the attribute that picks it",
                             display.spans.get("show:by", display.span))
        texts = {"show": display.show} if display.show else \
            {f"show:{case}": text for case, text in (display.show_cases or {}).items()}
        texts.update({f"text:{node}": text for node, text in display.texts.items()})
        known = attributes | keyed | {"node"}
        for key, text in texts.items():
            for place in template_places(text) or ():
                if place not in known:
                    yield Diagnostic("N303", f"'{place}' is not an attribute of the nodes of '{board.name}', "
                                     "nor a variable or zone keyed by node", display.spans.get(key, display.span),
                                     notes=[f"attributes: {', '.join(sorted(attributes)) or '(none)'}; "
                                            f"keyed by node: {', '.join(sorted(keyed)) or '(none)'}"])
        for piece in display.pieces or ():
            if not _names_piece(rs, piece):
                yield Diagnostic("N303", f"piece '{piece}' is neither a per-player variable nor "
                                 "'kind.property' of an item kind", display.spans.get(f"pieces:{piece}", display.span))
        if display.cells is not None and display.cells not in keyed:
            yield Diagnostic("N303", f"cells '{display.cells}' is not a variable keyed by node",
                             display.spans.get("cells", display.span),
                             notes=[f"keyed by node: {', '.join(sorted(keyed)) or '(none)'}"])
        yield from _check_kind_marks(rs, display)


def _check_kind_marks(rs: Ruleset, display) -> Iterator[Diagnostic]:
    """`kinds:` names item kinds; a mark's places and its owner name the kind's fields or
    properties (or `id`, `kind`)."""
    for kind, mark in display.kinds.items():
        where = display.spans.get(f"kind:{kind}", display.span)
        decl = rs.components.get(kind)
        if decl is None:
            yield Diagnostic("N303", f"'{kind}' is not an item kind", where,
                             notes=[f"kinds: {', '.join(sorted(rs.components)) or '(none)'}"])
            continue
        known = set(decl.fields) | set(decl.props) | {"id", "kind"}
        places = [p for text in (mark.glyph, mark.label) for p in template_places(text or "") or ()]
        if isinstance(mark.owner, str):
            places.append(mark.owner)
        for place in places:
            if place not in known:
                yield Diagnostic("N303", f"'{place}' is not a field or property of item kind '{kind}'", where,
                                 notes=[f"fields and properties: {', '.join(sorted(known))}"])


def _names_piece(rs: Ruleset, piece: str) -> bool:
    kind, dot, prop = piece.partition(".")
    if dot:
        return kind in rs.components and prop in rs.components[kind].props
    decl = rs.variables.get(piece)
    return decl is not None and decl.per == "player"
