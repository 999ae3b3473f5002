"""Completion inside an expression: the names it may read where a name goes, the
fields of items after a dot, and inside a quoted text the names the language writes
as texts: component kinds in `items('...')`, boards and their nodes in the board
functions, item ids where an id is compared (`c.id == '...'`), option names."""
from __future__ import annotations

import re

from lsprotocol import types

from meeple.dsl.functions import BOARD_FUNCTIONS, FUNCTIONS

from .analysis import Analysis
from .cursor import Cursor
from .summaries import declaration_detail, function_detail, function_markdown

Kinds = types.CompletionItemKind
KEYWORDS = ("and", "or", "not", "in", "if", "else", "for", "let", "true", "false", "none")
_NAME_KINDS = {"variable": Kinds.Variable, "zone": Kinds.Field, "definition": Kinds.Function}
# Board functions whose second argument is a node of the board.
_NODE_FUNCTIONS = BOARD_FUNCTIONS - {"nodes", "nodes_where", "lines"}
_CALL_OPEN = re.compile(r"([A-Za-z_]\w*)\(\s*$")
_SECOND_ARG = re.compile(r"([A-Za-z_]\w*)\(\s*'([^']*)'\s*,\s*$")
_ID_COMPARED = re.compile(r"\.id\s*(?:==|!=)\s*$|\.id\s+(?:not\s+)?in\s*\[[^\]]*$")
_MEMBER = re.compile(r"([A-Za-z_]\w*|[\])])\s*\.\s*\w*$")


def expression_items(analysis: Analysis | None, cursor: Cursor) -> list[types.CompletionItem]:
    text = cursor.text
    opened = _open_string(text)
    if opened is not None:
        return _in_text(analysis, text[:opened].rstrip()) if analysis else []
    member = _MEMBER.search(text)
    if member:
        return _members(analysis, member.group(1)) if analysis else []
    return _names(analysis, cursor)


def _open_string(text: str) -> int | None:
    """Where the expression's text literal that is still open at the cursor starts."""
    quote, start = None, None
    for i, ch in enumerate(text):
        if quote is None and ch in "'\"":
            quote, start = ch, i
        elif ch == quote:
            quote = None
    return start if quote is not None else None


def _texts(names, kind, detail: str) -> list[types.CompletionItem]:
    return [types.CompletionItem(str(n), kind=kind, detail=detail) for n in names]


def _in_text(analysis: Analysis, before: str) -> list[types.CompletionItem]:
    rulesets = analysis.rulesets
    call = _CALL_OPEN.search(before)
    if call and call.group(1) == "items":
        return _texts(sorted({k for rs in rulesets for k in rs.components}), Kinds.Class, "component kind")
    if call and call.group(1) in BOARD_FUNCTIONS:
        return _texts(sorted({b for rs in rulesets for b in rs.boards}), Kinds.Module, "board")
    second = _SECOND_ARG.search(before)
    if second and second.group(1) in _NODE_FUNCTIONS:
        board = second.group(2)
        nodes = next((list(rs.boards[board].nodes) for rs in rulesets if board in rs.boards), [])
        return _texts(nodes, Kinds.EnumMember, f"node of board '{board}'")
    if _ID_COMPARED.search(before):
        return [types.CompletionItem(str(item["id"]), kind=Kinds.EnumMember, detail=f"item of kind '{kind.name}'")
                for kind in _kinds(rulesets) for item in kind.items]
    if before.endswith("options["):
        return _options(analysis)
    return []


def _kinds(rulesets):
    seen = {}
    for rs in rulesets:
        for name, kind in rs.components.items():
            seen.setdefault(name, kind)
    return list(seen.values())


def _options(analysis: Analysis) -> list[types.CompletionItem]:
    return [types.CompletionItem(d.name, kind=Kinds.Property, detail=declaration_detail(d))
            for (kind, _), d in sorted(analysis.index.declarations.items()) if kind == "option"]


def _members(analysis: Analysis, owner: str) -> list[types.CompletionItem]:
    """After `options.`, the options; after anything else, the fields items have."""
    if owner == "options":
        return _options(analysis)
    out = []
    for kind in _kinds(analysis.rulesets):
        out += _texts(kind.fields, Kinds.Field, f"field of '{kind.name}'")
        out += _texts(kind.props, Kinds.Property, f"property of '{kind.name}'")
    return out + _texts(("id", "kind", "face", "seen_by"), Kinds.Property, "every item has it")


def _names(analysis: Analysis | None, cursor: Cursor) -> list[types.CompletionItem]:
    out = []
    if analysis is not None:
        out += [types.CompletionItem(d.name, kind=_NAME_KINDS[kind], detail=declaration_detail(d))
                for (kind, _), d in sorted(analysis.index.declarations.items()) if kind in _NAME_KINDS]
        out += _texts(_locals(analysis, cursor.path), Kinds.Variable, "parameter")
    out += [types.CompletionItem(name, kind=Kinds.Function, detail=function_detail(name),
                                 documentation=_markdown(function_markdown(name)))
            for name in sorted(FUNCTIONS)]
    out += _texts(("player", "options"), Kinds.Variable, "bound by the language")
    out += _texts(KEYWORDS, Kinds.Keyword, "keyword")
    return out


def _markdown(text: str | None) -> types.MarkupContent | None:
    return types.MarkupContent(types.MarkupKind.Markdown, text) if text else None


def _locals(analysis: Analysis, path: tuple[str, ...]) -> list[str]:
    """The parameters of the action or definition the expression belongs to."""
    if len(path) < 2:
        return []
    for rs in analysis.rulesets:
        if path[0] == "actions" and path[1] in rs.actions:
            return [name for name, _, _ in rs.actions[path[1]].params]
        if path[0] == "define" and path[1] in rs.defines:
            return list(rs.defines[path[1]].params)
    return []
