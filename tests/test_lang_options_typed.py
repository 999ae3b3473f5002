"""Options typed at load (issue 47).  An option whose default was `2.5` used to validate
and stop the game at scoring with R701; now an option's type is its default's, fixed
when the ruleset is read: a number with a fraction part is S125 where it is written,
a choice of another type T411, a default outside its choices S105, a misuse of
`options.x` a type error of the checker (T401) at its place, and a game given a
value of another type (all the way down a list) is refused when it is created.  A
setting that is a fraction is two whole options divided exactly, with `fraction(a, b)`
in a score, on both back ends."""
from __future__ import annotations

from fractions import Fraction

import pytest

from meeple.interpreter import Game

from flow_idiom_support import BACKENDS, check_lockstep, codes_and_places, game_of, play

# Each picks 1 or 2 three times; a pick is worth weight_top / weight_bottom.
PICKS = """game:
  name: weighted-picks
  players: 2
  options:
    weight_top: {default: 3, choices: [1, 2, 3]}
    weight_bottom: {default: 2, choices: [1, 2]}
    names: {default: [low, high]}
variables:
  picks: {per: player, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [pick]
    times: 3
actions:
  pick:
    params: {n: "[1, 2]"}
    effects: ["picks[player] += n"]
scoring:
  score: "fraction(picks[player] * options.weight_top, options.weight_bottom)"
"""


def _where(text: str, line: int, at: str) -> tuple[int, int]:
    return line, text.split("\n")[line - 1].index(at) + 1


@pytest.mark.parametrize("written, line, at", [
    ("weight_top: {default: 2.5}", 5, "2.5"),
    ("weight_top: {default: 3, choices: [1, 1.5, 3]}", 5, "1.5"),
    ("weight_top: {default: [[1, 2], [3, 0.25]]}", 5, "0.25"),
    ("weight_top: {default: {heavy: 1.75}}", 5, "1.75"),
])
def test_a_number_with_a_fraction_part_is_S125_where_it_is_written(tmp_path, written, line, at):
    text = PICKS.replace("weight_top: {default: 3, choices: [1, 2, 3]}", written)
    assert codes_and_places(tmp_path, text.replace("options.weight_top", "1")) == [("S125", *_where(text, line, at))]


def test_a_choice_of_another_type_is_T411_at_the_choice(tmp_path):
    text = PICKS.replace("choices: [1, 2, 3]", "choices: [1, 'two', true]")
    assert codes_and_places(tmp_path, text) == [("T411", *_where(text, 5, "'two'")), ("T411", *_where(text, 5, "true"))]


def test_a_default_outside_its_choices_is_S105_at_the_default(tmp_path):
    text = PICKS.replace("weight_bottom: {default: 2, choices: [1, 2]}", "weight_bottom: {default: 4, choices: [1, 2]}")
    assert codes_and_places(tmp_path, text) == [("S105", *_where(text, 6, "4"))]


@pytest.mark.parametrize("score, code, at", [
    ("picks[player] + options.names", "T401", "picks"),           # an int and a list[str]
    ("len(options.weight_top)", "T401", "options"),               # an int has no length
    ("picks[player] * options['names'][0]", "T401", "picks"),    # read by key: the same type
    ("1 if options.weight_top else 0", "T401", "options"),        # an int is not a condition
])
def test_an_option_is_read_with_its_type(tmp_path, score, code, at):
    text = PICKS.replace('score: "fraction(picks[player] * options.weight_top, options.weight_bottom)"',
                         f'score: "{score}"')
    assert codes_and_places(tmp_path, text) == [(code, *_where(text, 21, at))]


@pytest.mark.parametrize("given", [{"weight_top": 2.5}, {"weight_top": "3"}, {"weight_top": True},
                                   {"names": ["low", 3]}, {"names": "low"}])
def test_a_game_given_a_value_of_another_type_is_refused(tmp_path, given):
    rules = game_of(tmp_path, PICKS, "reference", "weighted-picks", 2).rules
    with pytest.raises(ValueError):
        Game(rules, 2, given)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_fraction_setting_is_two_whole_options_and_an_exact_score(tmp_path, backend):
    game = game_of(tmp_path, PICKS, backend, "weighted-picks", 2)
    state, _ = play(game, ["pick(n=1)", "pick(n=2)"] * 3)
    assert state.over
    assert list(game.outcome(state).scores) == [Fraction(9, 2), 9]
    other = Game(game.rules, 2, {"weight_top": 1, "names": ["a", "b", "c"]})
    state, _ = play(other, ["pick(n=1)", "pick(n=2)"] * 3, other.new_state(0))
    assert list(other.outcome(state).scores) == [Fraction(3, 2), 3]


def test_both_back_ends_agree_at_every_step(tmp_path):
    check_lockstep(tmp_path, PICKS, "weighted-picks", 2, seed=11)
