"""`meeple serve` against hostile requests (docs/web.md, "What `meeple serve` exposes"):
another site's page, a name rebound to this computer, paths typed into requests, a flood
of tables, and malformed requests of every known shape.  Each is refused with its status
and code, never answered with a traceback or a file's content, and never logged as an
internal error.  Starlette's TestClient, no browser; one test runs `meeple serve` itself."""
from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
import sys
import threading
from urllib.parse import urlencode

import pytest

from meeple.interpreter import find_ruleset
from meeple.web.bodies import BODY_LIMIT, FORM_FIELDS, JSON_DEPTH
from meeple.web.guard import Addresses

from web_support import BASE, open_table, web_client

ELSEWHERE = "http://elsewhere.example"
SECRET = "root:x:0:0:the-secret-line-of-a-file"


@pytest.fixture
def client():
    with web_client() as made:
        yield made


@pytest.fixture
def paths():
    """A server started with --allow-paths."""
    with web_client(allow_paths=True) as made:
        yield made


@pytest.fixture
def internal_errors():
    """The server log's internal-error lines (web/last_resort.py): none may appear.

    The capture hangs on the logger itself, not on the root as caplog's does: once any test
    in this process has started uvicorn, its logging config stops "uvicorn" records there."""
    logger, lines = logging.getLogger("uvicorn.error"), []

    class Keep(logging.Handler):
        def emit(self, record):
            lines.append(record.getMessage())
    keep, level = Keep(logging.ERROR), logger.level
    logger.addHandler(keep)
    logger.setLevel(logging.ERROR)
    yield lambda: list(lines)
    logger.removeHandler(keep)
    logger.setLevel(level)


@pytest.fixture
def ruleset(tmp_path):
    copy = tmp_path / "my-game"
    shutil.copytree(find_ruleset("tic-tac-toe"), copy)
    text = (copy / "game.yaml").read_text()
    (copy / "game.yaml").write_text(re.sub(r"title: .*", "title: Typed Tic-Tac-Toe", text, count=1))
    return copy


@pytest.fixture
def reads(monkeypatch, tmp_path):
    """Every ruleset the server loads, and every file it reads, under tmp_path."""
    import meeple.dsl.source as source
    import meeple.web.sources as sources
    seen = []

    def spy(real):
        def called(path, *args, **kwargs):
            if str(path).startswith(str(tmp_path)):
                seen.append(str(path))
            return real(path, *args, **kwargs)
        return called
    monkeypatch.setattr(sources, "load_rules", spy(sources.load_rules))
    monkeypatch.setattr(sources, "load_ruleset", spy(sources.load_ruleset))
    monkeypatch.setattr(source, "read_file_bytes", spy(source.read_file_bytes))
    return seen


def _code(answer) -> str | None:
    """The refusal's code: in a JSON answer's `code`, on a page as `data-code`."""
    if answer.headers.get("content-type", "").startswith("application/json"):
        return answer.json().get("code")
    found = re.search(r'data-code="([^"]+)"', answer.text)
    return found.group(1) if found else None


def _refused(answer, status: int, code: str) -> None:
    assert (answer.status_code, _code(answer)) == (status, code), answer.text[-400:]
    assert "Traceback" not in answer.text and SECRET not in answer.text


def _table_form(ruleset="nim", **extra) -> dict:
    return {"ruleset": ruleset, "players": "2", "seat.1": "random", "seed": "1", **extra}


# -- another site's page --------------------------------------------------------------------
# Each request that changes something, with a body it would be taken with: (address, body, sent as)
STATE_CHANGES = {
    "open a table": ("/tables", {"ruleset": "nim", "players": "2", "seat.1": "random"}, "form"),
    "read a typed path": ("/new", {"folder": "{folder}"}, "form"),
    "move": ("{seat1}/move", {"move": "bid(card=S1-1)"}, "json"),
    "undo": ("{seat0}/undo", {}, "json"),
    "take the hot seat": ("{hot}/seat", {"seat": 1}, "json"),
    "ask why": ("{seat0}/why", {"move": "bid(card=S0-9)"}, "json"),
    "save a scenario": ("{seat0}/scenario", {}, "json"),
}


