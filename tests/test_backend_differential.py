"""Both back ends play the same seeded random games and must agree at every step
(interpreter/differential.py).  This is the reduced form CI runs: every shipped
ruleset at every player count it supports, the tutorial's example and the test
games, a few games each, the long rulebook games capped at 300 moves.  The long
run over many games is `python -m meeple.benchmarks.differential`.

The second half shows that the harness finds a difference when there is one: the
"compiled" side is swapped for a game that really differs, and the report must
name the step and what differed."""
from __future__ import annotations

import random
import types
from pathlib import Path

import pytest

from meeple.interpreter import list_rulesets, load_game
from meeple.interpreter.analysis import differential
from meeple.interpreter.analysis.differential import compare_backends, first_difference

from ruleset_support import every_configuration

ROOT = Path(__file__).resolve().parent.parent
# Hundreds to thousands of moves (backgammon: about 200, each listing dozens of two-step moves).
LONG = {"valdora", "freyas-folly", "zavandor", "treasure-hunter", "backgammon", "chess", "quoridor"}


@pytest.mark.parametrize("name,players", list(every_configuration()))
def test_back_ends_agree_at_every_step(name, players):
    if Path(name).name in LONG:
        report = compare_backends(name, players, games=1, seed=20 + players, max_moves=300, view_every=10)
    else:
        report = compare_backends(name, players, games=5, seed=20 + players)
    assert report.ok, str(report)
    assert report.moves > 0 and report.playouts > 0 and report.views > 0, str(report)
    # Normal play never hands an evaluation back from generated code to the reference.
    assert report.deopts == 0, str(report)


def test_every_shipped_ruleset_is_covered():
    covered = {Path(p.values[0]).name for p in every_configuration()}
    assert set(list_rulesets()) <= covered
    assert "high-card" in covered


# -- the harness finds what differs --------------------------------------------------------------

NIM = (ROOT / "rulesets" / "nim" / "game.yaml").read_text()


def _with_compiled_side(monkeypatch, tmp_path, text=None, patch=None):
    """Make compare_backends play `text` (a changed nim) or a patched game as its
    compiled side, so the two sides really differ."""
    path = None
    if text is not None:
        path = tmp_path / "nim"
        path.mkdir()
        (path / "game.yaml").write_text(text)

    def fake_load_game(name, players=None, options=None, backend=None):
        if backend == "compiled":
            game = load_game(path if path is not None else name, players, options, backend=backend)
            if patch is not None:
                patch(game)
            return game
        return load_game(name, players, options, backend=backend)

    monkeypatch.setattr(differential, "load_game", fake_load_game)


def test_a_different_move_order_is_found_at_the_first_step(monkeypatch, tmp_path):
    _with_compiled_side(monkeypatch, tmp_path, NIM.replace('"range(1, heaps[heap] + 1)"',
                                                           '"[heaps[heap] - i for i in range(heaps[heap])]"'))
    report = compare_backends("nim", 2, games=3, seed=5)
    m = report.mismatch
    assert m is not None and (m.what, m.step, m.seed, m.history) == ("legal moves", 0, 5, [])
    assert m.detail.startswith("[0]: '0:take(heap=0,count=1)' != '0:take(heap=0,count=3)'")
    assert report.games == 1 and report.moves == 0


def test_a_different_state_is_found_where_it_starts(monkeypatch, tmp_path):
    _with_compiled_side(monkeypatch, tmp_path, NIM.replace('"last_mover = player"', '"last_mover = 1 - player"'))
    m = compare_backends("nim", 2, games=2, seed=1).mismatch
    assert m is not None and (m.what, m.step) == ("states", 1)
    assert m.detail == "vars.last_mover: 0 != 1"
    assert len(m.history) == 1 and m.history[0].startswith("0:take(")
    text = str(m)
    assert "nim (2 players), game seed 1, step 1: states differ" in text
    assert "at         vars.last_mover: 0 != 1" in text
    assert "reproduce: compare_backends('nim', 2, games=1, seed=1)" in text


def test_a_different_outcome_is_found_at_the_end(monkeypatch, tmp_path):
    _with_compiled_side(monkeypatch, tmp_path, NIM.replace('score: "1 if player == last_mover else 0"',
                                                           'score: "0 if player == last_mover else 1"'))
    report = compare_backends("nim", 2, games=2, seed=3)
    m = report.mismatch
    assert m is not None and m.what == "outcome"
    assert m.step == report.moves == len(m.history) > 0
    assert m.detail.startswith("scores[0]:")


def test_an_error_on_one_side_only_is_a_mismatch(monkeypatch, tmp_path):
    def failing_apply(game):
        real = game.apply

        def apply(state, move, player=None):
            if state.move_count == 2:
                raise RuntimeError("boom")
            return real(state, move, player)
        game.apply = apply
    _with_compiled_side(monkeypatch, tmp_path, patch=failing_apply)
    m = compare_backends("tic-tac-toe", 2, games=1, seed=0).mismatch
    assert m is not None and m.what.startswith("apply of move ") and m.step == 2 and len(m.history) == 3
    assert (m.reference, m.compiled) == ("no error", "RuntimeError: boom")


def test_a_playout_that_differs_from_the_apply_loop_is_found(monkeypatch, tmp_path):
    def other_policy(game):
        real = game.playout
        game.playout = lambda state, policy=None, rng=None, max_moves=None: real(
            state, policy, random.Random(rng.random()), max_moves)
    _with_compiled_side(monkeypatch, tmp_path, patch=other_policy)
    report = compare_backends("connect-four", 2, games=1, seed=0)
    m = report.mismatch
    assert m is not None and m.what.startswith("final states of the playout from step ")
    assert report.moves > 0 and report.playouts == 0


def test_a_playout_that_changes_its_input_is_found(monkeypatch, tmp_path):
    def in_place(game):
        def playout(self, state, policy=None, rng=None, max_moves=None):
            end = type(self).playout(self, state, policy, rng, max_moves)
            state.vars["heaps"] = end.vars["heaps"]
            return end
        game.playout = types.MethodType(playout, game)
    _with_compiled_side(monkeypatch, tmp_path, patch=in_place)
    m = compare_backends("nim", 2, games=1, seed=0).mismatch
    assert m is not None and "(input changed)" in m.what


def test_first_difference_names_the_path():
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}) == "a[1].b: 2 != 3"
    assert first_difference({"a": 1}, {"a": 1, "z": 0}) == "z: only in compiled"
    assert first_difference((1, 2), (1, 2, 3)) == "list: 2 entries != 3"
    assert first_difference("x", 1) == "value: 'x' != 1"
    assert first_difference([1, 2], [1, 2]) == ""


def test_the_long_run_covers_every_ruleset_and_reports_totals(capsys):
    from meeple.benchmarks import differential as long_run
    names = long_run.default_rulesets()
    assert set(list_rulesets()) <= set(names)
    assert any(Path(n).name == "high-card" for n in names) and any("tests/games" in n for n in names)
    assert long_run.main(["nim", "tic-tac-toe", "-n", "2", "--seed", "9"]) == 0
    out = capsys.readouterr().out
    assert "2 rulesets × player counts, 4 games (4 finished)" in out and "0 mismatches" in out
