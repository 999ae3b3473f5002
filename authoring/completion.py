"""What the editor offers at the cursor: in a key's place, the keys the language allows
there (with their descriptions); in a value, what that key takes: the words of a
choice, the names of actions, zones or flow labels where a name is written as a plain
value, the types of a declaration, and inside an expression the names it may read
(`expression_completion.py`)."""
from __future__ import annotations

from lsprotocol import types

from meeple.dsl.schema.kinds import Assignment, Boolean, Choice, Expression, Keyworded, Kind, Target, TypeName

from .analysis import Analysis
from .cursor import Cursor, cursor_at
from .expression_completion import expression_items
from .index import DECISION_STEPS
from .schema_paths import ELEMENT, kind_at, keys_offered, options_of
from .summaries import declaration_detail

Kinds = types.CompletionItemKind
_EXPRESSIONS = (Expression, Target, Assignment)
BASE_TYPES = ("int", "bool", "str", "player", "any", "item", "list[int]", "list[str]", "map[str, int]")


def complete(analysis: Analysis | None, lines: list[str], line: int, col: int) -> list[types.CompletionItem]:
    """The completions at 0-based `line` and character `col` of a file's `lines`."""
    cursor = cursor_at(lines, line, col)
    if cursor.at_key:
        return _keys(kind_at(cursor.path), cursor)
    kinds = options_of(kind_at(cursor.path, cursor.siblings))
    items: list[types.CompletionItem] = []
    if any(isinstance(k, _EXPRESSIONS) for k in kinds):
        items += expression_items(analysis, cursor)
    for kind in kinds:
        if isinstance(kind, Choice):
            items += [types.CompletionItem(v, kind=Kinds.EnumMember, detail=kind.label) for v in kind.values]
        elif isinstance(kind, Boolean):
            items += [types.CompletionItem(v, kind=Kinds.Value) for v in ("true", "false")]
        elif isinstance(kind, TypeName):
            items += _types(analysis)
    if analysis is not None:
        items += _names_as_values(analysis, cursor)
    return _unique(items)


def _keys(kind: Kind | None, cursor: Cursor) -> list[types.CompletionItem]:
    keyword_kinds = [k for k in options_of(kind) if isinstance(k, Keyworded)]
    out = []
    for key in keys_offered(kind, cursor.siblings):
        is_keyword = any(k.variant(key.name) for k in keyword_kinds)
        out.append(types.CompletionItem(
            key.name, kind=Kinds.Keyword if is_keyword else Kinds.Property,
            detail=("required: " if key.required else "") + key.kind.label,
            documentation=key.doc or None, insert_text=f"{key.name}: "))
    return out


def _field(cursor: Cursor) -> str | None:
    steps = [s for s in cursor.path if s != ELEMENT]
    return steps[-1] if steps else None


def _names_as_values(analysis: Analysis, cursor: Cursor) -> list[types.CompletionItem]:
    """Names written as plain values: `choose: bid`, `deal: {to: hand}`, `after: trick_taken`."""
    field = _field(cursor)
    if field in DECISION_STEPS:
        return _declared(analysis, "action", Kinds.Event) + \
            ([types.CompletionItem("pass", kind=Kinds.Keyword)] if field == "simultaneous" else [])
    if field == "call":
        return _declared(analysis, "fragment", Kinds.Function)
    if field == "pass_zones" or (field == "to" and "deal" in cursor.siblings):
        return [item for item in _declared(analysis, "zone", Kinds.Field)
                if _per_player(analysis, item.label)]
    if field == "after" and cursor.path[:1] == ("end",):
        return _declared(analysis, "label", Kinds.Reference) + [types.CompletionItem("now", kind=Kinds.Keyword)]
    return []


def _per_player(analysis: Analysis, zone: str) -> bool:
    return any(zone in rs.zones and rs.zones[zone].per == "player" for rs in analysis.rulesets) \
        or not analysis.rulesets


def _declared(analysis: Analysis, kind: str, item_kind) -> list[types.CompletionItem]:
    return [types.CompletionItem(d.name, kind=item_kind, detail=declaration_detail(d))
            for (k, _), d in sorted(analysis.index.declarations.items()) if k == kind]


def _types(analysis: Analysis | None) -> list[types.CompletionItem]:
    kinds = sorted({name for rs in (analysis.rulesets if analysis else []) for name in rs.components})
    names = list(BASE_TYPES) + [f"item[{k}]" for k in kinds] + [f"list[item[{k}]]" for k in kinds]
    return [types.CompletionItem(n, kind=Kinds.TypeParameter) for n in names]


def _unique(items: list[types.CompletionItem]) -> list[types.CompletionItem]:
    seen, out = set(), []
    for item in items:
        if item.label not in seen:
            seen.add(item.label)
            out.append(item)
    return out

