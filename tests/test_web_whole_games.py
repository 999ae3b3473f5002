"""A whole game of each rulebook game played in Chromium at seat 0's link, the other seats
random bots on the server, to the end screen (issue 44).

Seat 0's moves are chosen by a generator seeded with the game's seed, among the moves the
page lists.  The first CLICKED decisions are made as a person makes them: a click on what
the move names on the table (a card, a place, a piece, a market's row), then, when that
leaves several moves, on the move in the list (its group opened), then confirm.  The rest
are played by the page's own buttons from a script (the same handlers: choose, confirm,
the POST, the live update), which keeps a game of a thousand decisions to a few minutes.

Along the way it checks what a person would see: no text of a board smaller than
MIN_FONT pixels as drawn in the page, and no two texts of a board overprinting, measured
by the browser (getBBox), not estimated.  Screenshots: docs/img/web-play-GAME.png in the
middle of the game and docs/img/web-end-GAME.png at its end.
"""
from __future__ import annotations

import json
import random

import pytest
from meeple.interpreter.presentation.board_svg import MIN_FONT
from test_web_browser import IMAGES, WAIT, after, chromium, served, version  # noqa: F401 (fixtures)

CLICKED = 25  # decisions made with real clicks on the table and the list


# Every text of each board drawing, as the browser lays it out: its box in the page's
# pixels and its font size on screen (the drawing may be scaled to fit its column).
_TEXTS = """() => Array.from(document.querySelectorAll('figure.board svg')).map((svg) =>
  Array.from(svg.querySelectorAll('text')).filter((t) => t.textContent.trim()).map((t) => {
    const r = t.getBoundingClientRect();
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const size = parseFloat(t.getAttribute('font-size')) * scale;
    return {text: t.textContent, size: size, box: [r.left, r.top, r.right, r.bottom],
            node: (t.closest('[data-node]') || {dataset: {}}).dataset.node || null,
            piece: !!t.closest('[data-piece]')};
  }))"""


def _looks_right(page) -> None:
    """No board text under MIN_FONT - 1 px on screen (a drawing may be scaled to its column
    by a little), and no two texts of a board overprinting (a piece's glyph sits in its
    piece, not counted)."""
    for texts in page.evaluate(_TEXTS):
        assert all(t["size"] >= MIN_FONT - 1 for t in texts), min(texts, key=lambda t: t["size"])
        plain = [t for t in texts if not t["piece"]]
        for i, a in enumerate(plain):
            for b in plain[i + 1:]:
                x0, y0, x1, y1 = a["box"]
                u0, v0, u1, v1 = b["box"]
                inside = min(x1, u1) - max(x0, u0) > 1 and min(y1, v1) - max(y0, v0) > 1
                assert not inside, (a["text"], b["text"])


def _decide(page, rnd: random.Random) -> None:
    """A decision as a person makes it: a click on what the move names on the table, then,
    unless that chose the move, a click on it in the list (its group opened), then confirm."""
    old = version(page)
    moves = page.eval_on_selector_all("#moves button.move", "bs => bs.map(b => [b.dataset.move, b.dataset.mentions])")
    move, mentions = moves[rnd.randrange(len(moves))]
    for token in json.loads(mentions):
        target = page.locator(f"#table .areas [data-item={json.dumps(token)}], #table .boards [data-node="
                              f"{json.dumps(token)}], #table .areas [data-value={json.dumps(token)}]").first
        if target.count() and target.is_visible():
            target.click()
            break
    if page.evaluate("() => document.querySelector('#moves button.chosen')?.dataset.move") != move:
        page.evaluate("(m) => { const b = Array.from(document.querySelectorAll('#moves button.move'))"
                      ".find((x) => x.dataset.move === m); b.closest('li').hidden = false; "
                      "b.closest('details').hidden = false; b.closest('details').open = true; }", move)
        page.locator(f"#moves button.move[data-move={json.dumps(move)}]").click()
    assert page.evaluate("() => document.querySelector('#moves button.chosen').dataset.move") == move
    page.click("#confirm")
    after(page, old)


# One decision in one round trip: the move at `r` (0 <= r < 1) of the list, played by its
# button and confirm; then the wait, in the page, for a later table that asks seat 0 again
# or ends.
_PLAY = """async ([r, wait]) => {
  const table = () => document.getElementById('table');
  const old = Number(table().dataset.version);
  const buttons = Array.from(document.querySelectorAll('#moves button.move'));
  const b = buttons[Math.floor(r * buttons.length)];
  b.click();
  document.getElementById('confirm').click();
  const until = Date.now() + wait;
  while (Date.now() < until) {
    await new Promise((done) => setTimeout(done, 5));
    if (Number(table().dataset.version) > old && document.querySelector('#moves, .end')) return b.dataset.move;
  }
  throw new Error('no answer to ' + b.dataset.move);
}"""


@pytest.mark.parametrize("name,players,options", [("treasure-hunter", 2, None), ("zavandor", 2, None),
                                                  ("valdora", 3, None), ("freyas-folly", 3, None)])
def test_a_whole_game_in_the_browser_to_the_end_screen(served, chromium, name, players, options):
    seed = 3
    table, seats, _ = served.open(name, players, {p: "random" for p in range(1, players)}, seed=seed,
                                  options=options)
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(f"{seats[0]}?lang=en")
    page.wait_for_selector("#table")
    rnd, decisions = random.Random(seed), 0
    while True:
        page.wait_for_selector("#moves, .end", timeout=WAIT)
        if page.locator(".end").count():
            break
        if decisions in (0, CLICKED):
            _looks_right(page)
        if decisions == CLICKED:
            # the log opens at its newest moves: scrolled to its end where it overflows
            assert page.evaluate("() => { const l = document.querySelector('ol.log');"
                                 " return l.scrollHeight - l.scrollTop - l.clientHeight; }") <= 2
            page.screenshot(path=str(IMAGES / f"web-play-{name}.png"), full_page=True)
        if decisions < CLICKED:
            _decide(page, rnd)
        else:
            page.evaluate(_PLAY, [rnd.random(), WAIT])
        decisions += 1
        assert decisions < 5000
    assert table.now.state.over and decisions > CLICKED
    outcome = table.game.outcome(table.now.state)
    assert page.text_content(".end .reason").strip() and page.locator("table.scores tr").count() == players + 1
    for p in range(players):
        assert str(outcome.scores[p]) in page.text_content(f"table.scores tr:nth-child({p + 2})")
    _looks_right(page)
    page.screenshot(path=str(IMAGES / f"web-end-{name}.png"), full_page=True)
    context.close()
