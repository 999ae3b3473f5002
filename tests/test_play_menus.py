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


ISLANDS = """game: {name: islands, players: 2}
boards:
  sea:
    nodes:
%s
    edges: []
variables:
  where: {per: player, type: str, initial: "''"}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [sail]
    times: 2
actions:
  sail:
    params: {to: "nodes('sea')"}
    effects:
      - set: ["where[player] = to"]
scoring:
  score: "0"
"""


def _islands(tmp_path, attrs):
    nodes = "\n".join(f"      {n}: {{{attrs(i)}}}" for i, n in enumerate(
        ["reef", "cove", "bay", "cape", "isle", "atoll", "key", "shoal", "spit", "sound", "inlet", "fjord",
         "lagoon", "strait", "harbor", "delta"]))
    (tmp_path / "islands").mkdir()
    (tmp_path / "islands" / "game.yaml").write_text(ISLANDS % nodes)
    return str(tmp_path / "islands")


def test_places_too_many_to_list_are_sorted_by_an_attribute_first(tmp_path):
    """Sixteen places of a board: asked first by the attribute that sorts them into the
    most sorts (up to 12; `wind` makes one sort only and is not asked), then the places of
    the sort chosen; a place typed by name is taken at either step."""
    path = _islands(tmp_path, lambda i: f"terrain: {['rock', 'sand', 'ice'][i % 3]}, wind: calm, depth: {i}")
    out, moves = _play([path, "--bots", "1", "--seed", "1"], ["2", "2", "delta", "q"], tmp_path)
    assert "sail — to — terrain?" in out
    assert "1  rock  6 choices" in out and "2  sand  5 choices" in out and "3  ice  5 choices" in out
    assert "  1  cove\n" in out and "reef" not in out.split("sail — to?")[1].split("player 0>")[0]
    assert moves == ["sail(to=isle)", "sail(to=delta)"]  # sand's second place, then a place by its name


def test_places_no_attribute_sorts_are_listed_as_they_are(tmp_path):
    path = _islands(tmp_path, lambda i: f"depth: {i}")
    out, moves = _play([path, "--bots", "1", "--seed", "1"], ["16", "q"], tmp_path)
    assert "sail — to?" in out and "— depth?" not in out
    assert moves == ["sail(to=delta)"]


def test_valdoras_twenty_five_destinations_are_asked_by_their_type_first(tmp_path):
    out, moves = _play(["valdora", "--players", "3", "--bots", "1,2", "--seed", "3"], ["2", "9", "q"], tmp_path)
    first = out.split("player 0>")[0]
    assert "Move — to — type?" in first and "gem site  11 choices" in first
    assert len([line for line in first.splitlines() if line.startswith("  ") and "choices" in line]) <= MAX_ROWS
    assert moves[0] == "go(to=G7)"  # the ninth gem site
