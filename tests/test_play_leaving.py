"""Leaving a game in `meeple play`: `q` and the end of input both still write the replay
log the help promises, and the log replays the moves played so far; an unknown `--lang`
is refused before the game starts."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from meeple.cli.main import app

HIGH_CARD = "examples/high-card"


def _play(tmp_path, answers: str):
    log = tmp_path / "game.jsonl"
    args = ["play", HIGH_CARD, "--bots", "1", "--seed", "3", "--option", "hand_size=2", "--log", str(log)]
    result = CliRunner().invoke(app, args, input=answers)
    assert result.exit_code == 0, result.output
    return result.output, log


@pytest.mark.parametrize("answers", ["2\nq\n", "2\n"], ids=["q", "end of input"])
def test_leaving_writes_the_log_with_the_moves_so_far(tmp_path, answers):
    out, log = _play(tmp_path, answers)
    assert f"replay log written to {log}" in out
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert records[1] == {"player": 0, "move": "play(card=R5)"} and records[-1]["end"] == len(records) - 2
    replayed = CliRunner().invoke(app, ["replay", str(log), "--rules", HIGH_CARD])
    assert replayed.exit_code == 0 and "final state identical" in replayed.output


def test_an_unknown_language_is_refused():
    result = CliRunner().invoke(app, ["play", HIGH_CARD, "--lang", "xx"], input="q\n")
    assert result.exit_code == 2 and "unknown language 'xx'" in result.output
    known = CliRunner().invoke(app, ["play", HIGH_CARD, "--lang", "fr", "--seed", "1"], input="q\n")
    assert known.exit_code == 0 and "jouer" in known.output
