"""Ludo, a library game: move for move the same as OpenSpiel's `maedn` on both back ends
(the reduced form of `python -m meeple.benchmarks.openspiel_lockstep ludo --games 1000`,
with three and four players and two players side by side), and the tricky rules of its
move generation compared with OpenSpiel's on positions that random play reaches: a piece
on the start field that must move on (or is blocked by its own piece), a six that must
bring a piece in, a hit, moves into and within the goal, a pass (on a six too); and a move
played at a web table."""
from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from meeple.benchmarks.lockstep_games import GAMES  # noqa: E402
from meeple.benchmarks.openspiel_lockstep import run_lockstep  # noqa: E402
from meeple.interpreter import load_game  # noqa: E402

COMMON, GOAL, SEATS = 40, 4, 4  # OpenSpiel's common fields, goal fields a player, seats
PASS, BRING_IN, FIELD_OFFSET = 0, 1, 2  # OpenSpiel's actions
END = "a player has all four pieces in their goal"


@pytest.mark.parametrize("backend, games", [("reference", 2), ("compiled", 4)])
def test_ludo_agrees_with_openspiel_at_every_step(backend, games):
    report = run_lockstep(GAMES["ludo"], games=games, seed=3, backend=backend)
    assert report.ok, str(report)
    assert report.ends == {END: games}
    assert report.steps >= games * 100


@pytest.mark.parametrize("variant", ["ludo-3", "ludo-4", "ludo-side-by-side"])
def test_the_variants_agree_with_openspiel(variant):
    report = run_lockstep(GAMES[variant], games=1, seed=11, backend="compiled", name=variant)
    assert report.ok, str(report)
    assert report.ends == {END: 1}


# -- positions of the tricky rules ---------------------------------------------------------------

def _position(state) -> dict:
    """OpenSpiel's position, read from player 0's observation (whose fields are numbered as
    OpenSpiel's board and the ruleset's ring), as the ruleset's variables."""
    values = iter(state.observation_tensor(0))

    def owner() -> int:
        one_hot = [next(values) for _ in range(SEATS)]
        return one_hot.index(1) if 1 in one_hot else -1

    ring = tuple(owner() for _ in range(COMMON))
    goals = [tuple(owner() >= 0 for _ in range(GOAL)) for _ in range(SEATS)]
    waiting = [int(next(values)) for _ in range(SEATS)]
    for _ in range(SEATS):  # whose turn: player 0's, as the positions are chosen
        next(values)
    dice = [next(values) for _ in range(6)].index(1) + 1
    players = state.num_players()
    return {"ring": ring, "goal": tuple(goals[:players]), "waiting": tuple(waiting[:players]), "dice": dice}


def _kinds(state) -> set:
    """Which tricky rules player 0 meets here, read from OpenSpiel's actions and board."""
    actions, where = state.legal_actions(), _position(state)
    ring, goal, dice = where["ring"], where["goal"][0], where["dice"]
    waiting = where["waiting"][0]
    kinds = set()
    if actions == [PASS]:
        kinds.add("a pass on a six" if dice == 6 else "a pass")
    if BRING_IN in actions:
        kinds.add("a six brings a piece in onto another's piece" if ring[0] > 0 else "a six brings a piece in")
    if waiting and ring[0] == 0:
        kinds.add("the start field blocked by its own piece" if ring[dice] == 0 else "the start field to clear")
    for action in actions:
        target = action - FIELD_OFFSET + dice if action >= FIELD_OFFSET else -1
        if 0 <= target < COMMON and ring[target] > 0:
            kinds.add("a hit")
        if target >= COMMON:
            kinds.add("a move within the goal" if action - FIELD_OFFSET >= COMMON else "a move into the goal")
    if any(goal) and not all(goal):
        kinds.add("pieces in the goal")
    return kinds


KINDS = {"a pass", "a pass on a six", "a six brings a piece in", "a six brings a piece in onto another's piece",
         "the start field to clear", "the start field blocked by its own piece", "a hit", "a move into the goal",
         "a move within the goal", "pieces in the goal"}


def _player_0_decisions(games: int, seed: int):
    """OpenSpiel's states where player 0 is to move, over `games` random games."""
    rnd = random.Random(seed)
    game = pyspiel.load_game("maedn")
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == 0:
                yield state
            state.apply_action(rnd.randrange(6) if state.is_chance_node() else rnd.choice(state.legal_actions()))


def _positions(wanted: set, games: int = 40, seed: int = 5, each: int = 3) -> dict:
    """kind -> up to `each` OpenSpiel states (clones) where player 0, to move, meets it."""
    found: dict = {kind: [] for kind in wanted}
    for state in _player_0_decisions(games, seed):
        for kind in _kinds(state) & wanted:
            if len(found[kind]) < each:
                found[kind].append(state.clone())
        if all(len(states) == each for states in found.values()):
            break
    return found


def _openspiels_moves(os_state) -> set:
    return {GAMES["ludo"].move_text(os_state, 0, a) for a in os_state.legal_actions()}


def _meeple_moves(game, os_state) -> set:
    """The ruleset's moves in OpenSpiel's position: player 0 to move, as at the start of a
    game (a copy lists its moves afresh)."""
    state = game.new_state(0).copy()
    state.vars.update(_position(os_state))
    return {str(m) for m in game.legal_moves(state)}


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_the_tricky_rules_give_openspiels_moves(backend):
    game = load_game("ludo", backend=backend)
    found = _positions(KINDS)
    assert {kind for kind, states in found.items() if states} == KINDS  # random play met every kind
    differing = [(kind, str(s)) for kind, states in found.items() for s in states
                 if _meeple_moves(game, s) != _openspiels_moves(s)]
    assert differing == []


# -- the web table -------------------------------------------------------------------------------

def test_a_web_table_refuses_bringing_a_piece_in_without_a_six_and_takes_the_pass():
    pytest.importorskip("starlette")
    from web_support import open_table, web_client

    with web_client() as client:
        opened = open_table(client, "ludo", 2, seed=0)
        first = opened.table.now
        assert first.state.vars["dice"] == 5  # the seed's first roll: no piece may come in
        assert all(client.get(seat).status_code == 200 for seat in opened.seats.values())
        moves = {m: client.post(f"{opened.seats[0]}/move", json={"move": m}) for m in ("bring_in", "pass")}
        assert moves["bring_in"].status_code == 400 and moves["bring_in"].json()["code"] == "M804"
        assert moves["pass"].status_code == 200
        assert len(opened.table.now.history) == len(first.history) + 1
        assert opened.table.game.current_players(opened.table.now.state) == (1,)
