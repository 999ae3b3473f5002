"""The per-move machinery both back ends share (interpreter/game.py, flowgraph.py,
context.py, moves.Move, invariant_deps.ReadsCache): its short paths must behave as the
plain ones they replace."""
from __future__ import annotations

import json
import pickle
import random
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

import meeple.interpreter
from meeple.interpreter import load_game
from meeple.interpreter.runtime.context import Ctx
from meeple.interpreter.runtime.flowgraph import ASSIGN, BRANCH, CODES, LOOP_TEST
from meeple.interpreter.runtime.invariant_deps import ReadsCache
from meeple.interpreter.runtime.loading import list_rulesets, load_rules
from meeple.interpreter.runtime.moves import Move

ROOT = Path(__file__).resolve().parent.parent
# Where the shipped rulesets are read from: this checkout, or the installed package.
PACKAGE = Path(meeple.interpreter.__file__).resolve().parent.parent
SNAPSHOT = ROOT / "tests" / "fixtures" / "flow_graphs.json"
EXTRA = ["examples/high-card"] + sorted(f"tests/games/{p.name}" for p in (ROOT / "tests" / "games").iterdir())
ALL = list_rulesets() + EXTRA


def _where(name):
    return ROOT / name if "/" in name else name


# -- Move -------------------------------------------------------------------------------------------

def test_a_move_compares_hashes_and_reads_by_player_action_and_arguments():
    m = Move(0, "take", (("heap", 1), ("count", 2)))
    same = Move(0, "take", (("heap", 1), ("count", 2)), shown="take(heap=1,count=two)")
    assert m == same and hash(m) == hash(same) and {m: 1}[same] == 1
    assert m != Move(1, "take", m.args) and m != Move(0, "give", m.args) and m != Move(0, "take")
    assert m != (0, "take", m.args) and not (m == "take(heap=1,count=2)")
    assert str(m) == m.text == "take(heap=1,count=2)" and str(same) == "take(heap=1,count=two)"
    assert str(Move(1, "pass")) == "pass" and Move(1, "pass").args == ()
    assert repr(m) == "Move(player=0, action='take', args=(('heap', 1), ('count', 2)), shown=None)"
    assert m.arg("count") == 2
    with pytest.raises(KeyError):
        m.arg("size")


def test_a_move_cannot_be_changed_and_survives_pickling():
    m = Move(0, "take", (("heap", 1),), shown="x")
    with pytest.raises(FrozenInstanceError):
        m.player = 1
    with pytest.raises(FrozenInstanceError):
        del m.action
    back = pickle.loads(pickle.dumps(m))
    assert back == m and back.shown == "x" and back.player == 0


# -- the flow graph ------------------------------------------------------------------------------

def _exported(name, backend):
    g = load_rules(_where(name), backend=backend).flow.graph
    prefixes = (str(ROOT) + "/", str(PACKAGE) + "/")

    def relative(source: str) -> str:
        return next((source[len(p):] for p in prefixes if source.startswith(p)), source)

    def plain(attrs):
        return {k: (relative(v) if k == "source" else v) for k, v in attrs.items()}
    return {"nodes": [[n, plain(g.nodes[n])] for n in g.nodes], "edges": [[u, v, d] for u, v, d in g.edges(data=True)]}


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_the_exported_flow_graph_is_the_one_before_points_carried_codes(backend):
    """tests/fixtures/flow_graphs.json was written by the code before points had dispatch
    codes and inline loop bookkeeping (`meeple graph --flow` must not see those), and
    written again when the names flow steps bind came to end with their scope (issue 41:
    `drop` points)."""
    snapshot = json.loads(SNAPSHOT.read_text())
    assert sorted(snapshot) == sorted(ALL)
    for name in ALL:
        assert json.loads(json.dumps(_exported(name, backend))) == snapshot[name], name


def test_every_point_code_is_its_op_or_a_loop_bookkeeping_step_of_it():
    for name in ALL:
        for p in load_rules(_where(name)).points:
            if p.code != CODES[p.op]:  # a loop's bookkeeping, dispatched inline
                assert p.code >= LOOP_TEST and CODES[p.op] in (ASSIGN, BRANCH), (name, p.id)
            else:
                assert p.code == CODES[p.op], (name, p.id)


# -- the walk --------------------------------------------------------------------------------------

def _keys_of_seeded_games(game, games=3, moves=60):
    keys = []
    for seed in range(games):
        rnd = random.Random(seed)
        state = game.new_state(seed)
        keys.append(state.key())
        for _ in range(moves):
            legal = game.legal_moves(state)
            if state.over or not legal:
                break
            state = game.apply(state, legal[rnd.randrange(len(legal))])
            keys.append(state.key())
    return keys


@pytest.mark.parametrize("name", ["tic-tac-toe", "treasure-hunter", "freyas-folly", "tests/games/contest",
                                  "tests/games/draft"])
