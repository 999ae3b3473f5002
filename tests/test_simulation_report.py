"""`meeple report`: the numbers a designer reads off game records (win credit, intervals,
the first seat's edge), the terminal summary, the HTML page with its figures, and graphs
drawn straight to SVG."""
from __future__ import annotations

import json

import pytest

from meeple.simulation.analysis import analyse
from meeple.simulation.records import write_records
from meeple.simulation.runner import GameSpec, Task, play_task
from meeple.simulation.standings import wilson_interval

from test_cli import meeple, no_traceback


def record(seed, winners, scores, bots=("random", "random"), cell="", ruleset="g", actions=None, finished=True):
    n = len(bots)
    return {"ruleset": ruleset, "cell": cell, "seed": seed, "players": n, "options": "{}", "bots": list(bots),
            "moves": 10 + seed, "finished": finished, "stuck": False,
            "end_reason": "over" if finished else None, "scores": scores if finished else [],
            "ranks": [1] * n if finished else [], "winners": winners if finished else [],
            "actions": actions if actions is not None else [{"go": 5}] * n,
            "invariant_failures": 0, "cpu_seconds": 0.01}


def test_shared_wins_are_split_and_intervals_are_wilsons():
    records = [record(0, [0], [3.0, 1.0]), record(1, [0, 1], [2.0, 2.0]), record(2, [], [0.0, 0.0]),
               record(3, [1], [0.0, 4.0]), record(4, [0], [1.0, 0.0], finished=False)]
    a = analyse(records)
    (g,) = a.groups
    assert g.games == 5 and g.finished == 4 and a.unfinished == 1
    assert g.wins == [1 + 0.5 + 0.5, 0.5 + 0.5 + 1]  # a shared win halves, a draw is shared
    assert g.interval(0) == wilson_interval(2.0, 4)
    assert g.scores[1] == [1.0, 2.0, 0.0, 4.0]
    assert g.actions["go"] == 5 * 2 * 5 and g.counted_games == 5


def test_cells_group_records_and_the_first_seat_edge_reads_only_symmetric_line_ups():
    records = [record(s, [0], [1.0, 0.0], cell="mixed", bots=("mcts:9", "random")) for s in range(4)]
    records += [record(s, [s % 2], [1.0, 0.0], cell="even") for s in range(6)]
    a = analyse(records)
    assert [g.key for g in a.groups] == ["even", "mixed"]
    edge = a.first_player_edge()
    assert list(edge) == [("g", 2)]
    assert edge[("g", 2)]["games"] == 6 and edge[("g", 2)]["rate"] == 0.5 and edge[("g", 2)]["fair"] == 0.5
    assert a.bot_scores["mcts:9"] == [1.0] * 4


def test_records_of_two_rulesets_are_never_pooled():
    a = analyse([record(0, [0], [1.0, 0.0], ruleset="a"), record(1, [1], [0.0, 1.0], ruleset="b")])
    assert len(a.groups) == 2 and {g.ruleset for g in a.groups} == {"a", "b"}
    assert set(a.first_player_edge()) == {("a", 2), ("b", 2)}


def test_figures_are_drawn_when_a_seat_wins_every_game_or_none():
    """A rate of 1 sits on the end of its Wilson interval (rounding once put it a hair
    beyond, and matplotlib refused the error bar)."""
    from meeple.simulation.figures import draw_all
    records = [record(s, [0], [5.0, 1.0, 0.0], bots=("a", "a", "a")) for s in range(30)]
    figures = {f.name: f for f in draw_all(analyse(records))}
    assert {"win_rate_by_seat", "first_player"} <= set(figures)
    assert figures["win_rate_by_seat"].png[:4] == b"\x89PNG"


@pytest.fixture(scope="module")
def records_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "th.jsonl"
    records = []
    for players in (2, 3):
        spec = GameSpec("treasure-hunter", players)
        records += [play_task(Task(spec, s)) for s in range(8)]
    write_records(path, records)
    return path


def test_the_terminal_summary_shows_each_seat_with_its_bar_and_interval(records_file):
    shown = meeple("report", records_file)
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    assert "treasure-hunter: 16 games in 2 cell(s)" in out
    assert "players=2 bots=random,random cards=9" in out and "players=3 bots=random,random,random cards=9" in out
    seat_lines = [line for line in out.splitlines() if line.strip().startswith("seat ")]
    assert len(seat_lines) == 5 and all("█" in line or "·" in line for line in seat_lines)
    assert "/game keep" in out and "first seat against its fair share" in out


def test_the_html_report_holds_every_figure_inline_and_beside_it(records_file, tmp_path):
    page = tmp_path / "out" / "report.html"
    made = meeple("report", records_file, "-o", page)
    assert made.returncode == 0, made.stderr
    html = page.read_text(encoding="utf-8")
    names = ["win_rate_by_seat", "scores_by_seat", "scores_by_bot", "game_length", "end_reasons", "actions",
             "first_player"]
    for name in names:
        assert f"<figure id={name}>" in html
        assert (tmp_path / "out" / "report_figures" / f"{name}.svg").read_text(encoding="utf-8").count("<svg") == 1
        assert (tmp_path / "out" / "report_figures" / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert html.count("<svg") == len(names) and "<script" not in html
    assert "By cell and seat" in html and "First seat against its fair share" in html


def test_a_file_that_is_not_records_is_refused_in_one_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json}\n", encoding="utf-8")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    for path, words in ((bad, "not a JSON record"), (empty, "holds no game records"),
                        (tmp_path / "none.parquet", "no such records file")):
        result = meeple("report", path)
        no_traceback(result)
        assert result.returncode == 2 and words in result.stderr


def test_graphs_are_drawn_to_svg_without_graphviz(tmp_path):
    flow = meeple("graph", "nim", "--flow", "-f", "svg")
    assert flow.returncode == 0 and flow.stdout.lstrip().startswith("<?xml") and "<svg" in flow.stdout
    assert ">6: choose: take<" in flow.stdout
    states = meeple("graph", "nim", "--states", "--depth", "2", "--option", "heaps=[1,2]", "-f", "svg",
                    "-o", tmp_path / "s.svg")
    assert states.returncode == 0, states.stderr
    svg = (tmp_path / "s.svg").read_text(encoding="utf-8")
    assert "take(heap=1,count=2)" in svg and "end: winners 1" in svg
    too_many = meeple("graph", "tic-tac-toe", "--states", "--depth", "3", "-f", "svg", "-o", tmp_path / "t.svg")
    no_traceback(too_many)
    assert too_many.returncode == 2 and "too many for a picture" in too_many.stderr


def test_record_columns_are_documented():
    from meeple.simulation.records import COLUMNS
    from pathlib import Path
    doc = (Path(__file__).resolve().parent.parent / "docs" / "simulation.md").read_text(encoding="utf-8")
    for name, (kind, _) in COLUMNS.items():
        assert f"| `{name}` | {kind} |" in doc, name
    json.dumps(list(COLUMNS))
