"""Hover: what the name or key under the cursor is.  A library function shows its
signatures and result from docs/expressions.md; an action its label, rulebook citation
(with the section's title from `game.rulebook.sections`), parameters and requirements;
any other declared name its declaration; a key the language's description of it."""
from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from .analysis import Analysis
from .positions import UTF16, span_to_range, to_span_position
from .summaries import declaration_markdown, function_markdown


def hover(analysis: Analysis, path: Path, position: types.Position, encoding: str = UTF16) -> types.Hover | None:
    lines = analysis.lines(path)
    line, col = to_span_position(position, lines, encoding)
    occurrence = analysis.index.at(path, line, col)
    text = None
    if occurrence is not None:
        if occurrence.kind == "function":
            text = function_markdown(occurrence.name)
        else:
            declaration = analysis.index.declaration(occurrence.kind, occurrence.name)
            if declaration is not None:
                text = declaration_markdown(declaration, _sections(analysis))
        if text is not None:
            return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text),
                               span_to_range(occurrence.span, lines, encoding))
    key = analysis.index.key_at(path, line, col)
    if key is not None:
        required = " (required)" if key.required else ""
        text = f"**{key.name}**{required}: {key.doc}\n\ntakes {key.kind.label}"
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text))
    return None


def _sections(analysis: Analysis) -> dict[str, str]:
    rulesets = analysis.rulesets
    return dict(rulesets[0].game.rulebook.sections) if rulesets else {}
