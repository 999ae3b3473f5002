"""Random-playout invariants over every shipped ruleset and player count
(OpenSpiel's RandomSimTest in spirit), with seeds drawn by hypothesis:

- no crash, and a legal move exists at every non-terminal state;
- legal moves are deterministic and unique;
- apply never changes its input state;
- the ruleset's declared invariants hold after every move;
- a seed plus the moves replays to the same state key;
- saving and loading a state round-trips;
- a player's view, the text of a move as that player reads it, and who is
  asked next do not change when only information hidden from that player
  changes (tests/view_support.py).

Each (ruleset, player count) gets a time budget: the number of examples is
chosen from the duration of one whole checked example, so big games stay affordable.
"""
from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeple.interpreter import list_rulesets, load_game, load_rules
from meeple.interpreter.persistence.saves import state_from_json, state_to_json

from view_support import check_view_property

MAX_MOVES = 400
BUDGET_SECONDS = 2.0


def _player_counts(name):
    """The fewest and the most players (the counts between are played by the rulebook
    games' own random-game tests and by `meeple simulate --check`)."""
    info = load_rules(name).ruleset.game
    return sorted({info.min_players, info.max_players})


CASES = [(name, n) for name in list_rulesets() for n in _player_counts(name)]


def _examples(name, players) -> int:
    """How many seeds fit the budget, timed on one whole example (seed 12345), which is
    checked too: the checks (views under hidden changes, saves, the replay) cost ten to
    twenty times the bare playout, so a bare playout would not measure them."""
    t = time.perf_counter()
    _check_playout(name, players, 12345)
    one = time.perf_counter() - t
    return max(2, min(15, int(BUDGET_SECONDS / max(one, 1e-3))))


def _check_playout(name, players, seed):
    game = load_game(name, players)
    rnd = random.Random(seed)
    state = game.new_state(seed)
    trail, moves = [state], []
    while not game.is_terminal(state) and len(moves) < MAX_MOVES:
        before = state.to_data()
        legal = game.legal_moves(state)
        assert legal, f"no legal move at a non-terminal state (pc={state.pc}, phase={state.phase})"
        assert [str(m) for m in game.legal_moves(state.copy())] == [str(m) for m in legal]
        assert len({(m.player, str(m)) for m in legal}) == len(legal), "duplicate legal moves"
        move = legal[rnd.randrange(len(legal))]
        new = game.apply(state, move)
        assert state.to_data() == before, "apply changed its input state"
        assert game.invariant_failures(new) == [], f"invariant broken after {move}"
        moves.append(move)
        trail.append(new)
        state = new
    if game.is_terminal(state):
        out = game.outcome(state)
        assert len(out.ranks) == players and all(1 <= r <= players for r in out.ranks)
    # Replay from the seed and the moves' text.
    again = game.new_state(seed)
    for m in moves:
        again = game.apply(again, str(m), m.player)
    assert again.key() == state.key()
    # Saves, and views, move texts and the flow under hidden changes, on a few states.
    step = max(1, len(trail) // 4)
    for i in range(0, len(trail), step):
        s = trail[i]
        back = state_from_json(game, state_to_json(game, s))
        assert back.key() == s.key()
        for viewer in range(players):
            check_view_property(game, s, viewer, rnd, move=moves[i] if i < len(moves) else None)
            assert "rng" not in game.view(s, viewer)


def _make(name, players):
    @settings(max_examples=_examples(name, players), deadline=None, derandomize=False,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(min_value=0, max_value=2**31))
    def test(seed):
        _check_playout(name, players, seed)
    return test


@pytest.mark.parametrize("name,players", CASES)
def test_random_playouts_keep_the_invariants(name, players):
    _make(name, players)()
