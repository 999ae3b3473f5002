"""`meeple lsp` end to end: pygls' language client starts the real server over stdio
and acts as an editor would, on a copy of a shipped ruleset (zavandor, five files) and
on the tutorial's game (examples/high-card).  The diagnostics it publishes must be
exactly `meeple validate`'s: the same codes at the same places, with the same ranges
as the checker's spans."""
from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from lsp_support import Editor, RawServer, frame, position_of
from record_lsp_exchange import record
from lsprotocol import types

from meeple.authoring.transport import MAX_MESSAGE_BYTES, FrameReader, Refusal
from meeple.dsl.load import check_ruleset, read_ruleset

ROOT = Path(__file__).resolve().parent.parent
ZAVANDOR = ROOT / "rulesets" / "zavandor"
HIGH_CARD = ROOT / "examples" / "high-card"
_VALIDATE_LINE = re.compile(r"^(\S+?):(\d+):(\d+): (error|warning)\[(\w+)\]", re.MULTILINE)


@pytest.fixture(scope="module")
def editor():
    e = Editor()
    yield e
    e.close()


def copy_ruleset(source: Path, into: Path) -> Path:
    """The ruleset's own files (not its scenarios), in a folder of their own."""
    folder = into / source.name
    folder.mkdir()
    for f in source.glob("*.yaml"):
        shutil.copy(f, folder / f.name)
    return folder


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def lsp_range(span, folder_lines) -> tuple:
    """A span as an LSP range, worked out here on its own: 0-based lines, UTF-16 columns."""
    lines = folder_lines[Path(span.file).resolve()]
    start = utf16(lines[span.line - 1][:span.col - 1])
    end = utf16(lines[span.end_line - 1][:span.end_col - 1])
    return (span.line - 1, start, span.end_line - 1, end)


def as_tuple(r: types.Range) -> tuple:
    return (r.start.line, r.start.character, r.end.line, r.end.character)


def checker_diagnostics(folder: Path) -> set[tuple]:
    """(file uri, range, code) of every diagnostic read_ruleset + check_ruleset give."""
    rs, diagnostics = read_ruleset(folder)
    if rs is not None:
        diagnostics += check_ruleset(rs)
    lines = {f.resolve(): f.read_text(encoding="utf-8").split("\n") for f in folder.glob("*.yaml")}
    return {(Path(d.span.file).resolve().as_uri(), lsp_range(d.span, lines), d.code) for d in diagnostics}


def validate_output(folder: Path) -> set[tuple]:
    """(file uri, 1-based line, 1-based column, code) of each diagnostic `meeple validate` prints."""
    done = subprocess.run([sys.executable, "-m", "meeple.cli", "validate", folder.name], cwd=folder.parent,
                          capture_output=True, text=True, timeout=60, env={"COLUMNS": "200", "PATH": ""})
    return {((folder.parent / f).resolve().as_uri(), int(line), int(col), code)
            for f, line, col, _, code in _VALIDATE_LINE.findall(done.stderr)}


def published(editor: Editor, folder: Path) -> set[tuple]:
    return {(uri, as_tuple(d.range), d.code) for uri, ds in editor.published.items()
            if uri.startswith(folder.as_uri() + "/") for d in ds}


def as_validate_prints(editor: Editor, folder: Path) -> set[tuple]:
    """The published diagnostics' starts as validate prints them (1-based, in characters)."""
    out = set()
    for uri, r, code in published(editor, folder):
        path = Path(types.TextDocumentIdentifier(uri).uri.removeprefix("file://"))
        line = path.read_text(encoding="utf-8").split("\n")[r[0]]
        col = len(line.encode("utf-16-le")[:2 * r[1]].decode("utf-16-le"))
        out.add((uri, r[0] + 1, col + 1, code))
    return out


