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
