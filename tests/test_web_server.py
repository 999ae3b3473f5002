"""`meeple serve` without a browser: the lobby, the seat links, moves, refusals, undo,
bots, hot-seat, live updates and languages, through Starlette's TestClient."""
from __future__ import annotations

import html as markup
import json
import os
import random
import re
import sys
import threading

import pytest

from meeple.interpreter import list_rulesets

from web_support import open_table, web_client


@pytest.fixture
def client():
    with web_client() as made:
        yield made


def _fragment(answer) -> str:
    assert answer.status_code == 200, answer.text
    return answer.json()["html"]


def test_the_lobby_offers_every_shipped_ruleset_and_its_setup(client):
    page = client.get("/").text
    for name in list_rulesets():
        assert f'value="{name}"' in page
    form = client.get("/new", params={"ruleset": "freyas-folly"}).text
    assert re.findall(r'<select name="players">(.*?)</select>', form)[0].count("<option") == 3  # 3-5 players
    for seat in range(5):
        assert f'name="seat.{seat}"' in form
    assert 'value="ismcts:60:depth=3"' in form and 'name="undo"' in form
    assert 'name="option.heaps" value="[3, 4, 5]"' in client.get("/new", params={"ruleset": "nim"}).text


@pytest.mark.parametrize("form,status,said", [
    ({"ruleset": "no-such-game"}, 404, "no ruleset"),
    ({"ruleset": "/etc"}, 403, "reads only the rulesets in its lobby"),
    ({"ruleset": "tic-tac-toe", "players": "3"}, 400, "tic-tac-toe is for 2-2 players"),
    ({"ruleset": "tic-tac-toe", "players": "two"}, 400, "players must be a whole number"),
    ({"ruleset": "nim", "players": "2", "option.heaps": "7"}, 400, "option &#x27;heaps&#x27; must be a list"),
    ({"ruleset": "nim", "players": "2", "option.colour": "red"}, 400, "unknown option"),
    ({"ruleset": "nim", "players": "2", "seat.0": "random", "seat.1": "random"}, 400, "at least one human seat"),
    ({"ruleset": "nim", "players": "2", "seat.1": "mcts:999999"}, 400, "must be human or one of the bots"),
    ({"ruleset": "nim", "players": "2", "seed": "x"}, 400, "seed must be a whole number"),
])
def test_a_bad_table_form_is_refused_with_its_reason(client, form, status, said):
    answer = client.post("/tables", data=form, follow_redirects=False)
    assert answer.status_code == status
    assert said in answer.text and "Traceback" not in answer.text


def test_a_rules_folder_is_offered_and_its_diagnostics_shown_to_its_author(tmp_path):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "game.yaml").write_text("game: {name: broken, players: 2}\nflow: [{choose: [nothing]}]\n")
    with web_client(folders=[folder]) as client:
        assert f'value="{folder.resolve()}"' in client.get("/").text
        answer = client.get("/new", params={"ruleset": str(folder.resolve())})
        assert answer.status_code == 400 and "the ruleset has errors" in answer.text
        assert "game.yaml:2" in answer.text  # its diagnostics, located: the command line named it


def test_a_whole_game_of_tic_tac_toe_through_the_hot_seat_link(client):
    opened = open_table(client, "tic-tac-toe", 2)
    hot = opened.hot_seat
    page = client.get(hot).text
    assert 'data-token="' in page and 'data-node="b2"' in page and "to move: player 0" in page
    for text in ["place(at=a1)", "place(at=b1)", "place(at=a2)", "place(at=b2)", "place(at=a3)"]:
        html = _fragment(client.post(f"{hot}/move", json={"move": text}))
    assert opened.table.now.state.over
    assert "game over" in html and "three in a row" in html and "winner: player 0" in html
    assert 'id="moves"' not in html  # no moves after the end


def test_an_illegal_move_says_why_cites_its_rule_and_changes_nothing(client):
    opened = open_table(client, "tic-tac-toe", 2)
    client.post(f"{opened.seats[0]}/move", json={"move": "place(at=b2)"})
    before = opened.table.now
    answer = client.post(f"{opened.seats[1]}/move", json={"move": "place(at=b2)"})
    assert answer.status_code == 400
    assert answer.json() == {"error": "that cell is already taken (rule turn)", "code": "M804", "rule": "turn"}
    assert client.post(f"{opened.seats[1]}/move", json={"move": "jump(at=a1)"}).json()["code"] == "M801"
    assert client.post(f"{opened.seats[1]}/move", json={"move": 7}).status_code == 400
    assert client.post(f"{opened.seats[1]}/move", content=b"not json").status_code == 400
    assert opened.table.now is before


