"""A move chosen from the mover's own zone is named without asking what its mover sees
(knowledge.chosen_from_own_zones): on every shipped ruleset, the moves shown are the ones
the full naming shows, step by step."""
from __future__ import annotations

import random

import pytest

from meeple.interpreter import list_rulesets, load_game, load_rules

HIDING = [name for name in list_rulesets() if load_rules(name).may_hide]  # the others name nothing


@pytest.mark.parametrize("name", HIDING)
def test_the_shortcut_names_every_move_as_the_full_naming_does(name):
    quick, full = load_game(name), load_game(name)
    full._own_choices = frozenset()  # every move's items asked of the mover's sight
    for seed in (1, 2):
        rnd, state = random.Random(seed), quick.new_state(seed)
        for _ in range(80):
            if state.over:
                break
            shown = quick.legal_moves(state)
            again = state.copy()
            assert [m.text for m in shown] == [m.text for m in full.legal_moves(again)]
            state = quick.apply(state, shown[rnd.randrange(len(shown))])


def test_the_shortcut_is_taken_where_a_card_is_played_from_ones_own_hand():
    assert {"goofspiel", "hearts", "treasure-hunter"} <= set(HIDING)
    from meeple.interpreter.runtime.knowledge import chosen_from_own_zones
    assert chosen_from_own_zones(load_game("goofspiel").rules) == {"bid"}
    assert chosen_from_own_zones(load_game("hearts").rules) == {"give", "play"}
