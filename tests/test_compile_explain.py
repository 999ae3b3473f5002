"""`meeple compile --explain` (issue 43): which generated playout plays a ruleset, and each
construct that keeps it out of the fused tier at its file, line and column."""
from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from meeple.cli.main import app
from meeple.interpreter import load_game
from meeple.interpreter.codegen.fused import located_reasons

ROOT = Path(__file__).resolve().parent.parent
NIM = (ROOT / "rulesets" / "nim" / "game.yaml").read_text(encoding="utf-8")


def _ruleset(tmp_path, text):
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _place(text, needle):
    """(line, column) where `needle` first stands in `text`, counted from 1."""
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(needle)


def test_each_construct_is_named_at_its_place(tmp_path):
    text = NIM.replace("  last_mover: {type: int, initial: -1}",
                       "  last_mover: {type: int, initial: -1}\n  emptied: {per: player, type: \"set[int]\", initial: \"set()\"}")
    path = _ruleset(tmp_path, text)
    found = located_reasons(load_game(path, backend="compiled").rules)
    assert [(span.line, span.col) for _, span in found][:1] == [_place(text, "emptied")]
    result = CliRunner().invoke(app, ["compile", str(path), "--explain"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("random playouts: the playout kernel")
    line, col = _place(text, "emptied")
    assert re.search(rf"game\.yaml:{line}:{col}: variable 'emptied'", result.output)
    caret = next(i for i, x in enumerate(lines) if x.startswith(f"  {line} | "))
    assert lines[caret + 1].index("^") == lines[caret].index("emptied")


def test_an_expression_is_pointed_at_where_the_call_stands(tmp_path):
    text = NIM.replace('count: "range(1, heaps[heap] + 1)"',
                       'count: "range(1, heaps[heap] + 1 + 0 * len(zip([1], [2])))"')
    found = located_reasons(load_game(_ruleset(tmp_path, text), backend="compiled").rules)
    assert found, "zip (lists of pairs) is outside the tier"
    (why, span), = found
    assert "'zip'" in why and (span.line, span.col) == _place(text, "zip(")


def test_a_game_in_the_fused_tier_says_so_and_names_nothing():
    result = CliRunner().invoke(app, ["compile", "nim", "--explain"])
    assert result.exit_code == 0
    assert result.output == "random playouts: the fused tier (the fastest: one generated function plays the whole game)\n"


def test_a_line_shown_from_a_file_never_carries_what_would_steer_the_terminal():
    # YAML refuses control characters (Y005), so this guards only what the loader lets by
    from meeple.interpreter.codegen.explain_tier import _printable
    assert _printable("x: 1  # \x1b[2J\x07") == "x: 1  # \ufffd[2J\ufffd"
