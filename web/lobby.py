"""The lobby: pick a game, set up its table, hand out the links.

The form is read here into a `Game` and the table's settings; whatever is wrong with it
(an unknown ruleset, a player count or option the game does not take, a bot that does
not exist, no human seat) is a `Refused` with the reason, shown on the form's page.
"""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass

from meeple.bots import BotSpecError, parse_bot_spec
from meeple.interpreter import Game

from .bodies import json_value
from .html import Markup, attrs, esc, tag
from .tables import Refused
from .tokens import HOT_SEAT
from .words import LANGUAGE_NAMES, LANGUAGES, word

HUMAN = "human"
BOTS = ("random", "mcts:300", "ismcts:60:depth=3")  # what a seat may be besides a person


@dataclass
class Setup:
    source: str
    game: Game
    seed: int
    bots: dict
    undo: bool
    options: dict
    auto: bool = False  # a human seat's only legal move is played for it


def read_setup(form, sources) -> Setup:
    """The table a form asks for.  The form comes in a POST, so it may name a ruleset by a
    path when the server takes typed paths (sources.py)."""
    source, rules = sources.rules(str(form.get("ruleset", "")), typed=True)
    info = rules.ruleset.game
    players = _whole(form.get("players", info.min_players), "players")
    options = {key[7:]: _value(value) for key, value in form.items() if key.startswith("option.")}
    try:
        game = Game(rules, players, options)
    except ValueError as exc:
        raise Refused(400, "W400", str(exc)) from None
    bots = {}
    for seat in range(players):
        kind = str(form.get(f"seat.{seat}", HUMAN))
        if kind == HUMAN:
            continue
        if kind not in BOTS:
            raise Refused(400, "W400", "seat {p} must be human or one of the bots: {bots}", p=seat,
                          bots=", ".join(BOTS))
        try:
            parse_bot_spec(kind)
        except BotSpecError as exc:  # a bot listed here that this installation lacks
            raise Refused(400, "W400", str(exc)) from None
        bots[seat] = kind
    if len(bots) == players:
        raise Refused(400, "W400", "a table needs at least one human seat")
    seed_text = str(form.get("seed", "")).strip()
    seed = secrets.randbelow(2**31) if not seed_text else _whole(seed_text, "seed")
    return Setup(source, game, seed, bots, form.get("undo") == "on", options, form.get("auto") == "on")


def _whole(text, what: str) -> int:
    try:
        return int(str(text).strip())
    except ValueError:
        raise Refused(400, "W400", "{what} must be a whole number", what=what) from None


def _value(text: str):
    """An option as typed: JSON where it reads as JSON (3, true, [3, 4, 5]), else text,
    as `meeple play -o` reads it; JSON nested too deep is refused (bodies.json_value)."""
    try:
        return json_value(text)
    except ValueError:
        return text


# -- pages ------------------------------------------------------------------------------------
def lobby_page(sources, titles: dict, lang: str) -> Markup:
    """`titles`: source -> (title, players as text)."""
    choices = "".join(tag("option", f"{titles[s][0]} ({titles[s][1]})", value=s) for s in sources.listed())
    listed = (f'<form method="get" action="/new" class="lobby"><input type="hidden" name="lang" '
              f'value="{esc(lang)}"><label>{esc(word(lang, "choose a game"))} '
              f'<select name="ruleset">{choices}</select></label>'
              + tag("button", word(lang, "next"), type="submit", class_="primary") + "</form>")
    typed = ""
    if sources.allow_paths:  # a path is sent in a POST alone: a GET never makes the server read one
        typed = (f'<form method="post" action="/new?lang={esc(lang)}" class="lobby typed">'
                 f'<label>{esc(word(lang, "or a ruleset folder on this computer"))} '
                 f'<input name="folder" size="40" placeholder="/path/to/my-game"></label>'
                 + tag("button", word(lang, "next"), type="submit") + "</form>")
    return Markup(tag("h1", word(lang, "new table")) + listed + typed)


def table_form(source: str, rules, lang: str, error: str = "") -> Markup:
    info = rules.ruleset.game
    rows = [_row(word(lang, "players"), _select("players", [(n, str(n)) for n in
                                                              range(info.min_players, info.max_players + 1)]))]
    for name, decl in info.options.items():
        rows.append(_row(name + (f" — {decl.description}" if decl.description else ""), _option_input(name, decl)))
    seat_kinds = [(HUMAN, word(lang, HUMAN))] + [(b, b) for b in BOTS]
    for seat in range(info.max_players):
        default = HUMAN if seat == 0 else "random"
        rows.append(_row(word(lang, "seat {p}", p=seat), _select(f"seat.{seat}", seat_kinds, default),
                         data_seat=seat))
    rows.append(_row(word(lang, "seed (empty: a fresh deal)"), Markup('<input name="seed" inputmode="numeric">')))
    rows.append(_row(word(lang, "allow undo"), Markup('<input type="checkbox" name="undo" checked>')))
    rows.append(_row(word(lang, "play a seat's only move for it"), Markup('<input type="checkbox" name="auto" checked>')))
    rows.append(_row(word(lang, "language"), _select("lang", [(x, LANGUAGE_NAMES[x]) for x in LANGUAGES], lang)))
    return Markup(tag("h1", info.title or info.name)
                  + (tag("p", error, class_="error") if error else "")
                  + f'<form method="post" action="/tables" class="setup">'
                  f'<input type="hidden" name="ruleset" value="{esc(source)}"><table class="form">{"".join(rows)}</table>'
                  + tag("button", word(lang, "open the table"), type="submit", class_="primary", id="open")
                  + "</form>")


def _row(name: str, field: Markup, **data) -> str:
    return f"<tr{attrs(**data)}><th>{esc(name)}</th><td>{field}</td></tr>"


def _select(name: str, choices, chosen=None) -> Markup:
    options = "".join(f'<option{attrs(value=v, selected=str(v) == str(chosen))}>{esc(text)}</option>'
                      for v, text in choices)
    return Markup(f'<select{attrs(name=name)}>{options}</select>')


def _option_input(name: str, decl) -> Markup:
    field = f"option.{name}"
    if decl.choices is not None:
        return _select(field, [(json.dumps(c), json.dumps(c)) for c in decl.choices], json.dumps(decl.default))
    if isinstance(decl.default, bool):
        return _select(field, [("true", "true"), ("false", "false")], json.dumps(decl.default))
    return Markup(f'<input{attrs(name=field, value=json.dumps(decl.default))}>')


def host_page(table, links, base: str, lang: str) -> Markup:
    """The links of a new table: one per human seat, and the hot-seat link."""
    items = []
    for link in links:
        url = f"{base}play/{link.token}?lang={lang}"
        if link.kind == HOT_SEAT:
            name = word(lang, "hot-seat: every human seat on this device")
        else:
            name = word(lang, "player {p}", p=link.seats[0])
        items.append(f"<li>{esc(name)}: " + tag("a", url, href=url, class_="seat-link", data_kind=link.kind,
                                                 data_seats=list(link.seats)) + "</li>")
    for seat, bot in sorted(table.bots.items()):
        items.append(tag("li", f"{word(lang, 'player {p}', p=seat)}: {word(lang, 'played by {bot}', bot=bot)}"))
    title = table.game.rules.ruleset.game.title or table.game.name
    return Markup(tag("h1", f"{title}: {word(lang, 'the table is open')}")
                  + tag("p", word(lang, "give each player their own link; whoever holds a link plays that seat"))
                  + f'<ul class="links">{"".join(items)}</ul>')