def test_another_seats_move_or_view_is_refused(client):
    opened = open_table(client, "tic-tac-toe", 2)
    before = opened.table.now
    # seat 1's link, seat 0's move: it is not seat 1's turn, and seat 1 cannot act as seat 0
    assert client.post(f"{opened.seats[1]}/move", json={"move": "place(at=a1)"}).json()["code"] == "M805"
    answer = client.post(f"{opened.seats[1]}/move", json={"move": "place(at=a1)", "seat": 0})
    assert answer.status_code == 403 and answer.json()["error"] == "this link does not play seat 0"
    assert client.get(f"{opened.seats[1]}/view/0").status_code == 403
    assert client.get(f"{opened.seats[1]}/view/1").json()["viewer"] == 1
    assert client.get("/play/not-a-token").status_code == 404
    assert client.post("/play/not-a-token/move", json={"move": "place(at=a1)"}).status_code == 404
    assert client.get(f"{opened.host}/view").status_code == 404  # the host's link plays no seat
    assert opened.table.now is before


def test_undo_takes_back_ones_own_last_move_until_another_human_moves(client):
    opened = open_table(client, "tic-tac-toe", 2)
    zero, one = opened.seats[0], opened.seats[1]
    assert 'id="undo"' not in client.get(zero).text
    html = _fragment(client.post(f"{zero}/move", json={"move": "place(at=b2)"}))
    assert 'id="undo"' in html
    assert client.post(f"{one}/undo", json={}).status_code == 409  # seat 1 has no move to undo
    _fragment(client.post(f"{zero}/undo", json={}))
    assert opened.table.now.state.vars["cell"]["b2"] == "" and not opened.table.now.history
    client.post(f"{zero}/move", json={"move": "place(at=b2)"})
    client.post(f"{one}/move", json={"move": "place(at=a1)"})
    answer = client.post(f"{zero}/undo", json={})
    assert answer.status_code == 409 and answer.json()["error"] == "you have no move to undo"
    closed = open_table(client, "tic-tac-toe", 2, undo=False)
    client.post(f"{closed.seats[0]}/move", json={"move": "place(at=b2)"})
    assert client.post(f"{closed.seats[0]}/undo", json={}).status_code == 409


def test_a_bot_answers_each_move_and_undo_takes_its_answer_back(client):
    opened = open_table(client, "connect-four", 2, bots={1: "random"}, seed=5)
    me = opened.seats[0]
    _fragment(client.post(f"{me}/move", json={"move": "drop(col=3)"}))
    now = opened.table.now
    assert [m.player for _, m in now.history] == [0, 1] and not now.state.over
    answer = client.get(f"{me}/fragment").json()
    assert answer["version"] == 2 and "<li value=\"2\">player 1: drop(col=" in answer["html"]
    _fragment(client.post(f"{me}/undo", json={}))
    assert opened.table.now.history == ()
    client.post(f"{me}/move", json={"move": "drop(col=3)"})
    assert opened.table.now.history[1][1] == now.history[1][1]  # the bot answers as before


def test_a_bot_in_the_first_seat_moves_as_the_table_opens(client):
    opened = open_table(client, "tic-tac-toe", 2, bots={0: "random"})
    assert [m.player for _, m in opened.table.now.history] == [0]
    assert opened.hot_seat is None and list(opened.seats) == [1]


def test_the_hot_seat_link_asks_for_the_device_before_showing_a_seat_with_secrets(client):
    opened = open_table(client, "goofspiel", 2)
    hot, hand = opened.hot_seat, "S0-1"
    page = client.get(hot).text
    assert "pass the device to player 0" in page and hand not in page
    assert client.post(f"{hot}/move", json={"move": "bid(card=S0-1)"}).status_code == 409
    assert client.get(f"{hot}/view").status_code == 409
    assert client.post(f"{hot}/seat", json={"seat": 1}).status_code == 409  # not player 1's turn to sit
    html = _fragment(client.post(f"{hot}/seat", json={"seat": 0}))
    assert hand in html and "pass the device" not in html
    move = re.search(r'data-move="([^"]+)"', html).group(1)
    html = _fragment(client.post(f"{hot}/move", json={"move": move}))
    assert "pass the device to player 1" in html and hand not in html
    html = _fragment(client.post(f"{hot}/seat", json={"seat": 1}))
    assert "S1-1" in html and hand not in html


def test_a_seat_link_never_takes_a_hot_seat(client):
    opened = open_table(client, "goofspiel", 2)
    assert client.post(f"{opened.seats[1]}/seat", json={"seat": 1}).status_code == 403


def _events(client, path, count):
    """The first `count` server-sent events of a page's stream, as (name, data)."""
    found = []
    with client.stream("GET", f"{path}/events") as stream:
        name = None
        for line in stream.iter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                found.append((name, json.loads(line[6:])))
                if len(found) == count:
                    break
    return found


def test_the_live_stream_sends_the_page_now_and_after_each_change(client):
    opened = open_table(client, "tic-tac-toe", 2)
    (name, first), = _events(client, opened.seats[1], 1)
    assert name == "table" and first["version"] == 0 and 'data-seat="1"' in first["html"]
    client.post(f"{opened.seats[0]}/move", json={"move": "place(at=c3)"})
    (_, now), = _events(client, opened.seats[1], 1)
    assert now["version"] == 1 and "player 0: place(at=c3)" in now["html"] and 'id="moves"' in now["html"]


