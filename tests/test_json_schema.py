"""The JSON Schema editors read (`meeple schema`, dsl/schema/ruleset.schema.json) is the
language the loader checks, written for another reader: it is generated from the same
declarations, it never drifts from the shipped file, a well-kept validator (jsonschema)
accepts every ruleset the loader reads and rejects every ruleset whose shape the loader
rejects."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from meeple.dsl.build_support import SHAPE_CODES, Reader
from meeple.dsl.schema import RULESET, SECTIONS, check_sections, kinds
from meeple.dsl.schema.json_schema import SCHEMA_FILE, ruleset_schema, schema_text
from meeple.dsl.schema.language import NAMED_KINDS
from meeple.dsl.source import read_yaml
from meeple.dsl.load import ruleset_files

from test_schema import CASES, shipped

ROOT = Path(__file__).resolve().parent.parent
VALIDATOR = Draft202012Validator(ruleset_schema())


def as_json(value):
    """The YAML as an editor's YAML server hands it to the schema: keys are texts."""
    if isinstance(value, dict):
        return {str(k): as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_json(v) for v in value]
    return value


def problems(doc) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:160]}" for e in VALIDATOR.iter_errors(as_json(doc))]


def test_the_shipped_schema_is_what_the_language_generates():
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(), \
        "dsl/schema/ruleset.schema.json is stale: run `meeple schema -o dsl/schema/ruleset.schema.json`"


def test_the_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))


def ruleset_yaml_files() -> list[Path]:
    return [f for folder in shipped() for f in ruleset_files(folder)]


@pytest.mark.parametrize("path", ruleset_yaml_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shipped_ruleset_file_validates(path):
    assert problems(read_yaml(path)) == []


# Shape problems a builder finds that a schema of key kinds cannot say (they depend on
# whether another key is given inside or beside an effect's keyword).
BEYOND_SCHEMA = {"move without items or from"}
READABLE_CASES = [c for c in CASES if not any(code.startswith("Y") for code, _, _ in c[2])]


def shape_pass_codes(path: Path, doc) -> list[str]:
    """What the shape pass alone reports (the builders' checks beyond the schema, such as a
    `move` with neither items nor `from`, are left to the checker and the language server)."""
    reader = Reader(str(path))
    parts = {section: [(str(path), value, None)] for section, value in doc.items() if section in SECTIONS}
    check_sections(reader, parts)
    return [d.code for d in reader.diagnostics]


@pytest.mark.parametrize("name, text, expected", READABLE_CASES, ids=[c[0] for c in READABLE_CASES])
def test_the_schema_rejects_exactly_what_the_shape_pass_rejects(tmp_path, name, text, expected):
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    doc = read_yaml(path)
    codes = shape_pass_codes(path, doc)
    assert set(codes) <= SHAPE_CODES
    assert bool(problems(doc)) == bool(codes)
    if bool(codes) != any(code in SHAPE_CODES for code, _, _ in expected):  # reported by a builder instead
        assert name in BEYOND_SCHEMA


def _records(kind, seen=None):
    """Every Record and Keyworded reachable in the language, with a path for the message."""
    seen = set() if seen is None else seen
    if id(kind) in seen:
        return
    seen.add(id(kind))
    if isinstance(kind, kinds.Ref):
        yield from _records(NAMED_KINDS[kind.name], seen)
    elif isinstance(kind, kinds.Record):
        yield kind
        for key in kind.keys:
            yield from _records(key.kind, seen)
        if kind.extra is not None:
            yield from _records(kind.extra, seen)
    elif isinstance(kind, kinds.Keyworded):
        yield kind
        for variant in kind.variants:
            for key in variant.modifiers + variant.inline + kind.common:
                yield from _records(key.kind, seen)
            yield from _records(variant.head, seen)
    elif isinstance(kind, (kinds.ListOf,)):
        yield from _records(kind.item, seen)
    elif isinstance(kind, kinds.MapOf):
        yield from _records(kind.value, seen)
    elif isinstance(kind, (kinds.OneOf, kinds.Tuple)):
        for option in getattr(kind, "options", ()) or kind.items:
            yield from _records(option, seen)


def _described_keys(schema) -> set[tuple[str, str]]:
    """(key, description) of every property anywhere in the schema."""
    found = set()
    if isinstance(schema, dict):
        for name, value in schema.get("properties", {}).items():
            found.add((name, value.get("description", "")))
        for value in schema.values():
            found |= _described_keys(value)
    elif isinstance(schema, list):
        for value in schema:
            found |= _described_keys(value)
    return found


def test_every_key_of_the_language_is_in_the_schema_with_its_description():
    """The loader accepts no key outside the language's declarations (test_schema checks
    the builders read nothing else); here every declared key reaches the schema, with the
    description an editor shows on hover."""
    in_schema = _described_keys(ruleset_schema())
    declared = set()
    for kind in _records(RULESET):
        if isinstance(kind, kinds.Record):
            declared |= {(k.name, k.doc) for k in kind.keys}
        else:
            for v in kind.variants:
                declared |= {(k.name, k.doc) for k in v.modifiers + v.inline + kind.common}
                declared.add((v.keyword, v.doc))
    assert declared - in_schema == set()
    assert all(doc for _, doc in declared)


def test_an_unknown_key_is_refused_where_the_loader_refuses_it(tmp_path):
    """A key the language does not declare is refused by the schema too, at any depth."""
    path = tmp_path / "game.yaml"
    path.write_text("game: {name: g, players: 2, colour: red}\n"
                    "actions: {go: {effects: [{move: {from: a, to: b, fase: up}}]}}\n", encoding="utf-8")
    found = problems(read_yaml(path))
    assert any(p.startswith("game:") and "colour" in p for p in found)
    assert any(p.startswith("actions/go/effects/0") for p in found)


def test_templates_under_x_keys_are_accepted_as_the_loader_skips_them(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("x-common: &c {kind: row}\ngame: {name: g, players: 2}\nzones: {a: *c}\n", encoding="utf-8")
    assert problems(read_yaml(path)) == []
