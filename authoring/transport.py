"""How `meeple lsp` reads what the editor sends: within limits, and never stopped by one
bad message.

pygls' own reading loop trusts the client: it waits for as many bytes as a
`Content-Length` header claims (two gigabytes, if it says so), and it tells the user
"Error in server" about a request whose params do not fit or whose method does not exist
instead of answering it, so the editor waits for an answer that never comes.  Here every
message is read within limits, and one that cannot be taken gets the JSON-RPC error the
specification gives it, with its id when the id can be read and `null` when not:

- a frame that cannot be read (a `Content-Length` that is missing, not a number, or above
  MAX_MESSAGE_BYTES; a line that is not a header): InvalidRequest (-32600);
- a body that is not UTF-8, not JSON, or nested deeper than MAX_NESTING: ParseError (-32700);
- JSON that is not a JSON-RPC message (not an object, no `"jsonrpc": "2.0"`, an id that
  is neither an integer nor a string): InvalidRequest (-32600);
- a request for a method the server does not have: MethodNotFound (-32601);
- a request whose params are not what LSP says they are: InvalidParams (-32602).

A notification is never answered (JSON-RPC forbids it): an unknown one is ignored, one
with bad params is reported in the editor's log.

After refusing a frame the reader does not know where the next message begins, so it
discards input up to the next `Content-Length:` (in any letter case, wherever it stands:
a body has no line end of its own, so the next header follows it on the same line).
The bytes a refused header announced are never awaited nor kept: the next well-formed
message is answered as soon as it arrives.
"""
from __future__ import annotations

import asyncio
import json
import re
import traceback
from typing import NoReturn

from lsprotocol import types
from pygls.io_ import StdoutWriter
from pygls.protocol import JsonRPCNotification, JsonRPCRequestMessage, LanguageServerProtocol

MAX_MESSAGE_BYTES = 64 * 1024 * 1024  # far above a ruleset file (1 MiB) even with every character escaped
MAX_HEADER_LINE = 1024  # bytes; real headers are under a hundred
MAX_NESTING = 100  # arrays and objects inside each other; real messages nest under twenty deep
_CHUNK = 64 * 1024
_HEADER_START = b"content-length:"
_TOKEN = rb"[!#$%&'*+.^_`|~0-9A-Za-z-]"  # the characters of a header's name
_HEADER_LINE = re.compile(rb"(?:%s+:[^\n]*)?\r?\n" % _TOKEN)  # a header, or the blank line after them
_HEADER_SO_FAR = re.compile(rb"%s*(?::[^\n]*)?\r?" % _TOKEN)  # the beginning of one


class Refusal(Exception):
    """A message that cannot be taken, as the JSON-RPC error that answers it."""

    def __init__(self, code: types.ErrorCodes, message: str, msg_id: int | str | None = None):
        super().__init__(message)
        self.code, self.message, self.msg_id = code, message, msg_id

    def reply(self) -> dict:
        # A plain dict: lsprotocol's ResponseErrorMessage leaves out an id of None, and
        # JSON-RPC wants `"id": null` there.
        return {"jsonrpc": "2.0", "id": self.msg_id, "error": {"code": int(self.code), "message": self.message}}


class _EndOfInput(Exception):
    pass


class FrameReader:
    """The bodies of the messages on a byte stream (`read1`, as stdin's buffer has), one
    `Content-Length` frame at a time, holding at most a header line or one body."""

    def __init__(self, stream):
        self._stream = stream
        self._buffer = bytearray()
        self._lost = False  # a frame was refused: what follows, up to a header, is not ours

    def next_body(self) -> bytes | Refusal | None:
        """The next message's body, the refusal of a frame, or None once the input has ended."""
        try:
            if self._lost:
                self._skip_to_header()
                self._lost = False
            return self._take(self._content_length())
        except Refusal as refusal:
            self._lost = True
            return refusal
        except _EndOfInput:
            return None

    def _content_length(self) -> int:
        length, headers = None, False
        while True:
            line = self._line()
            if line.strip():
                headers = True
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = _length(value.strip())
            elif headers:  # the blank line that ends them
                if length is None:
                    raise Refusal(types.ErrorCodes.InvalidRequest, "a message without a Content-Length header")
                return length

    def _line(self) -> bytes:
        """The next header line or blank line, refused as soon as its bytes cannot begin one:
        a body sent without a header has no line end to wait for."""
        while (end := self._buffer.find(b"\n", 0, MAX_HEADER_LINE)) < 0:
            if len(self._buffer) >= MAX_HEADER_LINE:
                self._refuse_line(f"a header line longer than {MAX_HEADER_LINE} bytes")
            if not _HEADER_SO_FAR.fullmatch(self._buffer):
                self._refuse_line(f"not a header: {_shown(self._buffer)}")
            self._fill()
        line = bytes(self._buffer[:end + 1])
        if not _HEADER_LINE.fullmatch(line):
            self._refuse_line(f"not a header: {_shown(line)}")
        del self._buffer[:end + 1]
        return line

    def _refuse_line(self, why: str) -> NoReturn:
        del self._buffer[:1]  # the next header is looked for from the next byte: it may stand on this line
        raise Refusal(types.ErrorCodes.InvalidRequest, why)

    def _take(self, n: int) -> bytes:
        while len(self._buffer) < n:
            self._fill()
        body = bytes(self._buffer[:n])
        del self._buffer[:n]
        return body

    def _skip_to_header(self) -> None:
        while (start := self._buffer.lower().find(_HEADER_START)) < 0:
            del self._buffer[:max(0, len(self._buffer) - len(_HEADER_START) + 1)]
            self._fill()
        del self._buffer[:start]

    def _fill(self) -> None:
        try:
            chunk = self._stream.read1(_CHUNK)
        except (OSError, ValueError):  # the stream was closed under us
            raise _EndOfInput from None
        if not chunk:
            raise _EndOfInput
        self._buffer += chunk


