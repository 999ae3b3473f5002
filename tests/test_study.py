"""Study files (meeple.simulation.study, .resume; `meeple study`): the sweep makes the
cells and seeds it says, the records file holds them sorted by cell then seed, a rerun
plays only what is missing, an interrupted study (the driver stopped, a worker process
killed) loses no finished game and its rerun gives the records of an uninterrupted run,
and a bad study file is reported at its place.  The same on Ray: test_simulation_ray.py."""
from __future__ import annotations

import functools
from dataclasses import replace

import pytest

from meeple.simulation.records import RecordsError, read_records
from meeple.simulation.resume import journal_path, run_study
from meeple.simulation.runner import BackendError, run_processes, run_serial
from meeple.simulation.study import read_study

from study_support import (NIM_CELLS, comparable_file, journal_lines, play_or_die, stop_after,
                           write_study)
from test_cli import meeple, no_traceback

SWEEP = """\
ruleset: treasure-hunter
games: 3
seed: 40
max_moves: 900
sweep:
  players: [2, 3]
  options: {cards: [3, 5]}
  bots:
    - random
    - [mcts:5, random, random]
"""


def test_the_sweep_makes_its_cells_each_with_the_same_seeds(tmp_path):
    path = tmp_path / "th.yaml"
    path.write_text(SWEEP, encoding="utf-8")
    study = read_study(path)
    assert [c.id for c in study.cells] == [
        "players=2 bots=random,random cards=3", "players=2 bots=random,random cards=5",
        "players=3 bots=random,random,random cards=3", "players=3 bots=random,random,random cards=5",
        "players=3 bots=mcts:5,random,random cards=3", "players=3 bots=mcts:5,random,random cards=5"]
    assert study.records == tmp_path / "th.parquet"  # the study's name, next to it
    tasks = study.tasks()
    assert [(t.cell, t.seed) for t in tasks] == [(c.id, s) for c in study.cells for s in (40, 41, 42)]
    assert {t.max_moves for t in tasks} == {900}
    first = study.cells[4]
    assert (first.spec.players, dict(first.spec.options)["cards"], first.bots) == \
        (3, 3, ("mcts:5", "random", "random"))


def test_a_study_writes_one_records_file_by_cell_then_seed(tmp_path):
    path = write_study(tmp_path, games=4, records="out/results.jsonl")
    (tmp_path / "out").mkdir()
    run = run_study(read_study(path), run_serial)
    records = read_records(tmp_path / "out" / "results.jsonl")
    assert [(r["cell"], r["seed"]) for r in records] == [(c, s) for c in NIM_CELLS for s in range(5, 9)]
    assert (run.played, run.kept) == (16, 0)
    assert records[8]["bots"] == ["mcts:5", "random"] and records[0]["options"] == '{"heaps": [3, 4, 5]}'
    assert all(r["finished"] and r["actions"] for r in records)
    assert not journal_path(tmp_path / "out" / "results.jsonl").exists()


def test_a_rerun_plays_only_the_games_not_yet_done(tmp_path):
    path = write_study(tmp_path, games=3)
    run_study(read_study(path), run_serial)
    again = run_study(read_study(path), run_serial)
    assert (again.played, again.kept) == (0, 12)
    write_study(tmp_path, games=5)  # more games per cell: only the new seeds are played
    more = run_study(read_study(path), run_serial)
    assert (more.played, more.kept) == (8, 12)
    write_study(tmp_path, games=5, records="fresh.parquet", name="fresh.yaml")
    assert comparable_file(tmp_path / "results.parquet") == \
        comparable_file(_fresh(tmp_path / "fresh.yaml"))


def _fresh(path):
    """An uninterrupted run of the study file at `path`: its records file."""
    study = read_study(path)
    run_study(study, run_serial)
    return study.records


def test_a_study_stopped_by_the_driver_loses_no_finished_game(tmp_path):
    path = write_study(tmp_path)
    study = read_study(path)
    pooled = functools.partial(run_processes, jobs=2, batch=2)
    with pytest.raises(KeyboardInterrupt):
        run_study(study, lambda tasks: stop_after(pooled(tasks), 7))
    assert journal_lines(journal_path(study.records)) == 7 and not study.records.exists()
    rerun = run_study(study, pooled)
    assert (rerun.played, rerun.kept) == (24 - 7, 7)
    assert comparable_file(study.records) == comparable_file(_fresh(write_study(tmp_path, name="fresh.yaml",
                                                                                records="fresh.parquet")))


