"""The author panel (`meeple serve --author`): the state, the flow, why each action is not
legal, the scenario recorder and reload on change, through Starlette's TestClient."""
from __future__ import annotations

import html as markup
import re
import shutil

import pytest

from meeple.interpreter import find_ruleset
from meeple.interpreter.analysis.scenario import load_scenarios, run_scenario
from meeple.web.author import AuthorPanel

from web_support import open_table, web_client


@pytest.fixture
def panel():
    return AuthorPanel()


@pytest.fixture
def client(panel):
    with web_client(author=panel, allow_paths=True) as made:
        yield made


@pytest.fixture
def folder(tmp_path):
    copy = tmp_path / "my-tic-tac-toe"
    shutil.copytree(find_ruleset("tic-tac-toe"), copy)
    return copy


def _panel(client, path) -> str:
    html = client.get(f"{path}/fragment").json()["html"]
    return html[html.index('<section class="author">'):]


def test_the_panel_shows_the_state_the_flow_and_every_action_with_why_not(client):
    opened = open_table(client, "treasure-hunter", 2, seed=3)
    shown = _panel(client, opened.seats[0])
    assert "the full state" in shown and "&quot;pc&quot;: " in shown and "&quot;rng&quot;" in shown
    assert "control point" in shown and "simultaneous: keep" in shown and "<svg" in shown and "<?xml" not in shown
    assert '<tr class="legal"><th>keep</th><td>legal now: 10 moves</td>' in shown
    refused = shown[shown.index('data-action="boost"'):]
    assert "cannot be taken now in phase" in refused.split("</tr>")[0] and "M807" in refused.split("</tr>")[0]


def test_why_a_typed_move_is_not_legal(client):
    opened = open_table(client, "tic-tac-toe", 2)
    client.post(f"{opened.seats[0]}/move", json={"move": "place(at=b2)"})
    why = client.post(f"{opened.seats[1]}/why", json={"move": "place(at=b2)"}).json()
    assert why == {"answer": "that cell is already taken (rule turn)"}
    assert client.post(f"{opened.seats[1]}/why", json={"move": "place(at=a1)"}).json() == {
        "answer": "that move is legal now"}
    hu = client.post(f"{opened.seats[1]}/why?lang=hu", json={"move": "place(at=b2)"}).json()
    assert hu == {"answer": "az a mező már foglalt (szabály turn)"}
    assert client.post(f"{opened.seats[1]}/why", json={"move": 3}).status_code == 400
    assert client.post(f"{opened.seats[0]}/why", json={"move": "x"}).status_code == 200  # its own seat only


@pytest.mark.parametrize("name,players,options", [("tic-tac-toe", 2, {}), ("treasure-hunter", 2, {"cards": "4"}),
                                                  ("zavandor", 2, {})])
def test_the_recorded_scenario_replays_to_the_same_position(client, tmp_path, name, players, options):
    opened = open_table(client, name, players, seed=6, options=options)
    for _ in range(12):
        if not opened.table.humans_to_move():
            break
        seat = opened.table.humans_to_move()[0]
        html = client.get(f"{opened.seats[seat]}/fragment").json()["html"]
        move = markup.unescape(re.search(r'data-move="([^"]+)"', html).group(1))
        assert client.post(f"{opened.seats[seat]}/move", json={"move": move}).status_code == 200
    answer = client.get(f"{opened.seats[0]}/scenario")
    assert answer.status_code == 200 and "attachment" in answer.headers["content-disposition"]
    path = tmp_path / "recorded.yaml"
    path.write_text(answer.text)
    results = [run_scenario(sc) for sc in load_scenarios(path)]
    assert len(results) == 1 and results[0].passed, results[0].failures
    assert answer.text.count("move: ") == len(opened.table.now.history) >= 5


def test_a_folder_ruleset_saves_its_scenario_into_its_scenarios(client, folder):
    opened = open_table(client, str(folder), 2)
    client.post(f"{opened.seats[0]}/move", json={"move": "place(at=a1)"})
    saved = client.post(f"{opened.seats[1]}/scenario", json={}).json()["saved"]
    assert saved.startswith(str(folder / "scenarios"))
    results = [run_scenario(sc) for sc in load_scenarios(saved)]
    assert results and all(r.passed for r in results)
    shipped = open_table(client, "tic-tac-toe", 2)
    assert client.post(f"{shipped.seats[0]}/scenario", json={}).status_code == 409


def test_a_changed_ruleset_is_reloaded_and_a_broken_one_shows_its_diagnostics(client, panel, folder):
    server = client.app.state.server
    opened = open_table(client, str(folder), 2)
    client.portal.call(panel.look, server)  # the files as the table opened
    for move, seat in (("place(at=b2)", 0), ("place(at=a1)", 1)):
        client.post(f"{opened.seats[seat]}/move", json={"move": move})
    rules = folder / "game.yaml"
    text = rules.read_text()
    rules.write_text(text.replace('reason: "that cell is already taken"', 'reason: "someone is there"'))
    assert client.portal.call(panel.look, server) == [opened.table]
    shown = _panel(client, opened.seats[0])
    assert "reloaded: 2 of 2 moves replayed" in shown
    assert client.post(f"{opened.seats[0]}/why", json={"move": "place(at=b2)"}).json() == {
        "answer": "someone is there (rule turn)"}
    before = opened.table.now
    rules.write_text(text.replace("choose: [place]", "choose: [plaice]"))
    client.portal.call(panel.look, server)
    shown = _panel(client, opened.seats[0])
    assert "the ruleset&#x27;s files have errors" in shown and "game.yaml:" in shown and "plaice" in shown
    assert opened.table.now is before  # it plays on with the rules it had
    assert client.post(f"{opened.seats[0]}/move", json={"move": "place(at=c3)"}).status_code == 200
    assert client.portal.call(panel.look, server) == []  # nothing changed since


def test_without_author_mode_there_is_no_panel():
    with web_client() as plain:
        opened = open_table(plain, "tic-tac-toe", 2)
        assert 'class="author"' not in plain.get(opened.seats[0]).text
        assert plain.post(f"{opened.seats[0]}/why", json={"move": "place(at=a1)"}).status_code == 404
        assert plain.get(f"{opened.seats[0]}/scenario").status_code == 404
