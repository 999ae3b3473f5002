"""What one link's page shows now, as one HTML fragment (`<div id="table">`): the same
fragment fills the page, answers a move and travels in every live update.

For the seat it shows, everything comes from that seat's side of the API: its view
(`Game.view`), its legal moves named as it reads them (`Game.move_text`), the moves so far
as it could read each when it was played, and, once the game is over, the outcome.  The
pass-the-device screen is built from public facts only (whose turn it is, the phase).
"""
from __future__ import annotations

from meeple.cli.play import news_line
from meeple.cli.refusals import said
from meeple.cli.render import label, move_text
from meeple.cli.screen import summary_cell, summary_label

from .html import Markup, attrs, esc, join, tag
from .move_list import move_list
from .seating import Showing, showing
from .table_html import HtmlTable
from .words import word

LOG_SHOWN = 80  # moves at the end of the log; the earlier ones are counted


def seat_fragment(link, lang: str, extra=None, moment=None) -> Markup:
    """The fragment at `moment` (the table's latest when None).  `extra(table, moment,
    seat, lang)`: more of the page for the seat shown (the author panel), or None."""
    table = link.table
    moment = moment or table.now
    show = showing(link, moment)
    parts = [status_line(table, moment, show, lang)]
    if show.asks is not None:
        parts.append(pass_screen(show.asks, lang))
    elif show.seat is None:
        parts.append(tag("p", word(lang, "waiting for the others"), class_="waiting"))
    else:
        parts.append(seat_table(table, moment, show.seat, lang))
        if extra is not None:
            parts.append(extra(table, moment, show.seat, lang))
    marks = attrs(class_="over" if moment.state.over else None, data_version=moment.version, data_seat=show.seat,
                  data_asks=show.asks)
    return Markup(f'<div id="table"{marks}>' + "".join(parts) + "</div>")


def status_line(table, moment, show: Showing, lang: str) -> Markup:
    game, state = table.game, moment.state
    bits = [game.rules.ruleset.game.title or game.name]
    if show.seat is not None:
        bits.append(word(lang, "you are player {p}", p=show.seat))
    if state.phase:
        bits.append(label(game, state.phase, lang, "phase"))
    if state.over:
        bits.append(word(lang, "game over"))
    else:
        movers = [_who(table, p, lang) for p in game.current_players(state)]
        bits.append(word(lang, "to move: {who}", who=", ".join(movers)))
    line = tag("p", join(bits, " · "), class_="status")
    if table.failure:
        line += tag("p", word(lang, "the ruleset failed while running: {message}", message=table.failure),
                    class_="error")
    return Markup(line)


def _who(table, p: int, lang: str) -> str:
    who = word(lang, "player {p}", p=p)
    return word(lang, "{who} (bot)", who=who) if p in table.bots else who


def pass_screen(seat: int, lang: str) -> Markup:
    return Markup('<section class="pass-screen">'
                  + tag("h2", word(lang, "pass the device to player {p}", p=seat))
                  + tag("p", word(lang, "the others look away until player {p} has taken the seat", p=seat))
                  + tag("button", word(lang, "I am player {p}: show my table", p=seat), id="take-seat",
                        data_seat=seat)
                  + "</section>")


def seat_table(table, moment, seat: int, lang: str) -> Markup:
    game, state = table.game, moment.state
    view = game.view(state, seat)
    drawn = HtmlTable(game, view, lang, table.bots)
    parts = []
    if state.over:
        parts.append(end_screen(game, state, lang))
    parts.append(player_panel(game, state, seat, lang))
    parts.append(moves_panel(table, moment, seat, lang))
    parts.append(Markup(f'<div class="boards">{drawn.boards()}</div>'))
    parts.append(Markup(f'<div class="areas">{drawn.sections()}</div>'))
    parts.append(log_panel(table, moment, seat, view, lang))
    return Markup("".join(parts))


def player_panel(game, state, seat: int, lang: str) -> Markup:
    """The player panel, as the terminal's (cli/screen.py): a row per entry of the
    ruleset's `summary:`, a column per player, the seat's own marked.  Public values only
    (S130), so every seat is shown all of it; nothing when the ruleset declares none."""
    rows = game.summary(state)
    if not rows:
        return Markup("")
    heads = "".join(tag("th", word(lang, "you") if p == seat else word(lang, "player {p}", p=p),
                        class_="you" if p == seat else None) for p in range(game.player_count))
    body = "".join(f"<tr>{tag('th', summary_label(game, row.name, lang))}"
                   + "".join(tag("td", summary_cell(v, lang), class_="you" if p == seat else None)
                             for p, v in enumerate(row.values)) + "</tr>" for row in rows)
    return Markup(f'<section class="panel"><table class="summary"><tr><th></th>{heads}</tr>{body}</table></section>')


