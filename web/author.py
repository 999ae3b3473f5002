"""The author panel (`meeple serve --author`): under each seat's table, what a ruleset's
author needs while trying it out.

- the full state, as JSON (`State.to_data()`);
- the control point play stands at, drawn on the flow graph (flow_picture.py);
- every action, legal now or why not, with the rule (author_reasons.py), and a box that
  asks why any typed move is refused (`meeple play`'s `why MOVE`);
- a scenario recorder: the game so far as a scenario file (scenario_record.py), to
  download, or for a ruleset folder to save into its `scenarios/`;
- reload: when the ruleset's files change, the tables play on with the new rules (their
  moves replayed as far as still legal), or the page shows the new files' diagnostics.

It shows the whole state: it is for one author at one screen, never for a table whose
players must not see each other's cards.
"""
from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from meeple.cli.prompt_commands import why_line
from meeple.cli.refusals import rejection_text
from meeple.interpreter import RuleError
from meeple.interpreter.runtime.loading import RULESETS

from .author_reasons import actions_now
from .bodies import read_json
from .flow_picture import flow_picture, point_text
from .html import Markup, esc, tag
from .scenario_record import scenario_text
from .seating import acting_seat
from .tables import Refused
from .words import word

LOOK_EVERY = 0.5  # seconds between looks at the rulesets' files


@dataclass
class Files:
    """What the last look at a table's ruleset files found."""

    stamp: tuple
    diagnostics: str = ""  # the new files' problems, while they have any
    reloaded: tuple = ()  # the last reload's moves replayed, and the moves there were


