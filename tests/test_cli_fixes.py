"""The command-line fixes of issue 15: each bad input ends in one clear line (exit 2),
saves and undo repeat the game exactly, `meeple test` finds a ruleset's scenarios,
piped output keeps its lines whole, and random games may run as long as real ones."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.cli.main import app
from meeple.cli.play import run_play
from meeple.interpreter import load_game

ROOT = Path(__file__).resolve().parent.parent


def run(*args, input=None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


def meeple(*args, input=None):
    """The command line in its own process, through main(), which reports a corrupt file."""
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    return subprocess.run([sys.executable, "-m", "meeple.cli", *map(str, args)], capture_output=True,
                          text=True, input=input, env=env, cwd=ROOT, timeout=60)


def refused(result, message):
    """Refused with exit 2 and one line naming the problem; not meeple's own failure."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert message in result.output
    assert "internal error" not in result.output and not isinstance(result.exception, (ValueError, ZeroDivisionError))


# -- 1 and 2: a traceback ("internal error") before ------------------------------------------
def test_a_graph_format_it_cannot_write_is_refused_with_the_ones_it_can():
    refused(run("graph", "tic-tac-toe", "--flow", "-f", "png"), "unknown format 'png'; use dot, svg, graphml or json")
    refused(run("graph", "nim", "--states", "-f", "png"), "unknown format 'png'")


def test_too_many_states_for_a_picture_is_refused():
    refused(run("graph", "tic-tac-toe", "--states", "-f", "svg"), "too many for a picture")


def test_too_many_states_for_dot_is_refused():
    refused(run("graph", "tic-tac-toe", "--states", "-f", "dot"), "too many for DOT")


def test_simulate_needs_at_least_one_game():
    refused(run("simulate", "nim", "-n", "0"), "--games must be at least 1")
    refused(run("simulate", "nim", "--max-moves", "0"), "--max-moves must be at least 1")


# -- 3: a save carries its player count and its seed -----------------------------------------
def test_a_save_is_continued_with_its_own_player_count_and_seed(tmp_path):
    save = tmp_path / "three.json"
    first = run("play", "goofspiel", "-p", "3", "--seed", "42", "--bots", "1,2", input=f"1\ns {save}\nq\n")
    assert first.exit_code == 0, first.output
    # No -p: the save's 3 players; the game is played to its end and its own seed is shown.
    again = run("play", "goofspiel", "--load", save, "--bots", "1,2", input="1\n" * 20)
    assert again.exit_code == 0, again.output
    assert "Goofspiel · 3 players · a saved game, after 3 moves" in again.output
    head, _, tail = again.output.partition("game over")
    assert "seed" not in head  # the seed decides the hidden cards: shown only at the end
    assert "dealt with seed 42" in tail
    other = meeple("play", "goofspiel", "-p", "2", "--load", save)
    assert other.returncode == 2 and "corrupt save [D004]: players: saved with 3 players, not 2" in other.stderr


def test_a_save_is_continued_with_its_own_options(tmp_path):
    save = tmp_path / "small.json"
    first = run("play", "nim", "--option", "heaps=[2,2]", "--seed", "3", "--bots", "1", input=f"1\ns {save}\nq\n")
    assert first.exit_code == 0, first.output
    # No -o: the save's heaps, not the ruleset's default ones.
    again = run("play", "nim", "--load", save, "--bots", "1", input="1\n" * 10)
    assert again.exit_code == 0, again.output
    assert "game over" in again.output and "corrupt" not in again.output


def test_a_save_with_a_player_count_the_ruleset_refuses_names_the_file(tmp_path):
    save = tmp_path / "s.json"
    assert run("play", "nim", "--bots", "1", input=f"s {save}\nq\n").exit_code == 0
    data = json.loads(save.read_text())
    data["players"] = 9
    save.write_text(json.dumps(data))
    refused(run("play", "nim", "--load", save), f"{save}: nim is for 2-2 players, not 9")


# -- 4: undo with bots -----------------------------------------------------------------------
def _played(answers, seed=5):
    """A tic-tac-toe game of a human (seat 0) against a bot, answered by `answers`;
    the moves made, in order."""
    game = load_game("tic-tac-toe", 2)
    feed = iter(answers)
    _, history = run_play(game, game.new_state(seed), seed, {1}, None, None, bot_seed=seed,
                          input_fn=lambda prompt: next(feed))
    return [str(m) for _, m in history]


def test_undo_then_the_same_move_brings_the_same_bot_moves():
    straight = _played(["1", "1", "1", "q"])
    undone = _played(["1", "1", "u", "1", "1", "q"])
    assert len(straight) >= 5 and undone == straight


def test_bot_moves_go_on_as_before_after_an_undo_in_the_command_line():
    r = run("play", "tic-tac-toe", "--bots", "1", "--seed", "1", input="1\nu\n1\nq\n")
    bot_moves = re.findall(r"player 1: (place\(at=\w+\))", r.output)
    assert len(bot_moves) == 2 and bot_moves[0] == bot_moves[1]


