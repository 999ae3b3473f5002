"""The Ray back end (meeple.simulation.ray_backend): the records of `--jobs` and of a
serial run for the same seeds, `meeple simulate --ray` end to end, one clear line when
Ray is missing or its address is wrong, and studies on Ray: a killed worker is played
again (or, out of retries, the rerun finishes the study) and a stopped driver loses no
finished game.  One local Ray with 2 CPUs serves the whole module (it takes seconds to
start); run_ray joins it and leaves it running."""
from __future__ import annotations

import functools
import logging
import os
from pathlib import Path

import pytest
import ray

from meeple.simulation.records import read_records
from meeple.simulation.resume import journal_path, run_study
from meeple.simulation.runner import BackendError, GameSpec, Task, run_processes, run_serial
from meeple.simulation.ray_backend import run_ray
from meeple.simulation.study import read_study

from study_support import (NIM_CELLS, comparable, comparable_file, journal_lines, play_or_die, refuse,
                           stop_after, write_study)
from test_cli import meeple, no_traceback


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    """Its workers import this folder's helpers (the batch players below) as pytest does."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level=logging.ERROR, runtime_env={"env_vars": {"PYTHONPATH": str(Path(__file__).parent)}})
    yield
    ray.shutdown()


def _by_seed(records):
    return sorted((comparable(r) for r in records), key=lambda r: (r["cell"], r["seed"]))


def test_ray_gives_the_records_of_worker_processes_and_of_a_serial_run():
    tasks = [Task(GameSpec("treasure-hunter", 3, (("cards", 3),)), s, cell="a") for s in range(6)]
    tasks += [Task(GameSpec("tic-tac-toe", 2), s, ("mcts:10", "random"), cell="b") for s in range(5)]
    serial = _by_seed(run_serial(tasks))
    assert _by_seed(run_processes(tasks, jobs=2, batch=3)) == serial
    assert _by_seed(run_ray(tasks, batch=3)) == serial
    assert ray.is_initialized()  # a Ray it did not start is left running


def test_a_games_own_error_comes_back_as_itself_not_as_a_ray_error():
    with pytest.raises(ValueError, match="refused seed 0"):
        list(run_ray([Task(GameSpec("nim", 2), 0)], play=refuse))


def test_simulate_on_ray_end_to_end(tmp_path):
    on_ray = meeple("simulate", "tic-tac-toe", "-n", "20", "--seed", "3", "--ray", "-j", "2", "--batch", "3",
                    "--out", tmp_path / "ray.jsonl")
    assert on_ray.returncode == 0, on_ray.stderr
    assert "local Ray, 2 CPU(s)" in on_ray.stdout and "20 games" in on_ray.stdout
    assert on_ray.stderr == ""  # no Ray banner or warning in the command's output
    pooled = meeple("simulate", "tic-tac-toe", "-n", "20", "--seed", "3", "-j", "2",
                    "--out", tmp_path / "jobs.jsonl")
    assert pooled.returncode == 0, pooled.stderr
    assert comparable_file(tmp_path / "ray.jsonl") == comparable_file(tmp_path / "jobs.jsonl")
    assert [r["seed"] for r in read_records(tmp_path / "ray.jsonl")] == list(range(3, 23))


def test_without_ray_or_with_a_wrong_address_one_line_says_so(tmp_path):
    (tmp_path / "ray").mkdir()  # a `ray` that cannot be imported, ahead of the real one
    (tmp_path / "ray" / "__init__.py").write_text("raise ImportError('no ray here')\n", encoding="utf-8")
    study = write_study(tmp_path, games=2)
    shadowed = {"PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))}
    runs = [meeple("simulate", "nim", "-n", "3", "--ray", env=shadowed),
            meeple("study", study, "--ray", env=shadowed)]
    for done in runs:
        no_traceback(done)
        assert done.returncode == 2
        assert done.stderr.strip().splitlines() == ["error: the Ray back end needs Ray: pip install 'meeple[ray]'"]
    unreachable = meeple("simulate", "nim", "-n", "3", "--ray-address", "127.0.0.1:1")
    assert unreachable.returncode == 2 and "cannot reach a Ray cluster at 127.0.0.1:1" in unreachable.stderr
    both = meeple("study", study, "--ray-address", "127.0.0.1:1", "-j", "2")
    assert both.returncode == 2 and "a cluster (--ray-address) uses the CPUs it has" in both.stderr


def _uninterrupted(tmp_path):
    return comparable_file(_fresh(write_study(tmp_path, name="fresh.yaml", records="fresh.parquet")))


def _fresh(path):
    study = read_study(path)
    run_study(study, run_serial)
    return study.records


def test_a_ray_worker_killed_mid_study_is_played_again_and_loses_nothing(tmp_path):
    study = read_study(write_study(tmp_path))
    journal = journal_path(study.records)
    killer = functools.partial(play_or_die, str(tmp_path / "killed"), str(journal), 10, (NIM_CELLS[-1], 10))
    run = run_study(study, functools.partial(run_ray, batch=2, play=killer))
    assert (tmp_path / "killed").exists() and (run.played, run.kept) == (24, 0)
    assert comparable_file(study.records) == _uninterrupted(tmp_path)


def test_out_of_retries_the_study_fails_in_one_line_and_its_rerun_finishes_it(tmp_path):
    study = read_study(write_study(tmp_path))
    journal = journal_path(study.records)
    killer = functools.partial(play_or_die, str(tmp_path / "killed"), str(journal), 22, (NIM_CELLS[-1], 10))
    with pytest.raises(BackendError, match=r"^a Ray worker failed playing seeds 9-10 of cell "):
        run_study(study, functools.partial(run_ray, batch=2, retries=0, play=killer))
    assert journal_lines(journal) == 22
    rerun = run_study(study, functools.partial(run_ray, batch=2))
    assert (rerun.played, rerun.kept) == (2, 22)
    assert comparable_file(study.records) == _uninterrupted(tmp_path)


def test_a_ray_study_stopped_by_the_driver_resumes_where_it_stopped(tmp_path):
    study = read_study(write_study(tmp_path))
    with pytest.raises(KeyboardInterrupt):
        run_study(study, lambda tasks: stop_after(run_ray(tasks, batch=2), 5))
    assert journal_lines(journal_path(study.records)) == 5
    rerun = run_study(study, functools.partial(run_ray, batch=2))
    assert (rerun.played, rerun.kept) == (19, 5)
    assert comparable_file(study.records) == _uninterrupted(tmp_path)
