"""Card and ability texts: a component kind's `text:` (dsl/build_texts.py) for one item,
in a language, its places filled from the item's fields and properties.

`Game.item_text(item, lang)` is what the screen, the web table's hover and `rules NAME`
show.  It is asked for an item the caller may name (one the seat sees whole): a text says
what the card does, which its face already tells."""
from __future__ import annotations

from .phrases import DEFAULT_LANGUAGE


def kind_text(kind, lang: str | None, case: str | None = None) -> str | None:
    """The kind's text (for `case`, a value of its `text_by` field) in `lang`, else English,
    else any language it has; None when it has none."""
    texts = kind.text if kind.text_cases is None else kind.text_cases.get(str(case))
    if not texts:
        return None
    for wanted in (lang, DEFAULT_LANGUAGE):
        if wanted in texts:
            return texts[wanted]
    return next(iter(texts.values()))


def item_text(game, item, lang: str | None = None, state=None) -> str | None:
    """`item`'s text, filled with its fields and properties (their values in `state`, or
    their defaults)."""
    kind = game.rules.ruleset.components.get(item.kind)
    if kind is None:
        return None
    props = (state.props.get(item.id) or {}) if state is not None else {}

    def value(name):
        if name in item.fields:
            return item.fields[name]
        return props[name] if name in props else game.prop_default(item, name)

    text = kind_text(kind, lang, value(kind.text_by) if kind.text_by else None)
    if text is None:
        return None
    names = {"id": item.id, "kind": item.kind, **{n: value(n) for n in (*kind.fields, *kind.props)}}
    return text.format(**names)


def texts_named(game, name: str, lang: str | None = None) -> list[tuple[str, str]]:
    """(what, text) for `name` read as an item id, a kind, or a value of a kind's `text_by`
    field (`scout` for the cards whose `act` is scout): for `rules NAME`."""
    out = []
    items = game.rules.items
    item = items.get(name) or items.get(name.upper())
    if item is not None:
        text = item_text(game, item, lang)
        if text:
            out.append((item.id, text))
    for kind in game.rules.ruleset.components.values():
        if kind.name == name and kind.text:
            out.append((kind.name, kind_text(kind, lang)))
        elif kind.text_cases and name in kind.text_cases and item is None:
            one = next((i for i in game.items_of(kind.name) if str(i.fields.get(kind.text_by)) == name), None)
            text = item_text(game, one, lang) if one is not None else None
            if text:  # its places filled from one of those items: they print the same values
                out.append((f"{kind.name}: {name}", text))
    return out
