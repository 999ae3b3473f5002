"""Checks of what a user typed on the command line that typer's types cannot express:
seats that must exist, counts that must be positive, formats a command can write.
Each bad value ends in one clear line on stderr (exit 2), before any work is done."""
from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

from meeple.interpreter.analysis.sampling import RANDOM_GAME_MOVES  # noqa: F401 - the CLI's default too

from meeple.interpreter import load_game
from meeple.interpreter.runtime.loading import BACKENDS

from .render import fail


def at_least(value: int, minimum: int, option: str) -> int:
    if value < minimum:
        fail(f"{option} must be at least {minimum}, not {value}")
    return value


def known_format(fmt: str, formats: tuple[str, ...], hint: str = "") -> str:
    if fmt not in formats:
        fail(f"unknown format '{fmt}'; use {', '.join(formats[:-1])} or {formats[-1]}{hint}")
    return fmt


def bot_seats(text: str, player_count: int) -> dict:
    """`--bots`: 'all' or seat numbers separated by commas (random bots), or seats with
    the bot each plays, `1=mcts:2000,2=random`; each seat must be one of this game's
    (0 to player_count - 1), so a typo never leaves a human seat by mistake.  Seat -> BotSpec."""
    from meeple.bots import BotSpecError, parse_bot_spec
    text = text.strip()
    if text == "all":
        return {p: parse_bot_spec("random") for p in range(player_count)}
    if not text:
        return {}
    seats = {}
    for piece in text.split(","):
        seat, given, spec = (part.strip() for part in piece.partition("="))
        if not seat.isdigit() or (given and not spec):
            fail(f"--bots takes 'all' or seat numbers separated by commas (such as 1,2), not '{text}'; "
                 f"a seat may name its bot (such as 1=mcts:2000,2=random)")
        if int(seat) >= player_count:
            fail(f"--bots names seat {seat}, but this game's {player_count} players sit in seats "
                 f"0 to {player_count - 1}")
        try:
            seats[int(seat)] = parse_bot_spec(spec or "random")
        except BotSpecError as exc:
            fail(f"--bots: {exc}")
    return seats


def seat_bots(specs: list[str], player_count: int) -> list:
    """`simulate --bots`: one bot spec for every seat, or one per seat in seat order."""
    from meeple.bots import BotSpecError, parse_bot_spec
    specs = [s for text in specs for s in text.replace(",", " ").split()]
    if len(specs) not in (1, player_count):
        fail(f"--bots takes one bot for every seat or one per seat ({player_count}), not {len(specs)}: "
             f"{' '.join(specs)}")
    try:
        parsed = [parse_bot_spec(s) for s in specs]
    except BotSpecError as exc:
        fail(f"--bots: {exc}")
    return parsed * player_count if len(parsed) == 1 else parsed


def saved_setup(path: Path) -> tuple[int | None, dict | None]:
    """The player count and options a save was made with, read before the game is built,
    so `--load` needs neither `-p` nor `-o` again.  A count that is not a whole number, or
    options that are not a map, are passed over here; reading the save proper reports
    them, at their field."""
    from meeple.interpreter.persistence.saves import parse_json, read_text
    data = parse_json(read_text(path, "save"), path, "save")
    data = data if isinstance(data, dict) else {}
    players, options = data.get("players"), data.get("options")
    return (players if isinstance(players, int) and not isinstance(players, bool) else None,
            options if isinstance(options, dict) else None)


def checked_backend(backend: Optional[str]) -> Optional[str]:
    if backend is not None and backend not in BACKENDS:
        fail(f"unknown back end '{backend}'; back ends: {', '.join(BACKENDS)}")
    return backend


def game_from_options(name: str, players: Optional[int], options: Optional[List[str]] = None, backend: Optional[str] = None,
          refused_as: str = "", preset: Optional[dict] = None):
    """`preset`: options already read (a save's), used when no -o is given."""
    backend = checked_backend(backend)
    opts = dict(preset) if preset and not options else {}
    for o in options or []:
        key, eq, value = o.partition("=")
        if not eq:
            fail(f"option '{o}' must be written name=value")
        opts[key] = parsed_option_value(value)
    try:
        return load_game(name, players, opts, backend)
    except ValueError as exc:
        fail(refused_as + str(exc))


def parsed_option_value(text: str):
    """Option values on the command line: JSON where it parses (1, true, [3, 4, 5]), else text."""
    try:
        return json.loads(text)
    except ValueError:
        return text
