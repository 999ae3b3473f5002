"""The search bots (mcts, ismcts): they find the obvious move, decide only from their
seat, handle chance, simultaneous decisions and long games, and keep to their budgets.
Tiny budgets and small games; the strength figures come from benchmarks/bot_strength.py."""
import random
import time

import pytest

from meeple.bots import BotSpecError, ISMCTSBot, MCTSBot, Seat, bot_move, make_bot, parse_bot_spec
from meeple.bots.search import rewards
from meeple.interpreter import load_game

from test_determinize import HIDDEN, hidden_swap, random_positions


def play(game, state, texts):
    for text in texts:
        state = game.apply(state, text)
    return state


@pytest.mark.parametrize("kind", [MCTSBot, ISMCTSBot])
def test_a_search_bot_takes_a_win_and_blocks_a_loss_at_tic_tac_toe(kind):
    game = load_game("tic-tac-toe")
    cells = [str(m) for m in game.legal_moves(game.new_state(0))]
    # X holds two of the top row and may complete it: X must take the third.
    win = play(game, game.new_state(0), [cells[0], cells[4], cells[1], cells[8]])
    bot = kind(iterations=300, seed=1)
    assert str(bot_move(bot, game, win, 0)) == cells[2]
    # O to move with X threatening the top row: O must block.
    block = play(game, game.new_state(0), [cells[0], cells[4], cells[1]])
    assert str(bot_move(kind(iterations=300, seed=1), game, block, 1)) == cells[2]


def test_rewards_are_in_zero_one_per_player_from_winners_or_ranks():
    ttt = load_game("tic-tac-toe")
    cells = [str(m) for m in ttt.legal_moves(ttt.new_state(0))]
    won = play(ttt, ttt.new_state(0), [cells[0], cells[4], cells[1], cells[8], cells[2]])
    assert rewards(ttt, won) == [1.0, 0.0]
    drawn = play(ttt, ttt.new_state(0), [cells[i] for i in (0, 4, 8, 1, 7, 6, 2, 5, 3)])
    assert drawn.over and rewards(ttt, drawn) == [0.5, 0.5]
    # Three players, mid-game: the ranks by the current scores (standings), 1 / 0.5 / 0 each.
    game = load_game("goofspiel", players=3)
    state = game.new_state(2)
    state.vars["points"] = (5, 9, 5)
    assert game.standings(state).ranks == (2, 1, 2) and game.outcome(state) is None
    assert rewards(game, state) == [0.25, 1.0, 0.25]


def test_the_same_seed_gives_the_same_move_and_a_budget_counts_iterations():
    game = load_game("goofspiel", players=3)
    state = game.new_state(4)
    answers = set()
    for _ in range(2):
        bot = make_bot("ismcts:40", seed=9)
        answers.add(str(bot_move(bot, game, state, game.current_players(state)[0])))
        assert bot.last.played == 40
    assert len(answers) == 1


def test_a_time_budget_stops_the_search_in_time():
    game = load_game("connect-four")
    bot = make_bot("mcts:0.2s", seed=1)
    started = time.perf_counter()
    bot_move(bot, game, game.new_state(0), 0)
    assert time.perf_counter() - started < 1.5 and bot.last.played >= 1


def test_a_single_legal_move_is_answered_without_search():
    game = load_game("tic-tac-toe")
    cells = [str(m) for m in game.legal_moves(game.new_state(0))]
    last = play(game, game.new_state(0), [cells[i] for i in (0, 4, 8, 1, 7, 6, 2, 5)])
    bot = MCTSBot(iterations=50)
    assert len(game.legal_moves(last)) == 1 and bot_move(bot, game, last, 0) and bot.last is None


def test_ismcts_at_a_simultaneous_bid_and_at_explicit_chance_points():
    game = load_game("goofspiel", players=2)
    game.explicit_chance = True  # draws stop play: the search draws them with their probabilities
    state = game.new_state(1)
    while game.decision_kind(state) != "simultaneous":
        state = game.apply(state, game.legal_moves(state)[0])
    bot = ISMCTSBot(iterations=60, seed=2)
    first = bot_move(bot, game, state, 0)
    # The tree's first level holds the bot's own bids, nobody else's.
    assert set(bot.last.root.children) == {game.move_text(state, m, 0) for m in game.legal_moves(state, 0)}
    state = game.apply(state, first)  # now only player 1 is still to bid; player 0's bid is hidden
    assert state.pending == (1,)
    answer = bot_move(ISMCTSBot(iterations=60, seed=2), game, state, 1)
    assert answer in game.legal_moves(state, 1)


def test_a_cut_off_search_judges_by_the_standings_and_stays_quick_in_a_long_game():
    game = load_game("valdora", players=3)
    state = next(s for s in random_positions(game, seed=1, every=150, limit=151) if s.move_count == 150)
    player = game.current_players(state)[0]
    bot = ISMCTSBot(iterations=10, depth=5, seed=3)
    started = time.perf_counter()
    move = bot_move(bot, game, state, player)
    assert move in game.legal_moves(state, player) and time.perf_counter() - started < 10


