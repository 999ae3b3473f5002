"""Saves and replay logs as hostile input: each mutation of a real file is refused with
its code and place (the save's field, the log's line), never a traceback, and never
accepted silently; a fuzz over random mutations either plays on or is refused."""
from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from meeple.benchmarks.fuzz_files import BASES, check_log, check_save, mutated_log, mutated_save
from meeple.interpreter import list_rulesets, load_game
from meeple.interpreter.persistence import saves
from meeple.interpreter.persistence.saves import (CorruptFile, game_for_log, read_log, read_save, read_saved, replay,
                                      state_to_json, write_log)

ROOT = Path(__file__).resolve().parent.parent
HIGH_CARD = ROOT / "examples" / "high-card"


def meeple(*args, input=None):
    return subprocess.run([sys.executable, "-m", "meeple.cli", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, input=input)


@pytest.fixture(scope="module")
def high_card():
    """Three moves into a seeded game, and the whole game's moves."""
    game = load_game(HIGH_CARD, 2, {"hand_size": 3})
    state, moves = game.new_state(3), []
    while not game.is_terminal(state):
        moves.append(game.legal_moves(state)[0])
        state = game.apply(state, moves[-1])
        if len(moves) == 3:
            middle = (state, list(moves))
    return game, middle, (state, moves)


def a_save(high_card, history=True) -> dict:
    game, (state, moves), _ = high_card
    return json.loads(json.dumps(state_to_json(game, state, 3, moves if history else None)))


def refused(game, tmp_path, content) -> CorruptFile:
    path = tmp_path / "save.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    with pytest.raises(CorruptFile) as caught:
        read_save(game, path, require_history=True)
    return caught.value


def _index_name(d):
    return next(k for k in d["state"]["locals"] if k.startswith("__index"))


def _set(path, value):
    def mutate(d):
        *head, last = path
        for k in head:
            d = d[k]
        d[last] = value(d[last]) if callable(value) else value
    return mutate


def _two_places(d):
    d["state"]["zones"]["hand"][1].append(d["state"]["zones"]["deck"][0])


SAVE_MUTATIONS = [
    # (what, mutation, code, field)
    ("pc out of range", _set(["state", "pc"], 999), "D006", "state.pc"),
    ("pc not an integer", _set(["state", "pc"], "7"), "D006", "state.pc"),
    ("pc a fraction", _set(["state", "pc"], 7.0), "D006", "state.pc"),
    ("pc at a point play never rests at", _set(["state", "pc"], 0), "D006", "state.pc"),
    ("locals emptied", _set(["state", "locals"], {}), "D006", "state.locals"),
    ("an unknown local", lambda d: d["state"]["locals"].update(zzz=1), "D006", "state.locals.zzz"),
    ("a loop counter negative", lambda d: d["state"]["locals"].update({_index_name(d): -1}), "D006",
     "state.locals.__index4"),
    ("a zone that is not a list", _set(["state", "zones", "deck"], 5), "D006", "state.zones.deck"),
    ("a zone that is an object", _set(["state", "zones", "deck"], {"a": 1}), "D005", "state.zones.deck"),
    ("an item in two zones", _two_places, "D006", "state.zones.hand[1][1]"),
    ("an item in no zone", lambda d: d["state"]["zones"]["deck"].pop(), "D006", "state.zones"),
    ("an unknown item id", _set(["state", "zones", "deck", 0], {"$item": "Z9"}), "D006",
     "state.zones.deck[0].$item"),
    ("per-player zone for 3", lambda d: d["state"]["zones"]["won"].append([]), "D006", "state.zones.won"),
    ("generator state tampered", _set(["state", "rng"], lambda r: r ^ 1), "D007", "state.rng"),
    ("generator state out of range", _set(["state", "rng"], 2**64), "D005", "state.rng"),
    ("over is 'no'", _set(["state", "over"], "no"), "D005", "state.over"),
    ("over is 0", _set(["state", "over"], 0), "D005", "state.over"),
    ("pending names no player", _set(["state", "pending"], [7]), "D005", "state.pending"),
    ("pending at a choose", _set(["state", "pending"], [0]), "D006", "state.pending"),
    ("a variable of the wrong type", _set(["state", "vars", "tricks", 0], "a"), "D006", "state.vars.tricks[0]"),
    ("a boolean for a player", _set(["state", "vars", "leader"], True), "D006", "state.vars.leader"),
    ("a fraction for an int", _set(["state", "vars", "tricks", 0], 0.5), "D005", "state.vars.tricks[0]"),
    ("below the minimum", _set(["state", "vars", "tricks", 0], -1), "D006", "state.vars.tricks[0]"),
    ("one value for two players", _set(["state", "vars", "tricks"], [0]), "D006", "state.vars.tricks"),
    ("a plausible score, not the game's", _set(["state", "vars", "tricks", 0], lambda v: v + 1), "D007",
     "state.vars.tricks[0]"),
    ("an undeclared variable", lambda d: d["state"]["vars"].update(gold=1), "D006", "state.vars"),
    ("an unknown value form", _set(["state", "vars", "leader"], {"$x": 1}), "D005", "state.vars.leader"),
    ("a face that is not up or down", _set(["state", "props", "B1"], {"$map": {"face": "sideways"}}), "D006",
     "state.props.B1.face"),
    ("an undeclared property", _set(["state", "props", "B1"], {"$map": {"shine": 1}}), "D006",
     "state.props.B1.shine"),
    ("properties of no item", lambda d: d["state"]["props"].update(Q1={"$map": {}}), "D006", "state.props.Q1"),
    ("an unknown phase", _set(["state", "phase"], "auction"), "D006", "state.phase"),
    ("an unknown ending", _set(["state", "ending"], "later"), "D006", "state.ending"),
    ("a negative move count", _set(["state", "move_count"], -1), "D005", "state.move_count"),
    ("a move count the moves do not make", _set(["state", "move_count"], 99), "D007", "state.move_count"),
    ("a state field missing", lambda d: d["state"].pop("rng"), "D005", "state"),
    ("a state field added", lambda d: d["state"].update(winner=0), "D005", "state"),
    ("messages not a list", _set(["log"], 5), "D005", "log"),
    ("messages edited", _set(["log"], ["player 0 wins"]), "D007", "log"),
    ("an unknown top-level field", lambda d: d.update(cheat=True), "D005", ""),
    ("version 1", _set(["version"], 1), "D003", "version"),
    ("version as text", _set(["version"], "2"), "D003", "version"),
    ("not a meeple save", _set(["format"], "chess"), "D003", "format"),
    ("another ruleset", _set(["ruleset"], "nim"), "D004", "ruleset"),
    ("another player count", _set(["players"], 3), "D004", "players"),
    ("other options", _set(["options"], {"hand_size": 4}), "D004", "options"),
    ("a seed that is text", _set(["seed"], "3"), "D005", "seed"),
    ("seed tampered", _set(["seed"], 4), "D007", None),
    ("no move history", lambda d: d.pop("moves"), "D010", "moves"),
    ("a move that is not a pair", _set(["moves", 0], "x"), "D005", "moves[0]"),
    ("a move of no player", _set(["moves", 0, 0], 5), "D005", "moves[0]"),
    ("a move that was never legal", _set(["moves", 0, 1], "play(card=Z9)"), "D007", "moves[0]"),
    ("a move dropped", lambda d: d["moves"].pop(), "D007", None),
]


@pytest.mark.parametrize("what,mutate,code,field", SAVE_MUTATIONS, ids=[m[0] for m in SAVE_MUTATIONS])
def test_a_mutated_save_is_refused_at_its_field(high_card, tmp_path, what, mutate, code, field):
    data = a_save(high_card)
    mutate(data)
    err = refused(high_card[0], tmp_path, data)
    assert (err.code, err.kind, err.line) == (code, "save", None), err
    if field is not None:
        assert err.field == field, err
    else:
        assert err.field.startswith(("moves[", "state")), err


def test_the_real_save_loads_verified_and_equal(high_card, tmp_path):
    path = tmp_path / "save.json"
    path.write_text(json.dumps(a_save(high_card)), encoding="utf-8")
    saved = read_save(high_card[0], path, require_history=True)
    assert saved.verified and saved.state == high_card[1][0] and saved.seed == 3
    assert [t for _, t in saved.moves] == [str(m) for m in high_card[1][1]]


@pytest.mark.parametrize("content,code", [
    ("[" * 100_000 + "]" * 100_000, "D002"),
    ('{"format": "meeple-state", "version": 2, "state": {"rng": ' + "9" * 5000 + "}}", "D002"),
    ("", "D002"),
    (b"\xff\xfe{}", "D001"),
    ('"' + '\\"' * 100_000, "D002"),
    ('{"x": "' + "[{" * 50_000 + '", "y": ' + "[" * 300 + "]" * 300 + "}", "D002"),
], ids=["100k-deep", "5000-digit number", "empty", "not UTF-8", "an unclosed text of escaped quotes",
        "brackets in a text, then too deep"])
def test_an_unreadable_save_is_refused(high_card, tmp_path, content, code):
    assert refused(high_card[0], tmp_path, content).code == code


@pytest.mark.parametrize("text, depth", [
    ('[1, [2, {"a": "[[["}], "\\"]"]', 3), ('{"x": "\\\\"}', 1), ('["a\\\\", [["b"]]]', 3), ('"[[" [', 1),
    ("[]" * 5, 1), ("", 0)])
def test_nesting_skips_brackets_inside_texts(text, depth):
    assert saves.nesting(text) == depth


def test_a_device_is_not_a_save(high_card):
    with pytest.raises(CorruptFile) as refused_:
        read_save(high_card[0], "/dev/zero")
    assert refused_.value.code == "D001"


def test_a_save_over_the_size_limit_is_refused_before_reading(high_card, tmp_path, monkeypatch):
    monkeypatch.setattr(saves, "MAX_FILE_BYTES", 100)
    assert refused(high_card[0], tmp_path, a_save(high_card)).code == "D001"


@pytest.mark.parametrize("name", list_rulesets())
def test_real_saves_of_every_shipped_ruleset_pass_every_check(name):
    """No false alarm: a save taken in a seeded bot game loads verified, and without its
    moves passes the field checks alone."""
    game = load_game(name)
    chooser, state, moves = random.Random(1), game.new_state(1), []
    while len(moves) < 25 and not game.is_terminal(state):
        legal = game.legal_moves(state)
        moves.append(legal[chooser.randrange(len(legal))])
        state = game.apply(state, moves[-1])
    for history in (moves, None):
        saved = read_saved(game, json.loads(json.dumps(state_to_json(game, state, 1, history))))
        assert saved.state == state and saved.verified == (history is not None)


def test_a_save_without_history_is_read_by_the_api_unverified(high_card):
    saved = read_saved(high_card[0], a_save(high_card, history=False))
    assert not saved.verified and saved.state == high_card[1][0]


def test_an_unverified_save_is_still_checked_against_invariants_and_declarations():
    game = load_game("goofspiel", 2, {"cards": 5})
    state = game.new_state(1)  # at the simultaneous bid: both players pending
    data = json.loads(json.dumps(state_to_json(game, state)))
    data["state"]["vars"]["points"][0] = 3  # no prize won: "points are exactly the prizes won"
    with pytest.raises(CorruptFile) as caught:
        read_saved(game, data)
    assert (caught.value.code, caught.value.field) == ("D008", "state")
    for pending, code in (([], "D006"), ([0, 0], "D005")):
        data = json.loads(json.dumps(state_to_json(game, state)))
        data["state"]["pending"] = pending
        with pytest.raises(CorruptFile) as caught:
            read_saved(game, data)
        assert (caught.value.code, caught.value.field) == (code, "state.pending")


# -- logs ----------------------------------------------------------------------------------------
@pytest.fixture
def log_lines(high_card, tmp_path):
    game, _, (state, moves) = high_card
    write_log(tmp_path / "game.jsonl", game, 3, moves, state)
    return (tmp_path / "game.jsonl").read_text(encoding="utf-8").splitlines()


def _header(change):
    def mutate(lines):
        head = json.loads(lines[0])
        change(head)
        lines[0] = json.dumps(head)
    return mutate


def _move(i, record):
    def mutate(lines):
        lines[i] = json.dumps(record) if not isinstance(record, str) else record
    return mutate


LOG_MUTATIONS = [
    # (what, mutation of the lines, code, line; -1: the last line after the mutation)
    ("an unknown version", _header(lambda h: h.update(version=3)), "D003", 1),
    ("cut at a line boundary", lambda ls: ls.pop(), "D009", -1),
    ("cut two moves earlier", lambda ls: ls.__delitem__(slice(-3, None)), "D009", -1),
    ("a closing record that counts other moves", lambda ls: ls.__setitem__(-1, json.dumps({"end": 2})), "D009", -1),
    ("a record after the closing one", lambda ls: ls.append(ls[1]), "D009", -1),
    ("a line that is not JSON", _move(2, "{oops"), "D002", 3),
    ("a line nested 100k deep", _move(2, "[" * 100_000 + "]" * 100_000), "D002", 3),
    ("a player that is text", _move(2, {"player": "0", "move": "play(card=B3)"}), "D005", 3),
    ("a record with other fields", _move(2, {"who": 0, "move": "x"}), "D005", 3),
    ("a header without its seed", _header(lambda h: h.pop("seed")), "D005", 1),
    ("a header field of the wrong kind", _header(lambda h: h.update(options=[1])), "D005", 1),
    ("an unknown header field", _header(lambda h: h.update(path="/etc/passwd")), "D005", 1),
    ("not a meeple log", _header(lambda h: h.update(format="pgn")), "D003", 1),
    ("a player count the ruleset refuses", _header(lambda h: h.update(players=9)), "D004", 1),
    ("options the ruleset refuses", _header(lambda h: h.update(options={"hand_size": 7})), "D004", 1),
    ("a move by no player", _move(2, {"player": 5, "move": "play(card=B3)"}), "D005", 3),
    ("a ruleset named by a path", _header(lambda h: h.update(ruleset="/etc/passwd")), "D004", 1),
]


@pytest.mark.parametrize("what,mutate,code,line", LOG_MUTATIONS, ids=[m[0] for m in LOG_MUTATIONS])
def test_a_mutated_log_is_refused_at_its_line(tmp_path, log_lines, what, mutate, code, line):
    mutate(log_lines)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(log_lines) + "\n", encoding="utf-8")
    with pytest.raises(CorruptFile) as caught:
        game_for_log(read_log(path), path, HIGH_CARD)
    err = caught.value
    assert (err.code, err.kind, err.line) == (code, "log", len(log_lines) if line == -1 else line), err


