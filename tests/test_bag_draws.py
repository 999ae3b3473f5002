"""A bag's items come out at random, whichever effect takes them (issue 47): a `deal`
from a bag draws each item with the game's generator, as a `move` with a count does, and
both back ends draw the same."""
from __future__ import annotations

from collections import Counter

from meeple.interpreter import load_game

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


def test_a_deal_from_a_bag_gives_each_card_to_each_seat_about_as_often(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(BAG_DEAL, encoding="utf-8")
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
