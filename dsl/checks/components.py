"""Component data: unique item ids, and field values of the declared types."""
from __future__ import annotations

from typing import Iterator

from ..diagnostics import Diagnostic
from ..model import Ruleset

_PY = {"int": int, "bool": bool, "str": str}


def _fits_data(value, t) -> bool:
    """Whether a field's value as written in YAML has the field's declared type; item
    references and `any` are left to the expressions that read them."""
    py = _PY.get(t.name)
    if py is not None:
        return isinstance(value, py) and not (py is not bool and isinstance(value, bool))
    if t.name == "list":
        return isinstance(value, list) and (not t.args or all(_fits_data(v, t.args[0]) for v in value))
    if t.name == "map":
        return isinstance(value, dict) and (not t.args or all(
            _fits_data(k, t.args[0]) and _fits_data(v, t.args[1]) for k, v in value.items()))
    return True


def check_items(rs: Ruleset) -> Iterator[Diagnostic]:
    seen = {}
    for kind in rs.components.values():
        for item in kind.items:
            span = item.get("_span", kind.span)
            if item["id"] in seen:
                yield Diagnostic("S108", f"item id '{item['id']}' is used twice", span,
                                 notes=[f"first used by kind '{seen[item['id']]}'"])
            seen[item["id"]] = kind.name
            for field, t in kind.fields.items():
                if field not in item:
                    continue
                value = item[field]
                if not _fits_data(value, t):
                    yield Diagnostic("T407", f"field '{field}' of '{item['id']}' must be {t}, "
                                     f"found {value!r}", span)


def check_reserved_fields(rs: Ruleset) -> Iterator[Diagnostic]:
    """`item.id` and `item.kind` always name the item and its component kind, so a
    field or property of that name could never be read."""
    for kind in rs.components.values():
        for name in list(kind.fields) + list(kind.props):
            if name in ("id", "kind", "face", "seen_by"):
                yield Diagnostic("S109", f"'{name}' is reserved on every item and cannot be a field or "
                                 f"property of '{kind.name}'", kind.span, rule=kind.rule)


# Moves the interpreter makes itself: an action of the same name would be one move text
# for two moves, and the built-in one wins (its requirement and effects would never run).
BUILT_IN_MOVES = {
    "pass": "a decision step offers the built-in pass with 'pass: true'; give your action "
            "another name (such as 'pass_turn') if it needs a requirement or effects",
    "chance": "it is the action of every chance move; give your action another name",
}


def check_names_unique(rs: Ruleset) -> Iterator[Diagnostic]:
    reserved = {"player", "options", "true", "false", "none", "key", "item"}
    for section in (rs.variables, rs.zones, rs.defines):
        for name, decl in section.items():
            if name in reserved:
                yield Diagnostic("S109", f"'{name}' is a reserved name", decl.span)
    for name, decl in rs.actions.items():
        if name in BUILT_IN_MOVES:
            yield Diagnostic("S109", f"an action cannot be called '{name}': {BUILT_IN_MOVES[name]}",
                             decl.span, rule=decl.rule)
