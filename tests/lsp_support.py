"""A language client driving the real `meeple lsp` over stdio, for the tests.

pygls' `LanguageClient` is asynchronous; `Editor` runs it on an event loop of its own so
tests read as a person at an editor would act: open a file, change it, ask for
completions.  Every wait has a timeout, so a server that hangs fails the test instead of
hanging it, and `transcript` keeps every message both ways for the recorded exchange.
`RawServer` writes bytes instead, for the messages no well-behaved client sends.
"""
from __future__ import annotations

import asyncio
import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

from lsprotocol import types
from lsprotocol.converters import get_converter
from pygls.lsp.client import LanguageClient

TIMEOUT = 15.0  # seconds for any one answer; the slowest ruleset is checked in well under one
CONVERTER = get_converter()


class Editor:
    def __init__(self, encodings: list[str] | None = None):
        self.loop = asyncio.new_event_loop()
        self.client = LanguageClient("meeple-tests", "1")
        self.published: dict[str, list[types.Diagnostic]] = {}
        self.publish_count: dict[str, int] = {}
        self.logs: list[str] = []
        self.transcript: list[dict] = []
        self.versions: dict[str, int] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams):
            self.published[params.uri] = list(params.diagnostics)
            self.publish_count[params.uri] = self.publish_count.get(params.uri, 0) + 1
            self.note("server", types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params)

        @self.client.feature(types.WINDOW_LOG_MESSAGE)
        def on_log(params: types.LogMessageParams):
            self.logs.append(params.message)

        self.run(self.client.start_io(sys.executable, "-m", "meeple.cli", "lsp"))
        general = types.GeneralClientCapabilities(position_encodings=encodings) if encodings else None
        params = types.InitializeParams(capabilities=types.ClientCapabilities(general=general))
        self.note("client", types.INITIALIZE, params)
        self.initialized = self.run(self.client.initialize_async(params))
        self.note("server", types.INITIALIZE, self.initialized)
        self.client.initialized(types.InitializedParams())

    # -- plumbing ----------------------------------------------------------------
    def run(self, awaitable, timeout: float = TIMEOUT):
        return self.loop.run_until_complete(asyncio.wait_for(awaitable, timeout))

    def note(self, sender: str, method: str, payload) -> None:
        self.transcript.append({"from": sender, "method": method, "message": CONVERTER.unstructure(payload)})

    def request(self, method: str, call, params):
        self.note("client", method, params)
        answer = self.run(call(params))
        self.note("server", method, answer)
        return answer

    def close(self) -> None:
        try:
            self.run(self.client.shutdown_async(None))
            self.client.exit(None)
            self.run(self.client.stop())
        finally:
            self.loop.close()

    # -- documents ---------------------------------------------------------------
    def _count(self, uri: str) -> int:
        return self.publish_count.get(uri, 0)

    def wait_published(self, uri: str, before: int) -> list[types.Diagnostic]:
        """The diagnostics the server publishes for `uri` after it had published `before` times."""
        async def wait():
            while self._count(uri) <= before:
                await asyncio.sleep(0.01)
        self.run(wait())
        return self.published[uri]

    def open(self, path: Path, text: str | None = None) -> list[types.Diagnostic]:
        uri = path.as_uri()
        text = path.read_text(encoding="utf-8") if text is None else text
        before = self._count(uri)
        self.versions[uri] = 1
        params = types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "yaml", 1, text))
        self.note("client", types.TEXT_DOCUMENT_DID_OPEN, params)
        self.client.text_document_did_open(params)
        return self.wait_published(uri, before)

    def change(self, path: Path, text: str) -> list[types.Diagnostic]:
        """Replace the whole buffer (as an editor with full sync would)."""
        uri = path.as_uri()
        before = self._count(uri)
        self.versions[uri] += 1
        params = types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(self.versions[uri], uri),
            [types.TextDocumentContentChangeWholeDocument(text)])
        self.note("client", types.TEXT_DOCUMENT_DID_CHANGE, params)
        self.client.text_document_did_change(params)
        return self.wait_published(uri, before)

    def close_document(self, path: Path) -> list[types.Diagnostic]:
        uri = path.as_uri()
        before = self._count(uri)
        self.client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
        return self.wait_published(uri, before)

    # -- requests ----------------------------------------------------------------
    def completion(self, path: Path, line: int, character: int) -> list[types.CompletionItem]:
        params = types.CompletionParams(types.TextDocumentIdentifier(path.as_uri()), types.Position(line, character))
        answer = self.request(types.TEXT_DOCUMENT_COMPLETION, self.client.text_document_completion_async, params)
        if answer is None:
            return []
        return list(answer.items if isinstance(answer, types.CompletionList) else answer)

    def hover(self, path: Path, line: int, character: int) -> str | None:
        params = types.HoverParams(types.TextDocumentIdentifier(path.as_uri()), types.Position(line, character))
        answer = self.request(types.TEXT_DOCUMENT_HOVER, self.client.text_document_hover_async, params)
        return answer.contents.value if answer is not None else None

    def definition(self, path: Path, line: int, character: int) -> list[types.Location]:
        params = types.DefinitionParams(types.TextDocumentIdentifier(path.as_uri()), types.Position(line, character))
        answer = self.request(types.TEXT_DOCUMENT_DEFINITION, self.client.text_document_definition_async, params)
        return list(answer or [])

    def references(self, path: Path, line: int, character: int, declaration: bool = True) -> list[types.Location]:
        params = types.ReferenceParams(context=types.ReferenceContext(include_declaration=declaration),
                                       text_document=types.TextDocumentIdentifier(path.as_uri()),
                                       position=types.Position(line, character))
        answer = self.request(types.TEXT_DOCUMENT_REFERENCES, self.client.text_document_references_async, params)
        return list(answer or [])

    def code_actions(self, path: Path, diagnostic: types.Diagnostic) -> list[types.CodeAction]:
        params = types.CodeActionParams(text_document=types.TextDocumentIdentifier(path.as_uri()),
                                        range=diagnostic.range,
                                        context=types.CodeActionContext(diagnostics=[diagnostic]))
        answer = self.request(types.TEXT_DOCUMENT_CODE_ACTION, self.client.text_document_code_action_async, params)
        return list(answer or [])

    def write_transcript(self, out: Path) -> None:
        out.write_text("".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in self.transcript),
                       encoding="utf-8")


