"""One record per game (meeple.simulation): every back end gives the same records for the
same seeds, counting actions does not change the game, and a records file reads back as
written, in Parquet or JSON lines; a file that is not one is reported as such."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from meeple.simulation.records import COLUMNS, RecordsError, read_records, write_records
from meeple.simulation.runner import GameSpec, Task, play_task, run_processes, run_serial

from test_cli import meeple, no_traceback


def comparable(record: dict) -> dict:
    """A record without what depends on the machine (CPU time) or stays in memory."""
    return {k: v for k, v in record.items() if k in COLUMNS and k != "cpu_seconds"}


HIGH_CARD = str(Path(__file__).resolve().parent.parent / "examples" / "high-card")


@pytest.mark.parametrize("ruleset, players", [("treasure-hunter", 3), ("goofspiel", 2), (HIGH_CARD, 3)])
def test_counting_actions_plays_the_same_game_as_the_playout(ruleset, players):
    spec = GameSpec(ruleset, players)
    game = spec.load()
    for seed in range(4):
        final = game.playout(game.new_state(seed), rng=random.Random(seed))
        record = play_task(Task(spec, seed))
        assert record["moves"] == final.move_count
        assert record["scores"] == [float(s) for s in game.outcome(final).scores]
        assert record["winners"] == list(game.outcome(final).winners)
        assert sum(sum(seat.values()) for seat in record["actions"]) == record["moves"]
        assert set(record) >= set(COLUMNS)


def test_a_record_of_bots_counts_their_actions_and_names_them():
    spec = GameSpec("tic-tac-toe", 2)
    record = play_task(Task(spec, 3, bots=("mcts:30", "random")))
    assert record["bots"] == ["mcts:30", "random"] and record["finished"]
    assert sum(record["actions"][0].values()) + sum(record["actions"][1].values()) == record["moves"]
    assert set(record["actions"][0]) == {"place"}


def test_worker_processes_give_the_records_of_a_serial_run():
    spec = GameSpec("nim", 2)
    tasks = [Task(spec, s) for s in range(12)]
    serial = [comparable(r) for r in run_serial(tasks)]
    pooled = sorted((comparable(r) for r in run_processes(tasks, jobs=2, batch=5)), key=lambda r: r["seed"])
    assert pooled == serial


@pytest.mark.parametrize("suffix", [".parquet", ".jsonl"])
def test_records_read_back_as_written(tmp_path, suffix):
    spec = GameSpec("treasure-hunter", 2)
    records = [play_task(Task(spec, s, cell="2p")) for s in range(3)]
    path = tmp_path / f"r{suffix}"
    write_records(path, records)
    back = read_records(path)
    assert [comparable(r) for r in back] == [comparable(r) for r in records]
    assert back[0]["cell"] == "2p" and isinstance(back[0]["actions"][0], dict)


def test_a_file_that_is_not_records_is_reported_as_such(tmp_path):
    bad_json = tmp_path / "bad.jsonl"
    bad_json.write_text('{"seed": 1}\nnot json\n', encoding="utf-8")
    with pytest.raises(RecordsError, match="not a game record"):
        read_records(bad_json)
    bad_parquet = tmp_path / "bad.parquet"
    bad_parquet.write_bytes(b"PAR1 this is no parquet file")
    with pytest.raises(RecordsError, match="not a Parquet records file"):
        read_records(bad_parquet)
    with pytest.raises(RecordsError, match="ends in .parquet or .jsonl"):
        read_records(tmp_path / "r.csv")


def test_simulate_writes_records_and_refuses_a_format_it_does_not_write(tmp_path):
    done = meeple("simulate", "nim", "-n", "5", "--seed", "7", "--out", tmp_path / "nim.jsonl", "--json")
    assert done.returncode == 0, done.stderr
    records = read_records(tmp_path / "nim.jsonl")
    assert [r["seed"] for r in records] == [7, 8, 9, 10, 11]
    assert all(r["actions"] and r["finished"] for r in records)
    refused = meeple("simulate", "nim", "-n", "5", "--out", tmp_path / "nim.csv")
    no_traceback(refused)
    assert refused.returncode == 2 and ".parquet or .jsonl" in refused.stderr
