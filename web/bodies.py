"""What a request carries, read with a bound: a move or a form is a few hundred bytes, so
a body past BODY_LIMIT is refused before more of it is read."""
from __future__ import annotations

import json

from starlette.requests import Request

from .tables import Refused

BODY_LIMIT = 64 * 1024


async def read_body(request: Request) -> bytes:
    """The request's body, refused past BODY_LIMIT before more of it is read."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > BODY_LIMIT:
            raise Refused(413, "W413", "a request may carry at most {n} bytes", n=BODY_LIMIT)
    return bytes(body)


async def read_json(request: Request) -> dict:
    try:
        body = json.loads(await read_body(request) or b"{}")
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise Refused(400, "W400", "bad request")
    return body
