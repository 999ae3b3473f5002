"""The command line as a user meets it: exit codes, stdout/stderr, and no
traceback for bad input."""
from __future__ import annotations

import json
import re
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIX = Path(__file__).parent / "fixtures"


def meeple(*args, input=None, cwd=None, env=None):
    """`env`: variables added to this process's environment."""
    return subprocess.run([sys.executable, "-m", "meeple.cli", *map(str, args)], capture_output=True,
                          text=True, input=input, cwd=cwd or ROOT, timeout=120,
                          env={**os.environ, **env} if env else None)


def no_traceback(result):
    assert "Traceback" not in result.stdout + result.stderr


def test_validate_clean_and_broken():
    ok = meeple("validate", "tic-tac-toe", "connect-four")
    assert ok.returncode == 0, ok.stderr
    bad = meeple("validate", FIX / "broken_many.yaml")
    assert bad.returncode == 2
    assert "broken_many.yaml:24:15: error[N301]" in bad.stderr
    assert "7 error(s)" in bad.stderr
    no_traceback(bad)


def test_unknown_game_is_a_clean_error():
    r = meeple("play", "no-such-game", "--bots", "all")
    assert r.returncode == 2 and "no ruleset 'no-such-game'" in r.stderr
    no_traceback(r)


def test_demo_plays_a_whole_game_turn_by_turn():
    r = meeple("demo", "tic-tac-toe", "--seed", "3")
    assert r.returncode == 0, r.stderr
    assert "game over" in r.stdout and "move 1" in r.stdout


def test_interactive_play_rejects_with_reason_undoes_and_saves(tmp_path):
    save = tmp_path / "s.json"
    # player 0 is human, player 1 a bot: an illegal move, a legal one, undo, save, quit.
    script = "place(at=z9)\n1\nu\ns " + str(save) + "\nq\n"
    r = meeple("play", "tic-tac-toe", "--bots", "1", input=script)
    assert r.returncode == 0, r.stderr
    assert "illegal:" in r.stdout and "M803" in r.stdout
    assert "player 1: place(at=" in r.stdout  # the bot's move, told at the human's next turn
    data = json.loads(save.read_text())
    assert data["format"] == "meeple-state"
    assert data["state"]["move_count"] == 0  # the undo went back to the start


def test_replay_reproduces_and_reports_divergence_and_corruption(tmp_path):
    log = tmp_path / "game.jsonl"
    r = meeple("play", "connect-four", "--bots", "all", "--seed", "5", "--log", log)
    assert r.returncode == 0, r.stderr
    ok = meeple("replay", log)
    assert ok.returncode == 0 and "final state identical" in ok.stdout
    lines = log.read_text().splitlines()
    lines[3] = json.dumps({"player": 1, "move": "drop(col=9)"})
    (tmp_path / "bad.jsonl").write_text("\n".join(lines) + "\n")
    bad = meeple("replay", tmp_path / "bad.jsonl")
    assert bad.returncode == 1 and "diverged at move 3" in bad.stderr
    (tmp_path / "junk.jsonl").write_text("{not json\n")
    junk = meeple("replay", tmp_path / "junk.jsonl")
    assert junk.returncode == 2 and "junk.jsonl:1: corrupt log [D002]" in junk.stderr
    no_traceback(junk)


def test_corrupt_save_is_reported_as_corrupt(tmp_path):
    bad = tmp_path / "save.json"
    bad.write_text('{"format": "meeple-state", "version": 1, "ruleset": "tic-tac-toe", "players": 2}')
    r = meeple("play", "tic-tac-toe", "--load", bad)
    assert r.returncode == 2 and "corrupt save [D003]: version" in r.stderr
    no_traceback(r)
    bad.write_text("\x00\x01garbage")
    r = meeple("play", "tic-tac-toe", "--load", bad)
    assert r.returncode == 2 and "corrupt save [D002]" in r.stderr


def test_a_save_from_changed_rules_loads_with_a_warning(tmp_path):
    save = tmp_path / "s.json"
    r = meeple("play", "nim", input="s " + str(save) + "\nq\n")
    assert r.returncode == 0, r.stderr
    data = json.loads(save.read_text())
    r = meeple("play", "nim", "--load", save, input="q\n")
    assert r.returncode == 0 and "ruleset changed" not in r.stderr
    data["hash"] = "0000000000000000"
    save.write_text(json.dumps(data))
    r = meeple("play", "nim", "--load", save, input="q\n")
    assert r.returncode == 0 and "the ruleset changed since this state was saved" in r.stderr
    data["options"] = {"heaps": [9]}
    save.write_text(json.dumps(data))
    # Options given again must be the save's; left out, the save's own are used, and the
    # moves saved then do not replay to the state saved.
    r = meeple("play", "nim", "--load", save, "--option", "heaps=[3,4,5]", input="q\n")
    assert r.returncode == 2 and "corrupt save [D004]: options" in r.stderr
    no_traceback(r)
    r = meeple("play", "nim", "--load", save, input="q\n")
    assert r.returncode == 2 and "corrupt save [D" in r.stderr
    no_traceback(r)


def test_simulate_in_parallel_gives_the_same_games():
    one = json.loads(meeple("simulate", "goofspiel", "-n", "12", "--json", "--check").stdout)
    two = json.loads(meeple("simulate", "goofspiel", "-n", "12", "--json", "--check", "--jobs", "2").stdout)
    for key in ("length", "wins_by_seat", "scores_by_seat", "end_reasons", "draws"):
        assert one[key] == two[key], key
    assert one["stuck"] == one["unfinished"] == one["invariant_failure_count"] == 0


