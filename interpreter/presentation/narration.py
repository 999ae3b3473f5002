"""The narrated log: what the rules did in one step, as sentences each seat may read.

An effect may carry `narrate: {en: "...", hu: "..."}` (dsl/narration.py).  Narration is
made through the Game API (`Game.narrate(state, move, seat, lang)`): the step is played
again from `state` by the *reference* interpreter with a recorder switched on, and each
narrated effect that runs notes its template and the values of its places, evaluated in
its scope once it has run.  So the compiled back end (codegen, its fused tier and playout
kernels) has nothing to record and is not touched, and both back ends narrate alike by
construction: the sentences come from the same closures whichever back end plays.

The values are named for the seat only when a sentence is made, from the state after
the step, through `knowledge.Namer` and the table's own words (display.TableText): an
item that seat sees whole by its id and `show` text, one seen from one side by that side,
any other as a hidden item; a revealed item keeps its name from then on because the
Namer answers from what the seat has seen.  Values that are not items (numbers, texts,
players) are printed as they are: a template must not print what a seat may not know
(tests/test_leaks.py checks the shipped rulesets' sentences like views and move texts).

The end of the game is narrated by the runtime itself: why it ended (who won is the end
screen's, `Game.outcome`: a winner can follow from what a seat never saw).  No other
effect has a default sentence: a log of every write would drown the few that count.
"""
from __future__ import annotations

from meeple.dsl.values import Item

from .display import TableText
from ..runtime.knowledge import WHOLE, Namer
from .phrases import DEFAULT_LANGUAGE, find_label, table_word


def sentences(narrator, state, move, seat: int, lang: str | None = None) -> list[str]:
    """What `seat` reads of `move` played from `state`: the recorded notes made sentences."""
    step = narrator.step(state, move)
    words = Words(narrator.game, step.after, seat, lang, before=state)
    out = [words.sentence(s) for s in step.said]
    if step.ended:
        out += words.ending(narrator.game.outcome(step.after))
    return [s for s in out if s]


class Words(TableText):
    """Values named as one seat reads them in one state, in the table's words: the view's
    way of naming, without building a view (display.TableText reads only `props` of it)."""

    def __init__(self, game, state, seat: int, lang: str | None, before=None):
        self.game, self.lang, self.rules, self.width, self.drawn = game, lang, game.rules, None, None
        self.words = lambda text, **kw: table_word(lang, text, **kw)
        self.namer = Namer(game, state, seat)
        # the state the step was played from: an item the seat saw whole there (an order
        # that leaves the open table for a hidden pile) is still named by what it was
        self.earlier = Namer(game, before, seat) if before is not None else None
        self.view = {"viewer": seat, "props": {}}

    def sentence(self, said) -> str:  # a recording.Said
        lang = self.lang if self.lang in said.templates else DEFAULT_LANGUAGE
        if lang not in said.templates:
            lang = next(iter(said.templates))
        values = iter(said.values[lang])
        out = []
        for part in said.templates[lang].parts:
            out.append(part if isinstance(part, str) else self.named(next(values), part.as_player))
        return "".join(out)

    def named(self, value, as_player: bool = False) -> str:
        if isinstance(value, (tuple, list)):
            return ", ".join(self.named(v, as_player) for v in value) or self.words("nothing")
        if as_player:
            return self.player(value)
        if isinstance(value, Item):
            return self.thing(value)
        return self.value(self.namer.plain(value))

    def player(self, value) -> str:
        if value is None:
            return self.words("nobody")
        if type(value) is not int:
            return self.value(self.namer.plain(value))
        name = self.words("player {p}", p=value)
        return name + " " + self.words("(you)") if value == self.namer.viewer else name

    def thing(self, item: Item) -> str:
        """An item as the seat names it: seen whole, as on the table (id and `show` text);
        seen from one side, that side; else only that something hidden took part.  Seen
        whole before the step or after it: the seat has seen it, and saw it go."""
        namer = self.namer
        if namer.sight(item) == WHOLE or (self.earlier is not None and self.earlier.sight(item) == WHOLE):
            props = namer.state.props.get(item.id) or {}
            public = {k: namer.plain(v) for k, v in props.items() if k != "seen_by"}
            if public:
                self.view["props"][item.id] = public
            return self.item(item.id)
        face = namer.face(item)
        return self.item(face) if face else self.words("a hidden item")

    def ending(self, outcome) -> list[str]:
        """Why the game ended.  Not who won: the outcome is the end screen's (`Game.outcome`),
        and a winner worked out from what some seat never saw (a die kept hidden to the end)
        would tell that seat what its view does not."""
        reason = find_label(self.rules.ruleset, self.lang, outcome.reason, None) or \
            table_word(self.lang, outcome.reason)
        return [self.words("The game is over: {reason}.", reason=reason)]
