"""Static checks: one pass per file, each yields diagnostics; all of them run."""
from __future__ import annotations

from typing import Iterator

from ..diagnostics import Diagnostic
from . import boards, components, definitions, expressions, flow, hidden, usage

PASSES = [components.check_items, components.check_reserved_fields, components.check_names_unique,
          definitions.check_definition_cycles, definitions.check_definition_names, expressions.check_expressions,
          *flow.PASSES, *usage.PASSES, boards.check_board_displays, hidden.check_summary_public]


def run_all(rs) -> Iterator[Diagnostic]:
    """Each problem once: the steps of a fragment called from several places are checked
    at every call (dsl/fragments.py), and a problem in them is the same at each."""
    seen: set = set()
    for check in PASSES:
        for d in check(rs):
            if (d.code, d.span, d.message) not in seen:
                seen.add((d.code, d.span, d.message))
                yield d
