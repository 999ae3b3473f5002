"""The narrated log on the terminal: after each move, what the rules did, as one seat may
read it (`Game.narrate`), for `meeple play` and `meeple replay --narrate`.

Nothing here reaches into the runtime: the sentences come from the Game API, already
named for the seat (hidden items stay hidden), so the screen cannot say more than the
seat's view."""
from __future__ import annotations

from rich.markup import escape

from .phrases import phrase
from .render import console

MARK = "»"  # before each narrated sentence, so it stands apart from the moves


def narration_lines(game, before, move, seat: int, lang: str | None) -> list[str]:
    """The sentences `seat` reads for `move` played from `before`, each as a line."""
    return [f"    {MARK} {s}" for s in game.narrate(before, move, seat, lang)]


def print_narration(game, before, move, seat: int, lang: str | None) -> None:
    for line in narration_lines(game, before, move, seat, lang):
        console.print(f"[cyan]{escape(line)}[/]")


def replay_lines(game, state, moves, seat: int, lang: str | None):
    """Each move of a log as `seat` reads it, then its narration."""
    for n, (player, text) in enumerate(moves, 1):
        move = game.parse_move(state, text, player, referee=True)
        who = phrase(lang, "player {p}", p=move.player) if move.player >= 0 else phrase(lang, "chance")
        yield f"{n:>4}  {who}: {game.move_text(state, move, seat)}"
        yield from narration_lines(game, state, move, seat, lang)
        state = game.apply(state, move)
