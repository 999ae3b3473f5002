"""Label coverage: for every language a ruleset declares labels in, the names and messages
a player meets in `meeple play --lang` (actions and their parameters, variables, zones,
phases, loop variables, requirement reasons, end reasons, `show` texts, the rulebook
section titles `rules ACTION` cites) should all be translated; and a
scoped key (`phase.goblins`, interpreter/phrases.py) should name something of its scope."""
from __future__ import annotations

from meeple.dsl.diagnostics import Diagnostic

from .phrases import scoped_key


def _flow_names(nodes, names: dict):
    for node in nodes:
        if node.kind == "phase":
            names.setdefault(node.args["name"], set()).add("phase")
        if node.kind in ("for", "turns"):
            names.setdefault(node.args["var"], set()).add("variable")
        _flow_names(node.body, names)
        _flow_names(node.orelse, names)


def shown_names(rs) -> dict[str, set]:
    """Each name the CLI shows, with the scopes it is shown in (a name may be both an
    action and a phase)."""
    names: dict = {}
    for name, action in rs.actions.items():
        names.setdefault(name, set()).add("action")
        for p, _, _ in action.params:
            names.setdefault(p, set()).add("param")
        _flow_names(action.then, names)
    for name in rs.variables:
        names.setdefault(name, set()).add("variable")
    for name in rs.zones:
        names.setdefault(name, set()).add("zone")
    for name in rs.boards:  # each board's drawing is headed by its name
        names.setdefault(name, set()).add("board")
    _flow_names(rs.flow, names)
    return names


def shown_texts(rs, with_messages: bool = True) -> list[str]:
    """Everything of the ruleset that the CLI shows by name or as a message, in order.
    Messages are written in English, so an English table needs only the names."""
    names = sorted(shown_names(rs))
    if not with_messages:
        return names
    messages = {c.reason for a in rs.actions.values() for c in a.require if c.reason}
    messages |= {e.reason for e in rs.end if e.reason}
    messages |= {t for t in rs.game.rulebook.sections.values() if t}  # cited by `rules ACTION`
    messages |= {k.show for k in rs.components.values() if k.show}  # an item's description
    messages |= {t for k in rs.components.values() for t in (k.show_cases or {}).values()}
    for board in rs.boards.values():  # a place's text on the map and beside the moves that name it
        d = board.display
        if d is not None:
            messages |= {t for t in (d.show, *(d.show_cases or {}).values(), *d.texts.values()) if t}
    return names + sorted(messages)


def _translated(text: str, scopes: set, table: dict) -> bool:
    """A name is translated by its bare key or by a key of every scope it is shown in."""
    return text in table or bool(scopes) and all(f"{s}.{text}" in table for s in scopes)


def _declared(rs, scope: str) -> set | None:
    """The names a scope can hold, or None where any text may be one (values, fields)."""
    if scope == "board":
        return set(rs.boards)
    if scope == "kind":
        return set(rs.components)
    if scope == "summary":
        return {row.name for row in rs.summary}
    if scope in ("value", "field"):
        return None
    return {name for name, scopes in shown_names(rs).items() if scope in scopes}


def scope_diagnostics(rs) -> list[Diagnostic]:
    """L110: a scoped label key whose name is nothing of its scope is never shown (a typo,
    or a renamed action or phase)."""
    out = []
    for lang, table in rs.game.labels.items():
        for key in table:
            scoped = scoped_key(key)
            if scoped is None:
                continue
            scope, name = scoped
            declared = _declared(rs, scope)
            if declared is not None and name not in declared:
                out.append(Diagnostic("L110", f"labels '{lang}': '{key}' names no {scope} called '{name}', "
                                      "so it is never shown", rs.game.span, severity="warning"))
    return out


def display_diagnostics(rs) -> list[Diagnostic]:
    """L109: a component kind with no `show` text reaches the table as bare ids, which
    tell a player nothing about what the item does."""
    return [Diagnostic("L109", f"component kind '{name}' has no 'show' text: players see its items as bare ids",
                       kind.span, severity="warning")
            for name, kind in rs.components.items() if kind.show is None and not kind.show_cases and kind.items]


def label_diagnostics(rs) -> list[Diagnostic]:
    out = []
    names = shown_names(rs)
    for lang, table in rs.game.labels.items():
        texts = shown_texts(rs, with_messages=lang != "en")
        missing = [t for t in texts if not _translated(t, names.get(t, set()), table)]
        if missing:
            shown = ", ".join(repr(t) for t in missing[:8]) + (f" and {len(missing) - 8} more" if len(missing) > 8 else "")
            out.append(Diagnostic("L107", f"labels '{lang}' lack {len(missing)} of the {len(texts)} names and "
                                  f"messages players see: {shown}", rs.game.span, severity="warning"))
    return out + scope_diagnostics(rs)
