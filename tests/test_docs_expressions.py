"""Every worked example `expr` → `value` in the tables of docs/expressions.md is evaluated by
both the compiler and the reference evaluator and must give the value the page states.

The examples run against the test context of tests/expr_support.py: three players, the
boards 'grid' (3 x 3) and 'track' (a -> b -> c -> a, plus d)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from expr_support import run_both

from meeple.dsl.functions import equal

DOC = Path(__file__).resolve().parent.parent / "docs" / "expressions.md"
_EXAMPLE = re.compile(r"`([^`]+)`\s*→\s*`([^`]+)`")


def _examples():
    out = []
    for number, line in enumerate(DOC.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("|"):
            out.extend((number, expr, want) for expr, want in _EXAMPLE.findall(line))
    return out


EXAMPLES = _examples()


def test_the_page_has_examples():
    assert len(EXAMPLES) >= 40


@pytest.mark.parametrize("line,expr,want", EXAMPLES, ids=[f"L{n}:{e}" for n, e, _ in EXAMPLES])
def test_documented_example(line, expr, want):
    compiled, reference = run_both(expr)
    expected, _ = run_both(want)
    assert expected[0] == "ok", f"the stated value `{want}` does not evaluate: {expected}"
    assert compiled[0] == "ok", f"docs/expressions.md:{line}: `{expr}` failed: {compiled}"
    assert equal(compiled[1], expected[1]), f"docs/expressions.md:{line}: `{expr}` is {compiled[1]!r}"
    assert reference == compiled
