"""`meeple lsp`: the Language Server Protocol over stdio, with pygls.

Only the wiring is here: each request's document and position are handed to the
authoring modules, whose answers go back as they are.  Requests are answered from the
buffers as they are at that moment; diagnostics are published when a file is opened,
saved or closed, and once typing pauses.  No request may bring the server down: a
failure inside one is logged to the editor and answered with nothing.  What the editor
sends is read by transport.py, which answers a message that does not fit with the
JSON-RPC error for it and goes on reading.
"""
from __future__ import annotations

import asyncio
import functools
import inspect
import sys
import traceback
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from .completion import complete
from .hover import hover
from .navigation import definition, references
from .positions import UTF16, column_at
from .quickfix import fixes
from .session import Session
from .transport import GuardedProtocol, serve_stdio

PAUSE_SECONDS = 0.15  # how long typing must pause before the ruleset is checked again


class MeepleServer(LanguageServer):
    def __init__(self):
        try:
            release = version("meeple")
        except PackageNotFoundError:
            release = "unknown"
        super().__init__("meeple", release, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=GuardedProtocol)
        self.session = Session()
        self.changes: dict[str, int] = {}  # uri -> how many changes it has had

    def start_io(self, stdin=None, stdout=None):
        serve_stdio(self, stdin or sys.stdin.buffer, stdout or sys.stdout.buffer)

    def report_server_error(self, error: Exception, source) -> None:
        """pygls would show "Error in server" to the user for a notification that failed
        (a change to a file that was never opened, say); it goes to the log instead, as
        our own handlers' failures do: the user can do nothing about it."""
        self.window_log_message(types.LogMessageParams(types.MessageType.Error, f"meeple lsp: {error}"))

    @property
    def encoding(self) -> str:
        chosen = self.workspace.position_encoding
        return str(getattr(chosen, "value", chosen) or UTF16)

    def texts(self) -> dict[Path, str]:
        """The editor's open buffers by file."""
        return {path: doc.source for uri, doc in self.workspace.text_documents.items()
                if (path := path_of(uri)) is not None}

    def lines(self, path: Path) -> list[str]:
        texts = self.texts()
        return texts[path].split("\n") if path in texts else []

    def check(self, uri: str) -> None:
        path = path_of(uri)
        if path is None:
            return
        # An open file is named as the editor names it (its URI may spell a link or a
        # drive letter otherwise than the resolved path would).
        open_uris = {path_of(uri): uri for uri in self.workspace.text_documents}
        for file, diagnostics in self.session.refresh(path, self.texts(), self.encoding).items():
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=open_uris.get(file, file.as_uri()), diagnostics=diagnostics))


def path_of(uri: str) -> Path | None:
    """The file a `file:` URI names; None for an unsaved buffer or another scheme."""
    if not uri.startswith("file:"):
        return None
    found = to_fs_path(uri)
    return Path(found).resolve() if found else None


def _log_failure(server: MeepleServer, handler) -> None:
    server.window_log_message(types.LogMessageParams(
        types.MessageType.Error, f"meeple lsp: {handler.__name__} failed:\n{traceback.format_exc()}"))


def _guarded(handler):
    """Answer nothing instead of failing when a handler meets something unforeseen: the
    last line of defence logs it to the editor and the server keeps serving."""
    if inspect.iscoroutinefunction(handler):
        @functools.wraps(handler)
        async def guarded_async(server: MeepleServer, params):
            try:
                return await handler(server, params)
            except Exception:
                _log_failure(server, handler)
        return guarded_async

    @functools.wraps(handler)
    def guarded(server: MeepleServer, params):
        try:
            return handler(server, params)
        except Exception:
            _log_failure(server, handler)
    return guarded


def build_server() -> MeepleServer:
    server = MeepleServer()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)  # the file on disk stands in for the closed buffer
    @_guarded
    def on_document(ls: MeepleServer, params):
        ls.check(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @_guarded
    async def on_change(ls: MeepleServer, params: types.DidChangeTextDocumentParams):
        """Typing sends a change per key: check once the typing pauses, not after each key."""
        uri = params.text_document.uri
        ls.changes[uri] = mine = ls.changes.get(uri, 0) + 1
        await asyncio.sleep(PAUSE_SECONDS)
        if ls.changes[uri] == mine:
            ls.check(uri)

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=[".", "'", "(", "[", " "]))
    @_guarded
    def on_completion(ls: MeepleServer, params: types.CompletionParams):
        path = path_of(params.text_document.uri)
        if path is None:
            return None
        texts = ls.texts()
        analysis = ls.session.analysis(path, texts)
        lines = ls.lines(path)
        line = params.position.line
        text = lines[line] if line < len(lines) else ""
        items = complete(analysis, lines, line, column_at(text, params.position.character, ls.encoding))
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @_guarded
    def on_hover(ls: MeepleServer, params: types.HoverParams):
        found = _analysis(ls, params.text_document.uri)
        return hover(found[0], found[1], params.position, ls.encoding) if found else None

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @_guarded
    def on_definition(ls: MeepleServer, params: types.DefinitionParams):
        found = _analysis(ls, params.text_document.uri)
        return definition(found[0], found[1], params.position, ls.encoding) if found else None

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    @_guarded
    def on_references(ls: MeepleServer, params: types.ReferenceParams):
        found = _analysis(ls, params.text_document.uri)
        return references(found[0], found[1], params.position, params.context.include_declaration,
                          ls.encoding) if found else None

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    @_guarded
    def on_code_action(ls: MeepleServer, params: types.CodeActionParams):
        path = path_of(params.text_document.uri)
        if path is None:
            return None
        diagnostics = ls.session.with_suggestions(path, list(params.context.diagnostics))
        return fixes(params.text_document.uri, ls.lines(path), diagnostics, ls.encoding) or None

    return server


def _analysis(ls: MeepleServer, uri: str):
    path = path_of(uri)
    if path is None:
        return None
    analysis = ls.session.analysis(path, ls.texts())
    return (analysis, path) if analysis is not None and path in analysis.texts else None


def run() -> None:
    build_server().start_io()
