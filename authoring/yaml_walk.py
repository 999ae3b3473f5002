"""Every value of a located YAML file together with what the language says it is.

The walk follows the schema the way the shape pass does (the first kind of a `OneOf`
whose YAML form fits), so the index can find the names written as plain values
(`choose: bid`, `deal: {to: hand}`, `after: trick_taken`) and hover can explain any key.
It never reports anything: a value the language does not know is simply not visited.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from meeple.dsl.schema.kinds import Key, Keyworded, Kind, ListOf, MapOf, OneOf, Record, Tuple
from meeple.dsl.schema.language import RULESET
from meeple.dsl.schema.shape import fits
from meeple.dsl.source import LDict, LList, Span, span_of

from .schema_paths import ELEMENT, keyword_key, resolve, variant_of


@dataclass(frozen=True)
class Place:
    """One value: the key it stands under (`field`, inherited by a list's elements), the
    schema's description of that key, the keyword of the effect or flow step it belongs
    to, and the kind of mapping that holds the key (`owner`)."""

    value: Any
    kind: Kind
    path: tuple[str, ...]
    field: str | None
    key: Key | None
    key_span: Span | None
    keyword: str | None
    owner: Kind | None

    @property
    def span(self) -> Span | None:
        return span_of(self.value)


def places(doc) -> Iterator[Place]:
    """Every value of one file's top-level mapping, parents before children."""
    if isinstance(doc, LDict):
        yield from _mapping(doc, RULESET, (), None, RULESET)


def _fitting(value, kind: Kind | None) -> Kind | None:
    kind = resolve(kind)
    while isinstance(kind, OneOf):
        kind = next((resolve(o) for o in kind.options if fits(value, o)), None)
    return kind if kind is not None and fits(value, kind) else None


def _visit(value, kind, path, field, key, key_span, keyword, owner) -> Iterator[Place]:
    kind = _fitting(value, kind)
    if kind is None:
        return
    yield Place(value, kind, path, field, key, key_span, keyword, owner)
    if isinstance(value, LDict) and isinstance(kind, (Record, MapOf)):
        yield from _mapping(value, kind, path, keyword, kind)
    elif isinstance(value, LDict) and isinstance(kind, Keyworded):
        variant = variant_of(kind, value)
        yield from _mapping(value, kind, path, variant.keyword if variant else None, kind)
    elif isinstance(value, LList) and isinstance(kind, (ListOf, Tuple)):
        for i, item in enumerate(value):
            item_kind = kind.item if isinstance(kind, ListOf) else (kind.items[i] if i < len(kind.items) else None)
            yield from _visit(item, item_kind, path + (ELEMENT,), field, key, None, keyword, owner)


def _mapping(value: LDict, kind: Kind, path, keyword, owner) -> Iterator[Place]:
    for name, child in value.items():
        key = _key(kind, str(name), value)
        if key is None:
            continue
        yield from _visit(child, key.kind, path + (str(name),), str(name), key, value.key_spans.get(name),
                          keyword, owner)


def _key(kind: Kind, name: str, siblings) -> Key | None:
    if isinstance(kind, Record):
        key = kind.key(name)
        return key if key is not None else (Key(name, kind.extra) if kind.extra is not None else None)
    if isinstance(kind, MapOf):
        return Key(name, kind.value)
    if isinstance(kind, Keyworded):
        variant = kind.variant(name)
        if variant is not None:
            return keyword_key(variant)
        chosen = variant_of(kind, siblings)
        found = chosen.modifier(name) if chosen else None
        return found or next((k for k in kind.common if k.name == name), None)
    return None
