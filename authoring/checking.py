"""What `meeple validate` reports for a ruleset, in one place, so the editor shows the
author exactly the command line's diagnostics: reading and building, the static checks,
and, when those found no error, setup run for every allowed player count."""
from __future__ import annotations

from pathlib import Path

from meeple.dsl.diagnostics import Diagnostic
from meeple.dsl.load import check_ruleset, read_ruleset
from meeple.dsl.model import Ruleset


def validate(path: Path, texts: dict[Path, str] | None = None) -> tuple[Ruleset | None, list[Diagnostic]]:
    """The ruleset (None when it cannot be built) and its diagnostics in file order;
    `texts` stands in for files on disk (see `read_ruleset`)."""
    from meeple.interpreter.analysis.setup_check import check_setup
    rs, diagnostics = read_ruleset(path, texts)
    if rs is not None:
        diagnostics += check_ruleset(rs)
        if not any(d.severity == "error" for d in diagnostics):
            diagnostics += check_setup(rs)
    diagnostics.sort(key=lambda d: (d.span.file, d.span.line, d.span.col))
    return rs, diagnostics
