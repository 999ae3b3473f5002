"""Checks of what a user typed on the command line that typer's types cannot express:
seats that must exist, counts that must be positive, formats a command can write.
Each bad value ends in one clear line on stderr (exit 2), before any work is done."""
from __future__ import annotations

from pathlib import Path

from meeple.interpreter.sampling import RANDOM_GAME_MOVES  # noqa: F401 - the CLI's default too

from .render import fail


def at_least(value: int, minimum: int, option: str) -> int:
    if value < minimum:
        fail(f"{option} must be at least {minimum}, not {value}")
    return value


def known_format(fmt: str, formats: tuple[str, ...], hint: str = "") -> str:
    if fmt not in formats:
        fail(f"unknown format '{fmt}'; use {', '.join(formats[:-1])} or {formats[-1]}{hint}")
    return fmt


def bot_seats(text: str, player_count: int) -> set[int]:
    """`--bots`: 'all', or seat numbers separated by commas; each must be a seat of
    this game (0 to player_count - 1), so a typo never leaves a human seat by mistake."""
    text = text.strip()
    if text == "all":
        return set(range(player_count))
    if not text:
        return set()
    seats = set()
    for piece in text.split(","):
        piece = piece.strip()
        if not piece.isdigit():
            fail(f"--bots takes 'all' or seat numbers separated by commas (such as 1,2), not '{text}'")
        if int(piece) >= player_count:
            fail(f"--bots names seat {piece}, but this game's {player_count} players sit in seats "
                 f"0 to {player_count - 1}")
        seats.add(int(piece))
    return seats


def saved_setup(path: Path) -> tuple[int | None, dict | None]:
    """The player count and options a save was made with, read before the game is built,
    so `--load` needs neither `-p` nor `-o` again.  A count that is not a whole number, or
    options that are not a map, are passed over here; reading the save proper reports
    them, at their field."""
    from meeple.interpreter.saves import parse_json, read_text
    data = parse_json(read_text(path, "save"), path, "save")
    data = data if isinstance(data, dict) else {}
    players, options = data.get("players"), data.get("options")
    return (players if isinstance(players, int) and not isinstance(players, bool) else None,
            options if isinstance(options, dict) else None)