@pytest.mark.parametrize("name, players", HIDDEN)
def test_a_bot_does_not_peek_at_what_others_hide(name, players):
    """The same view with other players' hidden items exchanged: the same move."""
    game = load_game(name, players=players)
    checked = 0
    states = [s for s in random_positions(game, seed=8, every=31, limit=130) if not s.over]
    if len(states) < 3:  # a short game (a dozen moves): look more often
        states = [s for s in random_positions(game, seed=8, every=3, limit=130) if not s.over]
    for state in states:
        player = game.current_players(state)[0]
        other = hidden_swap(game, state, player, random.Random(1))
        if other is None:
            continue
        for kind in (ISMCTSBot, MCTSBot):
            a = bot_move(kind(iterations=12, depth=15, seed=5), game, state, player)
            b = bot_move(kind(iterations=12, depth=15, seed=5), game, other, player)
            assert game.move_text(state, a, player) == game.move_text(other, b, player)
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("text, name, iterations, seconds", [
    ("mcts:2000", "mcts", 2000, None), ("ismcts:1.5s", "ismcts", None, 1.5), ("mcts", "mcts", None, None),
])
def test_search_bot_specs(text, name, iterations, seconds):
    spec = parse_bot_spec(text)
    assert spec.name == name and str(spec) == text
    bot = make_bot(spec, seed=1)
    assert isinstance(bot, MCTSBot if name == "mcts" else ISMCTSBot)
    if iterations or seconds:
        assert (bot.iterations, bot.seconds) == (iterations, seconds)
    else:  # the defaults: a number of iterations, capped by a few seconds for long games
        assert bot.iterations == type(bot).default_iterations and bot.seconds == type(bot).default_seconds


def test_a_seat_hands_out_an_observation_not_the_state():
    game = load_game("treasure-hunter", players=2)
    state = game.new_state(1)
    seat = Seat(game, state, 0, game.legal_moves(state, 0))
    assert seat.observation == game.observe(state, 0) and seat.observation.view == seat.view
    assert not any(isinstance(v, type(state)) for v in vars(seat.observation).values())


def test_the_python_example_in_docs_bots_runs():
    import contextlib
    import io
    import re
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "docs" / "bots.md").read_text(encoding="utf-8")
    text = text.split("## Tournaments")[0]  # that section's example is test_tournament's
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.M | re.S)
    assert blocks
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(compile(block, "docs/bots.md", "exec"), {})
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and lines[0].startswith("(")


@pytest.mark.parametrize("text, depth, exploration", [
    ("ismcts:200:depth=30", 30, 0.7), ("mcts:depth=5:c=1.4", 5, 1.4), ("mcts:1.5s:c=0.5", 200, 0.5),
])
def test_a_spec_sets_the_playout_depth_and_the_exploration(text, depth, exploration):
    spec = parse_bot_spec(text)
    assert str(spec) == text
    bot = make_bot(spec, seed=1)
    assert (bot.depth, bot.exploration) == (depth, exploration)


@pytest.mark.parametrize("text, words", [
    ("mcts:200:depth=0", "depth must be a whole number"), ("mcts:10:depth=x", "depth must be"),
    ("ismcts:c=-1", "c must be a number above 0"), ("mcts:zz=1", "'zz=1' is no setting of the mcts bot"),
    ("random:depth=3", "the random bot takes no settings"),
])
def test_a_bad_setting_says_what_is_wrong(text, words):
    with pytest.raises(BotSpecError, match=words):
        parse_bot_spec(text)


ESTIMATED = """
game: {name: race, players: 2}
variables:
  points: {per: player, type: int, initial: 0}
  track: {per: player, type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do: [{choose: [run, cash]}]
    while: "true"
actions:
  run: {effects: [{set: "track[player] += 1"}]}
  cash: {effects: [{set: ["points[player] += track[player] // 2", "track[player] = 0"]}]}
end:
  - when: "any(points[p] >= 2 for p in players())"
scoring:
  score: "points[player]"
  estimate: "2 * points[player] + track[player]"
"""


def test_a_search_cut_short_ranks_by_the_rulesets_estimate_and_the_end_by_the_score(tmp_path):
    from ruleset_support import write_ruleset
    game = load_game(write_ruleset(tmp_path, ESTIMATED, "race"))
    state = play(game, game.new_state(0), ["run"] * 9)  # tracks 5 and 4, no points yet
    assert game.standings(state).scores == (0, 0)
    assert game.standings(state).ranks == (1, 2) and game.standings(state).estimates == (5, 4)
    assert game.estimates(state) == (5, 4) and load_game("nim").estimates(state) is None
    # Cut short, the reward is the margin of the estimates: 0.5 + (5 - 4) / (2 * (5 + 4 + 1)).
    assert rewards(game, state) == pytest.approx([0.55, 0.45])
    state = game.apply(state, "cash")  # player 1 cashes 4 // 2 = 2 points: the end
    assert state.over
    assert game.standings(state).scores == (0, 2) and game.standings(state).ranks == (2, 1)
    assert game.standings(state).estimates == () and rewards(game, state) == [0.0, 1.0]


def test_margins_grow_with_the_lead_and_share_out_evenly():
    from meeple.bots.search import margins
    assert margins([3, 3, 3]) == [0.5, 0.5, 0.5]
    small, big = margins([11, 10]), margins([20, 10])
    assert small[0] < big[0] and sum(small) == pytest.approx(1.0) and sum(big) == pytest.approx(1.0)
    assert all(0 <= r <= 1 for r in margins([-50, 0, 1000]))
