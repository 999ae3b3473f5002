"""Whole random games through both adapters, to their end, at the fewest and the most players
of every shipped ruleset: a move the rules allow always has an id (adapters/action_table.py).
The long run, 200 games per count and adapter, is `python -m meeple.benchmarks.adapter_games`
(figures in benchmarks/README.md); here a few games per count keep CI at about a minute."""
import random
from pathlib import Path

import pytest

from meeple.adapters import ActionTable
from meeple.benchmarks.adapter_games import every_ruleset, play_openspiel, play_pettingzoo, player_counts, where
from meeple.interpreter.runtime.loading import load_game

# Games per player count and adapter: the rulebook games run to thousands of moves.
GAMES = {"valdora": 1, "freyas-folly": 1, "zavandor": 2, "treasure-hunter": 2}
HERE = Path(__file__).resolve().parent.parent


def _here(name: str) -> str:
    """The examples are not installed: this checkout's copy (the suite may run on an installed meeple)."""
    return str(HERE / name) if name.startswith("examples/") else name


def _ends(counts):
    """The fewest and the most players: the table of moves is built per player count, and
    the counts between add length, not cases (the long run plays every count)."""
    return sorted({min(counts), max(counts)})


CASES = [(_here(name), players, seed) for name in every_ruleset() for players in _ends(player_counts(_here(name)))
         for seed in range(GAMES.get(name, 4))]


@pytest.mark.parametrize("name,players,seed", CASES)
def test_a_whole_random_game_through_pettingzoo(name, players, seed):
    played = play_pettingzoo(where(name), players, seed)
    assert played.finished and played.moves > 0


@pytest.mark.parametrize("name,players,seed", CASES)
def test_a_whole_random_game_through_openspiel(name, players, seed):
    played = play_openspiel(where(name), players, seed)
    assert played.finished and played.moves > 0


def test_zavandor_moves_beyond_the_declared_table_take_spare_ids():
    """At four players the probe games never see three wild gems in one payment; a
    longer game offers them (the crash of issue 41), and they are numbered as spare ids."""
    played = [play_pettingzoo("zavandor", 4, seed) for seed in (4, 5)]  # seed 5 meets one (seeded: the same every run)
    assert all(p.finished for p in played)
    assert sum(p.spare_positions for p in played) > 0


def _list_game(folder):
    """Two players add lists of marks, each list as long as the number of turns so far:
    no probe sees the lists of later turns."""
    (folder / "game.yaml").write_text("""
game: {name: lists, players: 2}
variables:
  turn: {type: int, initial: 0}
  total: {per: player, type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [mark]
      - effects: ["turn += 1"]
    while: "turn < 6"
actions:
  mark:
    params: {marks: "[['x' for i in range(k)] + ['o' for i in range(turn - k)] for k in range(turn + 1)]"}
    effects: ["total[player] += count_of(marks, 'x')"]
scoring:
  score: "total[player]"
""")
    return load_game(str(folder))


def test_a_table_built_without_probes_still_numbers_every_move(tmp_path):
    game = _list_game(tmp_path)
    table = ActionTable(game, probe_games=0)
    assert table.spare >= 64
    rnd = random.Random(3)
    state = game.new_state(3)
    while not state.over:
        legal = table.legal(state)
        assert sorted(legal.values(), key=str) == sorted(game.legal_moves(state), key=str)
        for action_id, move in legal.items():
            assert table.action_id(state, move) == action_id
            assert table.describe(action_id, state, move.player) == game.move_text(state, move, move.player)
        state = game.apply(state, legal[rnd.choice(sorted(legal))])


def test_spare_ids_rank_a_positions_moves_the_same_way_every_time(tmp_path):
    game = _list_game(tmp_path)
    first, second = ActionTable(game, probe_games=0), ActionTable(game, probe_games=0)
    state = game.new_state(0)
    for _ in range(5):
        state = game.apply(state, game.legal_moves(state)[-1])
    ids = first.legal(state)
    assert ids == second.legal(state) and min(ids) == first.fixed and len(ids) == len(game.legal_moves(state))
    assert first.describe(first.fixed) == "spare 0"  # without a position a spare id means no move
