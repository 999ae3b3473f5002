"""A seat's only legal move played for it at the web table (issue 44), as `meeple play`
does: on by default in the lobby's form, said in that seat's log, and never landed on
by undo (which goes back past it to the seat's own last choice)."""
from __future__ import annotations

from pathlib import Path

import pytest

from web_support import open_table, web_client

HIGH_CARD = str(Path(__file__).resolve().parent.parent / "examples" / "high-card")


@pytest.fixture
def client():
    with web_client(folders=[HIGH_CARD]) as made:
        yield made


def test_the_lobby_offers_it_checked(client):
    page = client.get("/new", params={"ruleset": "nim"}).text
    assert '<input type="checkbox" name="auto" checked>' in page


@pytest.mark.parametrize("auto", [True, False])
def test_the_last_card_is_played_for_the_seat_and_said_in_its_log(client, auto):
    opened = open_table(client, HIGH_CARD, 2, bots={1: "random"}, seed=3, options={"hand_size": "2"}, auto=auto)
    me = opened.seats[0]
    answer = client.post(f"{me}/move", json={"move": "play(card=R5)"})
    assert answer.status_code == 200, answer.text
    mine = [m for _, m in opened.table.now.history if m.player == 0]
    if not auto:  # the forced card waits for the seat
        assert len(mine) == 1 and opened.table.game.legal_moves(opened.table.now.state, 0)
        return
    assert [str(m.args[0][1]) for m in mine] == ["R5", "B3"]
    log = client.get(f"{me}/fragment").json()["html"]
    assert log.count("the only move, played for you") == 1
    assert "play(card=B3)" in log.split("the only move, played for you")[0].rsplit("<li", 1)[1]


def test_undo_goes_back_past_the_move_played_for_the_seat(client):
    opened = open_table(client, HIGH_CARD, 2, bots={1: "random"}, seed=3, options={"hand_size": "2"}, auto=True)
    me = opened.seats[0]
    client.post(f"{me}/move", json={"move": "play(card=R5)"})
    assert len([m for _, m in opened.table.now.history if m.player == 0]) == 2
    assert client.post(f"{me}/undo", json={}).status_code == 200
    assert [m for _, m in opened.table.now.history if m.player == 0] == []
    assert opened.table.auto_played == frozenset()
