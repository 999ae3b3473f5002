"""The quick fix for a diagnostic that suggests a name ("did you mean 'total'?"): replace
the diagnostic's range with the suggestion.  The suggestions travel in the diagnostic's
`data` (from `Diagnostic.suggestions`), so nothing here reads the message."""
from __future__ import annotations

from lsprotocol import types

from .positions import UTF16, column_at


def suggestions(diagnostic: types.Diagnostic) -> list[str]:
    data = diagnostic.data
    found = data.get("suggestions") if isinstance(data, dict) else None
    return [str(s) for s in found] if isinstance(found, list) else []


def _text_in(lines: list[str], where: types.Range, encoding: str) -> str:
    if where.start.line != where.end.line or not 0 <= where.start.line < len(lines):
        return ""
    line = lines[where.start.line]
    return line[column_at(line, where.start.character, encoding):column_at(line, where.end.character, encoding)]


def fixes(uri: str, lines: list[str], diagnostics: list[types.Diagnostic],
          encoding: str = UTF16) -> list[types.CodeAction]:
    """One action per suggested name; a quoted text keeps its quotes (`nodes('gird')`)."""
    out = []
    for diagnostic in diagnostics:
        replaced = _text_in(lines, diagnostic.range, encoding)
        quote = replaced[0] if len(replaced) > 1 and replaced[0] in "'\"" and replaced[-1] == replaced[0] else ""
        for i, name in enumerate(suggestions(diagnostic)):
            edit = types.TextEdit(diagnostic.range, f"{quote}{name}{quote}")
            out.append(types.CodeAction(f"Replace with '{name}'", kind=types.CodeActionKind.QuickFix,
                                        diagnostics=[diagnostic], is_preferred=i == 0,
                                        edit=types.WorkspaceEdit(changes={uri: [edit]})))
    return out