def test_a_shipped_ruleset_opens_without_errors(editor, tmp_path):
    folder = copy_ruleset(ZAVANDOR, tmp_path)
    editor.open(folder / "actions.yaml")
    files = {f.as_uri() for f in folder.glob("*.yaml")}
    for uri in files:  # each file's diagnostics arrive in a message of their own, after the opened file's
        editor.wait_published(uri, 0)
    assert files <= set(editor.published), "every file of the folder gets its diagnostics"
    assert not any(d.severity == types.DiagnosticSeverity.Error
                   for uri in files for d in editor.published[uri])
    assert published(editor, folder) == checker_diagnostics(folder)
    assert as_validate_prints(editor, folder) == validate_output(folder)


def test_a_misspelt_name_is_reported_as_validate_reports_it_then_cleared(editor, tmp_path):
    folder = copy_ruleset(ZAVANDOR, tmp_path)
    actions = folder / "actions.yaml"
    good = actions.read_text(encoding="utf-8")
    editor.open(actions)
    broken = good.replace('check: "gold[player] > 0"', 'check: "gol[player] > 0"')
    diagnostics = editor.change(actions, broken)
    line, character = position_of(broken, "gol[player] > 0")
    assert [(d.code, as_tuple(d.range)) for d in diagnostics] == [("N301", (line, character, line, character + 3))]
    assert diagnostics[0].severity == types.DiagnosticSeverity.Error
    assert "did you mean 'gold'" in diagnostics[0].message
    # The unsaved buffer is what was checked; on disk, the same text gives validate's answer.
    actions.write_text(broken, encoding="utf-8")
    assert published(editor, folder) == checker_diagnostics(folder)
    assert as_validate_prints(editor, folder) == validate_output(folder)
    actions.write_text(good, encoding="utf-8")
    assert editor.change(actions, good) == []


def test_an_error_in_another_file_is_published_for_that_file(editor, tmp_path):
    folder = copy_ruleset(ZAVANDOR, tmp_path)
    flow, state = folder / "flow.yaml", folder / "state.yaml"
    editor.open(flow)
    users = [(folder / user).as_uri() for user in ("actions.yaml", "flow.yaml")]
    before = {uri: editor.publish_count.get(uri, 0) for uri in [state.as_uri(), *users]}
    broken = state.read_text(encoding="utf-8").replace("  gold: {per: player", "  gould: {per: player")
    editor.open(state, broken)
    for uri, count in before.items():  # each file's diagnostics arrive in a message of their own
        editor.wait_published(uri, count)
    for uri in users:  # both read `gold`, which is no longer declared
        uses = editor.published[uri]
        assert uses and {d.code for d in uses} == {"N301"}
        assert all(d.data == {"suggestions": ["gould"]} for d in uses)
    assert editor.published[(folder / "game.yaml").as_uri()] == []
    state.write_text(broken, encoding="utf-8")
    assert published(editor, folder) == checker_diagnostics(folder)
    assert as_validate_prints(editor, folder) == validate_output(folder)


def test_warnings_are_published_as_warnings_and_setup_is_checked_as_validate_does(editor, tmp_path):
    """No error: `meeple validate` also runs setup for every player count (B601 when a
    bound is broken), and reports the checker's warnings; so does the server."""
    folder = copy_ruleset(ZAVANDOR, tmp_path)
    state = folder / "state.yaml"
    text = state.read_text(encoding="utf-8").replace(
        "  round: {type: int, initial: 1, min: 1,",
        "  unread: {type: int, initial: 0}\n  round: {type: int, initial: 0, min: 1,")
    state.write_text(text, encoding="utf-8")
    diagnostics = editor.open(state)
    assert {(d.code, d.severity) for d in diagnostics} == {
        ("L103", types.DiagnosticSeverity.Warning), ("B601", types.DiagnosticSeverity.Error)}
    assert as_validate_prints(editor, folder) == validate_output(folder)


@pytest.mark.parametrize("name, line", [("r22_param_name_code.yaml", 11), ("r23_action_name_code.yaml", 4),
                                        ("r24_let_name_code.yaml", 8), ("r25_for_name_code.yaml", 8),
                                        ("r26_phase_name_code.yaml", 6), ("r28_name_bare_newline.yaml", 4)])
