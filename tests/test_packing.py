"""Packed states (interpreter/packing.py): `Game.pack` keeps a position as one small
hashable tuple and `Game.unpack` gives back a state that plays exactly as the one packed.
How small they are is measured by `meeple bench` (KiB/packed), not here."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from meeple.interpreter import list_rulesets, load_game
from meeple.interpreter.runtime.packing import PackError

ROOT = Path(__file__).resolve().parent.parent
GAMES = list_rulesets() + [str(p) for p in sorted((ROOT / "tests" / "games").iterdir()) if p.is_dir()]


def _positions(game, seed: int, count: int):
    """Positions of one seeded random game, the start and at most `count` after it."""
    rnd = random.Random(seed)
    state = game.new_state(seed)
    yield state
    for _ in range(count):
        if state.over:
            return
        moves = game.legal_moves(state)
        if not moves:
            return
        state = game.apply(state, moves[rnd.randrange(len(moves))])
        yield state


@pytest.mark.parametrize("name", GAMES, ids=lambda n: Path(n).name)
def test_an_unpacked_state_plays_as_the_one_packed(name):
    game = load_game(name)
    for i, state in enumerate(_positions(game, seed=4, count=60)):
        before = state.to_data()
        packed = game.pack(state)
        assert state.to_data() == before  # packing changes nothing
        back = game.unpack(packed)
        assert back.to_data() == state.to_data() and back.log == state.log
        assert back.key() == state.key()
        assert [str(m) for m in game.legal_moves(back)] == [str(m) for m in game.legal_moves(state)]
        if i % 10 == 0:
            for p in range(game.player_count):
                assert game.view(back, p) == game.view(state, p)
        assert game.pack(back) == packed and hash(game.pack(back)) == hash(packed)


def test_equal_positions_pack_equal_and_different_ones_do_not():
    game = load_game("tic-tac-toe")
    start = game.new_state(0)
    a = game.apply(game.apply(start, "place(at=a1)"), "place(at=b2)")
    b = game.apply(game.apply(start, "place(at=a1)"), "place(at=b2)")
    c = game.apply(game.apply(start, "place(at=b2)"), "place(at=a1)")  # other marks on the cells
    assert game.pack(a) == game.pack(b) and len({game.pack(a), game.pack(b)}) == 1
    assert game.pack(a) != game.pack(c)


def test_parts_that_repeat_are_shared_between_packed_states():
    game = load_game("goofspiel")
    states = list(_positions(game, seed=2, count=12))
    packs = [game.pack(s) for s in states]
    # The flow's locals and each item's properties repeat: one object each, not one per state.
    assert len({id(p[5]) for p in packs}) == len({p[5] for p in packs})
    props = [pair for p in packs for pair in p[4]]
    assert len({id(pair) for pair in props}) == len(set(props))


@pytest.mark.parametrize("bad", [(), ("x",), (1, 2, 3, 4, 5, 6), "a string", None,
                                 (("meeple-packed-1",), 0, (), 0, (), ())])
def test_what_is_not_a_packed_state_is_refused_as_such(bad):
    game = load_game("nim")
    with pytest.raises(PackError):
        game.unpack(bad)


@pytest.mark.parametrize("maker,taker", [(("nim", 2), ("goofspiel", 2)),
                                         (("tic-tac-toe", 2), ("connect-four", 2)),  # the same layout
                                         (("goofspiel", 3), ("goofspiel", 2))])
def test_a_packed_state_of_another_game_is_refused(maker, taker):
    made, taking = load_game(*maker), load_game(*taker)
    with pytest.raises(PackError, match="another game"):
        taking.unpack(made.pack(made.new_state(0)))