@pytest.mark.parametrize("route", STATE_CHANGES)
@pytest.mark.parametrize("says", [{"Origin": ELSEWHERE}, {"Referer": ELSEWHERE + "/page.html"}, {"Origin": "null"},
                                  {"Origin": "http://127.0.0.1:9000"}])
def test_a_state_change_asked_by_another_sites_page_is_refused(route, says, tmp_path):
    from meeple.web.author import AuthorPanel
    folder = tmp_path / "my-goofspiel"
    shutil.copytree(find_ruleset("goofspiel"), folder, ignore=shutil.ignore_patterns("scenarios"))
    with web_client(author=AuthorPanel(), allow_paths=True) as client:
        opened = open_table(client, str(folder), 2)
        assert client.post(f"{opened.seats[0]}/move", json={"move": "bid(card=S0-1)"}).status_code == 200
        hot = client.app.state.server.tables.find(opened.hot_seat.rsplit("/", 1)[1])
        before, tables, seated = opened.table.now, len(client.app.state.server.tables.all()), hot.seated
        address, body, kind = STATE_CHANGES[route]
        address = address.format(seat0=opened.seats[0], seat1=opened.seats[1], hot=opened.hot_seat)
        body = {k: v.format(folder=folder) if isinstance(v, str) else v for k, v in body.items()}

        def send(headers):
            sent = {"data": body} if kind == "form" else {"json": body}
            return client.post(address, headers=headers, follow_redirects=False, **sent)
        _refused(send(says), 403, "W403")
        assert opened.table.now is before and len(client.app.state.server.tables.all()) == tables
        assert hot.seated == seated
        assert not (folder / "scenarios").exists()
        assert send({}).status_code in (200, 303)  # the same request from no other site is taken


def test_twenty_five_cross_site_posts_open_no_table_and_the_servers_own_page_opens_one(client):
    for seed in range(25):
        _refused(client.post("/tables", data=_table_form(seed=str(seed)), headers={"Origin": ELSEWHERE}), 403, "W403")
    assert client.app.state.server.tables.all() == []
    own = client.post("/tables", data=_table_form(), headers={"Origin": BASE, "Referer": BASE + "/new"},
                      follow_redirects=False)
    assert own.status_code == 303 and len(client.app.state.server.tables.all()) == 1


def test_a_page_of_another_site_may_still_read_nothing_it_could_change(client):
    """GETs change nothing, so they are not refused for their Origin (a link from anywhere works)."""
    assert client.get("/", headers={"Origin": ELSEWHERE, "Referer": ELSEWHERE}).status_code == 200


# -- a name rebound to this computer ----------------------------------------------------------
@pytest.mark.parametrize("host", ["elsewhere.example", "elsewhere.example:8000", "127.0.0.1.nip.io:8000", "",
                                  "127.0.0.1:80x", "a b", "127.0.0.1@elsewhere.example"])
def test_a_request_sent_to_another_name_is_refused(client, host):
    _refused(client.get("/", headers={"Host": host}), 400, "W400")
    # a rebinding page's POST is same-origin to the browser: the Host gives it away
    answer = client.post("/tables", data=_table_form(), headers={"Host": host, "Origin": f"http://{host}"},
                         follow_redirects=False)
    _refused(answer, 400, "W400")
    assert client.app.state.server.tables.all() == []


