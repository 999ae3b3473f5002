"""`meeple board`: a game's board as one player sees it, as text or as an SVG file.

The position is the start of a game with the given seed, or where N random moves (seeded by
the same seed) lead.  The picture is made from the player's view only, so a file made for
one player shows nothing that player could not see at the table."""
from __future__ import annotations

import random
from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape

from .common_options import checked_lang, lang_option, players_option
from .arguments import game_from_options
from .render import console, fail

FORMATS = ("text", "svg")


def board(game: str = typer.Argument(..., help="a shipped ruleset name or a path"),
          player: int = typer.Option(0, "--player", help="whose view is drawn"),
          seed: int = typer.Option(0, "--seed", "-s", help="seed of the game's chance and of the random moves"),
          moves: int = typer.Option(0, "--moves", help="play this many random moves first"),
          players: Optional[int] = players_option(),
          name: Optional[str] = typer.Option(None, "--board", help="which board (default: every board; "
                                                                    "for SVG the first)"),
          fmt: Optional[str] = typer.Option(None, "--format", "-f", help="text or svg (svg when -o is given)"),
          output: Optional[Path] = typer.Option(None, "--output", "-o", help="write the picture to this file"),
          lang: Optional[str] = lang_option(),
          option: Optional[List[str]] = typer.Option(None, "--option", help="name=value (a grid's size may "
                                                                             "depend on one)")):
    """Draw a game's board as one player sees it: a text map, or an SVG picture."""
    from meeple.interpreter.presentation.board_export import board_as_svg, board_as_text, drawn_boards
    fmt = fmt or ("svg" if output else "text")
    if fmt not in FORMATS:
        fail(f"unknown format '{fmt}'; formats: {', '.join(FORMATS)}")
    if moves < 0:
        fail("--moves must be at least 0")
    g = game_from_options(game, players, option)
    lang = checked_lang(g.rules.ruleset, lang)
    if not 0 <= player < g.player_count:
        fail(f"--player must be 0 to {g.player_count - 1} for {g.player_count} players")
    names = drawn_boards(g)
    if name is not None and name not in names:
        fail(f"'{name}' is not a board of {g.name}" + (f"; boards: {', '.join(names)}" if names else ""))
    if not names:
        fail(f"{g.name} has no board")
    state = g.new_state(seed)
    if moves:
        state = g.playout(state, rng=random.Random(seed), max_moves=moves)
    view = g.view(state, player)
    if fmt == "svg":
        text = board_as_svg(g, view, name or names[0], lang)
    else:
        text = "\n\n".join(board_as_text(g, view, b, lang) for b in ([name] if name else names)) + "\n"
    if output:
        output.write_text(text, encoding="utf-8")
        console.print(f"written {escape(str(output))}")
    else:
        print(text, end="")
