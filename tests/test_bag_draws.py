"""A bag's items come out at random, whichever effect takes them (issue 47): a `deal` from
a bag draws each item with the game's generator, as a `move` with a count does, and both
back ends draw the same, the compiled one in its own statements and in the fused playout
tier as well as move by move."""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from meeple.interpreter import load_game, load_rules
from meeple.interpreter.codegen.fused import unsupported
from meeple.interpreter.analysis.differential import compare_backends

BAG_PLAY = Path(__file__).resolve().parent / "fixtures" / "chance_draws" / "bag_play.yaml"

BAG_DEAL = """
game: {name: bag-deal, players: 2}
components:
  card:
    fields: {rank: int}
    generate: {rank: {from: 1, to: 3}}
    id: "c{rank}"
zones:
  bag: {kind: bag, initial: "items('card')", visibility: none}
  hand: {per: player, visibility: owner}
setup:
  - deal: 1
    from: bag
    to: hand
flow: [{turns: "players()", do: [{choose: [wait]}]}]
actions:
  wait: {effects: []}
"""
# The same game, each card taken out of the bag by a `move` of one item to each seat.
BAG_MOVE = BAG_DEAL.replace("""  - deal: 1
    from: bag
    to: hand""", """  - move: {from: bag, to: "hand[0]"}
  - move: {from: bag, to: "hand[1]", count: 1}""")


@pytest.mark.parametrize("text", [BAG_DEAL, BAG_MOVE], ids=["deal", "move"])
def test_each_seat_receives_each_card_of_a_bag_about_as_often(tmp_path, text):
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    hands = {}
    for backend in ("reference", "compiled"):
        game = load_game(path, backend=backend)
        states = [game.new_state(seed) for seed in range(300)]
        hands[backend] = [tuple(h[0].id for h in s.zones["hand"]) for s in states]
    assert hands["reference"] == hands["compiled"]
    for seat in (0, 1):
        counts = Counter(h[seat] for h in hands["compiled"])
        assert sorted(counts) == ["c1", "c2", "c3"]
        assert all(70 <= n <= 130 for n in counts.values()), counts  # 100 each expected; seeds fixed
    # Seat 0's card does not tell seat 1's: each of the six ways comes out (50 expected each).
    assert all(30 <= n <= 70 for n in Counter(hands["compiled"]).values()) and len(set(hands["compiled"])) == 6


def test_the_compiled_back_end_writes_a_deal_from_a_bag_itself():
    source = load_rules(BAG_PLAY, backend="compiled").source()
    assert "_deal(ctx, " in source and ", True)" in source  # drawn at random inside the statement
    assert "as the reference interpreter runs it" not in source


@pytest.mark.parametrize("players", [2, 3])
def test_the_fused_tier_draws_from_a_bag_as_the_loop_does(players):
    game = load_game(BAG_PLAY, players, backend="compiled")
    assert unsupported(game.rules) is None
    assert game.rules.playout_kernel(False, players)[0].__name__ == "FUSED"
    loop = load_game(BAG_PLAY, players, backend="reference")
    for seed in range(40):
        ends = [g.playout(g.new_state(seed), rng=random.Random(seed)) for g in (game, loop)]
        assert ends[0].to_data() == ends[1].to_data(), seed
    # From the middle of a game too: the tier starts from the state's own generator.
    state = loop.new_state(5)
    for move in ("draw", "deal_round"):
        state = loop.apply(state, loop.legal_moves(state)[[str(m) for m in loop.legal_moves(state)].index(move)])
    ends = [g.playout(state, rng=random.Random(1)) for g in (game, loop)]
    assert ends[0].to_data() == ends[1].to_data()
    assert game.kernel_fallbacks == 0


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("explicit", [False, True])
def test_back_ends_agree_on_every_way_out_of_a_bag(players, explicit):
    report = compare_backends(BAG_PLAY, players, games=6, seed=players, explicit_chance=explicit)
    assert report.ok, str(report)
    assert report.finished == 6 and report.playouts > 0 and report.deopts == 0, str(report)
