"""The recorder behind the narrated log: a step played again by the reference interpreter
with each narrated effect noting its template and the values of its places, evaluated in
its scope once it has run (presentation/narration.py turns the notes into sentences for a
seat).  The compiled back end has nothing to record, so both back ends narrate alike."""
from __future__ import annotations

from meeple.dsl.compile_expr import compile_expr
from meeple.dsl.eval_errors import EvalError

from .context import RuleError


class Said:
    """One narrated effect that ran: its templates and, per language, its places' values."""
    __slots__ = ("templates", "values")

    def __init__(self, templates: dict, values: dict):
        self.templates, self.values = templates, values


def narrating(step, effect, scope):
    """`step` (an effect's closure) followed, while a recorder listens, by a note of the
    effect's sentence.  Only the reference back end builds these (effects.py)."""
    compiled = {lang: [(compile_expr(place.expr, scope), place) for place in template.places]
                for lang, template in effect.narrate.items()}

    def run(ctx):
        step(ctx)
        sink = ctx.game._narration
        if sink is None:
            return
        values = {}
        for lang, places in compiled.items():
            row = []
            for fn, place in places:
                try:
                    row.append(fn(ctx))
                except EvalError as exc:
                    raise RuleError(exc.code, exc.message, exc.span or place.span, effect.rule) from None
            values[lang] = tuple(row)
        sink.append(Said(effect.narrate, values))
    return run


class Step:
    """A step played again with the recorder on: the sentences noted, the state after it,
    and whether the game ended in it."""
    __slots__ = ("said", "after", "ended")

    def __init__(self, said: list, after, ended: bool):
        self.said, self.after, self.ended = said, after, ended


class Narrator:
    """A game's narration: a reference twin of the game that plays steps again, recording."""

    def __init__(self, game, reference_rules):
        """`reference_rules(ruleset)`: the reference back end's rules, made by the caller
        (Game.narrate), so that this module needs neither the rules nor the game."""
        rules = game.rules if game.rules.backend == "reference" else _reference_rules(game.rules, reference_rules)
        self.game = game
        self.twin = type(game)(rules, game.player_count, _as_given(game.options))
        self._last = None  # (state, move, Step): every seat narrates the same step in turn

    def step(self, state, move) -> Step:
        last = self._last
        if last is not None and last[0] is state and last[1] == move:
            return last[2]
        twin = self.twin
        twin.explicit_chance = self.game.explicit_chance
        twin._narration = said = []
        try:
            after = twin._play_by_loop(state, move)
        finally:
            twin._narration = None
        if after.drawing is not None:  # a step stopped at a draw inside it: told when it is over
            said = []
        result = Step(said, after, after.over and not state.over)
        self._last = (state, move, result)
        return result


def _reference_rules(rules, make):
    twin = getattr(rules, "_narration_twin", None)
    if twin is None:
        twin = rules._narration_twin = make(rules.ruleset)
    return twin


def _as_given(value):
    """Options as a game is given them (lists, not the language's tuples)."""
    if isinstance(value, tuple):
        return [_as_given(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_given(v) for k, v in value.items()}
    return value
