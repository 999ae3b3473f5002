"""Chess, a library game: move for move the same as OpenSpiel's `chess` (the reduced form of
`python -m meeple.benchmarks.openspiel_lockstep chess --games 1000`), and, from set positions
on both back ends, the rules random games meet rarely: castling through and out of check,
en passant that would open the king's rank, promotions to every piece, the repetition rule
with and without an en passant square, and the ends."""
from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from meeple.benchmarks.lockstep_games import GAMES  # noqa: E402
from meeple.benchmarks.openspiel_lockstep import run_lockstep  # noqa: E402
from meeple.dsl.compile_expr import compile_expr  # noqa: E402
from meeple.dsl.expr_parser import parse_expression  # noqa: E402
from meeple.interpreter import load_game  # noqa: E402
from meeple.interpreter.runtime.context import Ctx  # noqa: E402

SPEC = GAMES["chess"]
BACKENDS = ["reference", "compiled"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_chess_agrees_with_openspiel_over_whole_games(backend):
    """Two whole random games (a few hundred moves each)."""
    report = run_lockstep(SPEC, games=2, seed=11, backend=backend)
    assert report.ok, str(report)
    assert report.steps >= 2 * 40


@pytest.fixture(scope="module", params=BACKENDS)
def chess(request):
    return load_game("chess", 2, backend=request.param)


def _worked_out(game, state, text: str):
    """An expression of the ruleset on a state: what a set position derives (its key, its
    checks and pins) comes from the rules themselves, not from a copy of them here."""
    return compile_expr(parse_expression(text), game.rules.scope)(Ctx(game, state))


def _from_fen(game, fen: str):
    """meeple's state for a FEN position (no en passant square, as the positions below
    have none), counted once for the repetition rule as OpenSpiel counts its first, with
    what the side to move must mind noted as the trigger `look_at_the_board` notes it."""
    board, side, rights, ep, quiet = fen.split()[:5]
    assert ep == "-"
    state = game.new_state(0).copy()  # a copy lists its moves afresh
    piece = {}
    for r, line in enumerate(board.split("/")):  # from the eighth rank down
        row = "".join("." * int(ch) if ch.isdigit() else ch for ch in line)
        for c, ch in enumerate(row):
            piece[f"{'abcdefgh'[c]}{8 - r}"] = "" if ch == "." else ch
    v = state.vars
    v["piece"], v["turn"], v["ep"], v["quiet"] = piece, 1 if side == "w" else 0, "", int(quiet)
    v["castling"] = {r: r in rights for r in "KQkq"}
    v["seen"], v["reps"] = _worked_out(game, state, "{position: 1}"), 1
    for name, text in (("threatened", "threats(turn)"), ("checks", "check_lines(turn)"), ("pinned", "pins(turn)")):
        v[name] = _worked_out(game, state, text)
    assert not game.invariant_failures(state)
    return state


class _Pair:
    """One position on both sides, compared at every step as the lockstep harness compares."""

    def __init__(self, game, fen: str):
        self.game = game
        self.os = pyspiel.load_game("chess").new_initial_state(fen)
        self.m = _from_fen(game, fen)
        self.steps = 0

    def compare(self) -> bool:
        """The same players, legal moves and end; False once over (returns compared)."""
        over = self.os.is_terminal()
        assert self.game.is_terminal(self.m) == over, f"terminal at step {self.steps}"
        if over:
            assert tuple(SPEC.returns(self.game.outcome(self.m))) == tuple(self.os.returns())
            return False
        player = self.os.current_player()
        assert self.game.current_players(self.m) == (player,)
        ours = {str(m) for m in self.game.legal_moves(self.m, player)}
        theirs = {SPEC.move_text(self.os, player, a) for a in self.os.legal_actions()}
        assert ours == theirs, f"step {self.steps}: OpenSpiel also {sorted(theirs - ours)}, meeple also {sorted(ours - theirs)}"
        return True

    def play(self, action: int) -> None:
        text = SPEC.move_text(self.os, self.os.current_player(), action)
        self.m = self.game.apply(self.m, text)
        self.os.apply_action(action)
        self.steps += 1

    def play_san(self, san: str) -> None:
        actions = [a for a in self.os.legal_actions() if self.os.action_to_string(a) == san]
        assert actions, f"{san} is not legal in OpenSpiel at step {self.steps}"
        self.play(actions[0])


# Positions where the rules random play seldom meets come up at once: castling with rooks and
# bishops about, both sides promoting, minor pieces near the insufficient-material line, a
# rook pinning a pawn that might take en passant.
POSITIONS = {
    "castling": "r3k2r/pb4bp/8/8/8/8/PB4BP/R3K2R w KQkq - 0 1",
    "castling, black to move": "r3k2r/1p3q2/8/8/8/8/1P3Q2/R3K2R b KQkq - 0 1",
    "promotions": "8/1P3Pk1/8/8/8/8/1p3pK1/8 w - - 0 1",
    "promotions by capture": "n1n3k1/1P6/8/8/8/8/1p6/N1N3K1 b - - 0 1",
    "minor pieces": "4k3/8/3b4/8/8/2NB4/8/4K3 w - - 0 1",
    "en passant and a pinned pawn": "8/2p5/8/KP5r/8/8/6p1/7k b - - 0 1",
}


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_random_games_from_set_positions_agree(chess, name):
    """Three random games of up to 40 moves from each position."""
    for seed in range(3):
        pair, rnd = _Pair(chess, POSITIONS[name]), random.Random(seed)
        while pair.compare() and pair.steps < 40:
            pair.play(rnd.choice(pair.os.legal_actions()))


def _follow(game, fen: str, sans: list[str]) -> _Pair:
    pair = _Pair(game, fen)
    for san in sans:
        assert pair.compare()
        pair.play_san(san)
    pair.compare()
    return pair


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_en_passant_that_would_open_the_kings_rank_is_refused(chess):
    pair = _follow(chess, "8/2p5/8/KP5r/8/8/8/7k b - - 0 1", ["c5"])
    assert pair.m.vars["ep"] == "c6"  # a white pawn stands beside: the square is kept
    assert "move(from=b5,to=c6)" not in {str(m) for m in chess.legal_moves(pair.m)}


def test_a_double_step_with_no_enemy_pawn_beside_keeps_no_square_so_positions_repeat(chess):
    """After 1. e4 the position's key has no en passant square, as OpenSpiel's has none:
    knights going out and back make it stand a third time."""
    pair = _follow(chess, START, ["e4", "Nf6", "Nf3", "Ng8", "Ng1", "Nf6", "Nf3", "Ng8", "Ng1"])
    assert pair.os.is_terminal() and chess.is_terminal(pair.m)
    assert chess.outcome(pair.m).scores == (0, 0)


def test_a_kept_en_passant_square_makes_the_position_differ(chess):
    """After 1. e4 Nf6 2. e5 d5 the square d6 is kept (the pawn on e5 beside): the same men
    with white to move, later and without it, are another position, so knights going out
    and back make them stand only twice; the position after Nf3, the third time."""
    moves = ["e4", "Nf6", "e5", "d5", "Nf3", "Nfd7", "Ng1", "Nf6", "Nf3", "Nfd7", "Ng1", "Nf6"]
    pair = _follow(chess, START, moves)
    assert not pair.os.is_terminal() and pair.m.vars["reps"] == 2
    pair.play_san("Nf3")
    assert not pair.compare() and pair.m.vars["reps"] == 3


def test_castling_through_into_and_out_of_check(chess):
    def castles(fen):
        pair = _follow(chess, fen, [])
        return sorted(m.args[0][1] for m in chess.legal_moves(pair.m) if m.action == "castle")

    assert castles("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1") == ["kingside", "queenside"]
    assert castles("1r3r1k/8/8/8/8/8/8/R3K2R w KQ - 0 1") == ["queenside"]  # f1 attacked; b1 may be
    assert castles("2r3rk/8/8/8/8/8/8/R3K2R w KQ - 0 1") == []  # c1 and g1 attacked
    assert castles("4r2k/8/8/8/8/8/8/R3K2R w KQ - 0 1") == []  # in check


@pytest.mark.parametrize("into, san", [("queen", "b8=Q"), ("rook", "b8=R"), ("bishop", "b8=B"), ("knight", "b8=N")])
def test_openspiel_promotions_read_as_the_piece_chosen(into, san):
    """OpenSpiel writes a queen promotion as a plain move and the others as moves of their
    own (`under-promotions`); each reads as `promote` with its piece."""
    state = pyspiel.load_game("chess").new_initial_state("8/1P4k1/8/8/8/8/8/6K1 w - - 0 1")
    action = next(a for a in state.legal_actions() if state.action_to_string(a) == san)
    assert SPEC.move_text(state, 1, action) == f"promote(from=b7,to=b8,into={into})"


def test_openspiel_castling_actions_read_as_castle():
    state = pyspiel.load_game("chess").new_initial_state("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    texts = {state.action_to_string(a): SPEC.move_text(state, 1, a) for a in state.legal_actions()}
    assert texts["O-O"] == "castle(side=kingside)" and texts["O-O-O"] == "castle(side=queenside)"


def test_checkmate_and_stalemate_end_as_openspiel_ends_them(chess):
    pair = _follow(chess, START, ["f3", "e5", "g4", "Qh4#"])
    assert chess.outcome(pair.m).scores == (1, -1) and pair.m.end_reason == "checkmate"
    pair = _follow(chess, "7k/5K2/8/8/6Q1/8/8/8 w - - 0 1", ["Qg6"])
    assert chess.outcome(pair.m).scores == (0, 0) and pair.m.end_reason.startswith("stalemate")


def test_fifty_quiet_moves_end_the_game_unless_the_last_one_mates(chess):
    pair = _follow(chess, "4k3/7p/8/8/8/8/8/R3K3 w - - 99 80", ["Ra2"])
    assert pair.m.end_reason.startswith("fifty moves")
    pair = _follow(chess, "7k/6pp/8/8/8/8/R7/K7 w - - 99 80", ["Ra8#"])
    assert pair.m.end_reason == "checkmate" and chess.outcome(pair.m).scores == (-1, 1)


def test_the_web_table_plays_the_fools_mate():
    """`meeple serve`: a chess table's page draws the board, takes the moves of both seats and
    shows the end."""
    pytest.importorskip("starlette")
    from web_support import open_table, web_client
    with web_client() as client:
        opened = open_table(client, "chess", 2)
        page = client.get(opened.seats[1]).text
        assert 'data-node="e2"' in page
        for seat, text in [(1, "move(from=f2,to=f3)"), (0, "move(from=e7,to=e5)"), (1, "move(from=g2,to=g4)")]:
            assert client.post(f"{opened.seats[seat]}/move", json={"move": text}).status_code == 200
        refused = client.post(f"{opened.seats[0]}/move", json={"move": "castle(side=kingside)"})
        assert refused.status_code == 400 and refused.json()["code"] == "M804"
        answer = client.post(f"{opened.seats[0]}/move", json={"move": "move(from=d8,to=h4)"})
        assert answer.status_code == 200 and "checkmate" in answer.json()["html"]
        assert opened.table.now.state.over
