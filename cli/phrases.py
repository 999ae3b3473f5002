"""The CLI's own words in each language it speaks.  The table's words (what `Game.render`
prints as well) live in interpreter/phrases.py, and a ruleset's `game.labels` translate the
game's words.  A missing phrase falls back to English, so a partial table still works."""
from __future__ import annotations

from meeple.interpreter.presentation.phrases import TABLE_WORDS, translate

PHRASES = {
    "hu": {
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
        "rule": "szabály",
        "true": "igen",
        "false": "nem",
        "count": "darab",
        "{who} has chosen": "{who} választott",
        "player {p}: take the seat and press Enter": "{p}. játékos: ülj a géphez, és nyomj Entert",
        "you have no move to undo": "nincs visszavonható lépésed",
        "this game was dealt with seed {seed}": "a játék keverési magja: {seed}",
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
        "{n} players": "{n} játékos",
        "a saved game, after {n} moves": "mentett játék, {n} lépés után",
        "NUMBER or MOVE": "SZÁM vagy LÉPÉS",
        "? or help": "? vagy help",
        "rules ACTION": "rules AKCIÓ",
        "why MOVE": "why LÉPÉS",
        "s FILE": "s FÁJL",
        "stopped after {n} moves": "{n} lépés után megállt",
        "input ended; game left unfinished": "a bemenet véget ért; a játék befejezetlen maradt",
        "not saved:": "nincs mentve:",
        "saved to {path}": "mentve ide: {path}",
        "replay log not written:": "a visszajátszási napló nem készült el:",
        "replay log written to {path}": "a visszajátszási napló elkészült: {path}",
        "you": "te",
        "back from a choice to all your moves": "egy választásból vissza az összes lépésedhez",
        "{n} choices": "{n} lehetőség",
        "a number from {lo} to {hi}": "egy szám {lo} és {hi} között",
        "b: back to all moves": "b: vissza az összes lépéshez",
        "no move is numbered {n}; choose 1 to {last}": "nincs {n}. számú lépés; válassz 1 és {last} között",
        "choose a number from {lo} to {hi}": "válassz egy számot {lo} és {hi} között",
        "no choice is numbered {n}; choose 1 to {last}": "nincs {n}. számú lehetőség; válassz 1 és {last} között",
        "taken as {move}": "így értve: {move}",
        "{value} is used by these moves; type one, or its number:":
            "{value} ezekben a lépésekben szerepel; írd be az egyiket vagy a számát:",
        "player {p}: the only move, {move}, is played for you":
            "{p}. játékos: az egyetlen lehetséges lépés, {move}, megtörtént helyetted",
        "the whole table, as you see it": "az egész asztal, ahogy látod",
        # The interpreter's messages: its refusals (Rejection.template) and how a game ends.
        "the game is over": "a játéknak vége",
        "the flow of play is complete": "a játékmenet véget ért",
        "'{move}' is not a move; write action or action(param=value,...)":
            "'{move}' nem lépés; így írd: akció vagy akció(paraméter=érték,...)",
        "it is not player {player}'s turn (to move: {acting})": "nem a(z) {player}. játékos következik (lép: {acting})",
        "pass takes no parameters": "a passznak nincs paramétere",
        "passing is not allowed here": "itt nem lehet passzolni",
        "there is no action '{name}'; possible now: {known}": "nincs '{name}' nevű akció; most lehetséges: {known}",
        "'{name}' cannot be taken now in phase '{phase}'; possible now: {known}":
            "'{name}' most nem léphető ebben a fázisban: {phase}; most lehetséges: {known}",
        "'{name}' cannot be taken now; possible now: {known}": "'{name}' most nem léphető; most lehetséges: {known}",
        "parameter '{part}' must be written name=value": "a(z) '{part}' paramétert név=érték alakban kell írni",
        "'{name}' has no parameter '{key}'; parameters: {declared}":
            "'{name}' akciónak nincs '{key}' paramétere; paraméterei: {declared}",
        "'{name}' needs the parameter '{param}'": "'{name}' akcióhoz kell a(z) '{param}' paraméter",
        "{param}={value} is not possible; choices: {choices}": "{param}={value} nem lehetséges; választható: {choices}",
        "cannot pay {needs} {place} (has {has})": "nem fizethető {needs} {place} (van: {has})",
        "nothing could be done after '{name}': none of its follow-up steps would have a possible move":
            "'{name}' után semmit sem lehetne tenni: egyik következő lépésnek sem lenne lehetséges lépése",
        "'{move}' is not legal here": "'{move}' itt nem szabályos",
    },
}


def phrase(lang: str | None, text: str, **values) -> str:
    """A CLI phrase, or one of the table's words (the CLI prints both)."""
    tables = PHRASES if text in PHRASES.get(lang or "", {}) else TABLE_WORDS
    return translate(tables, lang, text, **values)
