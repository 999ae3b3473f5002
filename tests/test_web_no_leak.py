"""Nothing sent to a seat holds what that seat may not know.

Each shipped ruleset with hidden information is played through the web server with two
human seats (bots at any others; one seat for a one-player game, whose player may not see
what the rules hide, a dealer's hole card), a few dozen seeded random moves, each chosen from the
seat's own page.  Every payload sent to seat A on the way (the page, its fragment, the
answer to A's moves, a live update, the view as JSON) is searched for what A's views so
far lack and seat B's view holds:
- the id of every item A has never seen whole, in any state of the game so far (derived
  from the full state: A's log may name what A saw whole at the time);
- every text of B's view that was in none of A's views (numbers aside: they are on
  every page).
A's page may show nothing of these.  The hot-seat link's pass-the-device screen may show
no item that is not public.  And a link asking for another seat's move or view is refused,
the table left as it was.
"""
from __future__ import annotations

import json
import random
import re

import pytest

from meeple.interpreter import list_rulesets, load_rules
from meeple.interpreter.runtime.knowledge import WHOLE

from web_support import open_table, web_client

TOKEN = re.compile(r"[A-Za-z0-9_.\-]+")
STEPS = 36  # human moves per game
FACES = {"up", "down"}  # the values of every item's `face`: words of the language, on every page


def _hides(name) -> bool:
    from meeple.interpreter import load_game
    return load_game(name, load_rules(name).ruleset.game.min_players).hides_information


HIDDEN = [name for name in list_rulesets() if _hides(name)]
SHARED = [name for name in HIDDEN if load_rules(name).ruleset.game.max_players >= 2]  # a device to pass


def _human_seats(name) -> int:
    return min(2, load_rules(name).ruleset.game.max_players)


