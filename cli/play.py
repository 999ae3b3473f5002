"""Interactive play: hot-seat and/or bots, each human sees only their own view.

At a prompt: a move's number or its text; `u` undoes your last move (and the
bot moves after it); `s FILE` saves; `?` lists the moves again; `q` quits.
"""
from __future__ import annotations

import random

from rich.markup import escape

from meeple.interpreter import IllegalMove
from meeple.interpreter.saves import save_state, write_log

from .phrases import phrase
from .render import console, label, move_text, rejection_text, show_moves, show_view


class RandomBot:
    """Picks uniformly among the legal moves, from its own seeded generator
    (never the game's, so a bot cannot learn hidden information from it)."""

    def __init__(self, seed: int):
        self.random = random.Random(seed)

    def choose(self, game, state, player):
        moves = game.legal_moves(state, player)
        return moves[self.random.randrange(len(moves))]


def run_play(game, state, seed: int, bots: set[int], lang: str | None, log_path: str | None,
             bot_seed: int, input_fn=input, quiet_bots: bool = False, max_moves: int | None = None):
    history = []  # (state_before, move)
    bot = RandomBot(bot_seed)
    shown_turn = None
    while not game.is_terminal(state):
        if max_moves is not None and len(history) >= max_moves:
            console.print(f"[yellow]stopped after {max_moves} moves[/]")
            break
        to_move = game.current_players(state)
        player = to_move[0]
        if player in bots:
            move = bot.choose(game, state, player)
            if not quiet_bots:
                if shown_turn != (state.phase, player):
                    console.rule(f"{phrase(lang, 'move {n}', n=state.move_count + 1)} · "
                                 f"{phrase(lang, 'player {p}', p=player)}" +
                                 (f" · {label(game, state.phase, lang)}" if state.phase else ""))
                    shown_turn = (state.phase, player)
                console.print(f"  {escape(phrase(lang, 'player {p} (bot) plays', p=player))} "
                              f"[bold]{escape(move_text(game, move, lang))}[/]")
            history.append((state, move))
            state = game.apply(state, move)
            continue
        console.rule(phrase(lang, "player {p} to move", p=player) +
                     (f" · {label(game, state.phase, lang)}" if state.phase else ""))
        show_view(game, game.view(state, player), lang, title=phrase(lang, "what player {p} sees", p=player))
        moves = game.legal_moves(state, player)
        show_moves(game, moves, lang)
        while True:
            try:
                answer = input_fn(phrase(lang, "player {p}", p=player) + "> ").strip()
            except EOFError:
                console.print("\n[yellow]input ended; game left unfinished[/]")
                return state, history
            if answer in ("q", "quit"):
                return state, history
            if answer == "?":
                show_moves(game, moves, lang)
                continue
            if answer == "u":
                undone = _undo(history, player)
                if undone is None:
                    console.print("[yellow]you have no move to undo[/]")
                    continue
                state = undone
                break
            if answer.startswith("s "):
                path = answer[2:].strip()
                save_state(game, state, path)
                console.print(f"saved to {path}")
                continue
            try:
                if answer.isdigit() and 1 <= int(answer) <= len(moves):
                    move = moves[int(answer) - 1]
                else:
                    move = game.parse_move(state, answer, player)
            except IllegalMove as exc:
                console.print(f"[red]{phrase(lang, 'illegal:')}[/] "
                              f"{escape(rejection_text(game, exc.rejection, lang))} [dim]\\[{exc.rejection.code}][/]")
                continue
            history.append((state, move))
            state = game.apply(state, move)
            break
    if game.is_terminal(state):
        show_result(game, state, lang)
    if log_path:
        write_log(log_path, game, seed, [m for _, m in history], state)
        console.print(f"replay log written to {log_path}")
    return state, history


def _undo(history, player):
    """Undo back to before this player's last move (dropping the moves after it)."""
    for i in range(len(history) - 1, -1, -1):
        if history[i][1].player == player:
            state = history[i][0]
            del history[i:]
            return state
    return None


def show_result(game, state, lang: str | None = None):
    out = game.outcome(state)
    console.rule(phrase(lang, "game over"))
    console.print(f"{phrase(lang, 'reason')}: {escape(label(game, out.reason, lang))}")
    for p in range(game.player_count):
        tb = f"  {phrase(lang, 'tie-breaks')} {list(out.tiebreaks[p])}" if out.tiebreaks[p] else ""
        console.print(f"  {phrase(lang, 'player {p}', p=p)}: {phrase(lang, 'score')} {out.scores[p]}, "
                      f"{phrase(lang, 'rank')} {out.ranks[p]}{tb}")
    if out.winners:
        who = ", ".join(phrase(lang, "player {p}", p=w) for w in out.winners)
        console.print(f"[bold green]{phrase(lang, 'winners' if len(out.winners) > 1 else 'winner')}: {who}[/]")
    else:
        console.print(f"[bold]{phrase(lang, 'draw: nobody wins')}[/]")
