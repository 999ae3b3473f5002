"""Reading a path that is not a regular file (a device, a FIFO) or a file whose size
says less than it holds: each is refused with the reading codes (Y002, Y012), from the
library and from the command line, without reading more than the size limit + 1 byte.
/dev/zero has a size of 0 and never ends; a FIFO has no end until a writer closes it."""
from __future__ import annotations

import os
import stat
import threading

import pytest

import meeple.dsl.source as source
from meeple.dsl.load import read_ruleset
from meeple.dsl.source import MAX_FILE_BYTES, FileTooLarge, NotAFile, read_file_bytes, read_source

from hostile_support import run_meeple
from test_reading_hostile import GAME

DEVICES = [d for d in ("/dev/zero", "/dev/urandom") if os.path.exists(d)]


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "game.yaml"
    os.mkfifo(path)
    return path


def _without_hanging(work):
    """`work()`'s result; a hang (a reader waiting on a pipe) fails the test instead of the run."""
    out = {}
    worker = threading.Thread(target=lambda: out.setdefault("result", work()), daemon=True)
    worker.start()
    worker.join(60)
    assert "result" in out, "the read did not return: it waited on the path"
    return out["result"]


@pytest.mark.parametrize("device", DEVICES)
def test_a_device_is_y002_unread(device):
    text, problem = _without_hanging(lambda: read_source(device, device))
    assert text == "" and (problem.code, problem.span.line, problem.span.col) == ("Y002", 1, 1)
    rs, diagnostics = _without_hanging(lambda: read_ruleset(device))
    assert rs is None and [d.code for d in diagnostics] == ["Y002"]


def _raised(work, *args):
    try:
        work(*args)
    except OSError as exc:
        return exc
    return None


def test_a_fifo_is_y002_without_waiting_for_a_writer(fifo):
    assert isinstance(_without_hanging(lambda: _raised(read_file_bytes, fifo)), NotAFile)
    rs, diagnostics = _without_hanging(lambda: read_ruleset(fifo))
    assert rs is None and [d.code for d in diagnostics] == ["Y002"]


def test_a_fifo_in_a_ruleset_folder_is_passed_over(tmp_path):
    (tmp_path / "game.yaml").write_text(GAME)
    os.mkfifo(tmp_path / "zz-pipe.yaml")
    rs, diagnostics = _without_hanging(lambda: read_ruleset(tmp_path))
    assert rs is not None and [d for d in diagnostics if d.severity == "error"] == []


def test_a_file_whose_size_says_less_is_read_only_up_to_the_limit(tmp_path, monkeypatch):
    """A size of 0 on a file that holds more (/proc files, a file still growing): the limit
    holds because reading stops at limit + 1 bytes, not because of the size."""
    big = tmp_path / "big.yaml"
    big.write_bytes(GAME.encode() + b"#" * (3 * MAX_FILE_BYTES))
    real_fstat = os.fstat

    def says_empty(fd):
        found = real_fstat(fd)
        return os.stat_result((found.st_mode, found.st_ino, found.st_dev, found.st_nlink, found.st_uid,
                               found.st_gid, 0, found.st_atime, found.st_mtime, found.st_ctime))
    monkeypatch.setattr(source.os, "fstat", says_empty)
    asked = []
    real_read = source.os.fdopen

    def counting(fd, mode):
        opened = real_read(fd, mode)
        read = opened.read

        def read_some(n=-1):
            asked.append(n)
            return read(n)
        opened.read = read_some
        return opened
    monkeypatch.setattr(source.os, "fdopen", counting)
    with pytest.raises(FileTooLarge):
        read_file_bytes(big)
    assert asked == [MAX_FILE_BYTES + 1]  # one bounded read, never "all of it"
    text, problem = read_source(big, "big.yaml")
    assert text == "" and (problem.code, problem.span.line) == ("Y012", 1)
    assert "more than 1,048,576 bytes" in problem.message


def test_a_file_at_the_limit_is_read_whole(tmp_path):
    exact = tmp_path / "exact.yaml"
    exact.write_bytes(GAME.encode() + b"#" * (MAX_FILE_BYTES - len(GAME.encode())))
    assert stat.S_ISREG(os.stat(exact).st_mode) and len(read_file_bytes(exact)) == MAX_FILE_BYTES


def test_the_command_line_refuses_a_device_and_a_fifo(fifo):
    for path in DEVICES[:1] + [str(fifo)]:
        outcome = run_meeple("validate", path)
        assert outcome.code == 2 and not outcome.traceback, (path, outcome.stderr[-400:])
        assert "error[Y002]" in outcome.stderr + outcome.stdout


@pytest.mark.parametrize("command", [("play", "--bots", "0,1"), ("lint",), ("simulate", "-n", "2"), ("compile",)])
def test_every_command_that_loads_refuses_a_device(command):
    """The loader's cache of file bytes reads as the loader does: /dev/zero is not read."""
    outcome = run_meeple(command[0], DEVICES[0], *command[1:])
    assert outcome.code == 2 and not outcome.traceback, outcome.stderr[-400:]
    assert "error[Y002]" in outcome.stderr + outcome.stdout