@pytest.mark.parametrize("bound,accepted,refused", [
    ("127.0.0.1", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST:8000", "127.0.0.1"],
     ["127.0.0.1:8001", "elsewhere.example:8000", "10.0.0.5:8000", "[::1]:80"]),
    ("::1", ["[::1]:8000", "localhost:8000"], ["elsewhere.example:8000"]),
    ("192.168.1.7", ["192.168.1.7:8000"], ["127.0.0.1:8000", "localhost:8000", "elsewhere.example:8000"]),
    ("0.0.0.0", ["192.168.1.7:8000", "[fe80::1]:8000", "localhost:8000", "10.1.2.3"],
     ["elsewhere.example:8000", "192.168.1.7:9000"]),
])
def test_the_names_a_server_answers_to_follow_the_address_it_listens_on(bound, accepted, refused):
    addresses = Addresses.listening(bound, 8000)
    assert [h for h in accepted if not addresses.accepts(h)] == []
    assert [h for h in refused if addresses.accepts(h)] == []


def test_a_server_told_its_port_refuses_another(tmp_path):
    from starlette.testclient import TestClient

    from meeple.web.routes import create_app
    with TestClient(create_app(addresses=Addresses.listening("127.0.0.1", 8000)), base_url=BASE) as client:
        assert client.get("/").status_code == 200
        _refused(client.get("/", headers={"Host": "127.0.0.1:8123"}), 400, "W400")


# -- paths typed into requests ---------------------------------------------------------------
def test_a_get_never_reads_a_path_even_with_allow_paths(client, paths, ruleset, reads):
    for server in (client, paths):
        for params in ({"folder": str(ruleset)}, {"ruleset": str(ruleset)}, {"folder": str(ruleset / "game.yaml")}):
            _refused(server.get("/new", params=params), 403, "W403")
    assert reads == []  # the ruleset was never read, let alone loaded (it could be anything)
    # the spies do see a read: the same path, sent as a POST to a server that takes paths
    answer = paths.post("/new", data={"folder": str(ruleset)})
    assert answer.status_code == 200 and "Typed Tic-Tac-Toe" in answer.text and reads


def test_a_typed_path_is_taken_only_in_a_post_to_a_server_that_allows_paths(client, paths, ruleset, reads):
    _refused(client.post("/new", data={"folder": str(ruleset)}), 403, "W403")
    _refused(client.post("/tables", data=_table_form(str(ruleset)), follow_redirects=False), 403, "W403")
    assert reads == [] and client.app.state.server.tables.all() == []
    assert "Typed Tic-Tac-Toe" not in client.get("/").text and 'name="folder"' not in client.get("/").text
    lobby = paths.get("/").text
    assert re.search(r'<form method="post" action="/new\?lang=en"[^>]*><label>[^<]*<input name="folder"', lobby)
    setup = paths.post("/new", data={"folder": str(ruleset)})
    assert f'name="ruleset" value="{ruleset.resolve()}"' in setup.text
    answer = paths.post("/tables", data=_table_form(str(ruleset.resolve())), follow_redirects=False)
    assert answer.status_code == 303
    (table,) = paths.app.state.server.tables.all()
    assert table.source == str(ruleset.resolve()) and table.game.rules.ruleset.game.title == "Typed Tic-Tac-Toe"


def test_a_file_is_never_quoted(client, paths, tmp_path):
    secret = tmp_path / "secrets.txt"
    secret.write_text(SECRET + "\n" + "password: hunter2\n{ not: yaml\n")
    files = [str(secret)] + [p for p in ("/etc/passwd", "/etc/shadow") if os.path.exists(p)]
    for path in files:
        for server in (client, paths):
            for answer in (server.get("/new", params={"folder": path}), server.get("/new", params={"ruleset": path})):
                assert answer.status_code == 403 and "root:" not in answer.text and "hunter2" not in answer.text
        for answer in (client.post("/new", data={"folder": path}),
                       client.post("/tables", data=_table_form(path), follow_redirects=False)):
            _refused(answer, 403, "W403")
        # with --allow-paths, in a POST: how many errors, none of them quoted
        for answer in (paths.post("/new", data={"folder": path}),
                       paths.post("/tables", data=_table_form(path), follow_redirects=False)):
            assert answer.status_code in (400, 404) and _code(answer) in ("W400", "W404")
            assert "root:" not in answer.text and "hunter2" not in answer.text and "diagnostics" not in answer.text
    assert re.search(r"has [1-9]\d* error\(s\)", paths.post("/new", data={"folder": str(secret)}).text)