def test_a_name_holding_code_is_published_at_its_place_and_nothing_runs(editor, tmp_path, monkeypatch, name, line):
    """The reproducers of issue 40 as an editor opens them: N310 where the name is written,
    and the code in the name (which would create INJECTED) never runs."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "game"
    folder.mkdir()
    shutil.copy(ROOT / "tests" / "hostile" / name, folder / "game.yaml")
    diagnostics = editor.open(folder / "game.yaml")
    assert ("N310", line - 1) in {(d.code, d.range.start.line) for d in diagnostics}
    assert not (tmp_path / "INJECTED").exists()


def test_completion_in_an_expression_offers_the_rulesets_names(editor, tmp_path):
    folder = copy_ruleset(ZAVANDOR, tmp_path)
    actions = folder / "actions.yaml"
    text = actions.read_text(encoding="utf-8").replace('check: "gold[player] > 0"', 'check: "go"')
    editor.open(actions, text)
    line, character = position_of(text, 'check: "go"', len('check: "go'))
    labels = {item.label for item in editor.completion(actions, line, character)}
    # Variables and definitions of state.yaml, zones, library functions, the action's own words.
    assert {"gold", "gems", "price", "unit_price", "sample_spaces", "site", "len", "unique", "player",
            "options", "and"} <= labels
    functions = {item.label: item for item in editor.completion(actions, line, character)
                 if item.kind == types.CompletionItemKind.Function}
    assert functions["next_player"].detail == "next_player(p), next_player(p, k)"


def test_completion_of_keys_and_names_written_as_values(editor, tmp_path):
    folder = copy_ruleset(ZAVANDOR, tmp_path)
    flow = folder / "flow.yaml"
    text = flow.read_text(encoding="utf-8")
    editor.open(flow)
    line, character = position_of(text, "- choose: [mine_all", len("- choose: [mine_all, "))
    assert {"sample", "buy_gems", "mine_all", "stop_mining"} <= {i.label for i in editor.completion(flow, line, character)}
    actions = folder / "actions.yaml"
    text = actions.read_text(encoding="utf-8").replace('    label: "soil sample"\n', '    label: "soil sample"\n    re\n', 1)
    editor.open(actions, text)
    line, character = position_of(text, "    re\n", len("    re"))
    keys = {item.label: item for item in editor.completion(actions, line, character)}
    assert {"params", "cost", "then_required"} <= set(keys)
    assert not {"label", "rule", "require", "effects", "then"} & set(keys), \
        "keys the action already has, above or below the cursor, are not offered again"
    assert keys["params"].documentation == "parameter name -> the expression giving its possible values"


def test_hover_on_a_function_and_on_an_action(editor, tmp_path):
    folder = copy_ruleset(ZAVANDOR, tmp_path)
    actions, flow = folder / "actions.yaml", folder / "flow.yaml"
    text = actions.read_text(encoding="utf-8")
    editor.open(actions)
    line, character = position_of(text, "unique(discounts", 2)
    shown = editor.hover(actions, line, character)
    assert "unique(xs)" in shown and "drops repeats, keeping first occurrences" in shown
    flow_text = flow.read_text(encoding="utf-8")
    editor.open(flow)
    line, character = position_of(flow_text, "buy_gems", 1)
    shown = editor.hover(flow, line, character)
    assert "**action** `buy_gems`" in shown
    assert "rule p.3, p.7: *round structure; action round" in shown, "the rulebook's section titles"
    assert "`marker` in `[0] + unique(discounts[player])`" in shown


def test_definition_and_references_across_files(editor, tmp_path):
    folder = copy_ruleset(ZAVANDOR, tmp_path)
    actions, flow, state = folder / "actions.yaml", folder / "flow.yaml", folder / "state.yaml"
    flow_text, actions_text, state_text = (f.read_text(encoding="utf-8") for f in (flow, actions, state))
    editor.open(flow)
    # An action named in a `choose:` list leads to its declaration in actions.yaml.
    line, character = position_of(flow_text, "buy_gems", 1)
    [target] = editor.definition(flow, line, character)
    assert target.uri == actions.as_uri()
    assert (target.range.start.line, target.range.start.character) == position_of(actions_text, "  buy_gems:", 2)
    # A variable read in actions.yaml leads to state.yaml, and its references span both files.
    line, character = position_of(actions_text, "gold[player] > 0")
    [target] = editor.definition(actions, line, character)
    assert target.uri == state.as_uri()
    assert (target.range.start.line, target.range.start.character) == position_of(state_text, "gold: {per", 0)
    found = editor.references(actions, line, character)
    where = {(Path(loc.uri.removeprefix("file://")).name, loc.range.start.line) for loc in found}
    assert ("state.yaml", target.range.start.line) in where
    assert ("actions.yaml", line) in where
    # From the declaration itself, without it.
    without = editor.references(state, target.range.start.line, target.range.start.character + 1, declaration=False)
    assert len(without) == len(found) - 1
    assert all(actions_text.split("\n")[loc.range.start.line][loc.range.start.character:].startswith("gold")
               for loc in without if loc.uri == actions.as_uri())


def test_the_quick_fix_replaces_the_misspelt_name(editor, tmp_path):
    folder = copy_ruleset(ZAVANDOR, tmp_path)
    actions = folder / "actions.yaml"
    broken = actions.read_text(encoding="utf-8").replace('check: "gold[player] > 0"', 'check: "gol[player] > 0"')
    [diagnostic] = editor.open(actions, broken)
    fixes = editor.code_actions(actions, diagnostic)
    assert fixes[0].title == "Replace with 'gold'" and fixes[0].is_preferred
    [edit] = fixes[0].edit.changes[actions.as_uri()]
    assert edit.new_text == "gold" and edit.range == diagnostic.range
    # An editor may hand the diagnostic back without its data; the server still knows it.
    bare = types.Diagnostic(range=diagnostic.range, message=diagnostic.message, code=diagnostic.code)
    assert editor.code_actions(actions, bare)[0].title == "Replace with 'gold'"


def test_a_quick_fix_inside_quotes_keeps_them(editor, tmp_path):
    folder = copy_ruleset(ZAVANDOR, tmp_path)
    state = folder / "state.yaml"
    broken = state.read_text(encoding="utf-8").replace("nodes('mines')", "nodes('mnes')", 1)
    diagnostics = editor.open(state, broken)
    [n307] = [d for d in diagnostics if d.code == "N307"]
    [fix] = editor.code_actions(state, n307)
    assert fix.edit.changes[state.as_uri()][0].new_text == "'mines'"


def test_a_burst_of_changes_is_checked_once_typing_pauses(editor, tmp_path):
    folder = copy_ruleset(HIGH_CARD, tmp_path)
    game = folder / "game.yaml"
    good = game.read_text(encoding="utf-8")
    editor.open(game)
    uri = game.as_uri()
    before = editor.publish_count[uri]
    typed = ["lead_c", "lead_co", "lead_col", "lead_colo", "lead_colou"]
    for word in typed:  # as fast as a client can send them
        editor.versions[uri] += 1
        editor.client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(editor.versions[uri], uri),
            [types.TextDocumentContentChangeWholeDocument(good.replace("== lead_colour or", f"== {word} or"))]))
    [diagnostic] = editor.wait_published(uri, before)
    editor.run(asyncio.sleep(0.5))  # any check still to come would be published by now
    assert editor.publish_count[uri] - before < len(typed)
    assert "'lead_colou'" in editor.published[uri][0].message, "the last text is the one checked"


# -- the tutorial's game ---------------------------------------------------------------

def test_high_card_round_trip(editor, tmp_path):
    folder = copy_ruleset(HIGH_CARD, tmp_path)
    game = folder / "game.yaml"
    good = game.read_text(encoding="utf-8")
    assert editor.open(game) == []
    broken = good.replace("or card.colour == lead_colour", "or card.colour == lead_colur")
    [diagnostic] = editor.change(game, broken)
    line, character = position_of(broken, "lead_colur")
    assert (diagnostic.code, as_tuple(diagnostic.range)) == ("N301", (line, character, line, character + 10))
    assert diagnostic.data == {"suggestions": ["lead_colour", "holds_colour", "leader"]}
    game.write_text(broken, encoding="utf-8")
    assert as_validate_prints(editor, folder) == validate_output(folder)
    # Completion where the name was being typed, hover on the zone, the definition of the action.
    line, character = position_of(broken, "lead_colur", len("lead_co"))
    assert {"lead_colour", "leader", "holds_colour", "hand", "tricks"} <= \
        {i.label for i in editor.completion(game, line, character)}
    line, character = position_of(broken, "choose: [play]", len("choose: [p"))
    [target] = editor.definition(game, line, character)
    assert target.range.start == types.Position(*position_of(broken, "  play:", 2))
    shown = editor.hover(game, line, character)
    assert "rule follow: *each player plays one card; follow the lead colour if you can*" in shown
    line, character = position_of(broken, "hand[player]", 1)
    assert "**zone** `hand`" in editor.hover(game, line, character)
    assert editor.change(game, good) == []


def test_columns_after_non_ascii_text_are_counted_in_utf16(editor, tmp_path):
    folder = copy_ruleset(HIGH_CARD, tmp_path)
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8").replace(
        "log: \"'player ' + str(w) + ' takes the trick'\"",
        "log: \"'Győztes 🂡 játékos: ' + str(wx)\"")
    [diagnostic] = editor.open(game, text)
    line, character = position_of(text, "wx)")
    assert as_tuple(diagnostic.range) == (line, character, line, character + 2)
    source_line = text.split("\n")[line]
    assert character == source_line.index("wx") + 1, "the card is two UTF-16 units, the accents one"


# -- whatever the editor sends ----------------------------------------------------------

@pytest.mark.parametrize("text,code", [
    ("", "S102"),  # no game section
    ("game:\n  name: [", "Y001"),  # half-typed YAML
    ("zones:\n  deck: {kind: ", "Y001"),
    ("\x00\x01 binary", "Y005"),
    ("game: {name: x, players: 2}\nflow:\n  - choose: \n", "S103"),
    ("- just\n- a list\n", "S103"),
    ("game:\n  name: x\n  players: 2\n" + "a" * 2_000_000, "Y012"),  # past the size limit
])
def test_the_server_survives_any_text(editor, tmp_path, text, code):
    folder = tmp_path / "rs"
    folder.mkdir()
    path = folder / "game.yaml"
    path.write_text("game: {name: x, players: 2}\n", encoding="utf-8")
    assert [d.code for d in editor.open(path, text)] == [code]
    lines = text.split("\n")
    for line in range(min(len(lines), 3)):
        editor.completion(path, line, min(len(lines[line]), 40))
        editor.hover(path, line, 0)
        editor.definition(path, line, 0)
        editor.references(path, line, 0)
    assert not [log for log in editor.logs if "failed" in log]
    # Still serving: the same buffer, mended (a game with no flow yet).
    assert [d.code for d in editor.change(path, "game: {name: x, players: 2}\n")] == ["F507"]
    assert editor.hover(path, 0, 1).startswith("**game**")


def test_a_file_outside_any_ruleset_gets_nothing_but_keys(editor, tmp_path):
    scenarios = tmp_path / "scenarios.yaml"
    scenarios.write_text("scenarios:\n  - name: a\n", encoding="utf-8")
    assert editor.open(scenarios) == []
    loose = tmp_path / "notes.yaml"
    loose.write_text("", encoding="utf-8")
    assert editor.open(loose, "zo") == []
    assert "zones" in {i.label for i in editor.completion(loose, 0, 2)}
    assert editor.hover(loose, 0, 0) is None and editor.definition(loose, 0, 0) == []
    assert not [log for log in editor.logs if "failed" in log]


def test_the_recorded_exchange(tmp_path):
    out = tmp_path / "exchange.txt"
    entries = record(out)
    assert [(e["from"], e["method"]) for e in entries] == [
        ("client", "initialize"), ("server", "initialize"),
        ("client", "textDocument/didOpen"), ("server", "textDocument/publishDiagnostics"),
        ("client", "textDocument/completion"), ("server", "textDocument/completion"),
        ("client", "textDocument/hover"), ("server", "textDocument/hover"),
        ("client", "textDocument/hover"), ("server", "textDocument/hover"),
        ("client", "textDocument/definition"), ("server", "textDocument/definition"),
        ("client", "textDocument/references"), ("server", "textDocument/references"),
        ("client", "textDocument/codeAction"), ("server", "textDocument/codeAction")]
    assert len(out.read_text(encoding="utf-8").splitlines()) == len(entries)
    [published] = [e["message"] for e in entries if e["method"] == "textDocument/publishDiagnostics"]
    assert [d["code"] for d in published["diagnostics"]] == ["N301"]
    assert entries[-1]["message"][0]["edit"]["changes"]


# -- whatever arrives on stdin ----------------------------------------------------------

NOWHERE = {"textDocument": {"uri": "file:///nonexistent/game.yaml"}, "position": {"line": 0, "character": 0}}
HOVER = json.dumps({"jsonrpc": "2.0", "id": "lost", "method": "textDocument/hover", "params": NOWHERE}).encode()
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602


@pytest.fixture(scope="module")
def raw():
    server = RawServer()
    assert "capabilities" in server.request("initialize", {"capabilities": {}})["result"]
    server.send_json({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    yield server
    server.end_input()


def assert_still_serving(raw: RawServer) -> None:
    """A well-formed request is answered, and nothing was shown to the user on the way."""
    answer = raw.request("textDocument/hover", NOWHERE)
    assert "result" in answer and "error" not in answer
    assert raw.shown() == []


@pytest.mark.parametrize("message,code", [
    pytest.param({"method": "textDocument/hover", "params": {"textDocument": 5, "position": "x"}}, INVALID_PARAMS,
                 id="malformed-params"),
    pytest.param({"method": "textDocument/hover"}, INVALID_PARAMS, id="no-params"),
    pytest.param({"method": "meeple/no-such-method"}, METHOD_NOT_FOUND, id="unknown-method"),
    pytest.param({"method": "textDocument/formatting", "params": {}}, METHOD_NOT_FOUND, id="method-not-offered"),
    pytest.param({"method": "$/meeple/ping"}, METHOD_NOT_FOUND, id="unknown-dollar-method"),
    pytest.param({"jsonrpc": "1.0", "method": "textDocument/hover", "params": NOWHERE}, INVALID_REQUEST,
                 id="jsonrpc-1.0"),
    pytest.param({"method": 7}, INVALID_REQUEST, id="method-a-number"),
    pytest.param({}, INVALID_REQUEST, id="neither-request-nor-response"),
])
def test_a_request_that_cannot_be_taken_is_answered_with_its_id(raw, message, code):
    raw.send_json({"jsonrpc": "2.0", "id": "kept", **message})
    answer = raw.reply()
    assert (answer["id"], answer["error"]["code"]) == ("kept", code)
    assert_still_serving(raw)


def test_unknown_notifications_are_ignored_silently(raw):
    before = len(raw.notifications)
    raw.send_json({"jsonrpc": "2.0", "method": "$/meeple/ping"})
    raw.send_json({"jsonrpc": "2.0", "method": "meeple/poke", "params": {"x": 1}})
    assert_still_serving(raw)  # its answer is the next one: the notifications got none
    assert raw.notifications[before:] == []


def test_a_notification_with_malformed_params_is_logged_not_answered(raw):
    before = len(raw.notifications)
    raw.send_json({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": 5}})
    assert_still_serving(raw)
    assert [m["params"]["type"] for m in raw.notifications[before:]] == [types.MessageType.Warning.value]


def test_a_notification_that_fails_inside_pygls_is_logged_not_shown(raw):
    """A change to a file the editor never opened: pygls' own handler fails on it."""
    before = len(raw.notifications)
    raw.send_json({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": "file:///never/opened.yaml", "version": 2}, "contentChanges": [{"text": "x"}]}})
    assert_still_serving(raw)
    assert [m["params"]["type"] for m in raw.notifications[before:]] == [types.MessageType.Error.value]


@pytest.mark.parametrize("sent,refusals", [
    pytest.param(b"Content-Length: 2000000000\r\n\r\n" + HOVER, [INVALID_REQUEST], id="too-large"),
    pytest.param(b"Content-Length: " + b"9" * 900 + b"\r\n\r\n" + HOVER, [INVALID_REQUEST], id="too-large-900-digits"),
    pytest.param(b"Content-Length: ten\r\n\r\n" + HOVER, [INVALID_REQUEST], id="length-not-a-number"),
    pytest.param(b"Content-Length: -5\r\n\r\n" + HOVER, [INVALID_REQUEST], id="length-negative"),
    pytest.param(b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + HOVER, [INVALID_REQUEST],
                 id="length-missing"),
    pytest.param(HOVER, [INVALID_REQUEST], id="no-header"),
    pytest.param(b"\xff\xfe\x00garbage\r\n\r\n" + HOVER, [INVALID_REQUEST], id="binary-header"),
    pytest.param(b"X-Padding: " + b"x" * 5000 + b"\r\n\r\n", [INVALID_REQUEST], id="header-line-too-long"),
    pytest.param(frame(HOVER, length=20), [PARSE_ERROR, INVALID_REQUEST], id="length-too-short"),
    pytest.param(frame(b""), [PARSE_ERROR], id="empty-body"),
    pytest.param(frame(b"hello"), [PARSE_ERROR], id="not-json"),
    pytest.param(frame(HOVER.replace(b"hover", b"hover\xff")), [PARSE_ERROR], id="not-utf8"),
    pytest.param(frame(b"[" * 100_000), [PARSE_ERROR], id="nested-100000"),
    pytest.param(frame(HOVER.replace(b'"line": 0', b'"line": ' + b"[" * 150 + b"]" * 150)), [PARSE_ERROR],
                 id="nested-150-valid"),
    pytest.param(frame(b'{"jsonrpc": "2.0", "id": ' + b"9" * 5000 + b', "method": "x"}'), [PARSE_ERROR],
                 id="integer-of-5000-digits"),
    pytest.param(frame(b"[1, 2]"), [INVALID_REQUEST], id="batch"),
    pytest.param(frame(b"42"), [INVALID_REQUEST], id="not-an-object"),
    pytest.param(frame(b'{"method": "textDocument/hover"}'), [INVALID_REQUEST], id="no-jsonrpc"),
    pytest.param(frame(b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "x"}'), [INVALID_REQUEST], id="id-an-object"),
])
def test_a_message_that_cannot_be_read_is_refused_and_the_next_one_answered(raw, sent, refusals):
    raw.send(sent)
    answers = [raw.reply() for _ in refusals]
    assert [(a["id"], a["error"]["code"]) for a in answers] == [(None, code) for code in refusals]
    assert_still_serving(raw)


def test_the_refusal_of_a_too_large_message_names_the_limit(raw):
    raw.send(b"Content-Length: 2000000000\r\n\r\n")
    assert str(MAX_MESSAGE_BYTES) in raw.reply()["error"]["message"]
    assert_still_serving(raw)


def test_the_bytes_a_refused_header_announced_are_dropped_as_they_come():
    """32 MiB follow a header announcing 2 GB; the reader keeps none of them and finds the next message."""
    junk = b"x" * 65536
    parts = iter([b"Content-Length: 2000000000\r\n\r\n", *[junk] * 512, frame(b'{"next": 1}')])

    class Stream:
        def read1(self, _size):
            return next(parts, b"")

    reader = FrameReader(Stream())
    tracemalloc.start()
    try:
        first, second, end = reader.next_body(), reader.next_body(), reader.next_body()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert isinstance(first, Refusal) and first.code == INVALID_REQUEST
    assert (second, end) == (b'{"next": 1}', None)
    assert peak < 1024 * 1024


def test_a_closed_stdin_ends_the_server_cleanly():
    server = RawServer()
    server.request("initialize", {"capabilities": {}})
    server.send(b'Content-Length: 100\r\n\r\n{"jsonrpc"')  # the input ends in the middle of a message
    code, stderr = server.end_input()
    assert code == 0 and "Traceback" not in stderr
