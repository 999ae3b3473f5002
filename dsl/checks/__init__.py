"""Static checks: one pass per file, each yields diagnostics; all of them run."""
from __future__ import annotations

from typing import Iterator

from ..diagnostics import Diagnostic
from . import boards, components, definitions, expressions, flow, usage

PASSES = [components.check_items, components.check_reserved_fields, components.check_names_unique,
          definitions.check_definition_cycles, definitions.check_definition_names, expressions.check_expressions,
          *flow.PASSES, *usage.PASSES, boards.check_board_displays]


def run_all(rs) -> Iterator[Diagnostic]:
    for check in PASSES:
        yield from check(rs)