def test_a_broken_typed_ruleset_is_counted_not_quoted(paths, ruleset):
    (ruleset / "game.yaml").write_text((ruleset / "game.yaml").read_text().replace("choose: [place]",
                                                                                   "choose: [plaice]"))
    answer = paths.post("/new", data={"folder": str(ruleset)})
    _refused(answer, 400, "W400")
    assert re.search(r"has [1-9]\d* error\(s\); run `meeple validate`", answer.text)
    assert "plaice" not in answer.text and "game.yaml" not in answer.text


def test_a_device_or_a_pipe_is_refused_unread(paths, tmp_path):
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)  # opened for reading, it would wait for a writer forever
    for path in ("/dev/zero", "/dev/urandom", str(fifo)):
        if os.path.exists(path):
            _refused(paths.post("/new", data={"folder": path}), 400, "W400")
            _refused(paths.get("/new", params={"folder": path}), 403, "W403")
    _refused(paths.post("/new", data={"folder": str(tmp_path / "nothing-here")}), 404, "W404")


# -- a flood of tables ---------------------------------------------------------------------------
def test_tables_are_capped_and_a_finished_or_idle_one_makes_room():
    with web_client(max_tables=3) as client:
        tables = client.app.state.server.tables
        opened = [open_table(client, "tic-tac-toe", 2) for _ in range(3)]
        for _ in range(2):
            _refused(client.post("/tables", data=_table_form("tic-tac-toe"), follow_redirects=False), 503, "W503")
        assert len(tables.all()) == 3
        for move in ("place(at=a1)", "place(at=b1)", "place(at=a2)", "place(at=b2)", "place(at=a3)"):
            client.post(f"{opened[1].hot_seat}/move", json={"move": move})
        assert opened[1].table.now.state.over
        fourth = open_table(client, "tic-tac-toe", 2)  # takes the finished table's place
        assert opened[1].table not in tables.all() and client.get(opened[1].seats[0]).status_code == 404
        _refused(client.post(f"{opened[1].seats[0]}/undo", json={}), 404, "W404")
        opened[0].table.changed_at -= tables.IDLE + 1  # nobody has moved there for more than an hour
        open_table(client, "tic-tac-toe", 2)
        assert opened[0].table not in tables.all() and opened[2].table in tables.all() and fourth.table in tables.all()
        _refused(client.post("/tables", data=_table_form("tic-tac-toe"), follow_redirects=False), 503, "W503")


def test_a_flood_of_same_site_posts_holds_no_more_tables_than_the_cap(internal_errors):
    with web_client(max_tables=5) as client:
        statuses = [client.post("/tables", data=_table_form("tic-tac-toe", seed=str(n)),
                                follow_redirects=False).status_code for n in range(200)]
        assert statuses.count(303) == 5 and statuses.count(503) == 195
        assert len(client.app.state.server.tables.all()) == 5
        assert len(client.app.state.server.tables.passes._by_token) == 5 * 2  # each: a seat's link, the host's
    assert internal_errors() == []


# -- malformed requests ------------------------------------------------------------------------------
def _deep(n: int) -> str:
    return "[" * n + "]" * n


