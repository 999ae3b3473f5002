"""The narrated log over a seeded game of every shipped ruleset (its first 400 moves; random
play ends most of them sooner): each seat reads the same sentences whichever back end plays (both narrate by playing the step again with the
reference interpreter, narration.py; this checks that what the compiled back end hands
over plays again to the same sentences), a narrating game never fails, and a game's last
move tells why it ended."""
from __future__ import annotations

import random

import pytest

from meeple.interpreter import list_rulesets, load_game

MOVE_CAP = 400  # moves narrated per game: the whole of most random games, the first of the long ones


@pytest.mark.parametrize("name", list_rulesets())
def test_each_seat_reads_the_same_narration_on_both_back_ends(name):
    games = [load_game(name, backend=b) for b in ("reference", "compiled")]
    seed = 11
    states = [g.new_state(seed) for g in games]
    rnd = random.Random(seed)
    told = 0
    for _ in range(MOVE_CAP):
        if games[0].is_terminal(states[0]):
            break
        moves = games[0].legal_moves(states[0])
        move = moves[rnd.randrange(len(moves))]
        for seat in range(games[0].player_count):
            texts = [g.narrate(s, move, seat) for g, s in zip(games, states)]
            assert texts[0] == texts[1], f"{name}: move {states[0].move_count} narrates differently to {seat}"
            told += len(texts[0])
        ended = [g.apply(s, move) for g, s in zip(games, states)]
        assert ended[0].key() == ended[1].key()
        if ended[0].over:
            last = games[1].narrate(states[1], move, 0)
            assert any(s.startswith("The game is over: ") for s in last), last
        states = ended
    assert told > 0 or not games[0].is_terminal(states[0])


@pytest.mark.parametrize("name", ["treasure-hunter", "valdora", "zavandor", "freyas-folly"])
def test_the_rulebook_games_narrate_their_resolutions_in_both_languages(name):
    game = load_game(name, 3)
    state, rnd = game.new_state(5), random.Random(5)
    english, hungarian = [], []
    while not game.is_terminal(state) and len(english) < 12:
        moves = game.legal_moves(state)
        move = moves[rnd.randrange(len(moves))]
        english += game.narrate(state, move, 0)
        hungarian += game.narrate(state, move, 0, "hu")
        state = game.apply(state, move)
    assert len(english) >= 12 and len(hungarian) == len(english)
    assert english != hungarian
