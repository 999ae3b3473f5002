"""The games being played: one `Table` per game, its state kept in the server process.

A table changes only through `play`, `undo` and `bot_step`, each under the table's lock,
and each replaces `table.now` whole: a `Moment` (the state, the moves so far, a version
number).  States are values (`Game.apply` never changes its input), so a page being
drawn from one moment is never disturbed by the next move.

Undo: a seat may take back its own last move while no other human seat has moved since
(the bots' answers to it are taken back with it; seeded by the game's seed and the move
number, they answer a replayed position as before).  A table opened without undo refuses
it.  This is the rule of `meeple play`'s `u`.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from meeple.cli.play import TableBots, _undo
from meeple.interpreter import Game, IllegalMove, RuleError, State
from meeple.interpreter.runtime.moves import move_text

from .tokens import HOST, HOT_SEAT, SEAT, Pass, Passes, new_token

MAX_TABLES = 64  # tables held at once unless `meeple serve --max-tables` says otherwise


class Refused(Exception):
    """A request turned down: its HTTP status, a code, and why, said later in the asker's
    language (`words` key and values, or the rules' own `rejection` of a move); `details`
    are shown as they are (a ruleset's diagnostics)."""

    def __init__(self, status: int, code: str, text: str = "", rejection=None, details: str = "", **values):
        super().__init__(text or code)
        self.status, self.code, self.text, self.values = status, code, text, values
        self.rejection, self.details = rejection, details


@dataclass(frozen=True)
class Moment:
    state: State
    history: tuple  # ((state before, move), ...): every move so far
    version: int


class Table:
    def __init__(self, table_id: str, game, seed: int, bots: dict, undo: bool, source: str, options: dict,
                 auto: bool = False):
        self.id, self.game, self.seed = table_id, game, seed
        self.auto = auto  # a human seat's only legal move is played for it, as `meeple play` does
        self.auto_played: frozenset = frozenset()  # history indexes of such moves
        self.bots = dict(bots)  # seat -> bot spec
        self.humans = tuple(p for p in range(game.player_count) if p not in self.bots)
        self.undo_allowed = undo
        self.source = source  # the ruleset's name or folder, as the lobby was given it
        self.options = dict(options)  # as the lobby was given them
        self.now = Moment(game.new_state(seed), (), 0)
        self.changed_at = time.monotonic()  # when `now` was last replaced: how idle the table is
        self.failure: str | None = None  # the ruleset failed while a bot moved: its message
        self.read_as: dict = {}  # (viewer, lang, move index) -> (state before, move, as the viewer read it)
        self._bots = TableBots(seed, self.bots)
        self._lock = threading.Lock()

    def humans_to_move(self, moment: Moment | None = None) -> tuple:
        moment = moment or self.now
        return tuple(p for p in self.game.current_players(moment.state) if p in self.humans)

    def play(self, seat: int, text: str) -> Moment:
        """`seat` plays the move it names `text` (as that seat reads it: hidden items by
        handle).  A move the rules refuse says why, with its rule."""
        with self._lock:
            now = self.now
            try:
                move = self.game.parse_move(now.state, text, seat)
            except IllegalMove as exc:
                raise Refused(400, exc.rejection.code, rejection=exc.rejection) from None
            return self._advance(now, move)

    def bot_step(self) -> bool:
        """One move nobody at a screen has to make: a bot's, when a bot is to move, else,
        with `auto`, a human seat's only legal move (marked in the log); False when none."""
        with self._lock:
            now = self.now
            seat = next((p for p in self.game.current_players(now.state) if p in self.bots), None)
            if seat is not None:
                self._advance(now, self._bots.move(self.game, now.state, seat))
                return True
            for seat in self.humans_to_move(now) if self.auto and not now.state.over else ():
                moves = self.game.legal_moves(now.state, seat)
                if len(moves) == 1:
                    self.auto_played = self.auto_played | {len(now.history)}
                    self._advance(now, moves[0])
                    return True
            return False

    def undo(self, seat: int) -> Moment:
        with self._lock:
            now = self.now
            history = list(now.history)
            before = _undo(history, seat, self.humans, self.auto_played) if self.undo_allowed else None
            if before is None:
                raise Refused(409, "W409", "you have no move to undo")
            self.auto_played = frozenset(i for i in self.auto_played if i < len(history))
            return self._replace(Moment(before, tuple(history), now.version + 1))

    def reload(self, rules) -> tuple[int, int]:
        """Play on with `rules` (the ruleset's files changed): the same seed, options and
        moves, as far as the new rules still allow them.  (moves kept, moves there were)."""
        with self._lock:
            game = Game(rules, self.game.player_count, self.options)
            state, kept = game.new_state(self.seed), []
            for _, move in self.now.history:
                try:
                    again = game.parse_move(state, move_text(move), move.player, referee=True)
                    after = game.apply(state, again)
                except (IllegalMove, RuleError):
                    break
                kept.append((state, again))
                state = after
            played = len(self.now.history)
            self.game, self.read_as, self.failure = game, {}, None
            self.auto_played = frozenset(i for i in self.auto_played if i < len(kept))
            self._replace(Moment(state, tuple(kept), self.now.version + 1))
            return len(kept), played

    def can_undo(self, moment: Moment, seat: int) -> bool:
        return self.undo_allowed and _undo(list(moment.history), seat, self.humans, self.auto_played) is not None

    def _advance(self, now: Moment, move) -> Moment:
        return self._replace(Moment(self.game.apply(now.state, move), now.history + ((now.state, move),),
                                    now.version + 1))

    def _replace(self, moment: Moment) -> Moment:
        self.now, self.changed_at = moment, time.monotonic()
        return moment


class Tables:
    """Every table of this server, and the links to them: at most `limit` at once.

    Each table holds a game's states in memory, so a server that opened one for every
    request would grow without bound.  When it holds `limit` tables, a new one takes the
    place of a table that no one needs any more: the one whose game ended longest ago,
    else the one left untouched longest, if that was more than IDLE seconds ago.  With
    none of those, the new table is refused (503) until one ends or goes idle."""

    IDLE = 3600.0  # seconds without a move after which a table may make way for a new one

    def __init__(self, limit: int = MAX_TABLES):
        self.limit = limit
        self.passes = Passes()
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()  # tables are opened from worker threads

    def open(self, game, seed: int, bots: dict, undo: bool, source: str, options: dict, auto: bool = False) -> Pass:
        """A new table; the host's link, which lists the seats' links."""
        self.make_room()  # before the game's first state is built: a refusal costs nothing
        table = Table(new_token()[:12], game, seed, bots, undo, source, options, auto)
        with self._lock:
            self._make_room()
            self._tables[table.id] = table
            for seat in table.humans:
                self.passes.issue(table, SEAT, (seat,))
            if len(table.humans) > 1:
                self.passes.issue(table, HOT_SEAT, table.humans)
            return self.passes.issue(table, HOST)

    def make_room(self) -> None:
        """Room for one more table, a finished or idle one let go if need be; Refused when
        there is none."""
        with self._lock:
            self._make_room()

    def _make_room(self) -> None:
        if len(self._tables) < self.limit:
            return
        now = time.monotonic()
        ended = [t for t in self._tables.values() if t.now.state.over]
        idle = [t for t in self._tables.values() if now - t.changed_at > self.IDLE]
        going = min(ended or idle, key=lambda t: t.changed_at, default=None)
        if going is None:
            raise Refused(503, "W503", "the server holds {n} tables, as many as it may; try again when a game "
                          "has ended", n=self.limit)
        del self._tables[going.id]
        self.passes.withdraw(going)

    def links(self, table: Table) -> list[Pass]:
        """The table's playing links: one per human seat, then the hot-seat link."""
        return [p for p in self.passes.of_table(table) if p.kind != HOST]

    def find(self, token: str) -> Pass | None:
        return self.passes.find(token)

    def all(self) -> list[Table]:
        with self._lock:
            return list(self._tables.values())
