"""`meeple serve`: the games in a browser (meeple.web), on uvicorn.

The web stack is the optional `web` extra; without it the command says which extra to
install, in one line."""
from __future__ import annotations

import socket
from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape

from meeple.web.tables import MAX_TABLES  # web/tables.py needs nothing of the web extra

from .render import console, fail

EXTRA = "meeple serve needs the web extra: pip install 'meeple[web]'"


def serve(host: str = typer.Option("127.0.0.1", "--host", help="the address to listen on (127.0.0.1: this computer "
                                   "alone; 0.0.0.0: every network it is on); the server answers only requests sent "
                                   "to it by that address (or, on 0.0.0.0, by number or by this computer's name)"),
          port: int = typer.Option(8000, "--port", help="the port to listen on (0: any free one)"),
          rules: Optional[List[Path]] = typer.Option(None, "--rules", help="a ruleset folder the lobby offers besides "
                                                     "the shipped ones, its diagnostics shown (may be given more "
                                                     "than once)"),
          allow_paths: bool = typer.Option(False, "--allow-paths", help="the lobby also takes a ruleset path typed "
                                           "into its form (sent as a POST; never from an address); a typed "
                                           "ruleset's errors are counted, not quoted"),
          max_tables: int = typer.Option(MAX_TABLES, "--max-tables", help="the most tables held at once; when "
                                         "full, a new table replaces the one that ended (else went idle for an "
                                         "hour) longest ago, or is refused"),
          author: bool = typer.Option(False, "--author", help="under each table, the author panel: the full state, the "
                                      "flow, why each action is not legal, a scenario recorder, reload on change")):
    """Play in a browser: a lobby, a link per seat, live tables (docs/web.md, "What `meeple
    serve` exposes").  With --author, each table also shows everything its ruleset's author
    needs (and so hides nothing)."""
    try:
        import uvicorn

        from meeple.web.author import AuthorPanel
        from meeple.web.guard import Addresses
        from meeple.web.routes import create_app
        from meeple.web.sources import Sources
    except ImportError:
        fail(EXTRA)
    for folder in rules or ():
        if not folder.is_dir():
            fail(f"--rules {folder}: no such folder")
    if not 0 <= port < 65536:
        fail(f"--port must be 0 to 65535, not {port}")
    if max_tables < 1:
        fail(f"--max-tables must be at least 1, not {max_tables}")
    port = port or _free_port(host)
    app = create_app(Sources(rules or (), allow_paths=allow_paths), AuthorPanel() if author else None,
                     Addresses.listening(host, port), max_tables)
    shown = f"[{host}]" if ":" in host else host
    console.print(f"meeple serve: [bold]http://{escape(shown)}:{port}/[/] (Ctrl-C stops it)")
    try:
        # Open pages keep their live-update streams open: on Ctrl-C they are closed after a
        # second instead of waited for.  Tracebacks of what no request should cause are the
        # application's to log (web/last_resort.py), in one line.
        uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=1)
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")


def _free_port(host: str) -> int:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.bind((host, 0))
        return s.getsockname()[1]
