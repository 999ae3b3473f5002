"""The browser's own words in each language it speaks.  The words it shares with the
terminal (players, scores, reasons, the table's rows) come from the CLI's phrases and the
table's words, and a ruleset's names from its labels, so both say the same thing."""
from __future__ import annotations

from meeple.cli.phrases import PHRASES
from meeple.interpreter.presentation.phrases import TABLE_WORDS, translate

LANGUAGES = ("en", "hu")
LANGUAGE_NAMES = {"en": "English", "hu": "Magyar"}

WORDS = {
    "hu": {
        "you are player {p}": "te vagy a(z) {p}. játékos",
        "to move: {who}": "lép: {who}",
        "{who} (bot)": "{who} (gép)",
        "waiting for the others": "a többiekre várunk",
        "pass the device to player {p}": "add át a gépet a(z) {p}. játékosnak",
        "the others look away until player {p} has taken the seat":
            "a többiek ne nézzenek ide, amíg a(z) {p}. játékos át nem veszi a helyét",
        "I am player {p}: show my table": "én vagyok a(z) {p}. játékos: mutasd az asztalomat",
        "your move": "te lépsz",
        "none of your moves names this": "egyik lépésed sem erre vonatkozik",
        "confirm": "megerősítés",
        "cancel": "mégse",
        "show all moves": "minden lépés",
        "click a card, a place or a row of the table, then confirm; or choose here":
            "kattints egy kártyára, helyre vagy az asztal egy sorára, majd erősítsd meg; vagy válassz itt",
        "undo my last move": "az utolsó lépésem visszavonása",
        "player": "játékos",
        "moves so far": "az eddigi lépések",
        "{n} earlier moves": "{n} korábbi lépés",
        "messages": "üzenetek",
        "no seat is shown on this device now": "ezen a gépen most nincs megnyitott hely",
        "this link does not play seat {seat}": "ez a link nem a(z) {seat}. helyé",
        "player {seat} is not the one to take the seat now": "most nem a(z) {seat}. játékos veszi át a helyet",
        "no table has this link": "ehhez a linkhez nem tartozik asztal",
        "not found": "nem található",
        "refused": "elutasítva",
        "language": "nyelv",
        "new table": "új asztal",
        "choose a game": "válassz játékot",
        "shipped rulesets": "beépített szabálykönyvek",
        "or a ruleset folder on this computer": "vagy egy szabálykönyv-mappa ezen a gépen",
        "next": "tovább",
        "players": "játékosok",
        "options": "beállítások",
        "seats": "helyek",
        "seat {p}": "{p}. hely",
        "human": "ember",
        "seed (empty: a fresh deal)": "keverési mag (üres: új keverés)",
        "allow undo": "visszavonás engedélyezése",
        "play a seat's only move for it": "az egyetlen lehetséges lépést a gép lépi meg",
        "the only move, played for you": "az egyetlen lehetséges lépés, helyetted lépve",
        "open the table": "asztal megnyitása",
        "the table is open": "az asztal megnyílt",
        "give each player their own link; whoever holds a link plays that seat":
            "mindenki a saját linkjét kapja; aki a linket birtokolja, az játszik azon a helyen",
        "hot-seat: every human seat on this device": "egy gépen: minden emberi hely ezen az eszközön",
        "played by {bot}": "játssza: {bot}",
        "bad request": "hibás kérés",
        "the ruleset has errors": "a szabálykönyvben hibák vannak",
        "the ruleset failed while running: {message}": "a szabálykönyv futás közben hibát adott: {message}",
        "back to the lobby": "vissza az előtérbe",
        "the lobby": "előtér",
        "this server reads only the rulesets in its lobby; start it with --rules FOLDER to add one":
            "ez a szerver csak az előtérben felsorolt szabálykönyveket olvassa; újat a --rules MAPPA "
            "kapcsolóval indítva vesz fel",
        "a ruleset path is read only from the lobby's form (a POST), never from an address":
            "szabálykönyv-útvonalat csak az előtér űrlapjáról (POST) olvas, címből soha",
        "nothing at that path can be read as a ruleset": "azon az útvonalon nincs olvasható szabálykönyv",
        "that path is neither a folder nor a file": "az az útvonal se nem mappa, se nem fájl",
        "the ruleset at that path has {n} error(s); run `meeple validate` on it to see them":
            "az azon az útvonalon lévő szabálykönyvben {n} hiba van; a `meeple validate` megmutatja őket",
        "the game cannot start with these settings: {message} [{error}]":
            "a játék ezekkel a beállításokkal nem indulhat: {message} [{error}]",
        "the server holds {n} tables, as many as it may; try again when a game has ended":
            "a szerveren {n} asztal van, ennél több nem lehet; próbáld újra, ha egy játék véget ért",
        "this server does not answer to the name this request was sent to; open it at the address "
        "`meeple serve` printed":
            "ez a szerver nem válaszol arra a névre, amelyre a kérés érkezett; a `meeple serve` által "
            "kiírt címen nyisd meg",
        "a request from another site's page is refused": "más webhely oldaláról érkező kérést nem fogad el",
        "the server failed to answer this request: a bug in meeple":
            "a szerver nem tudott válaszolni erre a kérésre: ez a meeple hibája",
        "a form may have at most {n} fields": "egy űrlapnak legfeljebb {n} mezője lehet",
        "the request must be a JSON object": "a kérés JSON-objektum legyen",
        "a value may be nested at most {n} levels deep": "egy érték legfeljebb {n} szint mélyen ágyazható be",
        "this address reads {kind}, not {given}": "ez a cím {kind} tartalmat olvas, nem {given} tartalmat",
        "{what} must be a whole number": "{what} egész szám legyen",
        "seat {p} must be human or one of the bots: {bots}": "a(z) {p}. hely ember vagy egy gép legyen: {bots}",
        "a table needs at least one human seat": "egy asztalhoz legalább egy emberi hely kell",
        "unknown language '{lang}'; languages: {langs}": "ismeretlen nyelv: '{lang}'; nyelvek: {langs}",
        "the move must be a text": "a lépés szöveg legyen",
        "a request may carry at most {n} bytes": "egy kérés legfeljebb {n} bájtos lehet",
        "author": "szerzői panel",
        "the ruleset's files have errors; the table plays on with the rules it had":
            "a szabálykönyv fájljaiban hibák vannak; az asztal a korábbi szabályokkal játszik tovább",
        "reloaded: {kept} of {played} moves replayed": "újratöltve: {played} lépésből {kept} lejátszva újra",
        "control point": "vezérlési pont",
        "every action now": "minden akció most",
        "legal now: {n} moves": "most szabályos: {n} lépés",
        "why is this move not legal?": "miért nem szabályos ez a lépés?",
        "why?": "miért?",
        "record this game as a scenario": "a játék mentése forgatókönyvként",
        "save it in the ruleset's scenarios/": "mentés a szabálykönyv scenarios/ mappájába",
        "the full state": "a teljes állapot",
        "only a ruleset folder has scenarios to save into": "csak szabálykönyv-mappába lehet forgatókönyvet menteni",
    },
}


def word(lang: str | None, text: str, **values) -> str:
    """A word of the browser's, else one the terminal says (CLI phrases, table words)."""
    for tables in (WORDS, PHRASES, TABLE_WORDS):
        if text in tables.get(lang or "", {}):
            return translate(tables, lang, text, **values)
    return text.format(**values)


def language(asked: str | None, cookie: str | None) -> str:
    """The page's language: asked in the address, else remembered in a cookie, else English."""
    for lang in (asked, cookie):
        if lang in LANGUAGES:
            return lang
    return LANGUAGES[0]
