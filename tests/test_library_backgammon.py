"""Backgammon, a library game: move for move the same as OpenSpiel's `backgammon` on both
back ends (the reduced form of `python -m meeple.benchmarks.openspiel_lockstep backgammon
--games 1000`, with the turn-limit and full-scoring variants), and the tricky rules of its
move generation compared with OpenSpiel's on positions that random play reaches: no move,
one die only (the larger, or the smaller when the larger cannot be played), a checker on
the bar, bearing off where a die larger than needed may take only the farthest checker, a
double; and a move played at a web table."""
from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from meeple.benchmarks.lockstep_games import GAMES  # noqa: E402
from meeple.benchmarks.openspiel_lockstep import run_lockstep  # noqa: E402
from meeple.interpreter import load_game  # noqa: E402

BAR_POS = 100  # OpenSpiel's position of the bar in BackgammonState.board(player, pos)
NO_STEP = 25  # OpenSpiel's digit for no checker move


@pytest.mark.parametrize("backend, games", [("reference", 2), ("compiled", 4)])
def test_backgammon_agrees_with_openspiel_at_every_step(backend, games):
    report = run_lockstep(GAMES["backgammon"], games=games, seed=3, backend=backend)
    assert report.ok, str(report)
    assert report.ends == {"a player bore off all fifteen checkers": games}
    assert report.steps >= games * 100


@pytest.mark.parametrize("variant, end", [("backgammon-max-turns-30", "the turn limit was reached: a draw"),
                                          ("backgammon-full-scoring", "a player bore off all fifteen checkers")])
def test_the_variants_agree_with_openspiel(variant, end):
    report = run_lockstep(GAMES[variant], games=2, seed=11, backend="compiled", name=variant)
    assert report.ok, str(report)
    assert report.ends == {end: 2}


# -- positions of the tricky rules ---------------------------------------------------------------

def _dice(state) -> tuple:
    low, high = (int(v) for v in state.observation_tensor(0)[-2:])
    return low, high


def _counts(state, p) -> tuple:
    """Player p's checkers as the ruleset keeps them: by point as p counts them, 0 borne
    off, 25 the bar."""
    counts = [0] * 26
    for pos in range(24):
        counts[24 - pos if p == 0 else pos + 1] = state.board(p, pos)
    counts[25] = state.board(p, BAR_POS)
    counts[0] = 15 - sum(counts)
    return tuple(counts)


def _kinds(state) -> set:
    """Which tricky rules the player to move meets here, read from OpenSpiel's actions and
    board."""
    player, actions = state.current_player(), state.legal_actions()
    low, high = _dice(state)
    mine = _counts(state, player)
    kinds = set()
    if low == high:
        kinds.add("a double")
    if mine[25] > 0:
        kinds.add("a checker on the bar")
    for action in actions:
        first, second = (action % 676) % 26, (action % 676) // 26
        if first == NO_STEP:
            kinds.add("no move")
        elif second == NO_STEP:
            kinds.add("one die, the larger" if action < 676 or low == high else "one die, the smaller")
    # all home, and a die larger than the point of a checker that has another above it
    if sum(mine[7:]) == 0 and any(mine[k] and k < high and sum(mine[k + 1:7]) for k in range(1, 6)):
        kinds.add("a larger die bears off only the farthest checker")
    return kinds


def _positions(wanted: set, games: int = 60, seed: int = 5) -> dict:
    """kind -> a few OpenSpiel states (clones) where the player to move meets it."""
    rnd = random.Random(seed)
    game = pyspiel.load_game("backgammon")
    found: dict = {kind: [] for kind in wanted}
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rnd.choice(state.chance_outcomes())[0])
                continue
            for kind in _kinds(state) & wanted:
                if len(found[kind]) < 3:
                    found[kind].append(state.clone())
            state.apply_action(rnd.choice(state.legal_actions()))
        if all(len(states) >= 3 for states in found.values()):
            break
    return found


def _meeple_state(game, os_state):
    """OpenSpiel's position as the ruleset keeps it: each side's checkers by point as that
    side counts them (0 borne off, 25 the bar), the dice lower first, the player to move."""
    state = game.new_state(0).copy()  # a copy lists its moves afresh
    state.vars.update(checkers=(_counts(os_state, 0), _counts(os_state, 1)), dice=_dice(os_state),
                      mover=os_state.current_player())
    return state


KINDS = {"no move", "one die, the larger", "one die, the smaller", "a checker on the bar",
         "a larger die bears off only the farthest checker", "a double"}


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_the_tricky_rules_give_openspiels_moves(backend):
    game = load_game("backgammon", backend=backend)
    translate = GAMES["backgammon"].move_text
    found = _positions(KINDS)
    assert {kind for kind, states in found.items() if states} == KINDS  # random play met every kind
    for kind, states in found.items():
        for os_state in states:
            player = os_state.current_player()
            theirs = {translate(os_state, player, a) for a in os_state.legal_actions()}
            ours = {str(m) for m in game.legal_moves(_meeple_state(game, os_state))}
            assert ours == theirs, f"{kind}:\n{os_state}"


# -- the web table -------------------------------------------------------------------------------

def test_a_web_table_loads_refuses_a_move_with_its_reason_and_takes_a_legal_one():
    pytest.importorskip("starlette")
    from web_support import open_table, web_client

    with web_client() as client:
        opened = open_table(client, "backgammon", 2, seed=0)
        state = opened.table.now.state
        seat = state.vars["mover"]
        assert client.get(opened.seats[seat]).status_code == 200
        before = opened.table.now
        refused = client.post(f"{opened.seats[seat]}/move", json={"move": "move(first=24,die=5,second=13)"})
        assert refused.status_code == 400 and refused.json()["code"] == "M804"
        assert opened.table.now is before
        legal = str(opened.table.game.legal_moves(state)[0])
        assert client.post(f"{opened.seats[seat]}/move", json={"move": legal}).status_code == 200
        assert opened.table.now is not before and opened.table.now.history
