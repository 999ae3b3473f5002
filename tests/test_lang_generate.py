"""`generate` from expressions (issue 47): a generated field's values may be worked out
at set-up from the options and the player count, as a range whose ends are expressions
(`{from: 1, to: "options.top_bid"}`) or an expression giving the values
(`"range(player_count())"`, `"range(options.top_bid * 2, 0, -2)"`).  The ruleset is
checked with the defaults and the fewest players, and tried with every player count and
declared choice, each failure an error where its expression is written; a game whose
options or player count change the values has its own items, on both back ends and in
both playout tiers."""
from __future__ import annotations

import pytest

from meeple.dsl.generate import GenerateError
from meeple.interpreter import Game, load_game
from meeple.interpreter.analysis.differential import compare_backends

from flow_idiom_support import BACKENDS, codes_and_places
from ruleset_support import write_ruleset
from test_kernel import _same_playouts

# One bid token per player and value up to the option's top bid; prizes worth 2, 4, ...
# up to twice the top bid.  Each turn a player spends a token on the best prize left.
BIDS = """game:
  name: bid-tokens
  players: 2-4
  options:
    top_bid: {default: 3, choices: [2, 3, 5]}
components:
  token:
    fields: {owner: int, value: int}
    generate:
      owner: "range(player_count())"
      value: {from: 1, to: "options.top_bid"}
    id: "t{owner}-{value}"
  prize:
    fields: {worth: int}
    generate: {worth: "range(options.top_bid * 2, 0, -2)"}
    id: "p{worth}"
zones:
  hand: {per: player, visibility: owner, initial: "[t for t in items('token') if t.owner == player]"}
  prizes: {initial: "items('prize')"}
  spent: {per: player}
  won: {per: player}
variables:
  bids: {per: player, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [bid]
    until: "len(prizes) == 0 or all(len(hand[p]) == 0 for p in players())"
actions:
  bid:
    params: {t: "hand[player]"}
    effects:
      - "bids[player] += t.value"
      - move: t
        to: "spent[player]"
      - if: "len(prizes) > 0 and t.value * 2 >= first(prizes).worth"
        then: [{move: "first(prizes)", to: "won[player]"}]
scoring:
  score: "sum(p.worth for p in won[player]) - bids[player]"
"""


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("players, options, tokens, prizes", [
    (2, None, ["t1-1", "t1-2", "t1-3"], ["p6", "p4", "p2"]),
    (4, {"top_bid": 5}, ["t3-1", "t3-2", "t3-3", "t3-4", "t3-5"], ["p10", "p8", "p6", "p4", "p2"]),
    (3, {"top_bid": 2}, ["t2-1", "t2-2"], ["p4", "p2"]),
])
def test_a_game_has_the_items_its_options_and_player_count_give(tmp_path, backend, players, options, tokens, prizes):
    game = load_game(write_ruleset(tmp_path, BIDS, "bid-tokens"), players, options, backend=backend)
    state = game.new_state(0)
    assert [t.id for t in state.zones["hand"][players - 1]] == tokens
    assert [p.id for p in state.zones["prizes"]] == prizes
    assert len(game.items) == players * len(tokens) + len(prizes)
    assert all(game.rules.items[i] is item for i, item in game.items.items())  # one item per id


def test_the_ruleset_is_read_with_the_defaults_and_the_fewest_players(tmp_path):
    game = load_game(write_ruleset(tmp_path, BIDS, "bid-tokens"), 2)
    kinds = {k.name: [item["id"] for item in k.items] for k in game.rules.ruleset.components.values()}
    assert kinds == {"token": ["t0-1", "t0-2", "t0-3", "t1-1", "t1-2", "t1-3"], "prize": ["p6", "p4", "p2"]}


@pytest.mark.parametrize("players, options", [(2, None), (3, {"top_bid": 5}), (4, {"top_bid": 2})])
def test_both_back_ends_agree_at_every_step(tmp_path, players, options):
    report = compare_backends(write_ruleset(tmp_path, BIDS, "bid-tokens"), players, games=3, seed=4, options=options)
    assert report.ok, str(report)
    assert report.moves > 0 and report.deopts == 0


def test_the_fused_tier_plays_each_games_own_items(tmp_path):
    rules = load_game(write_ruleset(tmp_path, BIDS, "bid-tokens"), 2, backend="compiled").rules
    assert rules.playout_tier() == "fused"
    for players, options in ((2, None), (4, {"top_bid": 5})):
        game = Game(rules, players, options)
        _same_playouts(game, seeds=range(6))
        assert game.kernel_fallbacks == 0


def _place(text: str, at: str) -> tuple[int, int]:
    """(line, column) of the first `at` after the first `generate:`."""
    lines = text.split("\n")
    start = next(n for n, line in enumerate(lines) if "generate:" in line)
    for n, line in enumerate(lines[start:], start + 1):
        if at in line:
            return n, line.index(at) + 1
    raise AssertionError(at)


@pytest.mark.parametrize("old, new, code, at", [
    ('to: "options.top_bid"', 'to: "bids[0]"', "N301", 'bids[0]"'),
    ('to: "options.top_bid"', "to: \"'many'\"", "T403", "'many'"),
    ('"range(options.top_bid * 2, 0, -2)"', "\"['a', 'b']\"", "T407", "['a', 'b']"),
    ('owner: "range(player_count())"', "owner: 2", "T409", "2"),
    ('to: "options.top_bid"', 'to: "12 // (options.top_bid - 2)"', "R701", '12 //'),
    ('to: "options.top_bid"', 'to: "options.top_bid ** 5"', "S115", "owner:"),
    ('owner: "range(player_count())"', "owner: \"[len(items('prize'))]\"", "R701", "items('prize')"),
    ('id: "t{owner}-{value}"', 'id: "t{owner}-{worth}"', "S110", '"t{owner}'),
], ids=["reads the state", "a range's end not an int", "values not of the field's type", "not a list",
        "fails with a declared choice", "too many items with a declared choice", "reads the items it makes",
        "a template it cannot fill"])
def test_a_generate_that_cannot_be_worked_out_is_an_error_where_it_is_written(tmp_path, old, new, code, at):
    text = BIDS.replace(old, new)
    assert codes_and_places(tmp_path, text) == [(code, *_place(text, at))]


def test_a_failure_that_only_a_player_count_meets_is_found_when_loading(tmp_path):
    text = BIDS.replace('to: "options.top_bid"', 'to: "8 // (4 - player_count())"')
    assert codes_and_places(tmp_path, text) == [("R701", *_place(text, '8 //'))]


def test_a_game_whose_options_it_cannot_make_items_for_is_refused_with_the_place(tmp_path):
    text = BIDS.replace("top_bid: {default: 3, choices: [2, 3, 5]}", "top_bid: {default: 3}").replace(
        'to: "options.top_bid"', 'to: "12 // options.top_bid"')
    rules = load_game(write_ruleset(tmp_path, text, "bid-tokens"), 2).rules
    with pytest.raises(GenerateError) as err:
        Game(rules, 2, {"top_bid": 0})
    assert isinstance(err.value, ValueError) and err.value.code == "R701"
    assert (err.value.span.line, err.value.span.col) == _place(text, '12 //')
