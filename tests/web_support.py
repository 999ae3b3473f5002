"""Helpers of the web tests: a server in the test process (Starlette's TestClient), a
table opened through the lobby's form, and its links read from the host's page."""
from __future__ import annotations

import re
import warnings
from dataclasses import dataclass

with warnings.catch_warnings():  # Starlette suggests httpx2 for its TestClient; httpx is what it runs on
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from meeple.web.routes import create_app
from meeple.web.sources import Sources

BASE = "http://127.0.0.1:8000"  # where the test client says it sends: a name the server answers to
LINK = re.compile(r'<a href="http://127\.0\.0\.1:8000(/play/[^"?]+)\?[^"]*" class="seat-link" data-kind="([a-z-]+)" '
                  r'data-seats="\[([0-9, ]*)\]"')


@dataclass
class Opened:
    host: str  # the host page's path
    seats: dict  # seat -> the path of its own link
    hot_seat: str | None  # the path of the hot-seat link, when two or more seats are human
    table: object  # the server's Table (tests look at its state; pages never do)


def web_client(author=None, allow_paths: bool = False, max_tables: int | None = None, **sources) -> TestClient:
    """A client of a new server.  `allow_paths`: it reads a ruleset path a POST names
    (`meeple serve --allow-paths`); `sources`: Sources' other settings (folders=...)."""
    made = create_app(Sources(allow_paths=allow_paths, **sources), author,
                      **({} if max_tables is None else {"max_tables": max_tables}))
    return TestClient(made, base_url=BASE)


def open_table(client, ruleset: str, players: int, bots: dict | None = None, seed: int = 1, undo: bool = True,
               lang: str = "en", options: dict | None = None, auto: bool = False) -> Opened:
    form = {"ruleset": ruleset, "players": str(players), "seed": str(seed), "lang": lang}
    if auto:
        form["auto"] = "on"  # the lobby's box, checked by default there
    for seat in range(players):
        form[f"seat.{seat}"] = (bots or {}).get(seat, "human")
    if undo:
        form["undo"] = "on"
    for name, value in (options or {}).items():
        form[f"option.{name}"] = value
    answer = client.post("/tables", data=form, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    host = answer.headers["location"].split("?")[0]
    page = client.get(host).text
    seats, hot = {}, None
    for path, kind, listed in LINK.findall(page):
        if kind == "hot-seat":
            hot = path
        else:
            seats[int(listed)] = path
    token = host.rsplit("/", 1)[1]
    table = client.app.state.server.tables.find(token).table
    return Opened(host, seats, hot, table)
