"""The words people read, in their language: the table's own words (display.py), and the
ruleset's names and messages through its `game.labels`.

Both `Game.render` and `meeple play` take their words from here, so the table reads the
same in Python as on the screen.  A missing phrase falls back to English, so a partial
table still works.

A label key may be scoped, `SCOPE.NAME` (`phase.goblins`, `value.goblins`), because one
name can mean two things: a phase and the value a card prints.  A lookup in a scope tries
the scoped key first, then the bare name; a lookup with no scope (a message, a `show`
text) tries the bare key only.
"""
from __future__ import annotations

# Where a name is shown decides its scope: an action or its parameter in a move, a
# phase in a heading, a variable or zone as a row of the table, a board's name, an
# item's field or a component kind, or a value (text values, map keys, board places), or
# a row of the player panel (`summary:`).
SCOPES = ("action", "param", "phase", "variable", "zone", "board", "field", "kind", "value", "summary")

DEFAULT_LANGUAGE = "en"  # the labels used when no language is asked for

# The table's own words (display.TableText), keyed by their English text.
TABLE_WORDS = {
    "hu": {
        "player {p}": "{p}. játékos",
        "your area (player {p})": "a te területed ({p}. játékos)",
        "table": "asztal",
        "phase": "fázis",
        "board": "tábla",
        "here": "itt áll",
        "empty": "üres",
        "top": "felül",
        "{n} hidden": "{n} rejtett",
        "you know": "ismered",
        "nothing": "semmi",
        "as player {p} sees it": "ahogy a(z) {p}. játékos látja",
        "yes": "igen",
        "no": "nem",
        # the narrated log (narration.py)
        "nobody": "senki",
        "(you)": "(te)",
        "a hidden item": "egy rejtett elem",
        "The game is over: {reason}.": "A játék véget ért: {reason}.",
        "chance": "véletlen",
        # how a game ends when no end rule says why (game.py, effects.py)
        "the flow of play is complete": "a játékmenet véget ért",
        "the rules ended the game": "a szabályok véget vetettek a játéknak",
        "an end condition was met": "teljesült egy befejezési feltétel",
    },
}


def translate(tables: dict, lang: str | None, text: str, **values) -> str:
    """`text` (English, with `{name}` places) from `tables[lang]`, filled with `values`."""
    return tables.get(lang or "", {}).get(text, text).format(**values)


def table_word(lang: str | None, text: str, **values) -> str:
    return translate(TABLE_WORDS, lang, text, **values)


def label_tables(ruleset, lang: str | None) -> list[dict]:
    """The label tables a lookup reads, in order: the asked language's, then English's
    (with no language asked, English's alone: a ruleset's `en` table is its display
    names, so raw names such as `max_won` never reach a screen that has one)."""
    labels = ruleset.game.labels
    langs = [lang] if lang and lang != DEFAULT_LANGUAGE else []
    return [labels[x] for x in (*langs, DEFAULT_LANGUAGE) if x in labels]


def find_label(ruleset, lang: str | None, name: str, scope: str | None = None) -> str | None:
    """The label of `name` shown in `scope`, or None when no table has one."""
    keys = (f"{scope}.{name}", name) if scope else (name,)
    for table in label_tables(ruleset, lang):
        for key in keys:
            if key in table:
                return table[key]
    return None


def scoped_key(key: str) -> tuple[str, str] | None:
    """(scope, name) of a scoped label key such as `phase.goblins`; None for a bare key."""
    scope, dot, name = key.partition(".")
    return (scope, name) if dot and scope in SCOPES and name else None
