"""`meeple schema` and `meeple new`: what an author's editor and first minutes need."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape

from .render import console, fail


def schema(output: Optional[Path] = typer.Option(None, "--output", "-o",
                                                 help="write the schema to this file (default: print it)")):
    """Print the JSON Schema of a ruleset file, for editors (docs/editors.md)."""
    from meeple.dsl.schema.json_schema import schema_text
    text = schema_text()
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {output}: {exc.strerror or exc}")
    console.print(f"written {escape(str(output))}")


def new(name: Path = typer.Argument(..., help="the folder to make; its name is the game's name")):
    """Start a ruleset: a small game that validates, plays and passes its scenarios at once."""
    from meeple.authoring.scaffold import ScaffoldError, create
    try:
        made = create(name)
    except ScaffoldError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {name}: {exc.strerror or exc}")
    for path in made.files:
        console.print(f"  {escape(str(path))}")
    folder = escape(str(made.folder))
    console.print(f"next: [bold]meeple validate {folder}[/], [bold]meeple play {folder} --bots all[/], "
                  f"[bold]meeple test {folder}[/]")
