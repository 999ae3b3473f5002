"""`new_state` keeps what does not depend on the seed (game.py): the declared initial
values always, the state the first walk starts from when the setup drew nothing, and the
whole first state when reaching it drew nothing.  A kept start
must give exactly the state a fresh `Game` builds for the same seed."""
from __future__ import annotations

import pytest

from meeple.interpreter import list_rulesets, load_game
from meeple.interpreter.runtime import rng
from ruleset_support import write_ruleset


@pytest.mark.parametrize("name", list_rulesets())
def test_a_kept_start_is_the_state_a_fresh_game_builds(name):
    warm = load_game(name)
    warm.new_state(99)  # fills the game's keeps
    for seed in (0, 1, 7):
        fresh = load_game(name)
        built, kept = fresh.new_state(seed), warm.new_state(seed)
        assert kept.key() == built.key()
        assert kept.to_data() == built.to_data() and kept.log == built.log
        assert [str(m) for m in warm.legal_moves(kept)] == [str(m) for m in fresh.legal_moves(built)]


def test_only_a_start_that_drew_nothing_is_kept_whole():
    assert load_game("tic-tac-toe")._first_state is None
    ttt, goofspiel = load_game("tic-tac-toe"), load_game("goofspiel")
    ttt.new_state(1)
    goofspiel.new_state(1)  # its first walk draws the first prize with the seed's generator
    assert ttt._first_state is not None
    assert goofspiel._first_state is None and goofspiel._initial_contents is not None
    assert goofspiel.new_state(1).key() != goofspiel.new_state(2).key()


def test_the_state_before_the_first_walk_is_kept_only_when_the_setup_drew_nothing():
    goofspiel, treasure_hunter = load_game("goofspiel"), load_game("treasure-hunter")
    goofspiel.new_state(1)
    treasure_hunter.new_state(1)  # its setup shuffles the decks
    assert goofspiel._before_walk is not None and goofspiel._before_walk.rng == rng.seed_state(1)
    assert treasure_hunter._before_walk is None
    kept = goofspiel._before_walk.key()
    goofspiel.new_state(2)  # each new game walks a copy of it
    assert goofspiel._before_walk.key() == kept


def test_a_kept_state_is_not_shared_with_the_games_it_starts():
    game = load_game("nim")
    first = game.new_state(3)
    second = game.apply(game.new_state(3), str(game.legal_moves(first)[0]))
    assert game.new_state(3).key() == first.key() != second.key()


# Nobody can `wait` at the first step (its requirement never holds), so the walk to the
# first decision skips it: an analysis hook must be told at every new game.
SKIPS_FIRST = """
game: {name: skips-first, players: 1}
variables:
  n: {type: int, initial: 0}
flow:
  - choose: [wait]
  - loop:
      - turns: "players()"
        do: [{choose: [step]}]
actions:
  wait:
    require:
      - check: "n < 0"
        reason: never
  step:
    effects: ["n += 1"]
end:
  - when: "n >= 2"
"""


def test_an_analysis_hook_sees_every_new_game_walk(tmp_path):
    game = load_game(write_ruleset(tmp_path, SKIPS_FIRST, "skips-first"))
    game.new_state(0)
    assert game._first_state is not None
    seen = []
    game.on_skip = lambda state, point: seen.append(point.id)
    game.new_state(0)
    game.new_state(1)
    assert len(seen) == 2
