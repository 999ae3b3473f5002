"""The moves of `meeple play` as a menu a person can use.

- At most MAX_ROWS rows: a longer list is grouped by action first ("buy gems: 16
  choices"), and a group is then narrowed one parameter at a time ("which gem?", then
  "how many?").  A parameter whose choices are consecutive whole numbers is asked as a
  number, each amount shown with what it costs where the action declares a `cost:`.
  More than MAX_ROWS places of a board are asked by their sort first, the attribute of
  the board's nodes that sorts them into the most sorts up to MAX_ROWS (25 destinations
  by their `type`: city, gem site, ...), then among the places of that sort.
- What can be typed: a row's number, a move's text as the game writes it
  (`buy_gems(gem=ruby,marker=0,n=2)`) or as the menu shows it (`buy gems: gem=ruby, ...`),
  an action's name or label (its group), and a move with parameters left out: played when
  one legal move has the parameters given (and said), else asked for step by step.
- A bare item or value (a card's id) lists the moves that use it; a number out of range
  says the range.

Nothing here names a game: the groups, the steps and the numbers come from the legal
moves and their parameters, named as the deciding player sees them.
"""
from __future__ import annotations

import re

from rich.markup import escape

from meeple.interpreter import IllegalMove
from meeple.interpreter.runtime.moves import split_args

from .phrases import phrase
from .render import MoveDescriber, console, label, move_text

MAX_ROWS = 12


def _plain(text: str) -> str:
    """A typed or shown text compared loosely: case, spaces around signs and runs of spaces."""
    return re.sub(r"\s*([=,:()])\s*", r"\1", " ".join(text.split())).casefold()


