"""What a request carries, read with bounds: a move or a form is a few hundred bytes, so
a body past BODY_LIMIT is refused before more of it is read, a form past FORM_FIELDS
fields is refused before it is taken apart, and JSON nested past JSON_DEPTH is refused
before it is parsed (Python's parser recurses once per level: 20,000 levels would
overflow its stack).  Each refusal is a `Refused` with its status; none is a traceback."""
from __future__ import annotations

import json
from urllib.parse import parse_qsl

from starlette.requests import Request

from meeple.interpreter.persistence.saves import nesting

from .tables import Refused

BODY_LIMIT = 64 * 1024
FORM_FIELDS = 200  # a table's form: a few settings, a seat per player, an option each
JSON_DEPTH = 32  # a move is one level; an option's value a list of lists at most

FORM_TYPE = "application/x-www-form-urlencoded"
JSON_TYPE = "application/json"


async def read_body(request: Request) -> bytes:
    """The request's body, refused past BODY_LIMIT before more of it is read."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > BODY_LIMIT:
            raise Refused(413, "W413", "a request may carry at most {n} bytes", n=BODY_LIMIT)
    return bytes(body)


async def read_form(request: Request) -> dict:
    """A form as the lobby's pages send it: its fields, the last of any given twice."""
    _expect(request, FORM_TYPE)
    text = (await read_body(request)).decode("utf-8", "replace")
    try:
        return dict(parse_qsl(text, max_num_fields=FORM_FIELDS))
    except ValueError:  # more fields than FORM_FIELDS
        raise Refused(400, "W400", "a form may have at most {n} fields", n=FORM_FIELDS) from None


async def read_json(request: Request) -> dict:
    """A page's request: a JSON object (an empty body is an empty one)."""
    _expect(request, JSON_TYPE)
    data = await read_body(request)
    try:
        body = json_value(data.decode("utf-8")) if data else {}
    except ValueError:  # not UTF-8, not JSON, or a number too long to convert
        body = None
    if not isinstance(body, dict):
        raise Refused(400, "W400", "the request must be a JSON object")
    return body


def json_value(text: str):
    """`text` parsed as JSON, refused with 400 when nested deeper than JSON_DEPTH; a
    ValueError when it is not JSON."""
    if nesting(text, JSON_DEPTH) > JSON_DEPTH:  # counted in one pass: a hostile text costs its length
        raise Refused(400, "W400", "a value may be nested at most {n} levels deep", n=JSON_DEPTH)
    return json.loads(text)


def _expect(request: Request, kind: str) -> None:
    """A body of another kind than the address reads is refused (415), not misread; a
    client that names no kind (curl --data-binary, a test) is taken at its word."""
    given = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if given and given != kind:
        raise Refused(415, "W415", "this address reads {kind}, not {given}", kind=kind, given=given)
