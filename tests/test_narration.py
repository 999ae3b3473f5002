"""The narrated log (issue 44): `narrate:` templates on effects, checked where they are
written (S127, X201, N301 with spans), recorded by the reference interpreter when a step
is played again (interpreter/narration.py), named for each seat as that seat may read
them, the same on both back ends, and the end of the game told with why."""
from __future__ import annotations

import textwrap

import pytest

from meeple.dsl.diagnostics import RulesetError
from meeple.dsl.load import load_ruleset
from meeple.interpreter import load_game

RACE = """\
game:
  name: race
  players: 2
variables:
  total: {type: int, initial: 0, max: 10}
  last: {type: player, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [add]
actions:
  add:
    params: {n: "[1, 2]"}
    effects:
      - set: "total += n"
        narrate: {en: "{player|player} adds {n}: the total is {total}", hu: "{player|player} hozzáad {n}-t"}
      - let: {gap: "10 - total"}
        narrate: {en: "{gap} to go"}
      - "last = player"
end:
  - when: "total >= 10"
    reason: "the total reached 10"
scoring:
  score: "1 if player == last else 0"
"""

CARDS = """\
game:
  name: draws
  players: 2
components:
  card:
    fields: {rank: int}
    generate: {rank: {from: 1, to: 6}}
    id: "C{rank}"
    show: "rank {rank}"
zones:
  deck: {kind: stack, visibility: none, face: down, initial: "items('card')"}
  hand: {per: player, kind: hand, visibility: owner}
  shown: {kind: row, visibility: all}
variables:
  turns_left: {type: int, initial: 4}
setup:
  - shuffle: deck
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [draw, show_one]
actions:
  draw:
    effects:
      - let: {card: "top(deck)"}
      - move: {items: card, from: deck, to: "hand[player]"}
        narrate: {en: "{player|player} draws {card}"}
      - "turns_left -= 1"
  show_one:
    params: {card: "hand[player]"}
    effects:
      - move: {items: card, to: shown}
        narrate: {en: "{player|player} shows {card}"}
      - "turns_left -= 1"
end:
  - when: "turns_left <= 0"
    reason: "the turns ran out"
scoring:
  score: "len(hand[player])"
"""


def _write(tmp_path, text, name="game.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def _errors(tmp_path, text):
    with pytest.raises(RulesetError) as err:
        load_ruleset(_write(tmp_path, text))
    return [(d.code, d.span.line, d.span.col, d.span.end_col) for d in err.value.diagnostics]


def _with_template(template: str) -> str:
    return RACE.replace('"{gap} to go"', template)


NARRATE_LINE = 19  # the line of `narrate: {en: "{gap} to go"}` in RACE
COLUMN = 24  # the column of the template's first character there


@pytest.mark.parametrize("template, code, start, end", [
    ('"{gap to go"', "S127", 0, 10),  # never closed: from the brace to the end
    ('"gap} to go"', "S127", 3, 4),  # a closing brace that closes nothing
    ('"{} to go"', "S127", 0, 2),  # an empty place
    ('"{gap|who} to go"', "S127", 4, 8),  # an unknown way to name a value
    ('"{gap +} to go"', "X202", 6, 7),  # the expression ends too early: just past it
    ('"{gapp} to go"', "N301", 1, 5),  # a name nothing binds
])
def test_a_template_is_checked_where_it_is_written(tmp_path, template, code, start, end):
    found = _errors(tmp_path, _with_template(template))
    assert (code, NARRATE_LINE, COLUMN + start, COLUMN + end) in found, found


def test_braces_doubled_are_braces_and_a_let_binds_for_its_own_sentence(tmp_path):
    game = load_game(_write(tmp_path, _with_template('"{{gap}} is {gap}"')), backend="reference")
    state = game.new_state(1)
    assert game.narrate(state, "add(n=2)", 0)[1] == "{gap} is 8"


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_each_seat_reads_the_sentences_in_its_language(tmp_path, backend):
    game = load_game(_write(tmp_path, RACE), backend=backend)
    state = game.new_state(1)
    assert game.narrate(state, "add(n=2)", 0) == ["player 0 (you) adds 2: the total is 2", "8 to go"]
    assert game.narrate(state, "add(n=2)", 1) == ["player 0 adds 2: the total is 2", "8 to go"]
    # Hungarian where the template has it; English where it has not
    assert game.narrate(state, "add(n=2)", 1, "hu") == ["0. játékos hozzáad 2-t", "8 to go"]


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_the_end_is_told_with_why(tmp_path, backend):
    game = load_game(_write(tmp_path, RACE), backend=backend)
    state = game.new_state(1)
    for _ in range(4):
        state = game.apply(state, "add(n=2)")
    assert game.narrate(state, "add(n=2)", 1)[-1] == "The game is over: the total reached 10."
    assert game.narrate(state, "add(n=2)", 0, "hu")[-1] == "A játék véget ért: the total reached 10."


def test_a_step_narrates_the_same_on_both_back_ends_and_changes_nothing(tmp_path):
    path = _write(tmp_path, CARDS)
    games = [load_game(path, backend=b) for b in ("reference", "compiled")]
    states = [g.new_state(3) for g in games]
    for _ in range(4):
        move = games[0].legal_moves(states[0])[0]
        texts = [[g.narrate(s, move, p) for p in range(2)] for g, s in zip(games, states)]
        assert texts[0] == texts[1]
        before = states[0].key()
        states = [g.apply(s, move) for g, s in zip(games, states)]
        assert states[0].key() == states[1].key() and before != states[0].key()


def test_a_hidden_item_stays_hidden_and_a_shown_one_is_named(tmp_path):
    game = load_game(_write(tmp_path, CARDS))
    state = game.new_state(3)
    drawn = game.narrate(state, "draw", 1)
    assert drawn == ["player 0 draws a hidden item"]
    own = game.narrate(state, "draw", 0)[0]
    assert own.startswith("player 0 (you) draws C") and "(rank " in own
    state = game.apply(state, "draw")
    state = game.apply(state, "draw")
    card = state.zones["hand"][0][0]
    shown = game.narrate(state, f"show_one(card={card.id})", 1)
    assert shown == [f"player 0 shows {card.id} (rank {card.fields['rank']})"]


def test_a_narrated_step_that_is_only_tried_tells_nothing(tmp_path):
    """`then_required` plays a move on a copy to see where it leads: no sentence comes of it."""
    game = load_game(_write(tmp_path, RACE), backend="reference")
    state = game.new_state(1)
    assert game._narration is None
    game.narrate(state, "add(n=1)", 0)
    assert game._narrator.twin._narration is None


def test_the_web_tables_log_shows_each_seat_its_own_narration(tmp_path):
    from meeple.web.seat_page import log_panel
    from meeple.web.tables import Table
    game = load_game(_write(tmp_path, CARDS))
    table = Table("t", game, 3, {}, True, "draws", {})
    moment = table.play(0, "draw")
    mine = str(log_panel(table, moment, 0, game.view(moment.state, 0), "en"))
    theirs = str(log_panel(table, moment, 1, game.view(moment.state, 1), "en"))
    card = moment.state.zones["hand"][0][0]
    assert f"player 0 (you) draws {card.id}" in mine and 'class="narration"' in mine
    assert "player 0 draws a hidden item" in theirs and card.id not in theirs
