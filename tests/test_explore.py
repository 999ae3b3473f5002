"""State-space exploration against known results: tic-tac-toe's published
figures, and nim and goofspiel counted by brute force here, independently of
the engine."""
from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest

from meeple.interpreter import load_game
from meeple.interpreter.analysis.explore import explore
from meeple.interpreter.analysis.graphstats import complete_games, perft, summarize
from meeple.interpreter.analysis.lint import lint
from meeple.interpreter.runtime.loading import load_rules
from meeple.interpreter.analysis.sampling import sample

FIX = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def ttt():
    return summarize(explore(load_game("tic-tac-toe")))


def test_tic_tac_toe_known_figures(ttt):
    assert ttt["states"] == 5478          # reachable positions, the empty board included
    assert ttt["terminal_states"] == 958
    assert ttt["complete_games"] == 255168
    assert ttt["perft"] == [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    assert ttt["outcomes"] == {"winners 0": 626, "winners 1": 316, "winners none": 16}
    assert ttt["longest_path"] == 9 and ttt["complete"]


# -- nim, brute force --------------------------------------------------------------------
def nim_brute_force(heaps):
    """(heaps, player to move, last mover) states; normal play."""
    root = (tuple(heaps), 0, -1)
    seen, frontier, terminal = {root}, [root], set()
    games = Counter({root: 1})
    order = []
    while frontier:
        nxt = []
        for s in frontier:
            order.append(s)
            h, p, _ = s
            if sum(h) == 0:
                terminal.add(s)
                continue
            for i, size in enumerate(h):
                for take in range(1, size + 1):
                    child = (h[:i] + (size - take,) + h[i + 1:], 1 - p, p)
                    if child not in seen:
                        seen.add(child)
                        nxt.append(child)
        frontier = nxt

    def paths(s, memo={}):
        if s in memo:
            return memo[s]
        h, p, _ = s
        if sum(h) == 0:
            return 1
        total = sum(paths((h[:i] + (h[i] - t,) + h[i + 1:], 1 - p, p))
                    for i in range(len(h)) for t in range(1, h[i] + 1))
        memo[s] = total
        return total
    return len(seen), len(terminal), paths(root, {})


@pytest.mark.parametrize("heaps", [[1, 2], [2, 2], [1, 2, 3], [3, 4]])
def test_nim_matches_brute_force(heaps):
    states, terminals, games = nim_brute_force(heaps)
    s = summarize(explore(load_game("nim", 2, {"heaps": heaps})))
    assert (s["states"], s["terminal_states"], s["complete_games"]) == (states, terminals, games)


# -- goofspiel, brute force ----------------------------------------------------------------
def goofspiel_brute_force(n):
    """Two players, n cards: chance draws a prize, both bid at once, the higher bid
    takes the prize, ties discard it, bids are discarded in seat order."""
    start = (frozenset(range(1, n + 1)), frozenset(range(1, n + 1)), frozenset(range(1, n + 1)),
             (0, 0), ((), ()), (), None)
    levels = [{start}]
    terminal = Counter()
    games = 0

    def walk(state, depth, count_paths):
        nonlocal games
        prizes, h0, h1, pts, won, discard, prize = state
        if prize is None and not prizes:
            return [("end", state)]
        if prize is None:
            return [(depth, (prizes - {c}, h0, h1, pts, won, discard, c)) for c in sorted(prizes)]
        out = []
        for b0, b1 in itertools.product(sorted(h0), sorted(h1)):
            p = list(pts)
            w = [list(won[0]), list(won[1])]
            d = list(discard)
            if b0 != b1:
                winner = 0 if b0 > b1 else 1
                p[winner] += prize
                w[winner].append(prize)
            else:
                d.append(("P", prize))
            d += [("S0", b0), ("S1", b1)]
            out.append((depth, (prizes, h0 - {b0}, h1 - {b1}, tuple(p), (tuple(w[0]), tuple(w[1])),
                                tuple(d), None)))
        return out

    # Count distinct states per depth and complete games (the tree has no transpositions
    # here, so every path is one game).
    frontier = [start]
    while frontier:
        nxt = []
        for s in frontier:
            for tag, child in walk(s, 0, True):
                if tag == "end":
                    pts = child[3]
                    games += 1
                    terminal["winners " + (",".join(str(i) for i in range(2) if pts[i] == max(pts)))] += 1
                else:
                    nxt.append(child)
        frontier = nxt
        if frontier:
            levels.append(set(frontier))
    return [len(level) for level in levels], games, terminal


@pytest.mark.parametrize("n", [3, 4])
def test_goofspiel_matches_brute_force(n):
    per_depth, games, outcomes = goofspiel_brute_force(n)
    s = summarize(explore(load_game("goofspiel", 2, {"cards": n})))
    assert s["states_per_depth"] == per_depth
    assert s["complete_games"] == games == s["terminal_states"]
    assert s["outcomes"] == dict(sorted(outcomes.items()))


def test_chance_edges_carry_probabilities():
    ex = explore(load_game("goofspiel", 2, {"cards": 3}))
    root_edges = list(ex.graph.out_edges(ex.root, data=True))
    assert len(root_edges) == 3
    assert all(d["p"] == "1/3" and d["move"].startswith("chance(drawn=P") for _, _, d in root_edges)
    joint = [d["move"] for _, _, d in ex.graph.edges(data=True) if " | " in d["move"]]
    assert joint and all(m.count(":bid(") == 2 for m in joint)  # simultaneous bids as joint moves


def test_limits_say_what_stopped_the_exploration():
    by_depth = explore(load_game("connect-four"), max_depth=2)
    assert by_depth.stopped_by == "depth" and not by_depth.complete
    assert summarize(by_depth)["states_per_depth"] == [1, 7, 49]
    by_states = explore(load_game("tic-tac-toe"), max_states=100)
    assert by_states.stopped_by == "states" and by_states.graph.number_of_nodes() == 100
    by_time = explore(load_game("connect-four"), max_seconds=0.2)
    assert by_time.stopped_by == "time" and by_time.frontier > 0


def test_perft_and_game_count_on_a_hand_built_graph():
    g = nx.MultiDiGraph()
    for n, t in [("r", False), ("a", False), ("b", True), ("c", True)]:
        g.add_node(n, terminal=t)
    g.add_edge("r", "a", key="x")
    g.add_edge("r", "b", key="y")
    g.add_edge("a", "c", key="u")
    g.add_edge("a", "c", key="v")  # two moves to the same state are two games
    assert perft(g, "r", 3) == [1, 2, 2, 0]
    assert complete_games(g, "r") == 3


def test_sampling_reports_lengths_and_action_use():
    r = sample(load_game("connect-four"), 20, seed=1)
    assert r["playouts"] == 20 and r["unfinished"] == 0
    assert 7 <= r["length"]["min"] <= r["length"]["max"] <= 42
    assert r["actions"]["drop"]["games_legal"] == 20
    assert r["actions"]["drop"]["taken"] == r["decisions"]


def test_lint_finds_unused_and_impossible_rules():
    diags, _ = lint(load_rules(FIX / "lint_me.yaml"))
    found = {(d.code, d.span.line) for d in diags}
    assert found == {("L101", 6), ("L102", 11), ("L103", 14), ("L104", 35), ("L105", 32),
                     ("L201", 20), ("L109", 6)}  # the token kind also says nothing to players (no show)
    assert all(d.severity == "warning" for d in diags)


def test_lint_sampling_finds_actions_never_legal_and_skipped_decisions():
    rules = load_rules(FIX / "lint_me.yaml")
    diags, report = lint(rules, load_game(FIX / "lint_me.yaml"), playouts=5)
    codes = {d.code for d in diags}
    assert {"L301", "L302"} <= codes
    assert report["unfinished"] == 0


@pytest.mark.parametrize("name", ["tic-tac-toe", "connect-four", "nim", "goofspiel"])
def test_shipped_rulesets_lint_clean(name):
    diags, _ = lint(load_rules(name), load_game(name), playouts=5)
    assert diags == []


def test_state_graph_exports(tmp_path):
    from meeple.cli.graphs import export_states
    ex = explore(load_game("nim", 2, {"heaps": [1, 2]}))
    dot = export_states(ex, "dot")
    assert dot.startswith("digraph") and dot.count("->") == 10
    data = json.loads(export_states(ex, "json"))
    assert len(data["nodes"]) == 8
    assert "<graphml" in export_states(ex, "graphml")


@pytest.mark.parametrize("name", __import__("meeple.interpreter", fromlist=["list_rulesets"]).list_rulesets())
def test_every_ruleset_explores_exports_and_samples(name):
    from meeple.cli.graphs import export_states
    game = load_game(name)
    ex = explore(game, max_states=300)
    s = summarize(ex)
    assert s["states"] <= 300 and (s["complete"] or s["stopped_by"] == "states")
    assert json.loads(export_states(ex, "json"))["nodes"]
    r = sample(load_game(name), 3)
    assert r["playouts"] == 3 and r["length"]["min"] is not None