def _length(value: bytes) -> int:
    if not value.isdigit():
        raise Refusal(types.ErrorCodes.InvalidRequest,
                      f"Content-Length must be a whole number of bytes, not {_shown(value)}")
    digits = value.lstrip(b"0") or b"0"
    if len(digits) > len(str(MAX_MESSAGE_BYTES)) or int(digits) > MAX_MESSAGE_BYTES:
        raise Refusal(types.ErrorCodes.InvalidRequest,
                      f"the message is too large: {_shown(digits)} bytes, the limit is {MAX_MESSAGE_BYTES}")
    return int(digits)


def parse_message(body: bytes) -> dict:
    """The JSON-RPC message a body holds, checked as far as its shape goes."""
    try:
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise Refusal(types.ErrorCodes.ParseError, "the message is not UTF-8") from None
    except RecursionError:
        raise Refusal(types.ErrorCodes.ParseError, f"the message nests more than {MAX_NESTING} deep") from None
    except ValueError as exc:  # not JSON, or an integer of thousands of digits
        raise Refusal(types.ErrorCodes.ParseError, f"the message is not JSON ({exc})") from None
    if _nesting(data) > MAX_NESTING:
        raise Refusal(types.ErrorCodes.ParseError, f"the message nests more than {MAX_NESTING} deep")
    if not isinstance(data, dict):
        raise Refusal(types.ErrorCodes.InvalidRequest, "a message must be a JSON object (LSP has no batches)")
    if "id" in data and not _is_id(data["id"]):
        raise Refusal(types.ErrorCodes.InvalidRequest, "a message's id must be an integer or a string")
    msg_id = data.get("id")
    if data.get("jsonrpc") != "2.0":
        raise Refusal(types.ErrorCodes.InvalidRequest, 'not a JSON-RPC message: "jsonrpc": "2.0" is missing', msg_id)
    if "method" in data and not isinstance(data["method"], str):
        raise Refusal(types.ErrorCodes.InvalidRequest, "a message's method must be a string", msg_id)
    if "method" not in data and ("id" not in data or not {"result", "error"} & data.keys()):
        raise Refusal(types.ErrorCodes.InvalidRequest, "neither a request, a notification nor a response", msg_id)
    return data


def _is_id(value) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _nesting(data) -> int:
    """How deeply arrays and objects nest, counted without recursion; stops past MAX_NESTING."""
    deepest, stack = 0, [(data, 1)]
    while stack and deepest <= MAX_NESTING:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            deepest = max(deepest, depth)
            stack.extend((inner, depth + 1) for inner in (value.values() if isinstance(value, dict) else value))
    return deepest


def _shown(raw: bytes | bytearray | str, most: int = 40) -> str:
    """A piece of the client's input, short enough to quote back."""
    text = raw if isinstance(raw, str) else bytes(raw).decode("utf-8", "replace")
    return repr(text[:most] + ("…" if len(text) > most else ""))


class GuardedProtocol(LanguageServerProtocol):
    """pygls' protocol, given each message as plain JSON, so that what does not fit is
    answered here before pygls sees it."""

    def take(self, body: bytes | Refusal) -> None:
        try:
            if isinstance(body, Refusal):
                raise body
            self._receive(parse_message(body))
        except Refusal as refusal:
            self._send_data(refusal.reply())
        except Exception:  # a bug of ours or of pygls: logged, and the next message is read
            self.notify(types.WINDOW_LOG_MESSAGE, types.LogMessageParams(
                types.MessageType.Error, f"meeple lsp: a message failed:\n{traceback.format_exc()}"))

    def _receive(self, data: dict) -> None:
        method = data.get("method")
        if method is None:  # a response to one of the server's requests: never answered
            try:
                message = self.structure_message(data)
            except Exception:  # pygls has logged what did not fit
                return
            self.handle_message(message)
            return
        known = method == types.CANCEL_REQUEST or method in self.fm.builtin_features or method in self.fm.features
        request = "id" in data
        if not known:
            if request:
                raise Refusal(types.ErrorCodes.MethodNotFound, f"no method {_shown(method)}", data["id"])
            return  # LSP: a notification the server does not know may be ignored
        try:
            message = self._converter.structure(
                data, self.get_message_type(method) or (JsonRPCRequestMessage if request else JsonRPCNotification))
        except Exception:  # cattrs' errors, whatever the params held
            if request:
                raise Refusal(types.ErrorCodes.InvalidParams,
                              f"the params of {method} are not what LSP says", data["id"]) from None
            self.notify(types.WINDOW_LOG_MESSAGE, types.LogMessageParams(
                types.MessageType.Warning, f"meeple lsp: ignored a {method} whose params are not what LSP says"))
            return
        self.handle_message(message)


def serve_stdio(server, stdin, stdout) -> None:
    """Serve `server` (built with protocol_cls=GuardedProtocol) over a byte stream pair, in
    place of pygls' `start_io`, whose reading loop this replaces."""
    server.protocol.set_writer(StdoutWriter(stdout))
    try:
        asyncio.run(_read_loop(server.protocol, FrameReader(stdin), server.thread_pool))
    except BrokenPipeError:  # the editor went away
        pass
    finally:
        server.shutdown()


async def _read_loop(protocol: GuardedProtocol, reader: FrameReader, pool) -> None:
    loop = asyncio.get_running_loop()
    # One message at a time, as pygls does: the next is read once this one is handed over.
    while (body := await loop.run_in_executor(pool, reader.next_body)) is not None:
        protocol.take(body)
