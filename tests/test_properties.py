"""Random-playout invariants over every shipped ruleset and player count
(OpenSpiel's RandomSimTest in spirit), with seeds drawn by hypothesis:

- no crash, and a legal move exists at every non-terminal state;
- legal moves are deterministic and unique;
- apply never changes its input state;
- the ruleset's declared invariants hold after every move;
- a seed plus the moves replays to the same state key;
- saving and loading a state round-trips;
- a player's view does not change when only information hidden from that
  player changes (hidden zones reordered or refilled, other players' private
  variables, the generator's state).

Each (ruleset, player count) gets a time budget: the number of examples is
chosen from the duration of one warm-up playout, so big games stay affordable.
"""
from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeple.interpreter import list_rulesets, load_game, load_rules
from meeple.interpreter.saves import state_from_json, state_to_json

MAX_MOVES = 400
BUDGET_SECONDS = 4.0


def _player_counts(name):
    info = load_rules(name).ruleset.game
    return list(range(info.min_players, info.max_players + 1))


CASES = [(name, n) for name in list_rulesets() for n in _player_counts(name)]


def _playout(game, seed, max_moves=MAX_MOVES):
    rnd = random.Random(seed)
    state = game.new_state(seed)
    trail, moves = [state], []
    while not game.is_terminal(state) and len(moves) < max_moves:
        legal = game.legal_moves(state)
        assert legal, f"no legal move at a non-terminal state (pc={state.pc}, phase={state.phase})"
        move = legal[rnd.randrange(len(legal))]
        moves.append(move)
        state = game.apply(state, move)
        trail.append(state)
    return trail, moves


def _examples(name, players) -> int:
    game = load_game(name, players)
    t = time.perf_counter()
    _playout(game, 12345)
    one = time.perf_counter() - t
    # Each example plays once and re-plays once, plus views and saves on a few states.
    return max(2, min(15, int(BUDGET_SECONDS / max(one * 3, 1e-3))))


def _perturb_hidden(game, state, viewer, rnd):
    """Change only what `viewer` cannot see."""
    new = state.copy()
    new.rng = rnd.getrandbits(64)
    for name, decl in game.rules.zones.items():
        z = new.zones[name]
        groups = []
        if decl.per == "player":
            groups = [p for p in range(len(z)) if decl.visibility == "none"
                      or (decl.visibility == "owner" and p != viewer)]
        elif decl.per is None and decl.visibility == "none":
            groups = [None]
        elif decl.per not in (None, "player") and decl.visibility == "none":
            groups = list(z)
        for key in groups:
            contents = list(z if key is None else z[key])
            if any(viewer in (new.props.get(i.id, {}).get("seen_by") or ()) for i in contents):
                continue
            rnd.shuffle(contents)
            if key is None:
                new.zones[name] = tuple(contents)
            elif isinstance(z, dict):
                new.zones[name] = {**new.zones[name], key: tuple(contents)}
            else:
                lst = list(new.zones[name])
                lst[key] = tuple(contents)
                new.zones[name] = tuple(lst)
    _swap_face_down(game, new, viewer, rnd)
    for name, decl in game.rules.variables.items():
        if decl.per == "player" and decl.visibility == "owner":
            values = list(new.vars[name])
            for p in range(len(values)):
                if p != viewer and isinstance(values[p], int) and not isinstance(values[p], bool):
                    values[p] += rnd.randint(1, 3)
            new.vars[name] = tuple(values)
    return new


def _swap_face_down(game, state, viewer, rnd):
    """Permute the face-down items `viewer` has not seen that lie in open zones (tiles
    on a board, cards dealt face down to the table) among their places."""
    places = []  # (zone, key or None, index)
    for name, decl in game.rules.zones.items():
        if decl.visibility != "all":
            continue
        z = state.zones[name]
        groups = [(None, z)] if decl.per is None else (list(z.items()) if isinstance(z, dict) else list(enumerate(z)))
        for key, contents in groups:
            owner = key if decl.per == "player" else None
            for i, item in enumerate(contents):
                props = state.props.get(item.id, {})
                if props.get("face", "up") == "down" and viewer not in (props.get("seen_by") or ()) \
                        and owner != viewer:
                    places.append((name, key, i))
    items = [_at(state, place) for place in places]
    rnd.shuffle(items)
    for (name, key, i), item in zip(places, items):
        z = state.zones[name]
        if key is None:
            state.zones[name] = z[:i] + (item,) + z[i + 1:]
        else:
            sub = z[key]
            sub = sub[:i] + (item,) + sub[i + 1:]
            state.zones[name] = {**z, key: sub} if isinstance(z, dict) else z[:key] + (sub,) + z[key + 1:]


def _at(state, place):
    name, key, i = place
    z = state.zones[name]
    return (z if key is None else z[key])[i]


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
    # Saves, and views under hidden changes, on a few states along the way.
    for s in trail[:: max(1, len(trail) // 4)]:
        back = state_from_json(game, state_to_json(game, s))
        assert back.key() == s.key()
        for viewer in range(players):
            assert game.view(_perturb_hidden(game, s, viewer, rnd), viewer) == game.view(s, viewer)
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
