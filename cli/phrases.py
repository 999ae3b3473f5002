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
        "play a listed move, by its number or its text": "egy felsorolt lépés, a száma vagy a szövege szerint",
        "this help, then your moves again": "ez a súgó, majd újra a lépéseid",
        "the rule behind an action, with its rulebook page": "egy akció szabálya, a szabálykönyv oldalával",
        "why a move is not legal now": "miért nem szabályos most egy lépés",
        "the moves played so far, as you may know them": "az eddigi lépések, ahogy ismerheted őket",
        "undo your last move": "az utolsó lépésed visszavonása",
        "save the game": "a játék mentése",
        "quit (the replay log is still written)": "kilépés (a visszajátszási napló elkészül)",
        "did you mean": "erre gondoltál:",
        "no action is called {name}": "nincs {name} nevű akció",
        "actions": "akciók",
        "only if not": "nem léphető, ha",
        "that move is legal now": "ez a lépés most szabályos",
        "no moves yet": "még nem volt lépés",
        "table": "asztal",
        "board": "tábla",
        "here": "itt áll",
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
