"""The guarantee that a ruleset's text never becomes code (interpreter/codegen/safe_source.py):
identifiers only from checked names, comments only positions and fixed words, and nothing
run that holds a construct the generator never writes; and no other file of the package
compiles, executes or names generated identifiers by hand."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeple.dsl.source import Span
from meeple.interpreter import list_rulesets, load_rules
from meeple.interpreter.codegen.safe_source import UnsafeSource, check, comment, ident, module_filename, run

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = [d for d in ("dsl", "interpreter", "cli", "web", "bots", "adapters", "authoring", "simulation",
                       "benchmarks") if (ROOT / d).is_dir()]
CODEGEN = ROOT / "interpreter" / "codegen"
GUARD = CODEGEN / "safe_source.py"

NAMES = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,20}", fullmatch=True).filter(
    lambda n: n not in {"and", "or", "not", "in", "if", "else", "for", "true", "false", "none"})
FAMILIES = st.from_regex(r"_?[A-Za-z]{1,4}", fullmatch=True)


# -- identifiers -----------------------------------------------------------------------------
def test_an_identifier_is_its_family_and_its_name():
    assert ident("l", "card") == "l_card"
    assert ident("A", "take") == "A_take"
    assert ident("c", "x", 12) == "c12_x"
    assert ident("FN", 7) == "FN_7"
    assert ident("l", "__init__") == "l___init__"  # a dunder name is harmless behind a family


@pytest.mark.parametrize("family, name", [
    ("l", "a b"), ("l", "x\nimport os"), ("l", "x'"), ("l", "é"), ("l", "1x"), ("l", ""), ("l", "for"),
    ("l", "x" * 65), ("l", -1), ("l", 1.5), ("l", None), ("a_b", "x"), ("", "x"), ("l;", "x"), ("1", "x"),
])
def test_an_identifier_is_refused_for_anything_but_a_checked_name(family, name):
    with pytest.raises(UnsafeSource):
        ident(family, name)


def test_a_site_number_must_be_a_number():
    with pytest.raises(UnsafeSource):
        ident("c", "x", "1; import os")


@given(FAMILIES, st.one_of(NAMES, st.integers(0, 10**6)), FAMILIES, st.one_of(NAMES, st.integers(0, 10**6)))
def test_identifiers_are_injective(f1, n1, f2, n2):
    if (f1, n1) != (f2, n2):
        assert ident(f1, n1) != ident(f2, n2)


# -- comments and the module's name -------------------------------------------------------------
def test_a_comment_holds_a_position_never_a_path():
    span = Span("/some/where/game\nimport os.yaml", 33, 18, 33, 20)
    text = comment(span, "end rule", ("/other.yaml", span.file))
    assert text == "# 2:33:18  end rule"
    assert comment(Span("elsewhere.yaml", 4, 2, 4, 3), "setup", ()) == "# 0:4:2  setup"


@pytest.mark.parametrize("what", ["action 'x'", 'say "hi"', "a\nimport os", "back\\slash", "ünïcode"])
def test_a_comment_takes_only_fixed_words(what):
    with pytest.raises(UnsafeSource):
        comment(Span("game.yaml", 1, 1, 1, 2), what, ())


def test_the_module_is_named_by_its_digest():
    assert module_filename("0123abcd") == "<meeple 0123abcd>"
    with pytest.raises(UnsafeSource):
        module_filename("game>\nimport os")


# -- what may run -----------------------------------------------------------------------------------
FINE = """# 1:3:4  end rule
def E1(ctx):
    _c = ctx.cost
    try:
        V = ctx.state.vars
        return len([l_x for l_x in V['xs'] if type(l_x) is int]) > 2
    except Exception:
        ctx.cost = _c
    return _ref(ctx, 1)
"""


def test_generated_code_of_the_usual_shape_passes():
    check(FINE)


@pytest.mark.parametrize("text", [
    "import os",
    "from os import system",
    "def f():\n    __import__('os')",
    "def f():\n    return open('x')",
    "def f():\n    return eval('1')",
    "def f():\n    return getattr(x, 'y')",
    "def f(x):\n    return x.__class__",
    "def f(x):\n    return x.gi_frame",
    "def f(x):\n    return x.tb_frame.f_globals",
    "def f(x):\n    return '{0.__class__}'.format(x)",
    "class C:\n    pass",
    "def f():\n    global g",
    "def f():\n    yield 1",
    "def f(x):\n    return f'{x}'",
    "def f():\n    return b'bytes'",
    "# a comment with 'quotes'\ndef f():\n    pass",
    "# game.yaml\\n\ndef f():\n    pass",
    "def f():\n    with x:\n        pass",
    "def f(:\n",
])
def test_anything_the_generator_never_writes_is_refused(text):
    with pytest.raises(UnsafeSource):
        check(text)


def test_a_nested_function_may_write_its_callers_budget():
    """The fused tier writes a definition that calls itself as a nested function, which
    charges the playout's budget (`nonlocal`): the one scope statement it writes."""
    ns: dict = {}
    run("def f():\n    _cost = 0\n    def g(n):\n        nonlocal _cost\n        _cost += 1\n"
        "        return n == 0 or g(n - 1)\n    g(3)\n    return _cost", "<meeple 00>", ns)
    assert ns["f"]() == 4


def test_run_leaves_only_the_safe_builtins_in_reach():
    ns: dict = {}
    run("def f():\n    return len((1, 2))", "<meeple 00>", ns)
    assert ns["f"]() == 2
    assert "open" not in ns["__builtins__"] and "__import__" not in ns["__builtins__"]


# -- the package: one place compiles, one place names ---------------------------------------------
def _python_files():
    for folder in PACKAGE:
        yield from sorted((ROOT / folder).rglob("*.py"))


def test_only_safe_source_compiles_or_executes_text():
    found = []
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in ("compile", "exec", "eval", "__import__"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.func.id}")
    assert found == [f"{GUARD.relative_to(ROOT)}:{n}" for n in _guard_calls()]


def _guard_calls() -> list:
    lines = []
    for node in ast.walk(ast.parse(GUARD.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("compile", "exec"):
            lines.append(f"{node.lineno} {node.func.id}")
    assert len(lines) == 3  # run: compile and exec; code_of: compile
    return lines


def test_the_generator_names_and_comments_only_through_safe_source():
    """An f-string writing `xx_{...}` builds an identifier by hand, and one starting with `#`
    a comment by hand: both belong to ident() and comment()."""
    found = []
    for path in sorted(CODEGEN.glob("*.py")):
        if path == GUARD:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.JoinedStr):
                continue
            parts = node.values
            by_hand = any(isinstance(a, ast.Constant) and isinstance(b, ast.FormattedValue)
                          and re.search(r"(^|\w)_$", a.value) for a, b in zip(parts, parts[1:]))
            commented = isinstance(parts[0], ast.Constant) and parts[0].value.lstrip().startswith("#")
            if by_hand or commented:
                found.append(f"{path.name}:{node.lineno}")
    assert found == []


@pytest.mark.parametrize("name", list_rulesets())
def test_a_shipped_rulesets_module_names_no_path_and_no_game(name):
    rules = load_rules(name, backend="compiled")
    source = rules.source()
    for path in rules.ruleset.files:
        assert path not in source and Path(path).name not in source
    assert f"'{rules.ruleset.game.name}'" not in source.split("def ", 1)[0]
    assert rules.module.filename == f"<meeple {rules.ruleset.content_hash[:16]}>"