def test_a_killed_worker_process_loses_no_finished_game(tmp_path):
    """The last batch's worker is killed once every other game is in the journal: the run
    fails with one line, and the rerun plays exactly that batch."""
    study = read_study(write_study(tmp_path))
    journal = journal_path(study.records)
    killer = functools.partial(play_or_die, str(tmp_path / "killed"), str(journal), 24 - 2, (NIM_CELLS[-1], 10))
    with pytest.raises(BackendError, match="worker process died"):
        run_study(study, functools.partial(run_processes, jobs=2, batch=2, play=killer))
    assert (tmp_path / "killed").exists() and journal_lines(journal) == 22
    rerun = run_study(study, functools.partial(run_processes, jobs=2, batch=2))
    assert (rerun.played, rerun.kept) == (2, 22)
    assert comparable_file(study.records) == comparable_file(_fresh(write_study(tmp_path, name="fresh.yaml",
                                                                                records="fresh.parquet")))


def test_a_torn_last_journal_line_is_played_again(tmp_path):
    study = read_study(write_study(tmp_path, games=2))
    with pytest.raises(KeyboardInterrupt):
        run_study(study, lambda tasks: stop_after(run_serial(tasks), 3))
    journal = journal_path(study.records)
    journal.write_text(journal.read_text(encoding="utf-8") + '{"ruleset": "nim", "ce', encoding="utf-8")
    rerun = run_study(study, run_serial)
    assert (rerun.played, rerun.kept) == (5, 3)
    assert len(read_records(study.records)) == 8


def test_records_of_another_study_are_refused_not_mixed_in(tmp_path):
    study = read_study(write_study(tmp_path, games=2))
    run_study(study, run_serial)
    other = (tmp_path / "study.yaml").read_text(encoding="utf-8").replace("[2, 3]]", "[2, 2]]")
    (tmp_path / "study.yaml").write_text(other, encoding="utf-8")
    with pytest.raises(RecordsError, match="cell 'players=2 bots=random,random heaps=\\[2,3\\]'.*another study's"):
        run_study(read_study(tmp_path / "study.yaml"), run_serial)
    moved = replace(study, seeds=range(100, 102))
    with pytest.raises(RecordsError, match="seed outside this study's 100..101"):
        run_study(moved, run_serial)


def test_meeple_study_runs_and_resumes_from_the_command_line(tmp_path):
    path = write_study(tmp_path, games=3)
    first = meeple("study", path, "-j", "2", "--batch", "2")
    assert first.returncode == 0, first.stderr
    assert "4 cell(s) x 3 games" in first.stdout and "played 12 game(s)" in first.stdout
    assert [r["cell"] for r in read_records(tmp_path / "results.parquet")][-1] == NIM_CELLS[-1]
    again = meeple("study", path, "--out", tmp_path / "copy.jsonl")
    assert "played 12 game(s)" in again.stdout  # another records file: nothing is done there yet
    rerun = meeple("study", path)
    assert rerun.returncode == 0 and "played 0 game(s)" in rerun.stdout and "12 were done before" in rerun.stdout
    assert comparable_file(tmp_path / "copy.jsonl") == comparable_file(tmp_path / "results.parquet")


BAD_STUDIES = [
    ("ruleset: nim\ngames: 3\nseeds: 4\n", "3:1", "S101", "unknown key 'seeds'"),
    ("ruleset: nim\nseed: 4\n", "1:1", "S102", "missing the required key 'games'"),
    ("ruleset: nim\ngames: 0\n", "2:8", "E105", "games must be at least 1"),
    ("ruleset: no-such-game\ngames: 3\n", "1:10", "E101", "no ruleset 'no-such-game'"),
    ("ruleset: treasure-hunter\ngames: 3\nsweep:\n  players: [2, 9]\n", "4:16", "E102", "for 2-6 players, not 9"),
    ("ruleset: treasure-hunter\ngames: 3\nsweep:\n  options:\n    cards: [3, 12]\n", "5:16", "E103",
     "option 'cards' must be one of"),
    ("ruleset: nim\ngames: 3\nsweep:\n  options:\n    piles: [1]\n", "5:5", "E103", "unknown option 'piles'"),
    ("ruleset: nim\ngames: 3\nsweep:\n  bots: [random, 'mcts:x random']\n", "4:18", "E104", "a budget is"),
    ("ruleset: nim\ngames: 3\nsweep:\n  bots: ['random random random']\n", "4:10", "E104",
     "has 3 bots, but the study plays 2 players"),
    ("ruleset: nim\ngames: 3\nrecords: out.csv\n", "3:10", "E106", "ends in .parquet or .jsonl"),
    ("ruleset: nim\ngames: [3\n", "3:1", "Y001", "malformed YAML"),
]


@pytest.mark.parametrize("text, where, code, message", BAD_STUDIES, ids=[b[2] + "-" + b[1] for b in BAD_STUDIES])
def test_a_bad_study_file_is_reported_at_its_place(tmp_path, text, where, code, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    done = meeple("study", path)
    no_traceback(done)
    assert done.returncode == 2
    assert f"bad.yaml:{where}: error[{code}]: " in done.stderr and message in done.stderr, done.stderr
