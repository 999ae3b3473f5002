"""Interactive play: hot-seat and/or bots, each human sees only their own view.

At a prompt: a move's number or its text (menus.py); `t` shows the whole table; `u` undoes
your last move (and the bot moves after it); `s FILE` saves; `?` lists the moves again;
`q` quits.

What reaches the screen before a human decides is what that human may know:
their own view, and the moves made since their last decision as they read
them (items they cannot see named by handles; a simultaneous choice only as
"player 2 has chosen", since the rules reveal it when they do).  With more
than one human at the keyboard, in a game where players know different things,
the screen is cleared and the next player is asked to take the seat before
their view appears.
"""
from __future__ import annotations

from rich.markup import escape

from meeple.bots import RandomBot, bot_move, make_bot
from meeple.interpreter import IllegalMove
from meeple.interpreter.persistence.saves import save_state, write_log

from .narration_lines import narration_lines, print_narration
from .phrases import phrase
from .prompt_commands import help_lines, log_lines, rules_lines, why_line
from .refusals import did_you_mean, rejection_text, said
from .menus import MoveChooser
from .render import console, label, move_text, rule, show_view
from .screen import show_decision_screen, show_news


class TableBots:
    """The bots at a table with people.  Each bot move is drawn by a generator seeded
    with the bot seed, the move's number and the player, not by one generator that runs
    on: so after an undo the bots answer the same moves with the same moves, and a
    continued save goes on as the game would have."""

    def __init__(self, seed: int, specs: dict | None = None):
        self.seed, self.specs = seed, specs or {}

    def move(self, game, state, player):
        seed = f"{self.seed}:{state.move_count}:{player}"
        spec = self.specs.get(player)
        bot = RandomBot(seed) if spec is None else make_bot(spec, seed)
        return bot_move(bot, game, state, player)


class Table:
    """Where each human's news starts: the history index after their last decision.  The
    news of a decision is every move since (their own left out) with what the rules logged
    after it, so a player also reads what their own last move set off."""

    def __init__(self, humans):
        self.since = {h: 0 for h in humans}

    def forget_from(self, index):
        for h in self.since:
            self.since[h] = min(self.since[h], index)

    def news(self, game, history, state, human, lang) -> list[str]:
        lines = []
        for i in range(self.since[human], len(history)):
            before, move = history[i]
            after = history[i + 1][0] if i + 1 < len(history) else state
            if move.player != human:
                lines.append(news_line(game, before, move, human, lang))
            lines += list(after.log[len(before.log):])  # the log is public: every view holds it
            lines += narration_lines(game, before, move, human, lang)  # what the rules did, as this seat reads it
        self.since[human] = len(history)
        return lines


def news_line(game, before, move, viewer, lang) -> str:
    """One move by someone else, as `viewer` may read it."""
    who = phrase(lang, "player {p}", p=move.player)
    if game.decision_kind(before) == "simultaneous":
        return phrase(lang, "{who} has chosen", who=who)
    return f"{who}: {move_text(game, move, lang, before, viewer)}"


