"""Where each node of a board is drawn: its declared position (`display: positions`), its
grid place (a grid node's col and row), or else a layout worked out here.

The layout is a small seeded force layout (Fruchterman-Reingold) in plain Python: networkx's
own layouts need numpy, which meeple does not depend on.  It starts from networkx's planar
embedding when the board is planar (so few edges cross), else from a circle; placed nodes
stay where they are and the others settle around them.  The same board and seed always give
the same positions, so a map does not move between turns.
"""
from __future__ import annotations

import math
import random

import networkx as nx

WORK = 2_000_000  # node pairs x iterations the force layout may spend


def node_positions(graph, declared: dict | None = None, seed: int = 0) -> dict:
    """node -> (x, y), y pointing up, for every node of `graph`."""
    fixed = dict(declared or {})
    for node, data in graph.nodes(data=True):
        if node not in fixed and isinstance(data.get("col"), int) and isinstance(data.get("row"), int):
            fixed[node] = (float(data["col"]), float(data["row"]))
    free = [n for n in graph.nodes if n not in fixed]
    if not free:
        return {n: fixed[n] for n in graph.nodes}
    rng = random.Random(seed)
    pos = _start(graph, fixed, free, rng)
    _settle(graph, pos, free, rng)
    return {n: pos[n] for n in graph.nodes}


def _start(graph, fixed: dict, free: list, rng: random.Random) -> dict:
    pos = {n: (float(x), float(y)) for n, (x, y) in fixed.items()}
    if not fixed:
        planar = _planar(graph)
        if planar:
            return planar
        n = len(free)
        return {v: (math.cos(2 * math.pi * i / n), math.sin(2 * math.pi * i / n)) for i, v in enumerate(free)}
    xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    for v in free:  # next to its placed neighbours, or near the middle
        near = [pos[u] for u in nx.all_neighbors(graph, v) if u in pos]
        x, y = (sum(p[0] for p in near) / len(near), sum(p[1] for p in near) / len(near)) if near else (cx, cy)
        pos[v] = (x + rng.uniform(-0.2, 0.2) * span, y + rng.uniform(-0.2, 0.2) * span)
    return pos


def _planar(graph) -> dict | None:
    undirected = nx.Graph(graph)
    if len(undirected) < 3 or not nx.is_connected(undirected):
        return None
    ok, embedding = nx.check_planarity(undirected)
    if not ok:
        return None
    from networkx.algorithms.planar_drawing import combinatorial_embedding_to_pos
    return {n: (float(x), float(y)) for n, (x, y) in combinatorial_embedding_to_pos(embedding).items()}


def _settle(graph, pos: dict, free: list, rng: random.Random) -> None:
    """Nodes push each other apart and edges pull their ends together; only `free` move."""
    nodes = list(graph.nodes)
    xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
    size = max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
    k = size / math.sqrt(len(nodes))  # the distance two nodes settle at
    edges = [(a, b) for a, b in nx.Graph(graph).edges if a != b]
    iterations = max(10, min(300, WORK // max(1, len(nodes) * len(free))))
    heat = size / 10
    for _ in range(iterations):
        move = {v: [0.0, 0.0] for v in free}
        for v in free:
            vx, vy = pos[v]
            for u in nodes:
                if u == v:
                    continue
                dx, dy = vx - pos[u][0], vy - pos[u][1]
                d2 = dx * dx + dy * dy
                if d2 < 1e-12:  # on top of each other: a seeded nudge apart
                    dx, dy, d2 = rng.uniform(-1, 1) * 1e-3, rng.uniform(-1, 1) * 1e-3, 2e-6
                move[v][0] += dx * k * k / d2
                move[v][1] += dy * k * k / d2
        for a, b in edges:
            dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
            d = math.hypot(dx, dy) or 1e-6
            pull = d / k
            if a in move:
                move[a][0] -= dx * pull
                move[a][1] -= dy * pull
            if b in move:
                move[b][0] += dx * pull
                move[b][1] += dy * pull
        for v in free:
            dx, dy = move[v]
            d = math.hypot(dx, dy) or 1e-9
            step_len = min(d, heat)
            pos[v] = (pos[v][0] + dx / d * step_len, pos[v][1] + dy / d * step_len)
        heat *= 0.97
