"""`meeple serve` in a real browser: Playwright driving Chromium against a server on a
free port of this machine.

The browser is Playwright's own Chromium where `playwright install chromium` put one,
else the system's (`apt-get install chromium`; .ci/run installs whichever it can).  These
tests never skip: without a browser they fail and say how to get one.

The screenshots of the rulebook games' tables in docs/web.md are taken here
(docs/img/web-*.png).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import sync_playwright

from meeple.interpreter.runtime.knowledge import WHOLE
from meeple.web.author import AuthorPanel
from meeple.web.routes import create_app
from meeple.web.sources import Sources

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "img"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
WAIT = 15_000  # ms a page may take to show what a step waits for (a bot's answer, a live update)


class Served:
    """A server in a thread of the test process: its address, and its tables."""

    def __init__(self, author=None):
        self.app = create_app(Sources(), author)
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    timeout_graceful_shutdown=1))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def open(self, ruleset: str, players: int, bots: dict, seed: int, options: dict | None = None):
        """A table, as the lobby opens one: (its table, seat -> link, the hot-seat link)."""
        from meeple.interpreter import load_game
        tables = self.app.state.server.tables
        game = load_game(ruleset, players, options)
        host = tables.open(game, seed, bots, True, ruleset, options or {})
        links = tables.links(host.table)
        seats = {link.seats[0]: f"{self.base}/play/{link.token}" for link in links if link.kind == "seat"}
        hot = next((f"{self.base}/play/{link.token}" for link in links if link.kind == "hot-seat"), None)
        return host.table, seats, hot

    def stop(self):
        self.server.should_exit = True
        self.thread.join(10)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(playwright):
    """Playwright's Chromium when installed, else the system's."""
    own = playwright.chromium.executable_path
    if own and os.path.exists(own):
        return playwright.chromium.launch(args=FLAGS)
    system = shutil.which("chromium") or shutil.which("chromium-browser")
    if system is None:
        pytest.fail("no browser: run `python -m playwright install chromium` or `apt-get install chromium`")
    return playwright.chromium.launch(executable_path=system, args=FLAGS)


@pytest.fixture(scope="module")
def served():
    made = Served()
    yield made
    made.stop()


@pytest.fixture(scope="module")
def authoring():
    made = Served(author=AuthorPanel())
    yield made
    made.stop()


@pytest.fixture(scope="module")
def chromium():
    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    yield context.new_page()
    context.close()


def version(page) -> int:
    return int(page.get_attribute("#table", "data-version"))


def after(page, old: int) -> None:
    """Wait until the page shows a version of the table later than `old`."""
    page.wait_for_function(f"Number(document.getElementById('table').dataset.version) > {old}", timeout=WAIT)


def click_and_confirm(page, selector: str) -> None:
    old = version(page)
    page.click(selector)
    page.wait_for_selector("#selection:not([hidden])", timeout=WAIT)
    page.click("#confirm")
    after(page, old)


def test_a_whole_game_of_tic_tac_toe_by_clicking_cells_on_one_device(served, page):
    page.goto(f"{served.base}/?lang=en")
    page.select_option("select[name=ruleset]", "tic-tac-toe")
    page.click("button[type=submit]")
    page.select_option("select[name='seat.1']", "human")
    page.fill("input[name=seed]", "1")
    page.click("#open")
    page.click("a.seat-link[data-kind=hot-seat]")
    page.wait_for_selector("#table")
    for cell in ("b2", "a1", "c1", "a3", "a2", "c2", "b1", "b3"):
        click_and_confirm(page, f"g[data-node={cell}]")
    # the last cell, c3, is the only move left: the lobby's form (its box checked by
    # default) has it played for the seat, and the log says so
    page.wait_for_selector(".end", timeout=WAIT)
    assert page.text_content("g[data-node=b2] text") == "X" and page.text_content("g[data-node=a1] text") == "O"
    assert page.text_content("g[data-node=c3] text") == "X"
    assert "draw: nobody wins" in page.text_content(".end")
    assert "the only move, played for you" in page.text_content("ol.log li:last-child")
    assert page.locator("#moves").count() == 0


def test_the_setup_form_shows_as_many_seats_as_players(served, page):
    page.goto(f"{served.base}/new?ruleset=goofspiel&lang=en")
    assert page.locator("tr[data-seat='2']").is_hidden() and page.locator("tr[data-seat='1']").is_visible()
    page.select_option("select[name=players]", "3")
    assert page.locator("tr[data-seat='2']").is_visible() and page.locator("tr[data-seat='3']").is_hidden()


def test_a_click_no_move_fits_and_a_move_out_of_turn_are_refused(served, page):
    table, seats, _ = served.open("tic-tac-toe", 2, {}, seed=2)
    page.goto(seats[1])
    page.wait_for_selector("#table")
    assert page.locator("#moves").count() == 0 and "waiting for the others" in page.text_content(".moves")
    # a request the page itself would not make: seat 1 plays now, out of turn
    answer = page.evaluate("""async () => (await fetch(location.pathname + '/move', {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({move: 'place(at=a1)'})})).json()""")
    assert answer["code"] == "M805" and not table.now.history
    page.evaluate(f"""() => fetch('{seats[0]}/move', {{method: 'POST', headers: {{'Content-Type':
        'application/json'}}, body: JSON.stringify({{move: 'place(at=b2)'}})}})""")  # seat 0, from its own link
    page.wait_for_selector("#moves", timeout=WAIT)  # the live update: seat 1 to move
    page.click("g[data-node=b2]")  # taken: no move of seat 1 names it
    assert page.text_content("#message") == "none of your moves names this"
    assert page.locator("#selection").is_hidden()


def test_connect_four_against_a_random_bot_to_the_end(served, page):
    table, seats, _ = served.open("connect-four", 2, {1: "random"}, seed=8)
    page.goto(seats[0])
    page.wait_for_selector("#table")
    while not table.now.state.over:
        page.wait_for_selector("#moves, .end", timeout=WAIT)
        if page.locator(".end").count():
            break
        columns = [m.group(1) for m in re.finditer(r"drop\(col=(\d+)\)", page.inner_html("#moves"))]
        click_and_confirm(page, f"g.cell[data-attrs*='col={columns[0]}']")
    page.wait_for_selector(".end", timeout=WAIT)
    reason = page.text_content(".end .reason")
    assert "four in a row" in reason or "the board is full" in reason
    assert len(table.now.history) >= 7


def _two_seats_of_treasure_hunter(served, chromium, ready: str):
    """A two-player Treasure Hunter table with each seat in its own browser context, once
    each page shows `ready`: (table, {seat: page})."""
    table, seats, _ = served.open("treasure-hunter", 2, {}, seed=5, options={"cards": 5})
    pages = {}
    for seat in (0, 1):
        context = chromium.new_context(viewport={"width": 1400, "height": 1000})
        pages[seat] = context.new_page()
        pages[seat].goto(seats[seat])
        pages[seat].wait_for_selector(ready)
    return table, pages


def test_a_treasure_hunter_round_with_two_seats_in_two_browsers(served, chromium):
    table, pages = _two_seats_of_treasure_hunter(served, chromium, "#table")
    _neither_sees_the_others_hand(table, pages)
    moves = cards = 0
    while table.now.state.vars["round"] == 1 and not table.now.state.over:
        seat = table.humans_to_move()[0]
        page = pages[seat]
        page.wait_for_selector("#moves", timeout=WAIT)
        cards += choose_by_clicking_a_card(page)
        moves += 1
        assert moves < 200
    for seat in (0, 1):
        after(pages[seat], table.now.version - 1)
        assert "Round" in pages[seat].text_content(".areas")
    assert moves >= 10 and cards >= 5
    for page in pages.values():
        page.context.close()


def test_a_choice_waiting_for_confirm_outlives_another_seats_move(served, chromium):
    """Seat 0 has chosen a card (by clicking it) when seat 1's pick of the same draft
    arrives as a live update: the choice is still there, confirm plays it; a choice the
    update no longer offers would be dropped."""
    table, pages = _two_seats_of_treasure_hunter(served, chromium, "#moves")
    mine = pages[0]
    move = mine.locator("#moves button.move").first.get_attribute("data-move")
    mine.click(f"#moves button.move[data-move={json.dumps(move)}]")
    old = version(mine)
    click_and_confirm(pages[1], "#moves button.move >> nth=0")  # seat 1 picks meanwhile
    after(mine, old)
    assert mine.evaluate("() => document.querySelector('#moves button.chosen')?.dataset.move") == move
    assert mine.locator("#selection").is_visible()
    mine.click("#confirm")
    after(mine, old + 1)
    assert any(m.player == 0 and table.game.move_text(b, m, 0) == move for b, m in table.now.history)
    for page in pages.values():
        page.context.close()


def choose_by_clicking_a_card(page) -> bool:
    """The first move, chosen by clicking the card it names where the page shows that card
    (then the list, if the card alone leaves several moves), and confirmed.  Whether a card
    was clicked."""
    old = version(page)
    first = page.locator("#moves button.move").first
    named = json.loads(first.get_attribute("data-mentions"))
    card = next((m for m in named if page.locator(f".areas [data-item='{m}']").count()), None)
    if card is not None:
        page.click(f".areas [data-item='{card}'] >> nth=0")
    if page.locator("#selection").is_hidden():
        page.click("#moves li:not([hidden]) button.move >> nth=0")
    page.click("#confirm")
    after(page, old)
    return card is not None


def _neither_sees_the_others_hand(table, pages):
    """At the deal (later, a page's log may name what its seat saw whole before: the no-leak
    tests follow that)."""
    game, state = table.game, table.now.state
    whole = {seat: {i for i, item in game.items.items() if game.namer(state, seat).sight(item) == WHOLE}
             for seat in pages}
    for seat, page in pages.items():
        shown = set(re.findall(r"[A-Za-z0-9_.\-]+", page.inner_html("#table")))
        assert not (whole[1 - seat] - whole[seat]) & shown


@pytest.mark.parametrize("name,players,lang", [("treasure-hunter", 2, "en"), ("zavandor", 2, "hu"),
                                               ("valdora", 3, "en"), ("freyas-folly", 3, "en")])
def test_screenshots_of_each_rulebook_games_table(served, page, name, players, lang):
    table, seats, _ = served.open(name, players, {p: "random" for p in range(1, players)}, seed=3)
    page.goto(f"{seats[0]}?lang={lang}")
    page.wait_for_selector("#moves")
    page.screenshot(path=str(IMAGES / f"web-{name}.png"), full_page=True)
    assert (IMAGES / f"web-{name}.png").stat().st_size > 10_000


def test_the_author_panel_says_why_a_move_is_not_legal(authoring, page):
    table, seats, _ = authoring.open("treasure-hunter", 2, {1: "random"}, seed=3, options={"cards": 4})
    page.goto(seats[0])
    page.wait_for_selector("#why-form")
    row = page.text_content("tr[data-action=boost]")
    assert "cannot be taken now in phase" in row and "M807" in row
    page.fill("#why-move", "keep(card=GOB1-1)")
    page.click("#why-form button[type=submit]")
    page.wait_for_function("document.getElementById('why-answer').textContent.length > 0", timeout=WAIT)
    assert page.text_content("#why-answer").startswith("card=GOB1-1 is not possible; choices: ")
    assert page.locator(".author .flow svg").count() == 1 and "simultaneous: keep" in page.text_content(".flow")
    page.screenshot(path=str(IMAGES / "web-author.png"), full_page=True)