MOVE_BODIES = [
    (b'{"move": ' + _deep(20_000).encode() + b"}", None, 400, "W400"),  # RecursionError in json, before
    (b'{"move": ' + _deep(JSON_DEPTH).encode() + b"}", None, 400, "W400"),  # one level too deep
    (b'{"move": "' + b"\\\\" * 20 + b'\\"[[[[' * 40 + b'"}', None, 400, "M802"),  # brackets in a string: text
    (b"\xff\xfe{\x00}", None, 400, "W400"),  # not UTF-8
    (b'{"move": 1e999}', None, 400, "W400"),
    (b'{"move": ' + b"9" * 5000 + b"}", None, 400, "W400"),  # past Python's digits limit
    (b'{"move": "place(at=a1)", "seat": "' + b"9" * 5000 + b'"}', None, 400, "W400"),
    (b'{"move": "place(at=a1)", "seat": "\xc2\xb2"}', None, 400, "W400"),  # a digit int() does not take
    (b'{"move": "place(at=a1)", "seat": true}', None, 400, "W400"),
    (b'{"move": "place(at=a1)", "seat": 100000000000000000000000}', None, 403, "W403"),
    (b"[1, 2]", None, 400, "W400"),
    (b"{}", None, 400, "W400"),
    (b'{"move": "' + b"x" * (BODY_LIMIT + 1) + b'"}', None, 413, "W413"),
    (b'{"move": "place(at=a1)"}', "text/plain", 415, "W415"),
    (b'{"move": "place(at=a1)"}', "multipart/form-data; boundary=x", 415, "W415"),
    (b"move=place(at%3Da1)", "application/x-www-form-urlencoded", 415, "W415"),
]


@pytest.mark.parametrize("body,kind,status,code", MOVE_BODIES)
def test_a_malformed_move_is_a_4xx_with_its_code(client, internal_errors, body, kind, status, code):
    opened = open_table(client, "tic-tac-toe", 2)
    before = opened.table.now
    answer = client.post(f"{opened.seats[0]}/move", content=body, headers={"Content-Type": kind} if kind else {})
    _refused(answer, status, code)
    assert opened.table.now is before and internal_errors() == []


TABLE_FORMS = [
    (_table_form(**{"option.heaps": "[1000000000000]"}), 400, "R702"),  # a limit of the rules, at setup
    (_table_form(**{"option.heaps": "[100000000000000000000]"}), 400, "R702"),
    (_table_form(**{"option.heaps": '["x"]'}), 400, "W400"),  # of another type than its default's: refused before set-up
    (_table_form(**{"option.heaps": _deep(20_000)}), 400, "W400"),
    (_table_form(**{"option.heaps": "[" + _deep(JSON_DEPTH) + "]"}), 400, "W400"),
    (_table_form(**{"option.heaps": "1e999"}), 400, "W400"),
    (_table_form(players="9" * 5000), 400, "W400"),
    (_table_form(players="-3"), 400, "W400"),
    (_table_form(seed="9" * 5000), 400, "W400"),
    (_table_form(**{"seat.1": "mcts:1000000000"}), 400, "W400"),
    ({}, 404, "W404"),
    ({"ruleset": "../../etc"}, 403, "W403"),
    ({"ruleset": "nim\x00"}, 404, "W404"),
    ({f"option.x{n}": "1" for n in range(FORM_FIELDS + 1)}, 400, "W400"),
]


@pytest.mark.parametrize("form,status,code", TABLE_FORMS)
def test_a_malformed_table_form_is_a_4xx_with_its_code(client, internal_errors, form, status, code):
    sent = urlencode(form, safe="[]").encode()  # brackets as a browser may send them: 20,000 deep fits in 64 KiB
    assert len(sent) <= BODY_LIMIT
    answer = client.post("/tables", content=sent, headers={"Content-Type": "application/x-www-form-urlencoded"},
                         follow_redirects=False)
    _refused(answer, status, code)
    assert client.app.state.server.tables.all() == [] and internal_errors() == []


def test_the_option_that_breaks_a_limit_says_so_with_the_rules_message(client):
    answer = client.post("/tables", data=_table_form(**{"option.heaps": "[1000000000000]"}), follow_redirects=False)
    assert "the game cannot start with these settings: range of more than 100,000 numbers [R702]" in answer.text