def run_play(game, state, seed: int, bots: set[int] | dict, lang: str | None, log_path: str | None,
             bot_seed: int, input_fn=None, quiet_bots: bool = False, max_moves: int | None = None,
             prior_moves=(), full: bool = False, auto: bool = True):
    """`full`: show the whole table at each decision, not the compact screen (screen.py).
    `auto`: a decision with one legal move is played for the human, with a line saying so.
    `input_fn`: reads a line after a prompt (default: `input`, looked up when called).
    `bots`: the seats bots play, random bots for a set, seat -> bot spec for a dict.
    `prior_moves`: the (player, text) moves from `new_state(seed)` to `state` (a loaded
    save's), so that saves and the log written here record the whole game."""
    input_fn = input_fn or input
    history = []  # (state_before, move)
    bots_at_table = TableBots(bot_seed, bots if isinstance(bots, dict) else None)
    humans = [p for p in range(game.player_count) if p not in bots]
    table = Table(humans)
    seated = None  # the human whose view the screen shows
    shown_turn = None
    auto_played: set[int] = set()  # history indexes of moves played for a human (never undone alone)
    leaving = False  # q or the end of input: the game stops, and the log is still written
    while not leaving and not game.is_terminal(state):
        if max_moves is not None and len(history) >= max_moves:
            console.print(f"[yellow]{phrase(lang, 'stopped after {n} moves', n=max_moves)}[/]")
            break
        player = game.current_players(state)[0]
        if player in bots:
            move = bots_at_table.move(game, state, player)
            if not humans and not quiet_bots:
                shown_turn = _spectate(game, state, move, lang, shown_turn)
            history.append((state, move))
            state = game.apply(state, move)
            continue
        if len(humans) > 1 and seated != player and game.hides_information:
            console.clear()
            try:
                input_fn(phrase(lang, "player {p}: take the seat and press Enter", p=player) + " ")
            except EOFError:
                console.print(f"\n[yellow]{phrase(lang, 'input ended; game left unfinished')}[/]")
                break
        seated = player
        moves = game.legal_moves(state, player)
        if auto and len(moves) == 1:
            show_news(table.news(game, history, state, player, lang))
            console.print(f"[dim]{escape(phrase(lang, 'player {p}: the only move, {move}, is played for you', p=player, move=move_text(game, moves[0], lang, state, player)))}[/]")
            auto_played.add(len(history))
            history.append((state, moves[0]))
            state = game.apply(state, moves[0])
            continue
        rule(phrase(lang, "player {p} to move", p=player) +
             (f" · {label(game, state.phase, lang, 'phase')}" if state.phase else ""))
        show_decision_screen(game, state, player, lang, table.news(game, history, state, player, lang), full)
        chooser = MoveChooser(game, state, moves, lang, player)
        chooser.show()
        while True:
            try:
                answer = input_fn(phrase(lang, "player {p}", p=player) + "> ").strip()
            except EOFError:
                console.print(f"\n[yellow]{phrase(lang, 'input ended; game left unfinished')}[/]")
                leaving = True
                break
            if answer in ("q", "quit"):
                leaving = True
                break
            if answer in ("?", "help"):
                for line in help_lines(lang):
                    console.print(escape(line))
                chooser.show()
                continue
            if answer == "t":
                show_view(game, game.view(state, player), lang, title=phrase(lang, "what player {p} sees", p=player))
                chooser.show()
                continue
            if answer == "log":
                for line in log_lines(game, history, player, lang):
                    console.print(escape(line))
                continue
            if answer.startswith("rules ") or answer == "rules":
                for line in rules_lines(game, answer[6:].strip(), lang):
                    console.print(escape(line))
                continue
            if answer.startswith("why "):
                console.print(escape(why_line(game, state, answer[4:].strip(), player, lang)))
                continue
            if answer == "u":
                undone = _undo(history, player, humans, auto_played)
                if undone is None:
                    console.print(f"[yellow]{phrase(lang, 'you have no move to undo')}[/]")
                    continue
                state = undone
                auto_played = {i for i in auto_played if i < len(history)}
                table.forget_from(len(history))
                seated = None if len(humans) > 1 else seated
                break
            if answer.startswith("s "):
                path = answer[2:].strip()
                try:
                    save_state(game, state, path, seed, [*prior_moves, *(m for _, m in history)])
                except OSError as exc:
                    console.print(f"[red]{phrase(lang, 'not saved:')}[/] {escape(str(exc))}")
                    continue
                console.print(escape(phrase(lang, "saved to {path}", path=path)))
                continue
            try:
                move = chooser.answer(answer)
            except IllegalMove as exc:
                meant = did_you_mean(game, state, exc.move_text, player, exc.rejection.code, lang)
                console.print(f"[red]{phrase(lang, 'illegal:')}[/] "
                              f"{escape(rejection_text(game, exc.rejection, lang) + meant)} "
                              f"[dim]\\[{exc.rejection.code}][/]")
                continue
            if move is None:
                continue
            history.append((state, move))
            state = game.apply(state, move)
            break
    if game.is_terminal(state):
        if len(humans) == 1:  # what the last moves did, before the result
            show_news(table.news(game, history, state, humans[0], lang))
        show_result(game, state, lang, seed)
    if log_path:
        try:
            write_log(log_path, game, seed, [*prior_moves, *(m for _, m in history)], state)
        except OSError as exc:
            console.print(f"[red]{phrase(lang, 'replay log not written:')}[/] {escape(str(exc))}")
        else:
            console.print(escape(phrase(lang, "replay log written to {path}", path=log_path)))
    return state, history


def _spectate(game, state, move, lang, shown_turn):
    """Bots only: nobody sits at the table, so the moves are shown as they are."""
    player = move.player
    if shown_turn != (state.phase, player):
        rule(f"{phrase(lang, 'move {n}', n=state.move_count + 1)} · "
                     f"{phrase(lang, 'player {p}', p=player)}" +
                     (f" · {label(game, state.phase, lang, 'phase')}" if state.phase else ""))
    console.print(f"  {escape(phrase(lang, 'player {p} (bot) plays', p=player))} "
                  f"[bold]{escape(move_text(game, move, lang))}[/]")
    print_narration(game, state, move, max(player, 0), lang)
    return (state.phase, player)


def _undo(history, player, humans, auto_played=frozenset()):
    """Undo back to before this player's last move (dropping the bot moves and the moves
    played for them after it); never past another human's move, which is theirs to take back."""
    for i in range(len(history) - 1, -1, -1):
        mover = history[i][1].player
        if mover == player and i in auto_played:
            continue
        if mover == player:
            state = history[i][0]
            del history[i:]
            return state
        if mover in humans:
            return None
    return None


def show_result(game, state, lang: str | None = None, seed: int | None = None):
    out = game.outcome(state)
    rule(phrase(lang, "game over"))
    console.print(f"{phrase(lang, 'reason')}: {escape(said(game, out.reason, lang))}")
    for p in range(game.player_count):
        tb = f"  {phrase(lang, 'tie-breaks')} {list(out.tiebreaks[p])}" if out.tiebreaks[p] else ""
        console.print(f"  {phrase(lang, 'player {p}', p=p)}: {phrase(lang, 'score')} {out.scores[p]}, "
                      f"{phrase(lang, 'rank')} {out.ranks[p]}{tb}")
    if out.winners:
        who = ", ".join(phrase(lang, "player {p}", p=w) for w in out.winners)
        console.print(f"[bold green]{phrase(lang, 'winners' if len(out.winners) > 1 else 'winner')}: {who}[/]")
    else:
        console.print(f"[bold]{phrase(lang, 'draw: nobody wins')}[/]")
    if seed is not None:
        console.print(phrase(lang, "this game was dealt with seed {seed}", seed=seed))
