"""Nothing printed before a human's decision holds what that human may not know.

Each ruleset with hidden information is played through the CLI's play loop, with
humans at some seats (one human, and two at the keyboard in turn) and random
bots at the others.  Everything the screen shows between two decisions of a
human is checked against what that human could know: no item id may appear
unless that human has seen the item whole at some moment of the game so far.
"""
from __future__ import annotations

import random
import re

import pytest

from meeple.cli import render
from meeple.cli.play import run_play
from meeple.interpreter import list_rulesets, load_game, load_rules
from meeple.interpreter.runtime.knowledge import WHOLE

TOKEN = re.compile(r"[A-Za-z0-9_.\-]+")


def _hides_something(name) -> bool:
    rs = load_rules(name).ruleset
    return (any(z.visibility != "all" or z.face == "down" for z in rs.zones.values())
            or any(v.visibility != "all" for v in rs.variables.values())
            or any(k.sides for k in rs.components.values()))


HIDDEN = [name for name in list_rulesets() if _hides_something(name)]


class Watcher:
    """Follows the game the CLI plays: every state it passes through, and what
    each human has seen whole so far."""

    def __init__(self, game, humans):
        self.game, self.humans = game, humans
        self.known = {h: set() for h in humans}
        self.deciding = None  # (state, player) of the view shown last
        apply, view = game.apply, game.view

        def watched_apply(state, move, player=None):
            new = apply(state, move, player)
            self.saw(new)
            return new

        def watched_view(state, player):
            self.saw(state)
            self.deciding = (state, player)
            return view(state, player)
        game.apply, game.view = watched_apply, watched_view

    def saw(self, state):
        for h in self.humans:
            namer = self.game.namer(state, h)
            self.known[h] |= {i for i in self.game.items if namer.sight(self.game.items[i]) == WHOLE}


def _play_and_check(name, players, humans, seed, max_moves):
    game = load_game(name, players)
    watcher = Watcher(game, humans)
    state = game.new_state(seed)
    watcher.saw(state)
    rnd = random.Random(seed)
    checked = 0
    console = render.console
    console.begin_capture()

    def answer(prompt):
        nonlocal checked
        screen = console.end_capture()
        console.begin_capture()
        if "take the seat" in prompt:
            return ""
        _, player = watcher.deciding
        unknown = set(game.items) - watcher.known[player]
        leaked = unknown & set(TOKEN.findall(screen))
        assert not leaked, f"shown to player {player} before their decision: {sorted(leaked)}\n{screen}"
        checked += 1
        state, _ = watcher.deciding
        # The move typed out: a number may name a group or a step of the menu, not a move.
        moves = game.legal_moves(state, player)
        return game.move_text(state, moves[rnd.randrange(len(moves))], player)

    try:
        run_play(game, state, seed, set(range(players)) - set(humans), None, None, bot_seed=seed,
                 input_fn=answer, max_moves=max_moves)
    finally:
        console.end_capture()
    assert checked > 0


CASES = [(name, n) for name in HIDDEN
         for n in sorted({load_rules(name).ruleset.game.min_players, load_rules(name).ruleset.game.max_players})]


@pytest.mark.parametrize("name,players", CASES)
def test_one_human_among_bots_sees_nothing_hidden(name, players):
    for seat in range(players):
        _play_and_check(name, players, [seat], seed=seat + 1, max_moves=120)


@pytest.mark.parametrize("name,players", CASES)
def test_hot_seat_shows_each_human_only_their_own_view(name, players):
    _play_and_check(name, players, [0, 1], seed=7, max_moves=160)


def test_every_hidden_information_ruleset_is_covered():
    assert {"goofspiel", "valdora", "zavandor", "treasure-hunter", "freyas-folly"} <= set(HIDDEN)


def test_the_check_catches_a_screen_that_prints_hidden_moves(monkeypatch):
    """The screen as it was: others' moves printed as they were made, ids and all."""
    from meeple.cli import play
    monkeypatch.setattr(play, "news_line", lambda game, before, move, viewer, lang:
                        f"player {move.player}: {render.move_text(game, move, lang)}")
    with pytest.raises(AssertionError, match="before their decision"):
        _play_and_check("goofspiel", 2, [1], seed=1, max_moves=40)