@pytest.mark.parametrize("kind,body,status,code", [
    ("application/json", b'{"ruleset": "nim"}', 415, "W415"),
    ("multipart/form-data; boundary=x", b"--x--", 415, "W415"),
    ("application/x-www-form-urlencoded", b"ruleset=nim&players=2&seat.1=random&lang=\xff\xfe", 303, None),
    (None, b"ruleset=n\xffim", 404, "W404"),
])
def test_a_table_form_of_another_kind_or_encoding(client, internal_errors, kind, body, status, code):
    answer = client.post("/tables", content=body, headers={"Content-Type": kind} if kind else {},
                         follow_redirects=False)
    assert answer.status_code == status and (code is None or _code(answer) == code)
    assert "Traceback" not in answer.text and internal_errors() == []


def test_other_malformed_requests_are_4xx(client, internal_errors):
    opened = open_table(client, "goofspiel", 2)
    answers = {
        "a seat that is not a number": client.get(f"{opened.seats[0]}/view/x1"),
        "a seat past the digits limit": client.get(f"{opened.seats[0]}/view/" + "9" * 5000),
        "a hot seat asked by a list": client.post(f"{opened.hot_seat}/seat", json={"seat": [0]}),
        "a path that is not UTF-8": client.get("/play/%ff%fe"),
        "a GET of a POST's address": client.get("/tables"),
        "a PUT": client.put(f"{opened.seats[0]}/move", json={"move": "x"}),
        "a form that is too big": client.post("/tables", content=b"ruleset=nim&" + b"x" * BODY_LIMIT),
        "an unknown ruleset": client.get("/new", params={"ruleset": "no-such-game"}),
        "no ruleset at all": client.get("/new"),
    }
    wrong = {what: a.status_code for what, a in answers.items()
             if not 400 <= a.status_code < 500 or "Traceback" in a.text}
    assert wrong == {} and internal_errors() == []


def test_the_language_asked_in_a_form_never_reaches_a_header(client):
    answer = client.post("/tables", data=_table_form(lang="hu\r\nSet-Cookie: x=1"), follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"].endswith("?lang=en")
    assert "x=1" not in answer.headers.get("set-cookie", "")


def test_an_unexpected_failure_is_a_short_500_and_one_log_line(client, internal_errors, monkeypatch):
    import meeple.web.routes as routes

    def broken(*args, **kwargs):
        raise RuntimeError("boom-7f3")
    monkeypatch.setattr(routes, "lobby_page", broken)
    answer = client.get("/")
    assert answer.status_code == 500 and _code(answer) == "W500" and "Traceback" not in answer.text
    assert "boom-7f3" not in answer.text
    (line,) = internal_errors()
    assert "RuntimeError: boom-7f3" in line and "GET /" in line


# -- the command line's server ---------------------------------------------------------------------
def test_meeple_serve_checks_names_and_origins_and_caps_tables():
    import httpx
    server = subprocess.Popen([sys.executable, "-m", "meeple.cli", "serve", "--port", "0", "--max-tables", "1"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "COLUMNS": "200"})
    try:
        address = re.search(r"http://127\.0\.0\.1:\d+", server.stdout.readline()).group(0)
        with httpx.Client(trust_env=False, base_url=address) as http:  # straight to this machine, past any proxy
            for _ in range(200):
                try:
                    assert http.get("/").status_code == 200
                    break
                except httpx.ConnectError:  # printed just before uvicorn listens
                    threading.Event().wait(0.05)
            port = address.rsplit(":", 1)[1]
            assert http.get("/", headers={"Host": "elsewhere.example"}).status_code == 400
            assert http.get("/", headers={"Host": f"localhost:{port}"}).status_code == 200
            form = {"ruleset": "nim", "players": "2", "seat.1": "random"}
            assert http.post("/tables", data=form, headers={"Origin": ELSEWHERE}).status_code == 403
            assert http.post("/tables", data=form, headers={"Origin": address}).status_code == 303
            assert http.post("/tables", data=form).status_code == 503  # --max-tables 1
            assert http.get("/new", params={"folder": "/etc/passwd"}).status_code == 403
    finally:
        server.terminate()
        _, log = server.communicate(timeout=10)
    assert "Traceback" not in log and "internal error" not in log
