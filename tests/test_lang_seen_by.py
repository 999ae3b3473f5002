"""`item.seen_by`: the players a `reveal` effect has shown a face-down item to, readable in
expressions (empty before any reveal), and shown in views only to those players."""
from __future__ import annotations

from pathlib import Path

from meeple.interpreter import load_game

SPEC = """
game: {name: peek, players: 2}
components:
  card:
    fields: {value: int}
    items: [{id: c1, value: 1}, {id: c2, value: 2}]
zones:
  table: {kind: row, visibility: all, face: down, initial: "items('card')"}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [peek]
actions:
  peek:
    params: {card: "[c for c in table if not (player in c.seen_by)]"}
    effects:
      - reveal: card
        to: player
end:
  - when: "all(len(c.seen_by) == 2 for c in table)"
"""


def test_seen_by_is_readable_and_private(tmp_path: Path):
    (tmp_path / "peek").mkdir()
    (tmp_path / "peek" / "game.yaml").write_text(SPEC)
    game = load_game(str(tmp_path / "peek"), 2)
    s = game.new_state(0)
    # Face-down cards are named by their place: an id would tell which card lies there.
    assert [str(m) for m in game.legal_moves(s)] == ["peek(card=table@0)", "peek(card=table@1)"]
    s = game.apply(s, "peek(card=c1)")  # a referee (this test) may name them by id
    assert game.view(s, 0)["zones"]["table"]["items"] == ["c1", "?"]
    assert game.view(s, 1)["zones"]["table"]["items"] == ["?", "?"]
    s = game.apply(s, "peek(card=c1)")
    s = game.apply(s, "peek(card=c2)")
    assert [str(m) for m in game.legal_moves(s)] == ["peek(card=table@1)"]
    s = game.apply(s, "peek(card=c2)")
    assert game.is_terminal(s)