def test_lists_of_lowercase_ids_are_shown_not_read_as_markup():
    r = meeple("demo", "tests/games/draft")
    assert r.returncode == 0, r.stderr
    # Each player's kept cards: ids such as `red6` that rich would read as a markup tag.
    kept = [line for line in r.stdout.splitlines() if line.strip().startswith("kept")]
    assert len(kept) == 2 and all(re.search(r"kept\s+[a-z]+[0-9]", line) for line in kept)


def test_simulate_json_summary():
    r = meeple("simulate", "nim", "--games", "30", "--seed", "4", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["games"] == 30 and sum(data["wins_by_seat"]) + data["draws"] == 30
    assert data["unfinished"] == 0


@pytest.mark.parametrize("fmt,marker", [("dot", "digraph"), ("json", '"nodes"'), ("graphml", "<graphml")])
def test_graph_flow_exports(fmt, marker):
    r = meeple("graph", "goofspiel", "--flow", "--format", fmt)
    assert r.returncode == 0, r.stderr
    assert marker in r.stdout


def test_explain_lists_actions_and_citations():
    r = meeple("explain", "connect-four")
    assert r.returncode == 0, r.stderr
    assert "drop" in r.stdout and "not full" in r.stdout


def test_test_command_runs_scenarios():
    r = meeple("test", ROOT / "rulesets" / "nim" / "scenarios")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 failed" in r.stdout


def test_lang_labels_are_used():
    r = meeple("play", "tic-tac-toe", "--lang", "hu", input="q\n")
    assert "Jel lerakása" in r.stdout


def test_play_in_hungarian_translates_moves_refusals_and_the_result():
    r = meeple("play", "tic-tac-toe", "--lang", "hu", input="place(at=a1)\nplace(at=a1)\nq\n")
    assert r.returncode == 0, r.stderr
    assert "Jel lerakása: mező=a1  (place(at=a1))" in r.stdout
    assert "szabálytalan: az a mező már foglalt" in r.stdout and "[M804]" in r.stdout
    done = meeple("play", "tic-tac-toe", "--lang", "hu", "--bots", "all")
    assert "vége a játéknak" in done.stdout and "játékos (gép) lépése" in done.stdout


def test_lint_reports_missing_labels(tmp_path):
    path = tmp_path / "half.yaml"
    path.write_text("game: {name: half, players: 2, labels: {hu: {wait: 'Várakozás'}, en: {wait: 'Wait'}}}\n"
                    "variables: {n: {type: int}}\n"
                    "flow: [{turns: 'players()', do: [{choose: [wait]}]}]\n"
                    "actions: {wait: {require: [{check: 'n >= 0', reason: 'never negative'}], effects: ['n += 1']}}\n")
    r = meeple("lint", path)
    lines = [line for line in (r.stdout + r.stderr).splitlines() if "L107" in line]
    assert len(lines) == 2 and "half.yaml:1:7" in lines[0]
    assert any("labels 'hu' lack 3" in line and "'never negative'" in line for line in lines)
    assert any("labels 'en' lack 2" in line for line in lines)  # names only: messages are English
    clean = meeple("lint", "tic-tac-toe")
    assert "L107" not in clean.stderr + clean.stdout


def _counts():
    from meeple.interpreter import list_rulesets, load_rules
    out = []
    for name in list_rulesets():
        info = load_rules(name).ruleset.game
        out += [(name, n) for n in range(info.min_players, info.max_players + 1)]
    return out


@pytest.mark.parametrize("name,players", _counts())
def test_play_and_simulate_work_for_every_shipped_ruleset_and_player_count(name, players):
    from typer.testing import CliRunner

    from meeple.cli.main import app
    runner = CliRunner()
    played = runner.invoke(app, ["play", name, "-p", str(players), "--bots", "all", "--max-moves", "40",
                                 "--lang", "hu"])
    assert played.exit_code == 0, played.output
    assert "(gép) lépése" in played.output
    sim = runner.invoke(app, ["simulate", name, "-p", str(players), "-n", "1", "--max-moves", "60", "--json"])
    assert sim.exit_code == 0, sim.output
    assert json.loads(sim.output)["stuck"] == 0


def test_play_without_a_seed_deals_afresh_and_shows_the_seed_only_at_the_end(tmp_path):
    """The seed decides every hidden card, so it is not printed before the game is over."""
    runs = [meeple("play", "goofspiel", "--bots", "all") for _ in range(2)]
    seeds = []
    for r in runs:
        assert r.returncode == 0, r.stderr
        head, _, tail = r.stdout.partition("game over")
        assert "seed" not in head
        seeds.append(int(re.search(r"dealt with seed (\d+)", tail).group(1)))
    assert seeds[0] != seeds[1]
    # Given a seed, the same deal; the seed goes into the replay log and the save.
    log = tmp_path / "g.jsonl"
    fixed = meeple("play", "goofspiel", "--bots", "all", "--seed", "11", "--log", log)
    assert "dealt with seed 11" in fixed.stdout
    assert json.loads(log.read_text().splitlines()[0])["seed"] == 11
    save = tmp_path / "s.json"
    meeple("play", "goofspiel", "--bots", "1", "--seed", "12", input=f"s {save}\nq\n")
    assert json.loads(save.read_text())["seed"] == 12
    again = meeple("play", "goofspiel", "--bots", "1", "--load", save, input="q\n")
    assert again.returncode == 0 and "seed" not in again.stdout


def test_hot_seat_hands_the_seat_over_only_where_players_know_different_things():
    hidden = meeple("play", "goofspiel", input="\n1\n\n1\nq\n")
    assert hidden.stdout.count("take the seat") >= 2
    assert "player 0 has chosen" in hidden.stdout
    open_game = meeple("play", "tic-tac-toe", input="1\n1\nq\n")
    assert "take the seat" not in open_game.stdout
