"""Every declared name of a ruleset and every place that names it, with its span.

Declarations and the names written as plain values (`choose: bid`, `deal: {to: hand}`,
`after: trick_taken`) come from the files' YAML, so they are known even while the
ruleset does not build; the names inside expressions come from the built ruleset,
walked with the scope of each expression (`dsl/walk.py`), so an action parameter or a
comprehension variable that happens to share a variable's name is not taken for it.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meeple.dsl import expr_ast as A
from meeple.dsl.functions import BOARD_FUNCTIONS, FUNCTIONS
from meeple.dsl.model import Ruleset
from meeple.dsl.names import global_scope
from meeple.dsl.schema.kinds import Key
from meeple.dsl.source import Span
from meeple.dsl.walk import all_sites

from .positions import contains, file_of
from .yaml_walk import Place, places

# The sections that declare names, and what each declares.
DECLARING_SECTIONS = {"variables": "variable", "zones": "zone", "boards": "board", "define": "definition",
                      "actions": "action", "components": "component", "triggers": "trigger",
                      "fragments": "fragment"}
# How the expression scope calls the names a ruleset declares.
_SYMBOL_KINDS = {"var": "variable", "player_var": "variable", "keyed_var": "variable", "zone": "zone",
                 "player_zone": "zone", "keyed_zone": "zone", "define": "definition"}
DECISION_STEPS = ("choose", "simultaneous", "respond")


@dataclass(frozen=True)
class Occurrence:
    """A name at a place: its declaration, or a use of it.  `kind` is variable, zone,
    board, definition, action, component, trigger, fragment, item, option, label, or function
    (the library's, which has no declaration in the ruleset)."""

    kind: str
    name: str
    span: Span
    declaration: bool = False


@dataclass(frozen=True)
class Declaration:
    kind: str
    name: str
    span: Span
    value: Any  # the declaration's located YAML value, for summaries


class RulesetIndex:
    def __init__(self, occurrences: list[Occurrence], declarations: dict[tuple[str, str], Declaration],
                 keys: list[tuple[Span, Key]]):
        self.declarations = declarations
        self._by_file: dict[Path, list[Occurrence]] = defaultdict(list)
        self._by_name: dict[tuple[str, str], list[Occurrence]] = defaultdict(list)
        for occurrence in occurrences:
            self._by_file[file_of(occurrence.span)].append(occurrence)
            self._by_name[occurrence.kind, occurrence.name].append(occurrence)
        self._keys: dict[Path, list[tuple[Span, Key]]] = defaultdict(list)
        for span, key in keys:
            self._keys[file_of(span)].append((span, key))

    def at(self, path: Path, line: int, col: int) -> Occurrence | None:
        """The name at a 1-based position (the innermost, where spans nest)."""
        found = [o for o in self._by_file.get(path, ()) if contains(o.span, line, col)]
        return min(found, key=lambda o: _size(o.span)) if found else None

    def key_at(self, path: Path, line: int, col: int) -> Key | None:
        found = [(span, key) for span, key in self._keys.get(path, ()) if contains(span, line, col)]
        return min(found, key=lambda pair: _size(pair[0]))[1] if found else None

    def occurrences(self, kind: str, name: str) -> list[Occurrence]:
        return sorted(self._by_name.get((kind, name), ()),
                      key=lambda o: (str(file_of(o.span)), o.span.line, o.span.col))

    def declaration(self, kind: str, name: str) -> Declaration | None:
        return self.declarations.get((kind, name))


def _size(span: Span) -> tuple[int, int]:
    return span.end_line - span.line, span.end_col - span.col


def build_index(documents: dict[Path, Any], rs: Ruleset | None) -> RulesetIndex:
    """The index of the files' located YAML (`documents`) and of the built ruleset, if any."""
    occurrences: list[Occurrence] = []
    declarations: dict[tuple[str, str], Declaration] = {}
    keys: list[tuple[Span, Key]] = []
    for doc in documents.values():
        for place in places(doc):
            if place.key_span is not None and place.key is not None and place.key.doc:
                keys.append((place.key_span, place.key))
            declared = _declared(place)
            if declared is not None:
                kind, name, span = declared
                declarations.setdefault((kind, name), Declaration(kind, name, span, place.value))
                occurrences.append(Occurrence(kind, name, span, declaration=True))
            named = _named(place)
            if named is not None:
                occurrences.append(Occurrence(named, str(place.value), place.span))
    if rs is not None:
        for item in _items(rs):
            declarations.setdefault(("item", item.name), item)
            occurrences.append(Occurrence("item", item.name, item.span, declaration=True))
        occurrences += expression_occurrences(rs)
    return RulesetIndex(occurrences, declarations, keys)


def _declared(place: Place) -> tuple[str, str, Span] | None:
    path = place.path
    if len(path) == 2 and path[0] in DECLARING_SECTIONS and place.key_span is not None:
        return DECLARING_SECTIONS[path[0]], path[1], place.key_span
    if len(path) == 3 and path[:2] == ("game", "options") and place.key_span is not None:
        return "option", path[2], place.key_span
    if isinstance(place.value, str) and place.span is not None and place.keyword is not None \
            and (place.field == "label" or place.field == place.keyword == "phase") and _in_flow(place):
        return "label", str(place.value), place.span
    return None


def _in_flow(place: Place) -> bool:
    return place.path[0] in ("flow", "fragments") or (place.path[0] == "actions" and "then" in place.path)


def _named(place: Place) -> str | None:
    """What a name written as a plain value names, if it is one."""
    if not isinstance(place.value, str) or place.span is None:
        return None
    if place.field in DECISION_STEPS and place.field == place.keyword and place.value != "pass":
        return "action"
    if place.field == place.keyword == "call":
        return "fragment"
    if (place.keyword, place.field) in (("deal", "to"), ("pass_zones", "pass_zones")):
        return "zone"
    if place.path[:1] == ("end",) and place.field == "after" and place.value != "now":
        return "label"
    return None


def _items(rs: Ruleset):
    for kind in rs.components.values():
        for item in kind.items:
            span = item.get("_span")
            if isinstance(span, Span):
                yield Declaration("item", str(item["id"]), span, {k: v for k, v in item.items() if k != "_span"})


def expression_occurrences(rs: Ruleset) -> list[Occurrence]:
    """The names read inside every expression of the ruleset."""
    out: list[Occurrence] = []
    item_ids = {str(item["id"]) for kind in rs.components.values() for item in kind.items}
    walker = _ExpressionNames(rs, item_ids, out)
    for site in all_sites(rs, global_scope(rs)):
        walker.visit(site.expr, site.scope, frozenset())
    return out


class _ExpressionNames:
    def __init__(self, rs: Ruleset, item_ids: set[str], out: list[Occurrence]):
        self.rs, self.item_ids, self.out = rs, item_ids, out

    def visit(self, node, scope, bound: frozenset) -> None:
        if isinstance(node, A.Name):
            self.name(node, scope, bound)
            return
        if isinstance(node, A.Lambda):
            self.visit(node.body, scope, bound | {node.param})
            return
        if isinstance(node, A.Let):
            self.visit(node.value, scope, bound)
            self.visit(node.body, scope, bound | {node.name})
            return
        if isinstance(node, (A.ListComp, A.MapComp, A.Generator)):
            inner = bound
            for clause in node.clauses:
                if isinstance(clause, A.For):
                    self.visit(clause.iter, scope, inner)
                    inner = inner | set(clause.names)
                else:
                    self.visit(clause.cond, scope, inner)
            for head in ((node.key, node.value) if isinstance(node, A.MapComp) else (node.element,)):
                self.visit(head, scope, inner)
            return
        if isinstance(node, A.Call):
            self.call(node)
        elif isinstance(node, A.Member) and isinstance(node.obj, A.Name) and node.obj.name == "options" \
                and "options" not in bound and node.name in self.rs.game.options:
            self.out.append(Occurrence("option", node.name, node.name_span))
        elif isinstance(node, A.Binary) and node.op in ("==", "!=", "in", "not in"):
            self.item_ids_compared(node)
        for child in A.iter_children(node):
            self.visit(child, scope, bound)

    def name(self, node: A.Name, scope, bound: frozenset) -> None:
        if node.name in bound:
            return
        symbol = scope.lookup(node.name)
        kind = _SYMBOL_KINDS.get(symbol.kind) if symbol is not None else None
        if kind is not None:
            self.out.append(Occurrence(kind, node.name, node.span))

    def call(self, node: A.Call) -> None:
        if node.func in self.rs.defines:
            self.out.append(Occurrence("definition", node.func, node.func_span))
        elif node.func in FUNCTIONS:
            self.out.append(Occurrence("function", node.func, node.func_span))
        first = node.args[0] if node.args else None
        if isinstance(first, A.Const) and isinstance(first.value, str):
            if node.func == "items" and first.value in self.rs.components:
                self.out.append(Occurrence("component", first.value, first.span))
            elif node.func in BOARD_FUNCTIONS and first.value in self.rs.boards:
                self.out.append(Occurrence("board", first.value, first.span))

    def item_ids_compared(self, node: A.Binary) -> None:
        """`c.id == 'J1'`, `'J1' != c.id`, `c.id in ['T16', 'T17']`: the ids name items."""
        sides = (node.left, node.right)
        if not any(isinstance(s, A.Member) and s.name == "id" for s in sides):
            return
        for side in sides:
            consts = side.items if isinstance(side, A.ListLit) else (side,)
            for const in consts:
                if isinstance(const, A.Const) and isinstance(const.value, str) and const.value in self.item_ids:
                    self.out.append(Occurrence("item", const.value, const.span))
