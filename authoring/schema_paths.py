"""Where a place in a ruleset file stands in the language: the kind of the value under a
path of keys, and the keys a mapping there may hold.

The path is what an editor's cursor sits under (`actions`, `play`, `effects`, `-`, `move`),
read from text that may not parse yet, so these functions never insist: a key the
language does not know gives None, and an effect or flow step whose keyword is not
written yet offers every keyword.
"""
from __future__ import annotations

from meeple.dsl.schema.kinds import Key, Keyworded, Kind, ListOf, MapOf, OneOf, Record, Ref, Tuple, Variant
from meeple.dsl.schema.language import NAMED_KINDS, RULESET

ELEMENT = "-"  # a path step into an element of a list


def resolve(kind: Kind | None) -> Kind | None:
    while isinstance(kind, Ref):
        kind = NAMED_KINDS[kind.name]
    return kind


def _options(kind: Kind | None) -> list[Kind]:
    kind = resolve(kind)
    if isinstance(kind, OneOf):
        return [o for option in kind.options for o in _options(option)]
    return [kind] if kind is not None else []


def variant_of(kind: Keyworded, siblings) -> Variant | None:
    """The effect's or flow step's keyword among the keys written beside the cursor."""
    for key in siblings:
        variant = kind.variant(key)
        if variant is not None:
            return variant
    return None


def inline_record(variant: Variant) -> Record:
    """The mapping form of a keyword's value (`move: {from: deck, to: hand}`)."""
    return Record(variant.keyword, variant.modifiers + variant.inline, doc=variant.doc)


def keyword_key(variant: Variant) -> Key:
    """A keyword as a key, with its kind and description, for completion and hover."""
    head = OneOf((variant.head, inline_record(variant))) if variant.inline else variant.head
    return Key(variant.keyword, head, doc=variant.doc)


def key_of(kind: Kind | None, name: str, siblings=()) -> Key | None:
    """The declared key `name` of a mapping of this kind (None if there is no such key)."""
    for option in _options(kind):
        if isinstance(option, Record):
            key = option.key(name)
            if key is not None:
                return key
            if option.extra is not None:
                return Key(name, option.extra)
        elif isinstance(option, MapOf):
            return Key(name, option.value)
        elif isinstance(option, Keyworded):
            key = _keyworded_key(option, name, siblings)
            if key is not None:
                return key
    return None


def _keyworded_key(kind: Keyworded, name: str, siblings) -> Key | None:
    variant = kind.variant(name)
    if variant is not None:
        return keyword_key(variant)
    for key in kind.common:
        if key.name == name:
            return key
    chosen = variant_of(kind, siblings)
    for v in ([chosen] if chosen else []) + list(kind.variants):
        key = v.modifier(name)
        if key is not None:
            return key
    return None


def element_of(kind: Kind | None) -> Kind | None:
    for option in _options(kind):
        if isinstance(option, ListOf):
            return option.item
        if isinstance(option, Tuple) and option.items:
            return OneOf(option.items)
    return None


def kind_at(path, siblings=()) -> Kind | None:
    """The kind of the value reached by following `path` from a file's top; `siblings`
    are the keys beside the last step (they tell an effect's or flow step's kind)."""
    kind: Kind | None = RULESET
    for i, step in enumerate(path):
        if kind is None:
            return None
        if step == ELEMENT:
            kind = element_of(kind)
        else:
            key = key_of(kind, step, siblings if i == len(path) - 1 else ())
            kind = key.kind if key is not None else None
    return resolve(kind)


def options_of(kind: Kind | None) -> list[Kind]:
    """The kinds a value may take here (a `OneOf` opened up)."""
    return _options(kind)


def keys_offered(kind: Kind | None, siblings=()) -> list[Key]:
    """The keys a mapping of this kind may still take, given the keys it already has."""
    out: dict[str, Key] = {}
    for option in _options(kind):
        if isinstance(option, Record):
            keys = option.keys
        elif isinstance(option, Keyworded):
            chosen = variant_of(option, siblings)
            keys = (chosen.modifiers if chosen else tuple(keyword_key(v) for v in option.variants)) \
                + option.common
        else:
            continue
        for key in keys:
            out.setdefault(key.name, key)
    return [key for name, key in out.items() if name not in siblings]
