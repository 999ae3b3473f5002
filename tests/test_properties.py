"""Random-playout invariants over every shipped ruleset (OpenSpiel's RandomSimTest
in spirit): no crash, deterministic legal moves, apply never mutates its input,
a seed plus the moves replays exactly, and a player's view does not change
when only information hidden from that player changes."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeple.interpreter import list_rulesets, load_game, load_rules
from meeple.interpreter.saves import state_from_json, state_to_json

RULESETS = list_rulesets()
MAX_MOVES = 300


def _player_counts(name):
    info = load_rules(name).ruleset.game
    return list(range(info.min_players, info.max_players + 1))


CASES = [(name, n) for name in RULESETS for n in _player_counts(name)]


def _playout(game, seed, max_moves=MAX_MOVES):
    rnd = random.Random(seed)
    state = game.new_state(seed)
    trail = [state]
    moves = []
    while not game.is_terminal(state) and len(moves) < max_moves:
        legal = game.legal_moves(state)
        assert legal, f"no legal move at a non-terminal state (pc={state.pc}, phase={state.phase})"
        move = legal[rnd.randrange(len(legal))]
        moves.append(move)
        state = game.apply(state, move)
        trail.append(state)
    return trail, moves


settings.register_profile("meeple", max_examples=15, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("meeple")


@pytest.mark.parametrize("name,players", CASES)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_random_playouts_keep_the_invariants(name, players, seed):
    game = load_game(name, players)
    rnd = random.Random(seed)
    state = game.new_state(seed)
    steps = 0
    while not game.is_terminal(state) and steps < MAX_MOVES:
        before = state.to_data()
        legal = game.legal_moves(state)
        assert legal
        # Deterministic: a fresh copy enumerates the same moves in the same order.
        assert [str(m) for m in game.legal_moves(state.copy())] == [str(m) for m in legal]
        assert len({(m.player, str(m)) for m in legal}) == len(legal), "duplicate legal moves"
        move = legal[rnd.randrange(len(legal))]
        new = game.apply(state, move)
        assert state.to_data() == before, "apply changed its input state"
        assert game.invariant_failures(new) == [], f"invariant broken after {move}"
        state = new
        steps += 1
    if game.is_terminal(state):
        out = game.outcome(state)
        assert len(out.ranks) == players and all(1 <= r <= players for r in out.ranks)


@pytest.mark.parametrize("name,players", CASES)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_seed_and_moves_replay_exactly(name, players, seed):
    game = load_game(name, players)
    trail, moves = _playout(game, seed)
    state = game.new_state(seed)
    for m in moves:
        state = game.apply(state, str(m), m.player)
    assert state.key() == trail[-1].key()


@pytest.mark.parametrize("name,players", CASES)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_save_and_load_round_trip(name, players, seed):
    game = load_game(name, players)
    trail, _ = _playout(game, seed, max_moves=20)
    for state in trail[:: max(1, len(trail) // 4)]:
        back = state_from_json(game, state_to_json(game, state))
        assert back.key() == state.key()
        assert [str(m) for m in game.legal_moves(back)] == [str(m) for m in game.legal_moves(state)]


def _perturb_hidden(game, state, viewer, rnd):
    """Change only what `viewer` cannot see: the order and contents of zones hidden
    from them, other players' private variables, and the generator's state."""
    new = state.copy()
    new.rng = rnd.getrandbits(64)
    hidden_groups = []
    for name, decl in game.rules.zones.items():
        z = new.zones[name]
        if decl.per == "player":
            for p, sub in enumerate(z):
                if decl.visibility == "none" or (decl.visibility == "owner" and p != viewer):
                    hidden_groups.append((name, p))
        elif decl.per is None and decl.visibility == "none":
            hidden_groups.append((name, None))
    for name, key in hidden_groups:
        z = new.zones[name]
        contents = list(z if key is None else z[key])
        if any(viewer in (new.props.get(i.id, {}).get("seen_by") or ()) for i in contents):
            continue
        rnd.shuffle(contents)
        if key is None:
            new.zones[name] = tuple(contents)
        else:
            lst = list(z)
            lst[key] = tuple(contents)
            new.zones[name] = tuple(lst)
    for name, decl in game.rules.variables.items():
        if decl.per == "player" and decl.visibility == "owner":
            values = list(new.vars[name])
            for p in range(len(values)):
                if p != viewer and isinstance(values[p], int) and not isinstance(values[p], bool):
                    values[p] = values[p] + rnd.randint(0, 3) if decl.max is None else values[p]
            new.vars[name] = tuple(values)
    return new


@pytest.mark.parametrize("name,players", CASES)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_view_ignores_hidden_information(name, players, seed):
    game = load_game(name, players)
    trail, _ = _playout(game, seed, max_moves=40)
    rnd = random.Random(seed)
    for state in trail[:: max(1, len(trail) // 5)]:
        for viewer in range(players):
            other = _perturb_hidden(game, state, viewer, rnd)
            assert game.view(other, viewer) == game.view(state, viewer)
            assert "rng" not in game.view(state, viewer)
