"""Live updates: each open page keeps a stream of server-sent events, and gets a fresh
rendering of its own link's fragment whenever its table changes.

Nothing is broadcast: every message is drawn for the one link that listens, from the seat
that link shows (seat_page.py), so a message can hold no more than that seat's page.
"""
from __future__ import annotations

import asyncio
import json

from starlette.concurrency import run_in_threadpool

KEEP_ALIVE = 20.0  # seconds between comments that keep an idle stream open through proxies


class Live:
    def __init__(self):
        self._waiting: dict[str, set[asyncio.Event]] = {}

    def changed(self, table) -> None:
        """Wake every stream of `table` (called in the event loop)."""
        for event in self._waiting.get(table.id, ()):
            event.set()

    async def updates(self, table, render):
        """Server-sent events for one page: its fragment now, then at each change.
        `render(moment)` draws the fragment (in a worker thread: a big table takes a while)."""
        event = asyncio.Event()
        self._waiting.setdefault(table.id, set()).add(event)
        try:
            sent = None
            while True:
                moment = table.now
                if moment.version != sent:
                    sent = moment.version
                    html = await run_in_threadpool(render, moment)
                    yield event_text("table", {"version": moment.version, "html": html})
                    continue
                event.clear()
                if table.now.version != sent:  # changed between the look and the clear
                    continue
                try:
                    await asyncio.wait_for(event.wait(), KEEP_ALIVE)
                except asyncio.TimeoutError:
                    yield ": still here\n\n"
        finally:
            waiting = self._waiting.get(table.id, set())
            waiting.discard(event)
            if not waiting:  # the table's last page has gone: its entry goes too
                self._waiting.pop(table.id, None)


def event_text(name: str, data) -> str:
    """One event; JSON keeps the data on one line, as a `data:` line must be."""
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"