def test_pages_speak_hungarian_when_asked_and_remember_it(client):
    opened = open_table(client, "tic-tac-toe", 2, lang="hu")
    page = client.get(opened.seats[0], params={"lang": "hu"})
    assert "te vagy a(z) 0. játékos" in page.text and "Jel lerakása" in page.text
    assert page.cookies.get("meeple_lang") == "hu"
    again = client.get(opened.seats[0]).text  # no lang in the address: the cookie's
    assert "te vagy a(z) 0. játékos" in again
    client.post(f"{opened.seats[0]}/move", json={"move": "place(at=b2)"})
    answer = client.post(f"{opened.seats[1]}/move?lang=hu", json={"move": "place(at=b2)"})
    assert answer.json()["error"] == "az a mező már foglalt (szabály turn)"
    assert "you are player 0" in client.get(opened.seats[0], params={"lang": "en"}).text


def test_a_request_too_big_is_refused_before_it_is_read_whole(client):
    opened = open_table(client, "tic-tac-toe", 2)
    answer = client.post(f"{opened.seats[0]}/move", content=b'{"move": "' + b"x" * 100_000 + b'"}')
    assert answer.status_code == 413 and "at most 65536 bytes" in answer.json()["error"]
    answer = client.post("/tables", content=b"ruleset=nim&" + b"x" * 100_000)
    assert answer.status_code == 413 and "Traceback" not in answer.text
    assert not opened.table.now.history


def test_static_files_and_unknown_addresses(client):
    assert "EventSource" in client.get("/static/table.js").text
    answer = client.get("/no/such/page")
    assert answer.status_code == 404 and "not found" in answer.text


def test_serve_without_the_web_extra_says_which_extra_in_one_line(monkeypatch):
    from typer.testing import CliRunner

    from meeple.cli.main import app
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    result = CliRunner().invoke(app, ["serve"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == ["error: meeple serve needs the web extra: pip install "
                                                  "'meeple[web]'"]


def _play_to_the_end(client, link: str, lang: str, seed: int) -> tuple[str, int, int]:
    """Random moves from the hot-seat page, taking each seat as it is asked for, until the
    page has no move left: (the last fragment, moves played, seats taken)."""
    rnd, moves, seats = random.Random(seed), 0, 0
    while True:
        html = client.get(f"{link}/fragment", params={"lang": lang}).json()["html"]
        asked = re.search(r'id="take-seat" data-seat="(\d+)"', html)
        if asked:
            _fragment(client.post(f"{link}/seat", json={"seat": int(asked.group(1))}))
            seats += 1
            continue
        offered = re.findall(r'data-move="([^"]+)"', html)
        if not offered:
            return html, moves, seats
        _fragment(client.post(f"{link}/move?lang={lang}", json={"move": markup.unescape(rnd.choice(offered))}))
        moves += 1


@pytest.mark.parametrize("name,lang,options,ending", [
    ("goofspiel", "hu", {}, "ok: a játékmenet véget ért"),
    ("treasure-hunter", "en", {"cards": "2"}, "reason: the flow of play is complete"),
    ("nim", "en", {}, "reason: the last object was taken"),
])
def test_a_game_plays_to_its_end_on_one_device_passed_between_seats(client, name, lang, options, ending):
    opened = open_table(client, name, 2, seed=9, lang=lang, options=options)
    html, moves, seats = _play_to_the_end(client, opened.hot_seat, lang, seed=9)
    assert opened.table.now.state.over and moves == len(opened.table.now.history)
    assert ending in html and ("győztes" in html or "winner" in html or "döntetlen" in html or "draw" in html)
    assert seats >= (moves if name == "goofspiel" else 0)  # simultaneous bids: the device passes at every move


def test_meeple_serve_prints_its_address_and_serves_the_lobby():
    import subprocess

    import httpx
    server = subprocess.Popen([sys.executable, "-m", "meeple.cli", "serve", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "200"})
    try:
        line = server.stdout.readline()
        address = re.search(r"http://127\.0\.0\.1:\d+/", line).group(0)
        with httpx.Client(trust_env=False) as http:  # straight to this machine, past any proxy
            for _ in range(200):
                try:
                    answer = http.get(address)
                    break
                except httpx.ConnectError:  # printed just before uvicorn listens
                    threading.Event().wait(0.05)
        assert answer.status_code == 200 and 'value="tic-tac-toe"' in answer.text
    finally:
        server.terminate()
        server.wait(10)


def test_serve_refuses_a_missing_rules_folder_and_a_bad_port(tmp_path):
    from typer.testing import CliRunner

    from meeple.cli.main import app
    result = CliRunner().invoke(app, ["serve", "--rules", str(tmp_path / "nothing")])
    assert result.exit_code == 2 and "no such folder" in result.output
    result = CliRunner().invoke(app, ["serve", "--port", "70000"])
    assert result.exit_code == 2 and "--port must be 0 to 65535" in result.output
