"""The options several commands share, each said once: its flags, its help text and the
check of its value, so that a short flag means one thing everywhere (`-o` is `--output`;
game options are `--option` only) and `meeple CMD --help` explains every option."""
from __future__ import annotations

from typing import Optional

import typer

from meeple.interpreter.presentation.phrases import DEFAULT_LANGUAGE, TABLE_WORDS

from .render import fail


def game_argument(default=...):
    return typer.Argument(default, help="a shipped ruleset name (meeple list) or a ruleset's file or folder")


def players_option(help: str = "number of players (default: the game's smallest table)"):
    return typer.Option(None, "--players", "-p", help=help)


def seed_option(default: Optional[int], help: str = "seed of the game's chance"):
    return typer.Option(default, "--seed", "-s", help=help)


def game_options_option():
    return typer.Option(None, "--option", help="a game option, name=value (repeat it for more; "
                                               "the options are in the ruleset's game.options)")


def lang_option():
    return typer.Option(None, "--lang", help="language of the ruleset's labels and the screen's words "
                                             "(a language the ruleset's labels or meeple itself speaks)")


def games_option(default: int = 100):
    return typer.Option(default, "--games", "-n", help="how many games to play")


def checked_lang(ruleset, lang: Optional[str]) -> Optional[str]:
    """`--lang` is a language the ruleset's labels list, or one meeple's own words are in
    (English always): an unknown one is refused, not silently shown in English."""
    if lang is None:
        return None
    from .phrases import PHRASES
    known = sorted({DEFAULT_LANGUAGE, *ruleset.game.labels, *PHRASES, *TABLE_WORDS})
    if lang not in known:
        fail(f"unknown language '{lang}' for --lang; this game speaks {', '.join(known)}")
    return lang
