"""Bot specs as the command line gives them, and the seat a bot is handed."""
import pytest

from meeple.bots import BotSpecError, RandomBot, Seat, make_bot, parse_bot_spec
from meeple.interpreter import load_game


@pytest.mark.parametrize("text, name, budget", [
    ("random", "random", None),
    (" random ", "random", None),
])
def test_specs_that_name_a_bot(text, name, budget):
    spec = parse_bot_spec(text)
    assert (spec.name, spec.budget) == (name, budget)
    assert str(spec) == name


@pytest.mark.parametrize("text, words", [
    ("randum", "no bot is called 'randum'"),
    ("random:100", "takes no budget"),
    ("", "no bot is called ''"),
])
def test_bad_specs_say_what_is_wrong(text, words):
    with pytest.raises(BotSpecError, match=words):
        parse_bot_spec(text)


def test_a_random_bot_is_seeded_by_its_own_seed():
    game = load_game("tic-tac-toe")
    state = game.new_state(0)
    picks = []
    for _ in range(2):
        bot = make_bot("random", seed=11)
        assert isinstance(bot, RandomBot)
        moves = game.legal_moves(state, 0)
        picks.append([bot.pick(Seat(game, state, 0, moves)) for _ in range(5)])
    assert picks[0] == picks[1] and len(set(picks[0])) > 1


def test_a_seat_names_moves_as_its_player_reads_them():
    game = load_game("goofspiel", players=2)
    state = game.new_state(3)
    while game.decision_kind(state) != "simultaneous":
        state = game.apply(state, game.legal_moves(state)[0])
    moves = game.legal_moves(state, 1)
    seat = Seat(game, state, 1, moves)
    assert seat.options == [game.move_text(state, m, 1) for m in moves]
    assert seat.count == len(moves) and seat.view == game.view(state, 1)


# -- the command line ------------------------------------------------------------------------
import json  # noqa: E402

from typer.testing import CliRunner  # noqa: E402

from meeple.cli.main import app  # noqa: E402
from meeple.cli.play import TableBots  # noqa: E402


def run(*args, input=None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


@pytest.mark.parametrize("args, line", [
    (["play", "tic-tac-toe", "--bots", "1=mcst:20"], "--bots: no bot is called 'mcst'"),
    (["play", "tic-tac-toe", "--bots", "1=mcts:0"], "a budget is a number of iterations"),
    (["play", "tic-tac-toe", "--bots", "5=mcts"], "names seat 5, but this game's 2 players sit in seats 0 to 1"),
    (["play", "tic-tac-toe", "--bots", "1="], "not '1='; a seat may name its bot (such as 1=mcts:2000,2=random)"),
    (["simulate", "tic-tac-toe", "--bots", "mcts:1", "random", "random"], "one bot for every seat or one per seat (2), not 3"),
    (["simulate", "tic-tac-toe", "--bots", "mcts:1.5x"], "'mcts:1.5x': a budget is"),
    (["simulate", "tic-tac-toe", "random"], "unexpected argument 'random' (bots are given after --bots)"),
])
def test_bad_bots_on_the_command_line_are_one_clear_line(args, line):
    r = run(*args)
    assert r.exit_code == 2 and line in r.output, r.output
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1


def test_play_against_a_search_bot_at_a_seat():
    r = run("play", "tic-tac-toe", "--bots", "1=mcts:30", "--seed", "1", input="1\nq\n")
    assert r.exit_code == 0 and "player 1: place(at=" in r.output


def test_simulate_with_a_bot_per_seat_reports_them():
    r = run("simulate", "tic-tac-toe", "-n", "2", "--json", "--bots", "mcts:30", "random")
    summary = json.loads(r.output)
    assert summary["bots"] == ["mcts:30", "random"] and summary["games"] == 2
    one = json.loads(run("simulate", "nim", "-n", "1", "--json", "--bots", "ismcts:5").output)
    assert one["bots"] == ["ismcts:5", "ismcts:5"]
    plain = json.loads(run("simulate", "nim", "-n", "1", "--json").output)
    assert plain["bots"] == ["random", "random"]


def test_search_bots_at_a_table_answer_the_same_after_an_undo():
    game = load_game("connect-four")
    bots = TableBots(3, {1: parse_bot_spec("mcts:25")})
    state = game.apply(game.new_state(0), game.legal_moves(game.new_state(0))[2])
    assert bots.move(game, state, 1) == bots.move(game, state, 1)
