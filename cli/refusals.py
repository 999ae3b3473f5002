"""A refused move, said in the player's language, with the nearest legal move when the
text was mistyped.

A requirement's reason is the ruleset's message, and its labels translate it.  The
interpreter's own refusals (interpreter/explain.py: no such action, no such parameter, a
value that is not possible, ...) carry the template of their reason and its values
(`Rejection.template`, `.values`), so they are said again from the CLI's phrases.  A move
refused for how it was written (an unknown action or parameter, a malformed text) also
gets "did you mean" with the closest legal move, since the player most likely mistyped one.
"""
from __future__ import annotations

import difflib
import re

from .phrases import PHRASES, phrase
from .render import label

MISTYPED = ("M801", "M802")  # refused for how the move was written, not for the rules
CLOSE = 0.6  # difflib's similarity above which a legal move is offered as meant


def rejection_text(game, rejection, lang: str | None) -> str:
    """Why a move is refused, in `lang`, with the rule it cites."""
    if rejection.template is not None:
        values = dict(rejection.values)
        if "phase" in values:
            values["phase"] = label(game, values["phase"], lang, "phase")
        text = phrase(lang, rejection.template, **values)
    else:
        text = said(game, rejection.reason, lang)
    return text + (f" ({phrase(lang, 'rule')} {rejection.rule})" if rejection.rule else "")


def said(game, reason: str, lang: str | None) -> str:
    """`reason` in `lang`: a ruleset's message from its labels, or one of the
    interpreter's fixed messages (how a game ends when no end rule ended it)."""
    labelled = label(game, reason, lang)
    if labelled != reason:
        return labelled
    return phrase(lang, reason) if reason in PHRASES.get(lang or "", {}) else reason


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