def test_an_empty_log_is_refused(tmp_path):
    (tmp_path / "empty.jsonl").write_text("\n\n", encoding="utf-8")
    with pytest.raises(CorruptFile) as caught:
        read_log(tmp_path / "empty.jsonl")
    assert caught.value.code == "D003"


def test_a_log_of_a_ruleset_that_is_not_shipped_needs_rules_given_by_the_user(tmp_path, log_lines):
    path = tmp_path / "game.jsonl"
    log = read_log(path)
    with pytest.raises(CorruptFile) as caught:
        game_for_log(log, path)  # high-card is an example, not a shipped ruleset
    assert (caught.value.code, caught.value.line) == ("D011", 1)
    result = replay(game_for_log(log, path, HIGH_CARD), log)
    assert result.diverged_at is None and result.final_matches is True


def test_a_version_1_log_is_still_read_and_its_missing_end_is_flagged(tmp_path, log_lines):
    head = json.loads(log_lines[0])
    head["version"] = 1
    final = json.loads(log_lines[-1])["final"]
    old = [json.dumps(head), *log_lines[1:-1]]
    path = tmp_path / "old.jsonl"
    path.write_text("\n".join(old + [json.dumps({"final": final})]) + "\n", encoding="utf-8")
    log = read_log(path)
    assert log.complete and replay(game_for_log(log, path, HIGH_CARD), log).final_matches is True
    path.write_text("\n".join(old[:-2]) + "\n", encoding="utf-8")
    assert read_log(path).complete is False


