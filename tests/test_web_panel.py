"""The web table's player panel and card texts on hover (issue 44): the panel shows the
ruleset's `summary:` as the terminal's does, a column per player with the seat's own
marked; a chip of an item the seat sees whole carries its kind's text as its `title`,
and an item the seat does not see carries none."""
from __future__ import annotations

import html
import re

import pytest

from meeple.cli.screen import summary_cell
from web_support import open_table, web_client

CHIP = re.compile(r'<span class="(item[^"]*)"([^>]*)>')


@pytest.fixture
def client():
    return web_client()


def _fragment(client, link) -> str:
    return client.get(f"{link}/fragment").json()["html"]


@pytest.mark.parametrize("name,players", [("treasure-hunter", 3), ("zavandor", 2), ("valdora", 3),
                                          ("freyas-folly", 3)])
def test_the_panel_shows_every_players_public_values(client, name, players):
    opened = open_table(client, name, players, bots={p: "random" for p in range(1, players)}, seed=4)
    page = _fragment(client, opened.seats[0])
    panel = re.search(r'<section class="panel">(.*?)</section>', page, re.S)
    assert panel, "no player panel"
    rows = opened.table.game.summary(opened.table.now.state)
    assert rows and panel.group(1).count("<tr>") == len(rows) + 1
    assert '<th class="you">you</th>' in panel.group(1)
    for row in rows:
        cells = re.findall(r"<td[^>]*>(.*?)</td>", panel.group(1).split("<tr>")[2 + rows.index(row)])
        assert [html.unescape(c) for c in cells] == [summary_cell(v, "en") for v in row.values]


def test_a_card_the_seat_holds_says_what_it_does_on_hover(client):
    for seed in range(1, 40):
        opened = open_table(client, "treasure-hunter", 2, bots={1: "random"}, seed=seed)
        game, state = opened.table.game, opened.table.now.state
        page = _fragment(client, opened.seats[0])
        titled = {}
        for classes, rest in CHIP.findall(page):
            item = re.search(r'data-item="([^"]+)"', rest)
            title = re.search(r'title="([^"]*)"', rest)
            if classes != "item":
                assert title is None  # a card seen from its back says nothing
            elif title is not None:
                titled[html.unescape(item.group(1))] = html.unescape(title.group(1))
        if titled:
            break
    assert titled, "no action card in seat 0's sight in 40 deals"
    for item, title in titled.items():
        assert title == game.item_text(item, "en", state)