class MoveChooser:
    """The menu of one decision: `show()` prints the current step, `answer(text)` takes
    what was typed and gives the chosen move, or None after printing what to do next."""

    def __init__(self, game, state, moves, lang: str | None, player: int):
        self.game, self.state, self.moves, self.lang, self.player = game, state, list(moves), lang, player
        self.describe = MoveDescriber(game, state, lang)
        self.canonical = [game.move_text(state, m, player) for m in self.moves]
        self.args = [dict(_args_of(text)) for text in self.canonical]
        self.shown = [move_text(game, m, lang, state, player) for m in self.moves]
        self.rows = self._rows()
        # The indexes of the moves still possible in the group being narrowed; a single
        # group (every move is one action's) is open from the start.
        self.narrowing: list[int] | None = list(self.rows[0]) if len(self.rows) == 1 and len(self.rows[0]) > 1 else None

    # -- the rows ------------------------------------------------------------------------------
    def _rows(self) -> list[list[int]]:
        """Each row: the indexes of its moves (one for a move, several for an action's group)."""
        if len(self.moves) <= MAX_ROWS:
            return [[i] for i in range(len(self.moves))]
        groups: dict[str, list[int]] = {}
        for i, m in enumerate(self.moves):
            groups.setdefault(m.action, []).append(i)
        return list(groups.values())

    def show(self) -> None:
        if self.narrowing is not None:
            self._show_step()
            return
        for n, row in enumerate(self.rows, 1):
            if len(row) == 1:
                i = row[0]
                about = self.describe(self.moves[i])
                console.print(f"  [bold]{n:>3}[/]  {escape(self.shown[i])}" +
                              (f"  [dim]— {escape(about)}[/]" if about else ""))
            else:
                action = self.moves[row[0]].action
                console.print(f"  [bold]{n:>3}[/]  {escape(label(self.game, action, self.lang, 'action'))}  "
                              f"[dim]{escape(phrase(self.lang, '{n} choices', n=len(row)))}[/]")

    # -- narrowing a group -----------------------------------------------------------------------
    def _step(self):
        """The parameter to ask next in the group and its choices, in the moves' order."""
        for name in self.args[self.narrowing[0]]:
            values = list(dict.fromkeys(self.args[i].get(name) for i in self.narrowing))
            if len(values) > 1:
                return name, values
        return None, []

    def _sorts(self, values: list[str]):
        """Places too many to list (`values` past MAX_ROWS, all nodes of one board) sorted
        by one of their attributes first: (attribute, {place: its value}) for the
        attribute with the most sorts up to MAX_ROWS, each sort holding fewer places than
        all; None when no attribute splits them so (or they are no board's places)."""
        if len(values) <= MAX_ROWS:
            return None
        for graph in self.game.boards.values():
            if not all(v in graph.nodes for v in values):
                continue
            best = None
            names = list(dict.fromkeys(a for v in values for a in graph.nodes[v]))
            for attr in names:
                sorts = {v: graph.nodes[v].get(attr) for v in values}
                if not all(isinstance(k, str) for k in sorts.values()):
                    continue  # sorts are named by texts (a number would be read as the sort's row)
                kinds = set(sorts.values())
                if not 1 < len(kinds) <= MAX_ROWS:
                    continue
                if best is None or len(kinds) > len(set(best[1].values())):
                    best = (attr, sorts)
            return best
        return None

    def _show_sorts(self, head: str, attr: str, sorts: dict) -> None:
        console.print(escape(f"{head} — {label(self.game, attr, self.lang, 'attribute')}") + "?")
        counts = {}
        for kind in sorts.values():
            counts[kind] = counts.get(kind, 0) + 1
        for n, (kind, count) in enumerate(counts.items(), 1):
            console.print(f"  [bold]{n:>3}[/]  {escape(label(self.game, kind, self.lang, 'value'))}  "
                          f"[dim]{escape(phrase(self.lang, '{n} choices', n=count))}[/]")

    def _show_step(self) -> None:
        name, values = self._step()
        action = self.moves[self.narrowing[0]].action
        said = label(self.game, name, self.lang, "param")
        head = f"{label(self.game, action, self.lang, 'action')} — {said}"
        sorted_by = self._sorts(values)
        if sorted_by is not None:
            self._show_sorts(head, *sorted_by)
            if len(self.rows) > 1:
                console.print(f"  [dim]{escape(phrase(self.lang, 'b: back to all moves'))}[/]")
            return
        amounts = _amounts(values)
        if amounts:
            console.print(escape(head) + ": " + escape(phrase(self.lang, "a number from {lo} to {hi}",
                                                              lo=amounts[0], hi=amounts[-1])))
            costs = [self._cost_of(name, str(v)) for v in amounts]
            if any(costs):
                console.print("  " + escape(" · ".join(f"{v}: {c}" for v, c in zip(amounts, costs) if c)))
        else:
            console.print(escape(head) + "?")
            digits = len(str(len(values)))
            texts = [f"{n:>{digits}}  {self._value_text(name, value)}" for n, value in enumerate(values, 1)]
            for line in _columns(texts, console.width if console.is_terminal else 130):
                console.print(f"  {escape(line)}")
        if len(self.rows) > 1:
            console.print(f"  [dim]{escape(phrase(self.lang, 'b: back to all moves'))}[/]")

    def _value_text(self, name: str, value: str) -> str:
        i = next(i for i in self.narrowing if self.args[i].get(name) == value)
        move = self.moves[i]
        raw = dict(move.args).get(name)
        shown = label(self.game, value, self.lang, "value")
        if type(raw) is bool:
            shown = phrase(self.lang, "yes" if raw else "no")
        about = self.describe(type(move)(move.player, move.action, ((name, raw),)))
        about = about[len(value) + 2:] if about.startswith(f"{value}: ") else about  # not the id twice
        return shown + (f" — {about}" if about else "")

    def _cost_of(self, name: str, value: str) -> str:
        """What choosing `value` costs, when every move left with it costs the same."""
        costs = {tuple(self.game.move_costs(self.state, self.moves[i])) for i in self.narrowing
                 if self.args[i].get(name) == value}
        if len(costs) != 1:
            return ""
        return ", ".join(f"{amount} {label(self.game, place, self.lang, 'variable')}" for place, amount in costs.pop())

    def _narrow(self, name: str, value: str):
        self.narrowing = [i for i in self.narrowing if self.args[i].get(name) == value]
        if len(self.narrowing) == 1:
            return self._chosen(self.narrowing[0])
        self._show_step()
        return None

    def _chosen(self, i: int):
        self.narrowing = None
        return self.moves[i]

    def _open(self, row: list[int]):
        if len(row) == 1:
            return self._chosen(row[0])
        self.narrowing = list(row)
        self._show_step()
        return None

    # -- answers -----------------------------------------------------------------------------------
    def answer(self, text: str):
        """The move `text` chooses, or None when it opened a step or was answered with help.
        Raises IllegalMove for a text that is no move (the caller says why)."""
        if self.narrowing is not None:
            picked = self._answer_step(text)
            if picked is not False:
                return picked
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(self.rows):
                return self._open(self.rows[n - 1])
            console.print(f"[yellow]{escape(phrase(self.lang, 'no move is numbered {n}; choose 1 to {last}', n=n, last=len(self.rows)))}[/]")
            return None
        typed = _plain(text)
        for i, shown in enumerate(self.shown):
            if typed in (_plain(shown), _plain(self.canonical[i]), _plain(shown.split("  (")[0])):
                return self._chosen(i)
        for row in self.rows:
            action = self.moves[row[0]].action
            if typed in (action.casefold(), _plain(label(self.game, action, self.lang, "action"))):
                return self._open(row)
        try:
            return self.game.parse_move(self.state, text, self.player)
        except IllegalMove:
            move = self._with_parameters_left_out(text)
            move = self._uses(text) if move is None else move
            if move is None:
                raise
            return move or None

    def _answer_step(self, text: str):
        """An answer inside a group: a number, a value, `b`; False: not an answer to the step."""
        if text in ("b", "back") and len(self.rows) > 1:
            self.narrowing = None
            self.show()
            return None
        name, values = self._step()
        for value in values:  # a place typed by name, whether or not its sort was asked first
            if _plain(text) in (_plain(value), _plain(label(self.game, value, self.lang, "value"))):
                return self._narrow(name, value)
        sorted_by = self._sorts(values)
        if sorted_by is not None:
            return self._answer_sort(text, name, *sorted_by)
        amounts = _amounts(values)
        if text.isdigit():
            n = int(text)
            if amounts:
                if str(n) in values:
                    return self._narrow(name, str(n))
                console.print(f"[yellow]{escape(phrase(self.lang, 'choose a number from {lo} to {hi}', lo=amounts[0], hi=amounts[-1]))}[/]")
                return None
            if 1 <= n <= len(values):
                return self._narrow(name, values[n - 1])
            console.print(f"[yellow]{escape(phrase(self.lang, 'no choice is numbered {n}; choose 1 to {last}', n=n, last=len(values)))}[/]")
            return None
        self.narrowing = None
        return False

    def _answer_sort(self, text: str, name: str, attr: str, sorts: dict):
        """An answer to "which sort of place?": its number or its name narrows the moves
        to the places of that sort; False: not an answer to the step."""
        kinds = list(dict.fromkeys(sorts.values()))
        chosen = None
        if text.isdigit():
            n = int(text)
            if not 1 <= n <= len(kinds):
                console.print(f"[yellow]{escape(phrase(self.lang, 'no choice is numbered {n}; choose 1 to {last}', n=n, last=len(kinds)))}[/]")
                return None
            chosen = kinds[n - 1]
        else:
            chosen = next((k for k in kinds if _plain(text) in (_plain(k), _plain(label(self.game, k, self.lang, "value")))), None)
            if chosen is None:
                self.narrowing = None
                return False
        self.narrowing = [i for i in self.narrowing if sorts.get(self.args[i].get(name)) == chosen]
        if len(self.narrowing) == 1:
            return self._chosen(self.narrowing[0])
        self._show_step()
        return None

    def _with_parameters_left_out(self, text: str):
        """`action(some=...)` with parameters left out: the one legal move that has the ones
        given, said before it is played; where several have them, the step that asks the
        next parameter among those moves (''); None when no move has them."""
        m = re.fullmatch(r"\s*([\w-]+)\s*\((.*)\)\s*", text)
        if not m:
            return None
        given = dict(_args_of(f"{m.group(1)}({m.group(2)})"))
        fitting = [i for i, move in enumerate(self.moves) if move.action == m.group(1) and set(given) < set(self.args[i])
                   and all(_plain(self.args[i][k]) == _plain(v) for k, v in given.items())]
        if not fitting:
            return None
        if len(fitting) == 1:
            console.print(escape(phrase(self.lang, "taken as {move}", move=self.canonical[fitting[0]])))
            return self.moves[fitting[0]]
        self.narrowing = fitting
        self._show_step()
        return ""

    def _uses(self, text: str):
        """A bare value (an item's id, a place): the moves that use it; '' when some do."""
        typed = _plain(text)
        using = [i for i in range(len(self.moves)) if any(_plain(v) == typed for v in self.args[i].values())]
        if not using or "(" in text or "=" in text:
            return None
        console.print(escape(phrase(self.lang, "{value} is used by these moves; type one, or its number:", value=text.strip())))
        for i in using:
            n = next(n for n, row in enumerate(self.rows, 1) if i in row)
            number = f"{n:>3}" if len(self.rows[n - 1]) == 1 else "   "
            console.print(f"  [bold]{number}[/]  {escape(self.canonical[i])}")
        return ""


def _columns(texts: list[str], width: int) -> list[str]:
    """Short choices side by side, as many columns as fit `width`, read down each column;
    long ones (with a description) one per line."""
    if len(texts) <= MAX_ROWS:
        return texts
    cell = max(len(t) for t in texts) + 2
    across = max(1, min(len(texts), (width - 2) // cell))
    down = -(-len(texts) // across)
    return ["".join(texts[c * down + r].ljust(cell) for c in range(across) if c * down + r < len(texts)).rstrip()
            for r in range(down)]


def _args_of(text: str) -> list[tuple[str, str]]:
    """The (name, value) texts of a move written `action(a=1,b=x)`."""
    inner = text[text.index("(") + 1:text.rindex(")")] if "(" in text else ""
    return [tuple(part.split("=", 1)) for part in split_args(inner) if "=" in part]


def _amounts(values: list[str]) -> list[int]:
    """The values as whole numbers when they are consecutive ones (an amount to choose by
    typing it), else []."""
    try:
        numbers = sorted(int(v) for v in values)
    except (TypeError, ValueError):
        return []
    if len(numbers) > 1 and numbers == list(range(numbers[0], numbers[0] + len(numbers))):
        return numbers
    return []