def test_a_diverging_move_is_reported_with_its_line(tmp_path, log_lines):
    log_lines[3] = json.dumps({"player": json.loads(log_lines[3])["player"], "move": "play(card=Z9)"})
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(log_lines) + "\n", encoding="utf-8")
    log = read_log(path)
    result = replay(game_for_log(log, path, HIGH_CARD), log)
    assert (result.diverged_at, result.line) == (3, 4)


# -- the command line ---------------------------------------------------------------------------
def test_zavandor_logs_replay(tmp_path):
    """A boolean option reaches the game as a boolean (it used to be passed on as text)."""
    game = load_game("zavandor", 2, {"discount_rule": True})
    state, moves = game.new_state(5), []
    for _ in range(12):
        moves.append(game.legal_moves(state)[0])
        state = game.apply(state, moves[-1])
    write_log(tmp_path / "z.jsonl", game, 5, moves, state)
    r = meeple("replay", tmp_path / "z.jsonl")
    assert r.returncode == 0, r.stderr
    assert "replayed 12 moves, final state identical" in r.stdout


def _log_naming(ruleset: str, path: Path, log_lines) -> Path:
    head = json.loads(log_lines[0])
    head["ruleset"] = ruleset
    path.write_text("\n".join([json.dumps(head), *log_lines[1:]]) + "\n", encoding="utf-8")
    return path


