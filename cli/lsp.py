"""`meeple lsp`: the language server for ruleset authors, spoken over stdin and stdout.

An editor starts it and talks to it; nothing is printed for people.  What it offers and
how to set up an editor is in docs/editors.md."""
from __future__ import annotations


def lsp():
    """Run the language server over stdio (for editors: diagnostics, completion, hover, go to definition)."""
    from meeple.authoring.server import run
    run()
