"""State-space exploration: the game's reachable states as a networkx graph.

Breadth-first from a state, merging transpositions through `State.key()`.
Nodes keep only a few fields (depth, who moves, terminal, outcome); full
states live only in the frontier, so memory follows what is stored.
Chance points are explicit here: each outcome is an edge with its
probability.  A simultaneous decision is one edge per joint move (one move
of every pending player, applied in seat order).
"""
from __future__ import annotations

import itertools
import json
import time
from collections import deque
from dataclasses import dataclass, field

import networkx as nx

from ..runtime.game import CHANCE, Game
from ..runtime.state import to_plain


@dataclass
class Exploration:
    graph: nx.MultiDiGraph
    root: str
    complete: bool  # every reachable state was expanded
    stopped_by: str | None  # None | "depth" | "states" | "time"
    expanded: int
    frontier: int  # states found but not expanded
    seconds: float
    limits: dict = field(default_factory=dict)


def successors(game: Game, state):
    """(label, probability or None, child state) for every way play can go on."""
    if game.is_terminal(state):
        return
    players = game.current_players(state)
    if players == (CHANCE,):
        for move, prob in game.chance_outcomes(state):
            yield str(move), prob, game.apply(state, move)
        return
    point = game.rules.points[state.pc]
    if point.op == "decide" and point.kind == "simultaneous" and len(players) > 1:
        per_player = [game.legal_moves(state, p) for p in players]
        for combo in itertools.product(*per_player):
            child = state
            for move in combo:
                child = game.apply(child, move)
            yield " | ".join(f"{m.player}:{m}" for m in combo), None, child
        return
    for move in game.legal_moves(state):
        yield f"{move.player}:{move}", None, game.apply(state, move)


def explore(game: Game, root=None, max_depth: int | None = None, max_states: int | None = None,
            max_seconds: float | None = None) -> Exploration:
    game.explicit_chance = True
    start = time.perf_counter()
    if root is None:
        root = game.new_state(0)
    g = nx.MultiDiGraph()
    root_key = root.key()
    _add_node(g, game, root_key, root, 0)
    queue = deque([(root, 0, root_key)])  # each state with its key, worked out once
    stopped_by = None
    expanded = 0
    while queue:
        if max_seconds is not None and time.perf_counter() - start > max_seconds:
            stopped_by = "time"
            break
        state, depth, key = queue.popleft()
        if max_depth is not None and depth >= max_depth and not game.is_terminal(state):
            stopped_by = stopped_by or "depth"
            continue
        for label, prob, child in successors(game, state):
            child_key = child.key()
            if child_key not in g:
                if max_states is not None and g.number_of_nodes() >= max_states:
                    stopped_by = "states"
                    break
                _add_node(g, game, child_key, child, depth + 1)
                queue.append((child, depth + 1, child_key))
            attrs = {"move": label}
            if prob is not None:
                attrs["probability"] = float(prob)
                attrs["p"] = f"{prob.numerator}/{prob.denominator}"
            g.add_edge(key, child_key, key=label, **attrs)
        else:
            expanded += 1
            g.nodes[key]["expanded"] = True
            continue
        break
    frontier = sum(1 for _, d in g.nodes(data=True) if not d["expanded"] and not d["terminal"])
    return Exploration(g, root_key, frontier == 0 and stopped_by is None, stopped_by, expanded, frontier,
                       time.perf_counter() - start,
                       {"depth": max_depth, "states": max_states, "seconds": max_seconds})


def _summary(state, width: int = 60) -> str:
    """A short, human-readable digest of the variables, for labels of small graphs."""
    parts = []
    for name, value in sorted(state.vars.items()):
        text = json.dumps(to_plain(value), separators=(",", ":"))
        parts.append(f"{name}={text}")
    text = " ".join(parts)
    return text if len(text) <= width else text[: width - 1] + "…"


def _add_node(g, game, key, state, depth):
    attrs = {"depth": depth, "to_move": ",".join(map(str, game.current_players(state))),
             "terminal": game.is_terminal(state), "phase": state.phase, "expanded": False,
             "summary": _summary(state)}
    if attrs["terminal"]:
        out = game.outcome(state)
        attrs["winners"] = ",".join(map(str, out.winners))
        attrs["scores"] = ",".join(map(str, out.scores))
    g.add_node(key, **attrs)
