"""The player panel, `summary:`: a few labelled values per player, read from the state by
both back ends alike, and only public values (S130 at load: the panel is shown to every
player, so a value that reads a hand's cards or a private variable is refused)."""
from __future__ import annotations

import random

import pytest

from meeple.dsl.load import check_ruleset, read_ruleset
from meeple.interpreter import list_rulesets, load_game
from meeple.interpreter.runtime.game import Game
from meeple.interpreter.runtime.rules import Rules

RULEBOOK_GAMES = ("valdora", "zavandor", "treasure-hunter", "freyas-folly")

BASE = """
game: {name: panel, players: 2}
components:
  chip:
    fields: {worth: int}
    generate: {worth: {from: 1, to: 6}}
    id: "c{worth}"
zones:
  pool: {kind: stack, visibility: none, face: down, initial: "items('chip')"}
  hand: {per: player, kind: hand, visibility: owner}
  shown: {per: player, kind: row, visibility: all}
variables:
  coins: {per: player, type: int, initial: "3 + player"}
  secret: {per: player, type: int, initial: 7, visibility: owner}
setup:
  - deal: 2
    from: pool
    to: hand
flow:
  - loop:
      - turns: "players()"
        do: [{choose: [show]}]
    while: "len(hand[1]) > 0"
actions:
  show:
    params: {chip: "hand[player]"}
    effects:
      - move: chip
        from: "hand[player]"
        to: "shown[player]"
      - set: "coins[player] += chip.worth"
"""


def _ruleset(tmp_path, summary: str):
    path = tmp_path / "panel.yaml"
    path.write_text(BASE + summary, encoding="utf-8")
    rs, diags = read_ruleset(path)
    diags = diags + (check_ruleset(rs) if rs is not None else [])
    return rs, [d for d in diags if d.severity == "error"]


def test_the_panel_gives_each_players_values_in_the_order_written(tmp_path):
    rs, diags = _ruleset(tmp_path, 'summary:\n  coins: "coins[player]"\n  cards: "len(hand[player])"\n'
                                   '  shown: "sum(c.worth for c in shown[player])"\n')
    assert not diags
    game = Game(Rules(rs), 2)
    state = game.new_state(1)
    assert [(r.name, r.values) for r in game.summary(state)] == [
        ("coins", (3, 4)), ("cards", (2, 2)), ("shown", (0, 0))]
    move = game.legal_moves(state)[0]
    after = game.apply(state, move)
    worth = next(i for i in game.rules.items.values() if i.id == dict(move.args)["chip"].id).fields["worth"]
    assert [r.values for r in game.summary(after)] == [(3 + worth, 4), (1, 2), (worth, 0)]


@pytest.mark.parametrize("expr, hidden", [("secret[player]", "secret"),
                                         ("sum(c.worth for c in hand[player])", "hand"),
                                         ("len(pool) + coins[player] + len(top(pool).id)", "pool")])
def test_a_value_that_reads_what_some_player_may_not_see_is_refused(tmp_path, expr, hidden):
    rs, diags = _ruleset(tmp_path, f'summary:\n  coins: "coins[player]"\n  bad: "{expr}"\n')
    [d] = diags
    assert d.code == "S130" and hidden in d.message
    assert (d.span.line, d.span.col) == (len(BASE.splitlines()) + 3, 9)  # at the expression, inside its quotes


def test_a_name_the_ruleset_lacks_is_found_in_the_panel_too(tmp_path):
    _, diags = _ruleset(tmp_path, 'summary:\n  coins: "coin[player]"\n')
    assert [d.code for d in diags] == ["N301"]


@pytest.mark.parametrize("name", RULEBOOK_GAMES)
def test_every_rulebook_game_has_a_panel(name):
    assert load_game(name).summary(load_game(name).new_state(0))


@pytest.mark.parametrize("name", [n for n in list_rulesets() if load_game(n).rules.ruleset.summary])
def test_both_back_ends_give_the_same_panel_along_a_game(name):
    games = [load_game(name, backend=b) for b in ("reference", "compiled")]
    rng = random.Random(5)
    states = [g.new_state(5) for g in games]
    for _ in range(60):
        assert games[0].summary(states[0]) == games[1].summary(states[1])
        if games[0].is_terminal(states[0]):
            break
        move = rng.choice(games[0].legal_moves(states[0]))
        states = [g.apply(s, str(move), move.player) for g, s in zip(games, states)]