def test_inline_loop_bookkeeping_walks_as_the_points_own_functions_do(name, monkeypatch):
    game = load_game(_where(name), backend="reference")
    fast = _keys_of_seeded_games(game)
    points = [p for p in game.rules.points if p.code >= LOOP_TEST]
    assert points
    for p in points:  # the same points, walked by calling their functions
        monkeypatch.setattr(p, "code", CODES[p.op])
    game = load_game(_where(name), backend="reference")
    assert _keys_of_seeded_games(game) == fast


@pytest.mark.parametrize("name", ALL)
def test_the_deciding_player_is_the_one_the_points_function_gives(name):
    game = load_game(_where(name))
    seen = 0
    for seed in range(2):
        rnd = random.Random(seed)
        state = game.new_state(seed)
        for _ in range(40):
            point = game.rules.points[state.pc]
            if state.over or point.op != "decide":
                break
            if point.kind == "choose":
                assert game._decider(state, point) == point.player_fn(Ctx(game, state))
                seen += 1
            legal = game.legal_moves(state)
            if not legal:
                break
            state = game.apply(state, legal[rnd.randrange(len(legal))])
    assert seen or all(p.kind != "choose" for p in game.rules.points if p.op == "decide")


SKIPPY = """
game: {name: skippy, players: 2}
variables:
  n: {initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [go]
      - simultaneous: [bid]
    until: "n >= 4"
actions:
  go:
    require: ["player == 0"]
    effects: ["n += 1"]
  bid:
    require: ["player == 1"]
"""


def test_on_skip_hears_of_every_decision_nobody_can_take(tmp_path):
    (tmp_path / "game.yaml").write_text(SKIPPY)
    game = load_game(tmp_path)
    heard = []
    game.on_skip = lambda state, point: heard.append((point.kind, state.pending))
    state = game.new_state(0)
    while not state.over:
        (move,) = game.legal_moves(state)
        state = game.apply(state, move)
    # Each round: player 1 cannot `go`, and player 0 cannot `bid` (player 1 still can).
    assert heard.count(("choose", ())) == 4 and heard.count(("simultaneous", (0, 1))) == 4
    heard.clear()
    end = game.playout(game.new_state(0), rng=random.Random(1))
    assert end.over and end.key() == state.key() and len(heard) == 8


# -- playouts and apply ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ALL)
def test_apply_and_playout_leave_their_input_as_it_was(name):
    game = load_game(_where(name))
    state = game.new_state(4)
    before, key, moves = state.to_data(), state.key(), [str(m) for m in game.legal_moves(state)]
    if moves:
        game.apply(state, game.legal_moves(state)[-1])
    game.playout(state, rng=random.Random(2), max_moves=50)
    assert state.to_data() == before and state.key() == key
    assert [str(m) for m in game.legal_moves(state)] == moves


class _FirstChoice(random.Random):
    def randrange(self, *args):
        return 0


@pytest.mark.parametrize("rng", [_FirstChoice(3), type("Duck", (), {"randrange": lambda self, n: 0,
                                                                     "random": lambda self: 0.0})()])
def test_a_playout_asks_a_generator_of_its_own_kind_for_its_choices(rng):
    game = load_game("nim")
    state = game.new_state(1)
    loop = state
    while not loop.over:
        loop = game.apply(loop, game.legal_moves(loop)[0])
    assert game.playout(state, rng=rng).key() == loop.key()


@pytest.mark.parametrize("max_moves", [0, -1, 2, 2.5])
def test_a_playout_stops_after_max_moves(max_moves):
    game = load_game("tic-tac-toe")
    end = game.playout(game.new_state(0), rng=random.Random(0), max_moves=max_moves)
    assert end.move_count == max(0, int(max_moves + 0.5 if max_moves == 2.5 else max_moves))


# -- the cache of end rules and invariants --------------------------------------------------------

class _S:
    def __init__(self, vars, zones=None, props=None):
        self.vars, self.zones, self.props = vars, zones or {}, props or {}


def test_a_cached_result_stands_only_while_what_it_read_is_the_very_same():
    cache = ReadsCache([(("a",), (), False), (("a", "b"), ("z",), False), ((), (), True)])
    s = _S({"a": (1, 2), "b": 1}, {"z": ()}, {"i": {"face": "up"}})
    for i in range(3):
        assert cache.lookup(i, s) is None
        cache.store(i, i == 1)
    assert [cache.lookup(i, s) for i in range(3)] == [False, True, False]
    s.vars["b"] = True  # equal to 1 in Python, not in the language
    assert [cache.lookup(i, s) for i in range(3)] == [False, None, False]
    s.vars["a"] = tuple([1, 2])  # an equal value, but another object
    assert cache.lookup(0, s) is None
    s.props["i"] = {"face": "down"}
    assert cache.lookup(2, s) is None
