"""Label coverage: for every language a ruleset declares labels in, the names and messages
a player meets in `meeple play --lang` (actions and their parameters, variables, zones,
phases, loop variables, requirement reasons, end reasons) should all be translated."""
from __future__ import annotations

from meeple.dsl.diagnostics import Diagnostic


def _flow_names(nodes, names: set):
    for node in nodes:
        if node.kind == "phase":
            names.add(node.args["name"])
        if node.kind in ("for", "turns"):
            names.add(node.args["var"])
        _flow_names(node.body, names)
        _flow_names(node.orelse, names)


def shown_texts(rs, with_messages: bool = True) -> list[str]:
    """Everything of the ruleset that the CLI shows by name or as a message, in order.
    Messages are written in English, so an English table needs only the names."""
    names: set = set()
    for name, action in rs.actions.items():
        names.add(name)
        names.update(p for p, _, _ in action.params)
        _flow_names(action.then, names)
    names.update(rs.variables)
    names.update(rs.zones)
    _flow_names(rs.flow, names)
    if not with_messages:
        return sorted(names)
    messages = {c.reason for a in rs.actions.values() for c in a.require if c.reason}
    messages |= {e.reason for e in rs.end if e.reason}
    messages |= {k.show for k in rs.components.values() if k.show}  # an item's description
    messages |= {t for k in rs.components.values() for t in (k.show_cases or {}).values()}
    return sorted(names) + sorted(messages)


def display_diagnostics(rs) -> list[Diagnostic]:
    """L109: a component kind with no `show` text reaches the table as bare ids, which
    tell a player nothing about what the item does."""
    return [Diagnostic("L109", f"component kind '{name}' has no 'show' text: players see its items as bare ids",
                       kind.span, severity="warning")
            for name, kind in rs.components.items() if kind.show is None and not kind.show_cases and kind.items]


def label_diagnostics(rs) -> list[Diagnostic]:
    out = []
    for lang, table in rs.game.labels.items():
        texts = shown_texts(rs, with_messages=lang != "en")
        missing = [t for t in texts if t not in table]
        if missing:
            shown = ", ".join(repr(t) for t in missing[:8]) + (f" and {len(missing) - 8} more" if len(missing) > 8 else "")
            out.append(Diagnostic("L107", f"labels '{lang}' lack {len(missing)} of the {len(texts)} names and "
                                  f"messages players see: {shown}", rs.game.span, severity="warning"))
    return out
