"""The CLI's own words in each language it speaks; a ruleset's `game.labels` translate the
game's words.  A missing phrase falls back to English, so a partial table still works."""
from __future__ import annotations

PHRASES = {
    "hu": {
        "player {p}": "{p}. játékos",
        "player {p} to move": "{p}. játékos következik",
        "what player {p} sees": "amit a(z) {p}. játékos lát",
        "player {p} (bot) plays": "{p}. játékos (gép) lépése:",
        "move {n}": "{n}. lépés",
        "illegal:": "szabálytalan:",
        "game over": "vége a játéknak",
        "reason": "ok",
        "score": "pont",
        "rank": "helyezés",
        "tie-breaks": "holtverseny-döntők",
        "winner": "győztes",
        "winners": "győztesek",
        "draw: nobody wins": "döntetlen: senki sem nyer",
        "phase": "fázis",
        "rule": "szabály",
        "true": "igen",
        "false": "nem",
        "count": "darab",
        "top": "felül",
        "{who} has chosen": "{who} választott",
        "player {p}: take the seat and press Enter": "{p}. játékos: ülj a géphez, és nyomj Entert",
        "you have no move to undo": "nincs visszavonható lépésed",
        "this game was dealt with seed {seed}": "a játék keverési magja: {seed}",
        "your area (player {p})": "a te területed ({p}. játékos)",
        "table": "asztal",
        "empty": "üres",
        "{n} hidden": "{n} rejtett",
        "you know": "ismered",
        "yes": "igen",
        "no": "nem",
    },
}


def phrase(lang: str | None, text: str, **values) -> str:
    table = PHRASES.get(lang or "", {})
    return table.get(text, text).format(**values)
