"""The conformance report ties rulebook sections to spec elements and scenarios."""
from __future__ import annotations

from meeple.interpreter.analysis.conformance import conformance_report, split_citation
from meeple.interpreter.runtime.loading import load_rules


def test_citations_split_into_sections():
    assert split_citation("p.8") == ["p.8"]
    assert split_citation("p.8, p.10-12; FAQ") == ["p.8", "p.10", "p.11", "p.12", "FAQ"]
    assert split_citation(None) == []


def test_tic_tac_toe_is_fully_cited_and_tested():
    report = conformance_report(load_rules("tic-tac-toe").ruleset)
    assert report["complete"], report
    rows = {r["section"]: r for r in report["sections"]}
    assert "action place" in rows["turn"]["spec"]
    assert any("draw" in s for s in rows["draw"]["scenarios"])


def test_gaps_and_unknown_citations_are_reported():
    report = conformance_report(load_rules("nim").ruleset)
    assert not report["complete"]
    assert report["unknown_citations"]  # nim cites its rules but lists no sections