class AuthorPanel:
    def __init__(self):
        self.files: dict[str, Files] = {}  # table id -> its files

    # -- the panel -------------------------------------------------------------------------
    def panel(self, table, moment, seat: int, lang: str) -> Markup:
        game, state = table.game, moment.state
        files = self.files.get(table.id)
        parts = [tag("h2", word(lang, "author"))]
        if files and files.diagnostics:
            parts.append(tag("p", word(lang, "the ruleset's files have errors; the table plays on with the "
                                             "rules it had"), class_="error"))
            parts.append(tag("pre", files.diagnostics, class_="diagnostics"))
        elif files and files.reloaded:
            kept, played = files.reloaded
            parts.append(tag("p", word(lang, "reloaded: {kept} of {played} moves replayed", kept=kept, played=played),
                             class_="reloaded"))
        picture, drawn = flow_picture(game.rules, state.pc)
        parts.append(Markup("<details open class=\"flow\">" + tag("summary", word(lang, "control point") + ": "
                                                                  + point_text(game.rules, state.pc))
                            + (Markup(picture) if drawn else tag("p", picture)) + "</details>"))
        parts.append(self._actions(game, state, seat, lang))
        parts.append(Markup('<form id="why-form">' + tag("label", word(lang, "why is this move not legal?"),
                                                           for_="why-move")
                            + '<input id="why-move" name="move" size="40">'
                            + tag("button", word(lang, "why?"), type="submit")
                            + '<p id="why-answer"></p></form>'))
        save = "" if not _folder(table.source) else tag("button", word(lang, "save it in the ruleset's scenarios/"),
                                                        id="save-scenario")
        parts.append(Markup("<p>" + tag("button", word(lang, "record this game as a scenario"), id="record")
                            + " " + save + '<span id="saved"></span></p>'))
        data = json.dumps(state.to_data(), indent=1, ensure_ascii=False, default=str)
        parts.append(Markup("<details>" + tag("summary", word(lang, "the full state")) + tag("pre", data)
                            + "</details>"))
        return Markup('<section class="author">' + "".join(parts) + "</section>")

    def _actions(self, game, state, seat: int, lang: str) -> Markup:
        rows = []
        for now in actions_now(game, state, seat):
            if now.legal:
                rows.append(f'<tr class="legal"><th>{esc(now.name)}</th>'
                            f'<td>{esc(word(lang, "legal now: {n} moves", n=now.legal))}</td><td></td></tr>')
            else:
                rows.append(f'<tr class="refused"{_data(now.name)}><th>{esc(now.name)}</th>'
                            f"<td><code>{esc(now.asked)}</code>: {esc(rejection_text(game, now.rejection, lang))}"
                            f"</td><td>{esc(now.rejection.code)}</td></tr>")
        return Markup("<details open>" + tag("summary", word(lang, "every action now")) +
                      f'<table class="actions">{"".join(rows)}</table></details>')

    # -- its requests ----------------------------------------------------------------------
    def routes(self, server) -> list[Route]:
        async def why(request: Request):
            link, seat = _seat(server, request)
            text = (await read_json(request)).get("move")
            if not isinstance(text, str):
                raise Refused(400, "W400", "the move must be a text")
            state = link.table.now.state
            answer = await run_in_threadpool(why_line, link.table.game, state, text.strip(), seat, server.lang(request))
            return JSONResponse({"answer": answer})

        async def record(request: Request):
            table = _seat(server, request)[0].table
            name = f"{table.game.name}-recorded-{len(table.now.history)}-moves.yaml"
            if request.method == "GET":
                return Response(scenario_text(table, table.now), media_type="application/yaml",
                                headers={"Content-Disposition": f'attachment; filename="{name}"'})
            folder = _folder(table.source)
            if folder is None:
                raise Refused(409, "W409", "only a ruleset folder has scenarios to save into")
            path = folder / "scenarios" / name
            path.parent.mkdir(exist_ok=True)
            path.write_text(scenario_text(table, table.now, in_folder=True), encoding="utf-8")
            return JSONResponse({"saved": str(path)})

        return [Route("/play/{token}/why", why, methods=["POST"]),
                Route("/play/{token}/scenario", record, methods=["GET", "POST"])]

    # -- reload ----------------------------------------------------------------------------
    async def watch(self, server) -> None:
        while True:
            await asyncio.sleep(LOOK_EVERY)
            await self.look(server)

    async def look(self, server) -> list:
        """Look at every table's ruleset files; reload those that changed.  The tables that
        changed (their pages are told)."""
        changed = []
        tables = server.tables.all()
        for gone in set(self.files) - {table.id for table in tables}:  # let go of to make room
            del self.files[gone]
        for table in tables:
            stamp = await run_in_threadpool(_stamp, table.source)
            files = self.files.get(table.id)
            if files is None:
                self.files[table.id] = Files(stamp)
                continue
            if stamp == files.stamp:
                continue
            files.stamp = stamp
            await run_in_threadpool(self._reload, server, table, files)
            server.live.changed(table)
            changed.append(table)
        return changed

    @staticmethod
    def _reload(server, table, files: Files) -> None:
        try:
            rules = server.sources.again(table.source)
            kept, played = table.reload(rules)
        except Refused as exc:
            files.diagnostics = exc.details or word(None, exc.text, **exc.values)
            return
        except (ValueError, RuleError) as exc:
            files.diagnostics = str(getattr(exc, "message", exc))
            return
        files.diagnostics, files.reloaded = "", (kept, played)


def _seat(server, request):
    link = server.link(request)
    return link, acting_seat(link, None)


def _data(name: str) -> str:
    return f' data-action="{esc(name)}"'


def _folder(source: str) -> Path | None:
    """The ruleset's folder when it is not a shipped one (a shipped one has no place to save)."""
    path = Path(source)
    return path if path.is_dir() and path.is_absolute() else None


def _stamp(source: str) -> tuple:
    """When and how the ruleset's own files last changed (its scenarios aside: a recorded
    scenario saved into the folder is no change of the rules)."""
    try:
        folder = Path(source) if Path(source).is_absolute() else RULESETS / source
        files = [f for f in folder.rglob("*.y*ml") if "scenarios" not in f.relative_to(folder).parts]
        return tuple(sorted((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files))
    except OSError:
        return ()