def position_of(text: str, needle: str, offset: int = 0, nth: int = 0) -> tuple[int, int]:
    """The 0-based line and character (UTF-16 units) of the `nth` `needle` in `text`, plus `offset`."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    line = text.count("\n", 0, start)
    head = text[text.rfind("\n", 0, start) + 1:start + offset]
    return line, len(head.encode("utf-16-le")) // 2


class RawServer:
    """The real `meeple lsp` driven byte by byte, for what no well-behaved client sends:
    frames that lie about their length, bodies that are not JSON.  A thread reads the
    server's messages in order; `reply()` waits for the next answer to a request."""

    def __init__(self):
        self.process = subprocess.Popen([sys.executable, "-m", "meeple.cli", "lsp"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.replies: queue.Queue = queue.Queue()
        self.notifications: list[dict] = []  # what the server sent of its own accord, in order
        threading.Thread(target=self._read, daemon=True).start()
        self.last_id = 0

    def _read(self) -> None:
        out = self.process.stdout
        while True:
            length = None
            while (line := out.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not line or length is None:
                return
            message = json.loads(out.read(length))
            if "method" in message:
                self.notifications.append(message)
            else:
                self.replies.put(message)

    def send(self, raw: bytes) -> None:
        self.process.stdin.write(raw)
        self.process.stdin.flush()

    def send_json(self, message: dict) -> None:
        self.send(frame(json.dumps(message).encode()))

    def request(self, method: str, params=None) -> dict:
        """Send a request and wait for its answer (which must be the next one)."""
        self.last_id += 1
        self.send_json({"jsonrpc": "2.0", "id": self.last_id, "method": method,
                        **({} if params is None else {"params": params})})
        answer = self.reply()
        assert answer.get("id") == self.last_id, answer
        return answer

    def reply(self) -> dict:
        return self.replies.get(timeout=TIMEOUT)

    def shown(self) -> list[dict]:
        return [m for m in self.notifications if m["method"] == types.WINDOW_SHOW_MESSAGE]

    def end_input(self) -> tuple[int, str]:
        """Close the server's stdin; its exit code and what it wrote on stderr."""
        self.process.stdin.close()
        code = self.process.wait(timeout=TIMEOUT)
        return code, self.process.stderr.read().decode("utf-8", "replace")


def frame(body: bytes, length: int | None = None) -> bytes:
    """A message as LSP frames it: a Content-Length header (the body's, unless told), a blank line, the body."""
    return b"Content-Length: %d\r\n\r\n" % (len(body) if length is None else length) + body
