"""The web application: its addresses, and what each does with a request.

Every address under `/play/{token}` acts for the seat its link shows now
(seating.acting_seat): a move, an undo or a view asked for another seat is refused with
403 and the reason, and the table is left as it was.  Bad input of any kind gets a page or
JSON that says what is wrong, never a traceback.  Before any address is looked at, a
request passes guard.py (the Host it was sent to, the site a POST comes from); anything
that changes the server's state is a POST.
"""
from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from meeple.cli.refusals import rejection_text
from meeple.interpreter import RuleError

from .bodies import read_form, read_json
from .guard import Addresses, Guard
from .html import Markup
from .last_resort import LastResort
from .live import Live
from .lobby import host_page, lobby_page, read_setup, table_form
from .pages import error_page, page
from .seat_page import seat_fragment
from .seating import acting_seat, take_seat
from .sources import Sources
from .tables import MAX_TABLES, Refused, Tables
from .tokens import HOST
from .words import language, word

STATIC = Path(__file__).resolve().parent / "static"
LANG_COOKIE = "meeple_lang"


class Server:
    """The state of one `meeple serve`: its tables, the pages listening to them, the
    rulesets its lobby offers, and the author panel when it is on."""

    def __init__(self, sources: Sources, author=None, max_tables: int = MAX_TABLES):
        self.tables = Tables(max_tables)
        self.live = Live()
        self.sources = sources
        self.author = author  # author.AuthorPanel in --author mode

    # -- helpers ----------------------------------------------------------------------------
    def lang(self, request: Request) -> str:
        return language(request.query_params.get("lang"), request.cookies.get(LANG_COOKIE))

    def html(self, request: Request, title: str, body: Markup, status: int = 200, script: bool = False,
             data: dict | None = None) -> HTMLResponse:
        lang = self.lang(request)
        # The language links lead to this page again; a POST's page cannot be asked for again
        # by a link, so from one they lead to the lobby.
        path = request.url.path if request.method == "GET" else "/"
        query = {k: v for k, v in request.query_params.items() if k != "lang" and request.method == "GET"}
        response = HTMLResponse(page(title, body, lang, path, query, data, script), status)
        if request.query_params.get("lang") == lang:  # chosen here: remembered for the next pages
            response.set_cookie(LANG_COOKIE, lang, samesite="lax")
        return response

    async def on_refused(self, request: Request, exc: Refused):
        """Every refusal, raised anywhere below a request: as JSON to a page's own requests
        (everything under /play/TOKEN/), as a page to a browser's navigation."""
        found = self.tables.find(request.path_params.get("token", ""))
        path = request.url.path
        as_json = path.startswith("/play/") and path.count("/") > 2
        return self.refused(request, exc, as_json, found.table.game if found is not None else None)

    def refused(self, request: Request, exc: Refused, as_json: bool, game=None):
        lang = self.lang(request)
        if exc.rejection is not None:
            message = rejection_text(game, exc.rejection, lang)
        else:
            message = word(lang, exc.text, **exc.values)
        if as_json:
            return JSONResponse({"error": message, "code": exc.code,
                                 "rule": exc.rejection.rule if exc.rejection is not None else None},
                                status_code=exc.status)
        return HTMLResponse(error_page(exc.status, message, lang, exc.details, exc.code), exc.status)

    def link(self, request: Request, playing: bool = True):
        found = self.tables.find(request.path_params["token"])
        if found is None or (playing and found.kind == HOST) or (not playing and found.kind != HOST):
            raise Refused(404, "W404", "no table has this link")
        return found

    def fragment(self, link, lang: str, moment=None) -> str:
        extra = self.author.panel if self.author is not None else None
        return seat_fragment(link, lang, extra, moment)

    async def drive_bots(self, table) -> None:
        """The bots' moves, one at a time, each shown to every page as it is made."""
        try:
            while await run_in_threadpool(table.bot_step):
                self.live.changed(table)
        except RuleError as exc:
            table.failure = exc.message
            self.live.changed(table)

    # -- the lobby ----------------------------------------------------------------------------
    async def lobby(self, request: Request):
        titles = {source: await run_in_threadpool(self.sources.title, source) for source in self.sources.listed()}
        return self.html(request, "meeple", lobby_page(self.sources, titles, self.lang(request)))

    async def new_table_form(self, request: Request):
        """A game's setup form: for a ruleset of the lobby's list (GET or POST), or for a path
        typed into the lobby's form (POST alone, with --allow-paths; sources.py)."""
        if request.method == "POST":
            source, typed = (await read_form(request)).get("folder", ""), True
        elif "folder" in request.query_params:
            raise self.sources.path_refused()
        else:
            source, typed = request.query_params.get("ruleset", ""), False
        source, rules = await run_in_threadpool(self.sources.rules, source, typed)
        return self.html(request, rules.ruleset.game.title, table_form(source, rules, self.lang(request)), script=True)

    async def open_table(self, request: Request):
        self.tables.make_room()  # a full server refuses before it reads a ruleset
        form = await read_form(request)
        setup = await run_in_threadpool(read_setup, form, self.sources)
        host = await run_in_threadpool(self._open, setup)
        lang = language(form.get("lang"), request.cookies.get(LANG_COOKIE))
        return RedirectResponse(f"/host/{host.token}?lang={lang}", status_code=303,
                                background=BackgroundTask(self.drive_bots, host.table))

    def _open(self, setup):
        """The table (its first state built here: the game's setup runs with the options as
        given, and an option's value can break a limit of the rules)."""
        try:
            return self.tables.open(setup.game, setup.seed, setup.bots, setup.undo, setup.source, setup.options,
                                    setup.auto)
        except RuleError as exc:
            raise Refused(400, exc.code, "the game cannot start with these settings: {message} [{error}]",
                          message=exc.message, error=exc.code) from None

    async def host(self, request: Request):
        table = self.link(request, playing=False).table
        body = host_page(table, self.tables.links(table), str(request.base_url), self.lang(request))
        return self.html(request, table.game.rules.ruleset.game.title, body)

    # -- a seat's page --------------------------------------------------------------------------
    async def seat_page(self, request: Request):
        link = self.link(request)
        lang = self.lang(request)
        body = Markup(await run_in_threadpool(self.fragment, link, lang))
        title = link.table.game.rules.ruleset.game.title or link.table.game.name
        return self.html(request, title, body, script=True, data={"token": link.token})

    async def events(self, request: Request):
        link = self.link(request)
        lang = self.lang(request)
        stream = self.live.updates(link.table, lambda moment: self.fragment(link, lang, moment))
        return StreamingResponse(stream, media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def current(self, request: Request):
        """The fragment now, as JSON: what a page asks for after it took a seat or lost its stream."""
        link = self.link(request)
        return await self._fragment_json(link, self.lang(request))

    async def view(self, request: Request):
        """The seat's view as data (`Game.view`): for programs, and for the author."""
        link = self.link(request)
        asked = request.path_params.get("seat")
        seat = acting_seat(link, None if asked is None else _seat_number(asked))
        return JSONResponse(link.table.game.view(link.table.now.state, seat))

    async def move(self, request: Request):
        return await self._act(request, lambda link, seat, body: link.table.play(seat, _move_text(body)))

    async def undo(self, request: Request):
        return await self._act(request, lambda link, seat, body: link.table.undo(seat))

    async def seat(self, request: Request):
        """The hot-seat device has been passed: show the seat that was asked for."""
        link = self.link(request)
        take_seat(link, _seat_number((await read_json(request)).get("seat")))
        return await self._fragment_json(link, self.lang(request))

    async def _act(self, request: Request, action):
        link = self.link(request)
        body = await read_json(request)
        asked = body.get("seat")
        seat = acting_seat(link, None if asked is None else _seat_number(asked))
        try:
            await run_in_threadpool(action, link, seat, body)
        except RuleError as exc:
            message = word(self.lang(request), "the ruleset failed while running: {message}", message=exc.message)
            return JSONResponse({"error": message, "code": exc.code}, status_code=500)
        self.live.changed(link.table)
        response = await self._fragment_json(link, self.lang(request))
        response.background = BackgroundTask(self.drive_bots, link.table)
        return response

    async def _fragment_json(self, link, lang: str) -> JSONResponse:
        moment = link.table.now
        html = await run_in_threadpool(self.fragment, link, lang, moment)
        return JSONResponse({"version": moment.version, "html": html})


def _seat_number(value) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 10:
        return int(value)
    raise Refused(400, "W400", "{what} must be a whole number", what="seat")


def _move_text(body: dict) -> str:
    text = body.get("move")
    if not isinstance(text, str):
        raise Refused(400, "W400", "the move must be a text")
    return text


def create_app(sources: Sources | None = None, author=None, addresses: Addresses | None = None,
               max_tables: int = MAX_TABLES) -> Starlette:
    """The application.  `addresses`: the names it answers to (guard.py); by default
    this computer's loopback names on any port, for a server whose port it is not told."""
    server = Server(sources or Sources(), author, max_tables)
    routes = [
        Route("/", server.lobby),
        Route("/new", server.new_table_form, methods=["GET", "POST"]),
        Route("/tables", server.open_table, methods=["POST"]),
        Route("/host/{token}", server.host),
        Route("/play/{token}", server.seat_page),
        Route("/play/{token}/events", server.events),
        Route("/play/{token}/fragment", server.current),
        Route("/play/{token}/view", server.view),
        Route("/play/{token}/view/{seat}", server.view),
        Route("/play/{token}/move", server.move, methods=["POST"]),
        Route("/play/{token}/undo", server.undo, methods=["POST"]),
        Route("/play/{token}/seat", server.seat, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    if author is not None:
        routes += author.routes(server)
    guard = Middleware(Guard, addresses=addresses or Addresses.listening("127.0.0.1"), refuse=server.on_refused)
    app = Starlette(routes=routes, middleware=[Middleware(LastResort), guard],
                    exception_handlers={404: _not_found, 405: _not_found, Refused: server.on_refused},
                    lifespan=_watching(server) if author is not None else None)
    app.state.server = server
    return app


def _watching(server):
    """While the server runs, the author panel looks at the rulesets' files."""
    @contextlib.asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(server.author.watch(server))
        try:
            yield
        finally:
            task.cancel()
    return lifespan


async def _not_found(request: Request, exc) -> Response:
    lang = language(request.query_params.get("lang"), request.cookies.get(LANG_COOKIE))
    status = getattr(exc, "status_code", 404)
    return HTMLResponse(error_page(status, word(lang, "not found"), lang, code=f"W{status}"), status)
