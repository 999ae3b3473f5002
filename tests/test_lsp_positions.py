"""Spans (1-based, in characters, end excluded) against LSP positions (0-based, in the
code units of the encoding agreed with the editor)."""
from __future__ import annotations

import pytest
from lsprotocol import types

from meeple.authoring.positions import (UTF8, UTF16, UTF32, column_at, span_to_range, to_span_position,
                                        units_before)
from meeple.dsl.source import Span

HUNGARIAN = '  labels: {hu: {play: "kijátszás", hand: "kéz"}}  # ő'
CARDS = "  log: \"'🂡 🂱' + str(wx)\""


def test_an_ascii_span():
    lines = ["zones:", "  deck: {kind: stack}"]
    r = span_to_range(Span("f", 2, 3, 2, 7), lines)
    assert r == types.Range(types.Position(1, 2), types.Position(1, 6))


def test_hungarian_letters_are_one_utf16_unit_and_two_utf8_bytes():
    col = HUNGARIAN.index("hand") + 1  # 1-based, in characters
    span = Span("f", 1, col, 1, col + 4)
    assert span_to_range(span, [HUNGARIAN], UTF16).start.character == col - 1
    assert span_to_range(span, [HUNGARIAN], UTF32).start.character == col - 1
    assert span_to_range(span, [HUNGARIAN], UTF8).start.character == len(HUNGARIAN[:col - 1].encode("utf-8"))
    assert span_to_range(span, [HUNGARIAN], UTF8).start.character == col - 1 + 2  # á and é


def test_a_card_outside_the_basic_plane_is_two_utf16_units():
    col = CARDS.index("wx") + 1
    r = span_to_range(Span("f", 1, col, 1, col + 2), [CARDS], UTF16)
    assert (r.start.character, r.end.character) == (col - 1 + 2, col + 1 + 2)
    assert r.start.character == len(CARDS[:col - 1].encode("utf-16-le")) // 2


@pytest.mark.parametrize("encoding", [UTF8, UTF16, UTF32])
@pytest.mark.parametrize("line", [HUNGARIAN, CARDS, "plain"])
def test_positions_go_there_and_back(encoding, line):
    for col in range(len(line) + 1):
        units = units_before(line, col, encoding)
        assert column_at(line, units, encoding) == col
        assert to_span_position(types.Position(0, units), [line], encoding) == (1, col + 1)


def test_a_unit_inside_a_character_counts_as_its_start():
    assert column_at(CARDS, units_before(CARDS, CARDS.index("🂡"), UTF16) + 1, UTF16) == CARDS.index("🂡")


def test_a_multi_line_span_and_positions_past_the_text():
    lines = ["expr: |", "  a +", "  b"]
    assert span_to_range(Span("f", 2, 3, 3, 4), lines) == types.Range(types.Position(1, 2), types.Position(2, 3))
    assert span_to_range(Span("f", 9, 1, 9, 2), lines).start == types.Position(8, 0)
    assert column_at("ab", 5) == 5
