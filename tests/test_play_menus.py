"""The moves of `meeple play` as a person uses them (cli/menus.py): grouped by action when
there are more than 12, narrowed a parameter at a time, amounts typed as numbers with their
cost, parameters left out, the label form typed, a bare item id answered with the moves that
use it, a number out of range answered with the range, and a single move played for you."""
from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from meeple.cli.main import app
from meeple.cli.menus import MAX_ROWS, MoveChooser, _amounts
from meeple.interpreter import list_rulesets, load_game

HIGH_CARD = "examples/high-card"


def _play(args, answers, tmp_path):
    log = tmp_path / "game.jsonl"
    result = CliRunner().invoke(app, ["play", *args, "--log", str(log)], input="\n".join(answers) + "\n",
                                env={"COLUMNS": "130"})
    assert result.exit_code == 0, result.output
    moves = [json.loads(line) for line in log.read_text().splitlines()[1:-1]]
    return result.output, [m["move"] for m in moves if m["player"] == 0]


ZAVANDOR = ["zavandor", "--bots", "1", "--seed", "3"]


def test_a_long_list_is_grouped_by_action_and_an_amount_is_a_number_with_its_cost(tmp_path):
    out, moves = _play(ZAVANDOR, ["2", "ruby", "9", "3", "q"], tmp_path)
    assert "Buy gems  16 choices" in out
    assert "Buy gems — number: a number from 1 to 4" in out and "1: 4 gold · 2: 8 gold" in out
    assert "choose a number from 1 to 4" in out  # 9 is not an amount on offer
    assert moves == ["buy_gems(gem=ruby,marker=0,n=3)"]


def test_a_parameter_left_out_is_filled_when_one_move_has_the_rest_and_asked_otherwise(tmp_path):
    out, moves = _play(ZAVANDOR, ["buy_gems(gem=ruby,n=2)", "sell_gems(gem=ruby)", "2", "q"], tmp_path)
    assert "taken as buy_gems(gem=ruby,marker=0,n=2)" in out  # no discount marker held: 0 is the only one
    assert "Sell gems — number: a number from 1 to 2" in out  # how many rubies to sell is asked
    assert moves == ["buy_gems(gem=ruby,marker=0,n=2)", "sell_gems(gem=ruby,n=2)"]


def test_the_label_form_is_typed_as_well_as_the_canonical_one(tmp_path):
    _, moves = _play(ZAVANDOR, ["Buy gems: gem=ruby, discount marker=0, number=2", "take_gold", "q"], tmp_path)
    assert moves == ["buy_gems(gem=ruby,marker=0,n=2)", "take_gold"]


def test_a_bare_id_lists_its_moves_and_a_number_out_of_range_says_the_range(tmp_path):
    out, moves = _play([HIGH_CARD, "--bots", "1", "--seed", "3", "--option", "hand_size=2"],
                       ["R5", "99", "2"], tmp_path)
    assert "R5 is used by these moves" in out and "2  play(card=R5)" in out
    assert "no move is numbered 99; choose 1 to 2" in out
    assert moves[0] == "play(card=R5)"


@pytest.mark.parametrize("auto", [True, False])
def test_a_single_move_is_played_for_you_unless_asked_not_to(tmp_path, auto):
    args = [HIGH_CARD, "--bots", "1", "--seed", "3", "--option", "hand_size=2"] + ([] if auto else ["--no-auto"])
    out, moves = _play(args, ["2", "1"], tmp_path)
    said = "player 0: the only move, play(card=B3), is played for you"
    assert (said in out) is auto and moves == ["play(card=R5)", "play(card=B3)"]


def test_undo_goes_back_past_a_move_played_for_you():
    """`u` takes back the player's last move they chose; the moves played for them (and the
    bots' moves) after it go with it, so undo never lands on a forced move played again."""
    from meeple.cli.play import _undo
    from meeple.interpreter.runtime.moves import Move
    chosen, bot, forced = Move(0, "play", ()), Move(1, "play", ()), Move(0, "pass", ())
    history = [("s0", chosen), ("s1", bot), ("s2", forced)]
    assert _undo(history, 0, [0], auto_played={2}) == "s0" and history == []
    history = [("s0", chosen), ("s1", bot), ("s2", forced)]
    assert _undo(history, 0, [0]) == "s2" and len(history) == 2  # without it, the forced move


def _menu_rows(game, state, player):
    chooser = MoveChooser(game, state, game.legal_moves(state, player), None, player)
    steps = []
    for row in chooser.rows:
        if len(row) > 1:
            chooser.narrowing = list(row)
            name, values = chooser._step()
            steps.append((name, values))
    return chooser.rows, steps


@pytest.mark.parametrize("name", list_rulesets())
def test_no_menu_has_more_than_twelve_rows_where_a_choice_splits(name):
    """Along a random game: at most MAX_ROWS rows at the top of every menu; a longer step
    is one parameter's choices that are not an amount (a place on a map, a piece)."""
    game = load_game(name)
    state, rng = game.new_state(3), random.Random(3)
    for _ in range(40):
        if game.is_terminal(state):
            break
        player = game.current_players(state)[0]
        rows, steps = _menu_rows(game, state, player)
        assert len(rows) <= MAX_ROWS or len({game.legal_moves(state, player)[i].action for r in rows for i in r}) > MAX_ROWS
        for _, values in steps:
            assert len(values) <= MAX_ROWS or not _amounts(values)
        state = game.apply(state, rng.choice(game.legal_moves(state, player)))
