"""A component kind's `text:`: what its items do, in words, per language, for the
screen, the web table's hover and `rules NAME` (interpreter/texts.py).

    text: {en: "Adds {strength} to your team.", hu: "..."}          # one text for the kind
    text:                                                          # or one per value of a field
      by: act
      sword: {en: "Adds {strength} to your team.", hu: "..."}
      trap: {en: "Takes {strength} off a rival's team.", hu: "..."}

Places are written as in `show` (a bare `{field}` or `{property}`), and checked the same
way where they are written: S117 for a text not well formed, N303 for a place that names
no field."""
from __future__ import annotations

from .build_support import Reader
from .source import span_of


def build_texts(r: Reader, kind, value, span, check_place) -> None:
    """Fill `kind.text` ({language: text}) or `kind.text_by` and `kind.text_cases`
    ({value: {language: text}}); `check_place(text, span)` checks one text's places."""
    if not isinstance(value, dict):
        return  # reported by the shape pass
    if "by" not in value:
        kind.text = _languages(r, value, span, check_place)
        return
    by = value.get("by")
    if not isinstance(by, str) or (by not in kind.fields and by not in kind.props):
        r.error("N303", f"text's 'by' must name a field or property of '{kind.name}'", span_of(by, span),
                notes=[f"fields: {', '.join(kind.fields) or '(none)'}"])
        return
    cases = {}
    for case, texts in value.items():
        if case != "by" and isinstance(texts, dict):
            cases[str(case)] = _languages(r, texts, span_of(texts, span), check_place)
    kind.text_by, kind.text_cases = by, cases


def _languages(r: Reader, texts: dict, span, check_place) -> dict:
    out = {}
    for lang, text in texts.items():
        if isinstance(text, str) and check_place(text, span_of(text, span)) is not None:
            out[str(lang)] = str(text)
    return out