def test_a_continued_save_gets_the_bot_moves_of_the_uninterrupted_game(tmp_path):
    save, whole, cont = tmp_path / "s.json", tmp_path / "whole.jsonl", tmp_path / "cont.jsonl"
    run("play", "tic-tac-toe", "--bots", "1", "--seed", "3", "--log", whole, input="1\n" * 9)
    run("play", "tic-tac-toe", "--bots", "1", "--seed", "3", input=f"1\ns {save}\nq\n")
    run("play", "tic-tac-toe", "--bots", "1", "--load", save, "--log", cont, input="1\n" * 9)
    assert whole.read_text() == cont.read_text()


# -- 5: meeple test on a ruleset -------------------------------------------------------------
def test_a_ruleset_folder_runs_its_scenarios_not_its_rules():
    r = run("test", ROOT / "rulesets" / "nim")
    assert r.exit_code == 0, r.output
    assert "game.yaml" not in r.output and re.search(r"[1-9]\d* passed, 0 failed", r.output)


def test_a_shipped_ruleset_by_name_runs_its_scenarios():
    r = run("test", "nim")
    assert r.exit_code == 0, r.output
    assert "scenarios/basics.yaml" in r.output and ", 0 failed" in r.output


def test_a_name_that_is_neither_a_path_nor_a_shipped_ruleset_is_refused(tmp_path):
    refused(run("test", "no-such-game"), "no such file or folder: no-such-game; nor is it a shipped ruleset")
    refused(run("test", tmp_path), "no scenario files in")


# -- 6: seats and sample sizes ---------------------------------------------------------------
@pytest.mark.parametrize("bots,message", [
    ("7", "--bots names seat 7, but this game's 2 players sit in seats 0 to 1"),
    ("2", "--bots names seat 2"),
    ("x", "--bots takes 'all' or seat numbers separated by commas (such as 1,2), not 'x'"),
    ("1,x", "not '1,x'"),
    ("-1", "not '-1'"),
])
def test_bots_must_name_seats_that_exist(bots, message):
    refused(run("play", "nim", "--bots", bots, input="q\n"), message)


def test_bots_may_be_all_none_or_existing_seats():
    assert "(bot) plays" in run("play", "nim", "--bots", "all", "--seed", "1").output
    assert "player 0>" in run("play", "nim", "--bots", " 1 ", input="q\n").output
    assert run("play", "nim", input="q\n").exit_code == 0


@pytest.mark.parametrize("command", ["lint", "graph"])
def test_a_negative_sample_is_refused(command):
    refused(run(command, "nim", "--sample", "-5"), "--sample must be at least 0, not -5")


# -- 7: piped output -------------------------------------------------------------------------
def test_piped_output_keeps_long_lines_whole():
    r = meeple("explain", "valdora")
    assert r.returncode == 0, r.stderr
    line = next(x for x in r.stdout.splitlines() if x.startswith("transcribes:"))
    assert len(line) > 80 and line.endswith("[hu]")


def test_rules_stay_readable_in_piped_output():
    """The console is as wide as a line can be; a rule is drawn at 80 columns, not that wide."""
    out = run("demo", "tic-tac-toe").output
    rules = [x for x in out.splitlines() if "move 1 ·" in x]
    assert rules and all(len(x) == 80 for x in rules)



def test_piped_lines_are_not_cut_even_when_COLUMNS_is_set():
    """CI consoles export COLUMNS=80 while the installed rulesets sit under long paths: a
    scenario's PASS line must still be one line, its path whole."""
    env = {**os.environ, "COLUMNS": "30"}
    r = subprocess.run([sys.executable, "-m", "meeple.cli", "test", "nim"], capture_output=True,
                       text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    passes = [x for x in r.stdout.splitlines() if x.startswith("PASS ")]
    assert passes and all("scenarios/basics.yaml: " in x for x in passes)

# -- 8: random games as long as real ones ----------------------------------------------------
def test_graph_sample_takes_max_moves_and_by_default_lets_long_games_end():
    short = run("graph", "nim", "--sample", "2", "--max-moves", "2", "--json")
    assert short.exit_code == 0, short.output
    report = json.loads(short.output)
    assert report["max_moves"] == 2 and report["unfinished"] == 2
    default = json.loads(run("graph", "nim", "--sample", "1", "--json").output)
    assert default["max_moves"] >= 100_000


def test_lint_sample_by_default_lets_long_games_end(monkeypatch):
    import meeple.interpreter.analysis.lint as lint_module
    seen = {}

    def fake_lint(rules, game, playouts, seed, max_moves):
        seen["max_moves"] = max_moves
        return [], None
    monkeypatch.setattr(lint_module, "lint", fake_lint)
    assert run("lint", "nim", "--sample", "1").exit_code == 0
    assert seen["max_moves"] >= 100_000
    assert run("lint", "nim", "--sample", "1", "--max-moves", "7").exit_code == 0
    assert seen["max_moves"] == 7
