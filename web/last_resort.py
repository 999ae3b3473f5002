"""The last line of defence: an exception nothing below expected.

Every bad request has its own refusal (a 4xx with the reason); an exception that still
reaches this far is a bug in meeple.  The asker gets a short page that says so (500),
never a traceback, and the server's log gets one line naming the exception, as the CLI
says an internal error; MEEPLE_TRACEBACK=1 lets the exception through to be logged whole.
"""
from __future__ import annotations

import logging
import os

from starlette.responses import HTMLResponse

from .pages import error_page
from .words import word

LOG = logging.getLogger("uvicorn.error")  # the server's log, where uvicorn writes its own errors


class LastResort:
    """ASGI middleware: an unexpected exception becomes a short 500 page and a log line."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:  # noqa: BLE001 - the last line of defence, see above
            if os.environ.get("MEEPLE_TRACEBACK"):
                raise
            LOG.error("internal error in meeple serve (%s: %s) answering %s %s; please report it "
                      "(MEEPLE_TRACEBACK=1 logs the details)", type(exc).__name__, str(exc)[:200],
                      scope.get("method"), scope.get("path"))
            if not started:  # else the answer is under way: it can only be cut short
                page = error_page(500, word("en", "the server failed to answer this request: a bug in meeple"), "en",
                                  code="W500")
                await HTMLResponse(page, 500)(scope, receive, send)