def test_a_log_naming_a_system_file_is_refused(tmp_path, log_lines):
    r = meeple("replay", _log_naming("/etc/passwd", tmp_path / "evil.jsonl", log_lines))
    assert r.returncode == 2 and "evil.jsonl:1: ruleset not found [D011]" in r.stderr
    assert "root:" not in r.stdout + r.stderr and "Traceback" not in r.stderr
    assert "--rules PATH/TO/RULESET" in r.stderr  # the log's text is not echoed as a path


def test_a_log_of_a_ruleset_not_shipped_says_how_to_replay_it(tmp_path, log_lines):
    r = meeple("replay", _log_naming("my-game", tmp_path / "mine.jsonl", log_lines))
    assert r.returncode == 2 and "mine.jsonl:1: ruleset not found [D011]" in r.stderr
    assert "--rules PATH/TO/my-game" in r.stderr


@pytest.mark.parametrize("command", [("replay", "{path}"), ("play", "tic-tac-toe", "--load", "{path}")])
def test_a_missing_file_is_called_missing_not_corrupt(tmp_path, command):
    path = tmp_path / "nowhere.json"
    r = meeple(*(part.format(path=path) for part in command))
    assert r.returncode == 2 and "[D012]" in r.stderr and "corrupt" not in r.stderr


