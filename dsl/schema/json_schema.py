"""The ruleset language as JSON Schema, for editors.

Generated from the same declarations the shape pass checks a ruleset against
(`language.py`), so an editor that reads the schema (VS Code's YAML extension, any
yaml-language-server client) completes and explains exactly the keys the loader
accepts.  The file shipped beside this module is this function's output; a test
regenerates it and fails on drift, so nobody edits it by hand.

The schema says what a value may look like, as the shape pass does; what it means
(a zone that exists, a type that checks) is the checker's business, which the
language server (`meeple lsp`) reports.
"""
from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

from ..identifiers import KEYWORDS, MAX_NAME_LENGTH, NAME_PATTERN
from .kinds import (Assignment, Boolean, Choice, Data, Expression, Integer, Key, Keyworded, Kind, ListOf,
                    Literal, MapOf, Name, OneOf, Record, Ref, Scalar, Target, Text, Tuple, TypeName, Variant)
from .language import NAMED_KINDS, RULESET

SCHEMA_FILE = Path(__file__).with_name("ruleset.schema.json")
DOCS = "docs/language.md"

# YAML forms, as `shape.fits` reads them: a text may be written as a number, an
# expression may be a plain value or a list of them (a list literal).
_TEXT = {"type": ["string", "integer"]}
_NAME = {"type": "string", "pattern": f"^{NAME_PATTERN.pattern}$", "maxLength": MAX_NAME_LENGTH,
         "not": {"enum": sorted(KEYWORDS)}}
_LITERAL = {"anyOf": [{"type": ["string", "number", "boolean"]},
                      {"type": "array", "items": {"$ref": "#/$defs/literal"}}]}


def ruleset_schema() -> dict:
    """The JSON Schema (draft 2020-12) of one ruleset file."""
    body = _record(RULESET, top=True)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "meeple ruleset file",
        **body,
        "description": ("One YAML file of a meeple ruleset: a mapping of sections (a ruleset may split its "
                        f"sections over several files of one folder). The language: {DOCS}."),
        "$defs": {"literal": _LITERAL, **{name: _kind(kind) for name, kind in sorted(NAMED_KINDS.items())}},
    }


def schema_text() -> str:
    """The schema as the shipped file holds it (stable key order, one trailing newline)."""
    return json.dumps(ruleset_schema(), indent=1, ensure_ascii=False) + "\n"


def _described(schema: dict, doc: str) -> dict:
    return {**schema, "description": doc} if doc else schema


def _kind(kind: Kind) -> dict:
    if isinstance(kind, Ref):
        return {"$ref": f"#/$defs/{kind.name}"}
    if isinstance(kind, Text):
        return dict(_TEXT)
    if isinstance(kind, Name):
        return dict(_NAME)
    if isinstance(kind, TypeName):
        return {"type": "string"}
    if isinstance(kind, Choice):
        return {"enum": list(kind.values)}
    if isinstance(kind, Integer):
        return {"type": "integer"}
    if isinstance(kind, Boolean):
        return {"type": "boolean"}
    if isinstance(kind, (Expression, Target, Assignment)):
        return {"$ref": "#/$defs/literal"}
    if isinstance(kind, Scalar):
        return {"type": ["string", "integer", "boolean"]}
    if isinstance(kind, Data):
        return {"type": ["string", "number", "boolean", "array", "object"]}
    if isinstance(kind, Literal):
        return {"const": kind.value}
    if isinstance(kind, ListOf):
        return {"type": "array", "items": _kind(kind.item)}
    if isinstance(kind, Tuple):
        return {"type": "array", "prefixItems": [_kind(k) for k in kind.items], "items": False,
                "minItems": len(kind.items) - kind.optional, "maxItems": len(kind.items)}
    if isinstance(kind, MapOf):
        keys = {"propertyNames": _kind(kind.keys)} if kind.keys is not None else {}
        return {"type": "object", **keys, "additionalProperties": _kind(kind.value)}
    if isinstance(kind, Record):
        return _record(kind)
    if isinstance(kind, Keyworded):
        return _keyworded(kind)
    if isinstance(kind, OneOf):
        return {"anyOf": [_kind(k) for k in kind.options]}
    raise TypeError(f"no JSON Schema for {type(kind).__name__}")  # a new kind needs a line here


def _properties(keys: tuple[Key, ...]) -> dict:
    return {k.name: _described(_kind(k.kind), k.doc) for k in keys}


def _record(kind: Record, top: bool = False) -> dict:
    out: dict = {"type": "object", "properties": _properties(kind.keys)}
    if top:  # keys starting with x- hold YAML anchors and templates; the loader skips them
        out["patternProperties"] = {"^x-": {}}
    out["additionalProperties"] = _kind(kind.extra) if kind.extra is not None else False
    required = [k.name for k in kind.keys if k.required]
    if required:
        out["required"] = required
    rules = [{"anyOf": [{"required": [n]} for n in names]} for names in kind.at_least_one]
    rules += [_at_most_one(names) for names in kind.at_most_one]
    if rules:
        out["allOf"] = rules
    if kind.needs:
        out["dependentRequired"] = {given: [needed] for given, needed in kind.needs}
    return _described(out, kind.doc)


def _at_most_one(names: tuple[str, ...]) -> dict:
    return {"not": {"anyOf": [{"required": list(pair)} for pair in combinations(names, 2)]}}


def _keyworded(kind: Keyworded) -> dict:
    forms = [_variant(v, kind.common) for v in kind.variants]
    if kind.bare is not None:  # the short form is a text, never a list (shape.fits)
        forms.append({"type": "string", "description": f"the short form of {kind.what}: {kind.bare.label}"})
    return {"anyOf": forms}


def _variant(variant: Variant, common: tuple[Key, ...]) -> dict:
    """One keyword with its modifiers.  With inline keys the keyword's value may instead be
    a mapping of the modifiers (`move: {from: deck, to: hand}`), where a required modifier
    may then be given."""
    head = _described(_kind(variant.head), variant.doc)
    if variant.inline:
        inline = {"type": "object", "properties": _properties(variant.modifiers + variant.inline),
                  "additionalProperties": False}
        head = _described({"anyOf": [_kind(variant.head), inline]}, variant.doc)
    out: dict = {"type": "object",
                 "properties": {variant.keyword: head, **_properties(variant.modifiers + common)},
                 "additionalProperties": False, "required": [variant.keyword]}
    rules = [_at_most_one(names) for names in variant.at_most_one]
    for key in variant.modifiers:
        if key.required:
            given_inside = {"properties": {variant.keyword: {"type": "object", "required": [key.name]}}}
            rules.append({"anyOf": [{"required": [key.name]}, given_inside]} if variant.inline
                         else {"required": [key.name]})
    if rules:
        out["allOf"] = rules
    return _described(out, variant.doc)


def shipped_schema() -> str:
    return SCHEMA_FILE.read_text(encoding="utf-8")


__all__ = ["SCHEMA_FILE", "ruleset_schema", "schema_text", "shipped_schema"]
