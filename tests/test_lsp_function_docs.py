"""Hover and completion describe the library's functions from the tables of
docs/expressions.md, shipped as authoring/function_docs.json (docs/ is not installed).
The file must be the page's tables exactly, and every function must have its entry."""
from __future__ import annotations

from pathlib import Path

from meeple.authoring.function_docs import SHIPPED, function_docs, parse_page, render
from meeple.dsl.functions import FUNCTIONS

PAGE = Path(__file__).resolve().parent.parent / "docs" / "expressions.md"


def test_the_shipped_tables_are_the_pages():
    fresh = render(parse_page(PAGE.read_text(encoding="utf-8")))
    assert SHIPPED.read_text(encoding="utf-8") == fresh, \
        "docs/expressions.md changed: run `python -m meeple.authoring.function_docs docs/expressions.md`"


def test_every_library_function_is_described():
    assert set(function_docs()) == set(FUNCTIONS)


def test_an_entry_holds_every_signature_and_result_of_a_function():
    entry = function_docs()["max"]
    assert entry["signatures"] == ["max(xs)", "max(a, b, ...)"]
    assert entry["results"][1] == "smallest / largest argument"
    assert entry["group"] == "Collections"
    assert function_docs()["max_by"]["group"] == "Lambdas"


def test_the_shipped_file_is_package_data():
    pyproject = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert '"meeple.authoring" = ["*.json"]' in pyproject, "pip install must ship the tables"