def test_replay_takes_a_ruleset_from_the_command_line_and_refuses_a_cut_log(tmp_path, log_lines):
    (tmp_path / "game.jsonl").write_text("\n".join(log_lines) + "\n", encoding="utf-8")
    ok = meeple("replay", tmp_path / "game.jsonl", "--rules", HIGH_CARD)
    assert ok.returncode == 0 and "final state identical" in ok.stdout, ok.stderr
    (tmp_path / "cut.jsonl").write_text("\n".join(log_lines[:-1]) + "\n", encoding="utf-8")
    cut = meeple("replay", tmp_path / "cut.jsonl", "--rules", HIGH_CARD)
    assert cut.returncode == 2 and f"cut.jsonl:{len(log_lines) - 1}: corrupt log [D009]" in cut.stderr


def test_a_continued_save_keeps_the_whole_history(tmp_path):
    first, second = tmp_path / "one.json", tmp_path / "two.json"
    for load, path in ((None, first), (first, second)):
        args = ["play", "tic-tac-toe", "--bots", "1", "--seed", "2"] + (["--load", load] if load else [])
        r = meeple(*args, input=f"1\ns {path}\nq\n")
        assert r.returncode == 0, r.stderr
    saved = read_save(load_game("tic-tac-toe"), second, require_history=True)
    assert saved.verified and len(saved.moves) == 4 and saved.state.move_count == 4


def test_the_command_line_continues_only_verified_saves(tmp_path, high_card):
    game = load_game("tic-tac-toe")
    (tmp_path / "bare.json").write_text(json.dumps(state_to_json(game, game.new_state(1))), encoding="utf-8")
    r = meeple("play", "tic-tac-toe", "--load", tmp_path / "bare.json")
    assert r.returncode == 2 and "corrupt save [D010]: moves" in r.stderr


# -- fuzz ---------------------------------------------------------------------------------------
FUZZ = settings(max_examples=200, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("mutate,check,fine", [(mutated_save, check_save, ("ok", "unverified")),
                                               (mutated_log, check_log, ("ok", "diverged"))], ids=["save", "log"])
@FUZZ
@given(rnd=st.randoms(use_true_random=False), which=st.sampled_from(range(len(BASES))))
def test_a_randomly_mutated_file_plays_on_or_is_corrupt(mutate, check, fine, rnd, which):
    """Read, and played on (a save) or replayed (a log); or refused as corrupt."""
    with tempfile.TemporaryDirectory() as folder:
        outcome = check(mutate(rnd, which), which, Path(folder))
    assert outcome in fine or outcome.startswith("corrupt D0")
