"""What a player may ask at the `meeple play` prompt besides a move: help, the rule
behind an action, why a move is refused, and the moves so far as they may read them."""
from __future__ import annotations

import difflib

from meeple.interpreter.presentation.texts import texts_named

from .narration_lines import narration_lines
from .phrases import phrase
from .refusals import rejection_text
from .render import label, move_text

HELP = (
    ("NUMBER or MOVE", "play a listed move, by its number or its text"),
    ("b", "back from a choice to all your moves"),
    ("? or help", "this help, then your moves again"),
    ("t", "the whole table, as you see it"),
    ("rules ACTION", "the rule behind an action, with its rulebook page"),
    ("why MOVE", "why a move is not legal now"),
    ("log", "the moves played so far, as you may know them"),
    ("u", "undo your last move"),
    ("s FILE", "save the game"),
    ("q", "quit (the replay log is still written)"),
)


def help_lines(lang) -> list[str]:
    commands = [(phrase(lang, c), phrase(lang, what)) for c, what in HELP]
    width = max(len(c) for c, _ in commands)
    return [f"  {c.ljust(width)}  {what}" for c, what in commands]


def rules_lines(game, name: str, lang) -> list[str]:
    """An action's label, description and rule citation; the cited section's title when
    the rulebook lists it; the text of a card or ability of that name (a kind's `text:`).
    A name that is neither gets the closest actions."""
    actions = game.rules.ruleset.actions
    decl = actions.get(name)
    texts = [f"{what}: {text}" for what, text in texts_named(game, name, lang)]
    if decl is None and texts:
        return texts
    if decl is None:
        close = difflib.get_close_matches(name, list(actions), n=3, cutoff=0.5)
        hint = f"; {phrase(lang, 'did you mean')} {', '.join(close)}?" if close else ""
        return [phrase(lang, "no action is called {name}", name=name) + hint,
                phrase(lang, "actions") + ": " + ", ".join(label(game, a, lang, "action") for a in actions)]
    lines = [f"{label(game, name, lang, 'action')} ({name})"]
    if decl.description:
        lines.append(f"  {label(game, decl.description, lang)}")
    if decl.rule:
        section = game.rules.ruleset.game.rulebook.sections.get(decl.rule)
        cited = f"{decl.rule}: {label(game, section, lang)}" if section else decl.rule
        lines.append(f"  {phrase(lang, 'rule')} {cited}")
    for check in decl.require:
        if check.reason:
            lines.append(f"  {phrase(lang, 'only if not')}: {label(game, check.reason, lang)}")
    return lines + [f"  {t}" for t in texts]


def why_line(game, state, text: str, player: int, lang) -> str:
    moves = game.legal_moves(state, player)
    if any(game.move_text(state, m, player) == text or str(m) == text for m in moves):
        return phrase(lang, "that move is legal now")
    return rejection_text(game, game.explain(state, text, player), lang)


def log_lines(game, history, viewer: int, lang) -> list[str]:
    """Every move so far, each named as `viewer` could read it when it was played, with
    what the rules did then (the narrated log)."""
    lines = []
    for n, (before, move) in enumerate(history, 1):
        if move.player != viewer and game.decision_kind(before) == "simultaneous":
            text = phrase(lang, "{who} has chosen", who=phrase(lang, "player {p}", p=move.player))
        else:
            text = f"{phrase(lang, 'player {p}', p=move.player)}: {move_text(game, move, lang, before, viewer)}"
        lines.append(f"  {n:>3}. {text}")
        lines += narration_lines(game, before, move, viewer, lang)
    return lines or [f"  {phrase(lang, 'no moves yet')}"]
