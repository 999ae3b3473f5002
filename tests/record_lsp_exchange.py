"""Record a short exchange with `meeple lsp` for people to read: the tutorial's game
(examples/high-card) opened with a misspelt name, then completion, hover, definition,
references and the quick fix, every message as one JSON line.

    python tests/record_lsp_exchange.py OUT.txt

The opened file's text and long completion lists are cut short (the line says how much).
"""
from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

from lsp_support import Editor, position_of

HIGH_CARD = Path(__file__).resolve().parent.parent / "examples" / "high-card" / "game.yaml"
SHOWN_COMPLETIONS = 6


def _shortened(entry: dict) -> dict:
    message = entry["message"]
    if entry["method"] == "textDocument/didOpen":
        document = message["textDocument"]
        text = document["text"]
        message = dict(message, textDocument=dict(document, text=text[:80] + f"… ({len(text)} characters)"))
    if entry["method"] == "textDocument/completion" and entry["from"] == "server" and message:
        items = message["items"]
        message = dict(message, items=items[:SHOWN_COMPLETIONS])
        if len(items) > SHOWN_COMPLETIONS:
            message["items_left_out"] = len(items) - SHOWN_COMPLETIONS
    return dict(entry, message=message)


def record(out: Path) -> list[dict]:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "high-card"
        folder.mkdir()
        game = folder / "game.yaml"
        shutil.copy(HIGH_CARD, game)
        text = game.read_text(encoding="utf-8").replace("or card.colour == lead_colour", "or card.colour == lead_colur")
        editor = Editor()
        try:
            [diagnostic] = editor.open(game, text)
            editor.completion(game, *position_of(text, "lead_colur", len("lead_co")))
            editor.hover(game, *position_of(text, "max_by", 2))
            editor.hover(game, *position_of(text, "choose: [play]", len("choose: [p")))
            editor.definition(game, *position_of(text, "choose: [play]", len("choose: [p")))
            editor.references(game, *position_of(text, "leader:", 1))
            editor.code_actions(game, diagnostic)
        finally:
            editor.close()
    entries = [_shortened(e) for e in editor.transcript]
    out.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries), encoding="utf-8")
    return entries


if __name__ == "__main__":
    written = record(Path(sys.argv[1]))
    print(f"{len(written)} messages written to {sys.argv[1]}")