def moves_panel(table, moment, seat: int, lang: str) -> Markup:
    game, state = table.game, moment.state
    moves = game.legal_moves(state, seat) if not state.over else ()
    undo = table.can_undo(moment, seat)
    parts = []
    if moves:
        parts.append(tag("h2", word(lang, "your move")))
        parts.append(Markup('<div id="selection" hidden><span id="chosen"></span> '
                            + tag("button", word(lang, "confirm"), id="confirm", class_="primary")
                            + tag("button", word(lang, "cancel"), id="cancel") + "</div>"))
        parts.append(Markup('<p id="narrowed" hidden>'
                            + tag("button", word(lang, "show all moves"), id="show-all") + "</p>"))
        parts.append(tag("p", word(lang, "click a card, a place or a row of the table, then confirm; or choose here"),
                         class_="hint"))
        parts.append(move_list(game, state, seat, moves, lang, word(lang, "none of your moves names this")))
    elif not state.over:
        parts.append(tag("p", word(lang, "waiting for the others"), class_="waiting"))
    if undo:
        parts.append(tag("button", word(lang, "undo my last move"), id="undo"))
    parts.append(Markup('<p id="message" role="alert"></p>'))
    return Markup('<section class="moves">' + "".join(parts) + "</section>")


def end_screen(game, state, lang: str) -> Markup:
    out = game.outcome(state)
    rows = "".join(
        f"<tr{attrs(class_='winner' if p in out.winners else None)}><th>{esc(word(lang, 'player {p}', p=p))}</th>"
        f"<td>{esc(out.scores[p])}</td><td>{esc(out.ranks[p])}</td>"
        f"<td>{esc(', '.join(map(str, out.tiebreaks[p])))}</td></tr>" for p in range(game.player_count))
    head = "".join(f"<th>{esc(word(lang, h))}</th>" for h in ("player", "score", "rank", "tie-breaks"))
    if out.winners:
        who = ", ".join(word(lang, "player {p}", p=w) for w in out.winners)
        verdict = word(lang, "winners" if len(out.winners) > 1 else "winner") + ": " + who
    else:
        verdict = word(lang, "draw: nobody wins")
    return Markup('<section class="end">' + tag("h2", word(lang, "game over"))
                  + tag("p", word(lang, "reason") + ": " + said(game, out.reason, lang), class_="reason")
                  + f'<table class="scores"><tr>{head}</tr>{rows}</table>'
                  + tag("p", verdict, class_="verdict") + "</section>")


def log_panel(table, moment, seat: int, view: dict, lang: str) -> Markup:
    """The moves so far, each as this seat could read it when it was played (a
    simultaneous choice of another only as "has chosen") with what the rules did then
    (the narrated log), and the game's messages."""
    history = moment.history
    first = max(0, len(history) - LOG_SHOWN)
    lines = [Markup(f'<li value="{i + 1}">{esc(_read(table, history, i, seat, lang))}'
                    f'{_narration(table, history, i, seat, lang)}</li>') for i in range(first, len(history))]
    parts = [tag("h3", word(lang, "moves so far"))]
    if first:
        parts.append(tag("p", word(lang, "{n} earlier moves", n=first), class_="earlier"))
    parts.append(Markup(f'<ol class="log">{"".join(lines)}</ol>') if lines else
                 tag("p", word(lang, "no moves yet")))
    if view.get("log"):
        parts.append(tag("h3", word(lang, "messages")))
        parts.append(Markup('<ul class="messages">' + "".join(tag("li", label(table.game, line, lang))
                                                             for line in view["log"]) + "</ul>"))
    return Markup('<section class="log-panel">' + "".join(parts) + "</section>")


def _narration(table, history: tuple, i: int, seat: int, lang: str) -> Markup:
    """What the rules did when move `i` was played, as `seat` reads it (Game.narrate): a
    list under the move, kept like the move's text."""
    before, move = history[i]
    key = ("said", seat, lang, i)
    kept = table.read_as.get(key)
    if kept is None or kept[0] is not before or kept[1] != move:
        kept = table.read_as[key] = (before, move, table.game.narrate(before, move, seat, lang))
    said = kept[2]
    if not said:
        return Markup("")
    return Markup('<ul class="narration">' + "".join(tag("li", s) for s in said) + "</ul>")


def _read(table, history: tuple, i: int, seat: int, lang: str) -> str:
    """Move `i` as `seat` read it; worked out once (a move's text for a reader never
    changes).  The entry keeps the state the move was played from, so after an undo a new
    move at the same index is never taken for the old one."""
    before, move = history[i]
    key = (seat, lang, i, i in table.auto_played)
    kept = table.read_as.get(key)
    if kept is not None and kept[0] is before and kept[1] == move:
        return kept[2]
    if move.player == seat:
        line = f"{word(lang, 'player {p}', p=seat)}: {move_text(table.game, move, lang, before, seat)}"
        if i in table.auto_played:
            line += f" — {word(lang, 'the only move, played for you')}"
    else:
        line = news_line(table.game, before, move, seat, lang)
    table.read_as[key] = (before, move, line)
    return line
