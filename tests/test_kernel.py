"""The playout kernel (interpreter/codegen/kernel.py): the compiled back end's random
playout as one generated function.  It must reach exactly the state the move-by-move
loop reaches with the same choices, leave the policy's generator where the loop leaves
it, run every point of every shipped flow, and on any failure hand the whole playout
back so the language's own error comes out."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from meeple.interpreter import list_rulesets, load_game
from meeple.interpreter.runtime.context import RuleError
from meeple.interpreter.runtime.flowgraph import CHANCE

from ruleset_support import every_configuration, playout_errors, write_ruleset

LONG = {"valdora", "freyas-folly", "zavandor", "treasure-hunter", "quoridor"}  # one playout each


def uniform(game, state, moves, rng):
    """The uniform policy written out: the same draw, but through the move-by-move loop."""
    return moves[rng._randbelow(len(moves))]


def _same_playouts(game, seeds, max_moves=None):
    for seed in seeds:
        start = game.new_state(seed)
        before = start.to_data()
        fast_rng, loop_rng = random.Random(seed), random.Random(seed)
        fast = game.playout(start, rng=fast_rng, max_moves=max_moves)
        loop = game.playout(start, policy=uniform, rng=loop_rng, max_moves=max_moves)
        assert fast.to_data() == loop.to_data(), f"seed {seed}"
        assert fast.log == loop.log, f"seed {seed}"
        assert fast_rng.getstate() == loop_rng.getstate(), f"seed {seed}: the policy's generator"
        assert start.to_data() == before, f"seed {seed}: the playout changed its start"


@pytest.mark.parametrize("name,players", list(every_configuration()))
def test_the_kernel_reaches_the_loops_final_state(name, players):
    game = load_game(name, players, backend="compiled")
    if Path(name).name in LONG:
        _same_playouts(game, seeds=(players,), max_moves=1500)
    else:
        _same_playouts(game, seeds=range(4))
    assert game.kernel_fallbacks == 0


@pytest.mark.parametrize("name", list_rulesets())
def test_the_kernel_runs_every_point_of_every_shipped_flow(name):
    game = load_game(name, backend="compiled")
    run, points = game.rules.playout_kernel(False)
    assert points == {p.id for p in game.rules.points}


@pytest.mark.parametrize("limit", [0, 1, 7, 30])
def test_a_move_limit_stops_where_the_loop_stops(limit):
    _same_playouts(load_game("goofspiel", 3, backend="compiled"), seeds=(5, 6), max_moves=limit)


def test_explicit_chance_steps_are_left_to_the_policys_draw():
    game = load_game("goofspiel", backend="compiled")
    game.explicit_chance = True
    run, points = game.rules.playout_kernel(True)
    chance = {p.id for p in game.rules.points if p.code == CHANCE}
    assert chance and not chance & points  # those are played by the loop, between kernel runs
    _same_playouts(game, seeds=range(3))
    assert game.kernel_fallbacks == 0


def test_the_reference_back_end_has_no_kernel():
    assert getattr(load_game("nim", backend="reference").rules, "playout_kernel", None) is None


# Every move takes one token; the fourth move breaks the bound, mid-playout.
BREAKS_A_BOUND = """
game: {name: breaks-a-bound, players: 2}
variables:
  tokens: {type: int, initial: 3, min: 0, bounds: error}
  rounds: {type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [take]
actions:
  take:
    rule: "take a token"
    params: {n: "range(1, 3)"}
    effects:
      - set: "tokens -= 1"
end:
  - when: "rounds > 99"
"""


def test_a_failure_in_the_kernel_comes_out_as_the_languages_error(tmp_path):
    errors = playout_errors(write_ruleset(tmp_path, BREAKS_A_BOUND, "breaks-a-bound"), 3)
    assert "reference" in errors and errors["compiled"] == errors["reference"]
    assert errors["fallbacks"] == 1


# The same, with a chance step before each move: explored games draw it with the policy's
# generator (explicit chance), which the kernel leaves to the loop.
BREAKS_AFTER_CHANCE = BREAKS_A_BOUND.replace("""          - choose: [take]""", """          - chance: luck
            from: "[1, 2, 3]"
          - choose: [take]""")


def _same_error_from_both_back_ends(path, play, explicit=False):
    """`play(game, rng)` must fail alike on both back ends (code, place, and where the
    policy's generator is left), the compiled one after handing back to the loop once."""
    errors = {}
    for backend in ("reference", "compiled"):
        game = load_game(path, backend=backend)
        game.explicit_chance = explicit
        rng = random.Random(8)
        with pytest.raises(RuleError) as caught:
            play(game, rng)
        errors[backend] = (caught.value.code, caught.value.span, rng.getstate())
        if backend == "compiled":
            assert game.kernel_fallbacks == 1
    assert errors["compiled"] == errors["reference"]


@pytest.mark.parametrize("explicit", [False, True])
def test_a_failure_after_chance_steps_comes_out_as_the_languages_error(tmp_path, explicit):
    path = write_ruleset(tmp_path, BREAKS_AFTER_CHANCE, "breaks-after-chance")
    _same_error_from_both_back_ends(path, lambda game, rng: game.playout(game.new_state(0), rng=rng), explicit)


# -- the walk to the first decision -------------------------------------------------------
@pytest.mark.parametrize("name,players", list(every_configuration()))
def test_a_new_game_is_walked_by_the_kernel_to_the_references_first_state(name, players):
    compiled = load_game(name, players, backend="compiled")
    reference = load_game(name, players, backend="reference")
    for seed in (0, 1, 2 + players):
        walked, stepped = compiled.new_state(seed), reference.new_state(seed)
        assert walked.to_data() == stepped.to_data(), f"seed {seed}"
        # The moves the kernel listed where it stopped are handed over (made when first asked
        # for) as the reference's walk lists them.
        assert walked._moves is not None and compiled._moves_at(walked) == stepped._moves
        assert list(map(str, compiled.legal_moves(walked))) == list(map(str, reference.legal_moves(stepped)))
    assert compiled.kernel_fallbacks == 0


def test_new_games_share_the_zones_their_first_walk_left_alone():
    shared = {}
    for backend in ("reference", "compiled"):
        game = load_game("goofspiel", backend=backend)
        one, two = game.new_state(1), game.new_state(2)
        shared[backend] = {name for name in one.zones if one.zones[name] is two.zones[name]}
    assert "hand" in shared["reference"] and shared["compiled"] == shared["reference"]


def test_the_kernel_leaves_an_explicit_chance_step_of_the_first_walk_to_the_policy():
    compiled, reference = load_game("goofspiel", backend="compiled"), load_game("goofspiel", backend="reference")
    compiled.explicit_chance = reference.explicit_chance = True
    walked, stepped = compiled.new_state(3), reference.new_state(3)
    assert compiled.rules.points[walked.pc].code == CHANCE
    assert walked.to_data() == stepped.to_data()
    assert compiled.kernel_fallbacks == 0


# The first decision's moves cannot be listed: its requirement divides by zero.
FAILS_AT_THE_FIRST_DECISION = """
game: {name: fails-at-the-first-decision, players: 2}
variables:
  divisor: {type: int, initial: 0}
flow:
  - effects:
      - set: "divisor += 0"
  - choose: [take]
actions:
  take:
    rule: "take"
    params: {n: "range(1, 3)"}
    require: ["10 // divisor > n"]
    effects: []
"""
# An effect of the first walk breaks a bound before any decision.
FAILS_ON_THE_WAY = BREAKS_A_BOUND.replace("flow:\n", "flow:\n  - effects:\n      - set: \"tokens -= 4\"\n")


@pytest.mark.parametrize("text", [FAILS_AT_THE_FIRST_DECISION, FAILS_ON_THE_WAY])
def test_a_failure_on_the_first_walk_comes_out_as_the_languages_error(tmp_path, text):
    _same_error_from_both_back_ends(write_ruleset(tmp_path, text, "fails-early"), lambda game, rng: game.new_state(0))


@pytest.mark.parametrize("text", [FAILS_AT_THE_FIRST_DECISION, FAILS_ON_THE_WAY])
def test_a_later_new_game_that_fails_on_its_walk_fails_alike(tmp_path, text):
    """A second new game starts from the kept state before the first walk, which the kernel
    walks itself: when it stops, the usual walk starts again from a fresh copy."""
    path = write_ruleset(tmp_path, text, "fails-early")
    errors = {}
    for backend in ("reference", "compiled"):
        game = load_game(path, backend=backend)
        caught = []
        for _ in range(2):
            with pytest.raises(RuleError) as error:
                game.new_state(0)
            caught.append((error.value.code, error.value.span))
        assert game._before_walk is not None and caught[0] == caught[1]
        errors[backend] = caught[0]
        if backend == "compiled":
            assert game.kernel_fallbacks == 2
    assert errors["compiled"] == errors["reference"]