def _texts(value, out: set) -> set:
    if isinstance(value, dict):
        for v in value.values():
            _texts(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _texts(v, out)
    elif isinstance(value, str) and not value.lstrip("-").isdigit():
        out.add(value)
    return out


class Knowledge:
    """What each human seat (two, or one) has been able to know so far, from the states the
    table has passed through (every move's before-state, and the latest)."""

    def __init__(self, table, seats: int = 2):
        self.table, self.game = table, table.game
        self.items = set(self.game.items)
        self.seats = tuple(range(seats))
        self.whole = {seat: set() for seat in self.seats}  # ids seen whole at some moment
        self.texts = {seat: set() for seat in self.seats}  # texts of their views at some moment
        self.looked = 0  # history entries already looked at

    def catch_up(self):
        now = self.table.now
        states = [before for before, _ in now.history[self.looked:]] + [now.state]
        self.looked = len(now.history)
        for state in states:
            for seat in self.seats:
                namer = self.game.namer(state, seat)
                self.whole[seat] |= {i for i in self.items if namer.sight(self.game.items[i]) == WHOLE}
                self.texts[seat] |= _texts(self.game.view(state, seat), set())

    def forbidden(self, seat: int) -> tuple[set, set]:
        """(ids, other texts) that must not reach `seat`."""
        theirs = set()
        for other in self.seats:
            if other != seat:
                theirs |= _texts(self.game.view(self.table.now.state, other), set()) - self.texts[seat] - FACES
        return self.items - self.whole[seat], theirs - self.items


def _check(payload: str, forbidden: tuple[set, set], what: str):
    ids, texts = forbidden
    leaked = ids & set(TOKEN.findall(payload))
    leaked |= {t for t in texts if (t in payload if " " in t else t in TOKEN.findall(payload))}
    assert not leaked, f"{what} holds {sorted(leaked)}"


def _payloads(client, path: str):
    """Everything a seat's browser is sent for its page now."""
    yield "page", client.get(path).text
    yield "fragment", client.get(f"{path}/fragment").text
    yield "view", client.get(f"{path}/view").text
    with client.stream("GET", f"{path}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("data: "):
                yield "live update", line
                break


def _seats(players: int) -> dict:
    return {p: "random" for p in range(2, players)}


@pytest.mark.parametrize("name", HIDDEN)
def test_no_payload_to_a_seat_holds_what_its_view_lacks(name):
    players = max(_human_seats(name), load_rules(name).ruleset.game.min_players)
    rnd = random.Random(name)
    checked, seed = 0, 11
    with web_client() as client:
        while checked < 40:  # a short game (blackjack: a few moves) is played again, at the next seed
            checked += _play_checking(client, name, players, rnd, seed)
            seed += 1


def _play_checking(client, name, players, rnd, seed) -> int:
    """One table of up to STEPS human moves, every payload checked; how many were."""
    opened = open_table(client, name, players, bots=_seats(players), seed=seed)
    table = opened.table
    known = Knowledge(table, _human_seats(name))
    checked = 0
    for _ in range(STEPS):
        known.catch_up()
        for seat in known.seats:
            forbidden = known.forbidden(seat)
            for what, payload in _payloads(client, opened.seats[seat]):
                _check(payload, forbidden, f"{name}: seat {seat}'s {what}")
                checked += 1
        movers = table.humans_to_move()
        if not movers:
            break
        seat = rnd.choice(movers)
        html = client.get(f"{opened.seats[seat]}/fragment").json()["html"]
        moves = re.findall(r'data-move="([^"]+)"', html)
        answer = client.post(f"{opened.seats[seat]}/move",
                             json={"move": _unescape(rnd.choice(moves)), "seat": seat})
        assert answer.status_code == 200, answer.text
        known.catch_up()
        _check(answer.text, known.forbidden(seat), f"{name}: the answer to seat {seat}'s move")
    assert table.now.history
    return checked


def _unescape(text: str) -> str:
    import html
    return html.unescape(text)


@pytest.mark.parametrize("name", SHARED)
def test_the_pass_the_device_screen_shows_nothing_of_either_seat(name):
    players = max(2, load_rules(name).ruleset.game.min_players)
    with web_client() as client:
        opened = open_table(client, name, players, bots=_seats(players), seed=3)
        game, state = opened.table.game, opened.table.now.state
        public = {i for i in game.items
                  if all(game.namer(state, p).sight(game.items[i]) == WHOLE for p in range(players))}
        page = client.get(opened.hot_seat).text
        assert "pass the device to player" in page
        _check(page, (set(game.items) - public, set()), f"{name}: the pass-the-device screen")
        assert 'id="moves"' not in page and 'class="area' not in page


def _mover_and_other(table):
    movers = table.humans_to_move()
    return movers[0], 1 - movers[0]


@pytest.mark.parametrize("name", ["treasure-hunter", "zavandor"])
def test_another_seats_move_or_view_is_refused_and_changes_nothing(name):
    with web_client() as client:
        opened = open_table(client, name, 2, seed=4)
        table = opened.table
        mover, other = _mover_and_other(table)
        html = client.get(f"{opened.seats[mover]}/fragment").json()["html"]
        move = _unescape(re.search(r'data-move="([^"]+)"', html).group(1))
        before = table.now
        # the other seat's link with the mover's move: the rules refuse it, in the other's words
        # (which may repeat what was typed, and nothing else the other cannot see)
        answer = client.post(f"{opened.seats[other]}/move", json={"move": move})
        assert answer.status_code == 400 and answer.json()["code"] in ("M803", "M805")
        typed = set(TOKEN.findall(move))
        _check(answer.text, (set(table.game.items) - _whole(table, other) - typed, set()), "a refusal")
        # the other seat's link acting as the mover: refused before the rules are asked
        answer = client.post(f"{opened.seats[other]}/move", json={"move": move, "seat": mover})
        assert answer.status_code == 403 and "does not play seat" in answer.json()["error"]
        assert client.post(f"{opened.seats[other]}/undo", json={"seat": mover}).status_code == 403
        answer = client.get(f"{opened.seats[other]}/view/{mover}")
        assert answer.status_code == 403 and "viewer" not in answer.text
        assert json.loads(client.get(f"{opened.seats[other]}/view").text)["viewer"] == other
        assert table.now is before


def _whole(table, seat) -> set:
    namer = table.game.namer(table.now.state, seat)
    return {i for i, item in table.game.items.items() if namer.sight(item) == WHOLE}


def test_the_check_catches_a_page_that_shows_another_seats_hand(monkeypatch):
    """The check itself: a fragment that also prints the other seat's view is caught."""
    from meeple.web import routes

    real = routes.seat_fragment

    def leaky(link, lang, extra=None, moment=None):
        moment = moment or link.table.now
        other = 1 - (link.seated or 0)
        return real(link, lang, extra, moment) + json.dumps(link.table.game.view(moment.state, other))
    monkeypatch.setattr(routes, "seat_fragment", leaky)
    with web_client() as client:
        opened = open_table(client, "goofspiel", 2, seed=2)
        known = Knowledge(opened.table)
        known.catch_up()
        with pytest.raises(AssertionError, match="holds"):
            _check(client.get(opened.seats[0]).text, known.forbidden(0), "the leaky page")
