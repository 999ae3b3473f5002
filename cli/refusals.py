"""A refused move, said in the player's language, with the nearest legal move when the
text was mistyped.

A requirement's reason is the ruleset's message, and its labels translate it.  The
interpreter's own refusals (interpreter/explain.py: no such action, no such parameter, a
value that is not possible, ...) are English sentences made from a template; here they
are read back into their parts and said again from the CLI's phrases.  A move refused for
how it was written (an unknown action or parameter, a malformed text) also gets "did you
mean" with the closest legal move, since the player most likely mistyped one of them.
"""
from __future__ import annotations

import difflib
import re

from .phrases import phrase
from .render import label

# The interpreter's own messages a player meets: its refusals, as explain.py writes them
# (most specific first), and how a game ends when no end rule ended it (game.py).
TEMPLATES = (
    "the flow of play is complete",
    "the game is over",
    "'{move}' is not a move; write action or action(param=value,...)",
    "it is not player {player}'s turn (to move: {acting})",
    "pass takes no parameters",
    "passing is not allowed here",
    "there is no action '{name}'; possible now: {known}",
    "'{name}' cannot be taken now in phase '{phase}'; possible now: {known}",
    "'{name}' cannot be taken now; possible now: {known}",
    "parameter '{part}' must be written name=value",
    "'{name}' has no parameter '{key}'; parameters: {declared}",
    "'{name}' needs the parameter '{param}'",
    "{param}={value} is not possible; choices: {choices}",
    "cannot pay {needs} {place} (has {has})",
    "nothing could be done after '{name}': none of its follow-up steps would have a possible move",
    "'{move}' is not legal here",
)
MISTYPED = ("M801", "M802")  # refused for how the move was written, not for the rules
CLOSE = 0.6  # difflib's similarity above which a legal move is offered as meant


def _pattern(template: str) -> re.Pattern:
    parts = re.split(r"\{(\w+)\}", template)
    body = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
    return re.compile(f"^{body}$", re.S)


_PATTERNS = [(t, _pattern(t)) for t in TEMPLATES]


def rejection_text(game, rejection, lang: str | None) -> str:
    """Why a move is refused, in `lang`, with the rule it cites."""
    text = said(game, rejection.reason, lang)
    return text + (f" ({phrase(lang, 'rule')} {rejection.rule})" if rejection.rule else "")


def said(game, reason: str, lang: str | None) -> str:
    """`reason` in `lang`: a ruleset's message from its labels, an interpreter refusal
    from the CLI's phrases."""
    labelled = label(game, reason, lang)
    if labelled != reason:
        return labelled
    for template, pattern in _PATTERNS:
        found = pattern.match(reason)
        if found:
            values = found.groupdict()
            if "phase" in values:
                values["phase"] = label(game, values["phase"], lang, "phase")
            return phrase(lang, template, **values)
    return reason


def did_you_mean(game, state, typed: str, player: int, code: str, lang: str | None) -> str:
    """'; did you mean MOVE?' for a mistyped move: the legal move whose text is closest
    to what was typed, or else the legal action whose name is closest; '' when none is
    close or the move was refused by the rules rather than for its writing."""
    if code not in MISTYPED:
        return ""
    moves = game.legal_moves(state, player)
    texts = [game.move_text(state, m, player) for m in moves]
    close = difflib.get_close_matches(typed, texts, n=1, cutoff=CLOSE)
    if not close:
        name = re.split(r"[(\s]", typed, maxsplit=1)[0]
        close = difflib.get_close_matches(name, sorted({m.action for m in moves}), n=1, cutoff=CLOSE)
    return f"; {phrase(lang, 'did you mean')} {close[0]}?" if close else ""
