"""Quoridor, a library game: move for move the same as OpenSpiel's `quoridor` (the reduced form
of `python -m meeple.benchmarks.openspiel_lockstep quoridor quoridor-5 --games 1000`) on both
back ends, and, played out by hand on both sides, the rules random games seldom reach: the
diagonal jumps and a wall refused because it would shut a pawn in."""
from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from meeple.benchmarks.lockstep_games import GAMES  # noqa: E402
from meeple.benchmarks.openspiel_lockstep import load_pair, run_lockstep  # noqa: E402

ENDS = {"player 0's pawn reached the top row", "player 1's pawn reached the bottom row",
        "the move limit was reached"}


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_quoridor_agrees_with_openspiel_at_every_step(backend):
    report = run_lockstep(GAMES["quoridor"], games=1, seed=3, backend=backend)
    assert report.ok, str(report)
    assert report.steps > 20  # ten walls each are placed long before a random pawn arrives
    assert set(report.ends) <= ENDS and sum(report.ends.values()) == 1


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_the_small_board_from_the_option_agrees_with_openspiel(backend):
    report = run_lockstep(GAMES["quoridor-5"], games=12, seed=1, backend=backend)
    assert report.ok, str(report)
    assert report.games == 12 and set(report.ends) == ENDS


class BothSides:
    """One game played on both sides by OpenSpiel's move texts (`c4`, `a1h`): the moves each
    offers next, OpenSpiel's as its texts and meeple's read back through the lockstep's
    translation."""

    def __init__(self, spec: str, backend: str = "reference"):
        self.spec = GAMES[spec]
        self.game, os_game = load_pair(self.spec, backend)
        self.os, self.m = os_game.new_initial_state(), self.game.new_state(0)

    def offered(self) -> tuple[set, set]:
        """OpenSpiel's legal moves, and those of meeple's that translate to one of them."""
        player = self.os.current_player()
        texts = {self.spec.move_text(self.os, player, a): self.os.action_to_string(player, a)
                 for a in self.os.legal_actions()}
        ours = {str(m) for m in self.game.legal_moves(self.m, player)}
        assert ours == set(texts), (sorted(ours), sorted(texts))
        return set(texts.values()), ours

    def play(self, *moves: str) -> None:
        for text in moves:
            player = self.os.current_player()
            action = next(a for a in self.os.legal_actions() if self.os.action_to_string(player, a) == text)
            ours = self.spec.move_text(self.os, player, action)
            self.m = self.game.apply(self.m, self.game.parse_move(self.m, ours))
            self.os.apply_action(action)


def pawn_moves(texts: set) -> set:
    return {t for t in texts if not t.endswith(("h", "v"))}


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_jumps_straight_and_round_a_wall_or_the_edge(backend):
    both = BothSides("quoridor-5", backend)
    both.play("c4", "c2", "c3")  # the pawns meet: player 1 on c2, player 0 on c3 below it
    theirs, ours = both.offered()
    assert pawn_moves(theirs) == {"c1", "b2", "d2", "c4"}  # c4: straight over the pawn
    both.play("a1h", "b3h")  # a wall behind player 0's pawn: player 1 jumps diagonally
    theirs, _ = both.offered()
    assert pawn_moves(theirs) == {"c1", "b2", "d2", "b3", "d3"}



@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_a_pawn_on_the_edge_row_is_jumped_diagonally(backend):
    both = BothSides("quoridor-5", backend)
    both.play("c4", "c2", "c3", "c1", "c2", "a4h")  # player 0 on c2, under player 1 on the edge row
    theirs, _ = both.offered()
    assert pawn_moves(theirs) == {"b1", "d1", "b2", "d2", "c3"}  # b1 and d1: round the pawn, and home


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_a_wall_that_would_shut_a_pawn_in_is_refused(backend):
    both = BothSides("quoridor-5", backend)
    both.play("a1h", "a4h", "c1h", "b1")  # walls under a1 .. d1; player 1's pawn is on b1
    theirs, ours = both.offered()
    assert "d1v" not in theirs and "wall(at=h8,dir=v)" not in ours  # it would close a1 .. d1
    assert "d2v" in theirs and "wall(at=h6,dir=v)" in ours  # a row lower, it closes nothing
    refused = both.game.explain(both.m, "wall(at=h8,dir=v)")
    assert (refused.code, refused.rule) == ("M804", "open")  # the open-path rule, not the overlap one


def test_a_move_and_a_wall_at_a_web_table():
    pytest.importorskip("starlette")
    from web_support import open_table, web_client
    with web_client() as client:
        opened = open_table(client, "quoridor", 2, options={"board_size": "5"})
        assert client.post(f"{opened.seats[0]}/move", json={"move": "move(to=e3)"}).status_code == 200
        answer = client.post(f"{opened.seats[1]}/move", json={"move": "wall(at=d4,dir=h)"})
        assert answer.status_code == 200, answer.text
        state = opened.table.now.state
        assert state.vars["pawn"][0] == "e3" and state.vars["mark"]["d4"] == "+"
        crossing = client.post(f"{opened.seats[0]}/move", json={"move": "wall(at=d4,dir=v)"})
        assert crossing.status_code == 400 and crossing.json()["code"] == "M804"
