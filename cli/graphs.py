"""Exports of the flow and state graphs: SVG and DOT for pictures, GraphML and JSON for tools."""
from __future__ import annotations

import io
import json

import networkx as nx
from rich.markup import escape


FORMATS = ("dot", "svg", "graphml", "json")  # what export_flow and export_states write


def _label(g, n):
    d = g.nodes[n]
    text = d["op"]
    if d["op"] == "decide":
        text = f"{d['kind']}: {d['actions']}"
    elif d.get("name"):
        text = f"{d['op']} {d['name']}"
    if d.get("var"):
        text += f" {d['var']}"
    if d.get("label"):
        text += f" [{d['label']}]"
    return f"{n}: {text}"


def _short(text: str, width: int = 36) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def _export_data(g, fmt: str) -> str:
    """JSON node-link or GraphML: the same for any graph."""
    if fmt == "json":
        return json.dumps(nx.node_link_data(g, edges="edges"), indent=1, default=str)
    buf = io.BytesIO()
    nx.write_graphml(g, buf)
    return buf.getvalue().decode()


def export_flow(rules, fmt: str) -> str:
    g = rules.flow.graph
    if fmt in ("json", "graphml"):
        return _export_data(g, fmt)
    if fmt == "svg":
        from .graph_svg import draw_svg, steps_from
        return draw_svg(g, rules.start, {n: _label(g, n) for n in g.nodes}, steps_from(g, rules.start),
                        {(a, b): d.get("move", "") for a, b, d in g.edges(data=True) if d.get("move")},
                        f"{rules.ruleset.game.name}: the flow of play")
    if fmt == "dot":
        lines = [f'digraph "{rules.ruleset.game.name}" {{', "  node [shape=box, fontname=Helvetica];"]
        for n in g.nodes:
            shape = "ellipse" if g.nodes[n]["op"] == "decide" else "box"
            lines.append(f'  n{n} [label={json.dumps(_label(g, n))}, shape={shape}];')
        for a, b, d in g.edges(data=True):
            lines.append(f'  n{a} -> n{b} [label={json.dumps(d.get("move", ""))}];')
        lines.append("}")
        return "\n".join(lines)
    raise ValueError(f"unknown format '{fmt}'; use {', '.join(FORMATS)}")


def export_states(ex, fmt: str) -> str:
    """The explored state graph.  Node ids are state keys; DOT is only sensible for small graphs."""
    g = ex.graph
    if fmt in ("json", "graphml"):
        return _export_data(g, fmt)
    if fmt == "svg":
        from .graph_svg import draw_svg
        labels = {n: f"d{d['depth']}" + (f" · to move {d['to_move']}" if d["to_move"] else "")
                  + "\n" + _short(d["summary"]) + (f"\nend: winners {d.get('winners') or 'none'}"
                                                   if d["terminal"] else "") for n, d in g.nodes(data=True)}
        return draw_svg(g, ex.root, labels, {n: d["depth"] for n, d in g.nodes(data=True)},
                        {(a, b): d["move"] for a, b, d in g.edges(data=True)}, "the reachable states")
    if fmt == "dot":
        if g.number_of_nodes() > 2000:
            raise ValueError(f"{g.number_of_nodes()} states is too many for DOT; use graphml or json")
        ids = {n: f"s{i}" for i, n in enumerate(g.nodes)}
        lines = ["digraph states {", "  node [fontname=Helvetica, fontsize=10];",
                 "  edge [fontname=Helvetica, fontsize=9];"]
        for n, d in g.nodes(data=True):
            label = f"d{d['depth']}" + (f" · to move {d['to_move']}" if d["to_move"] else "")
            label += "\\n" + d["summary"].replace('"', "'")
            if d["terminal"]:
                label += f"\\nend: winners {d.get('winners') or 'none'}"
            shape = "box, peripheries=2" if d["terminal"] else ("box" if n == ex.root else "ellipse")
            lines.append(f'  {ids[n]} [label="{label}", shape={shape}];')
        for a, b, d in g.edges(data=True):
            label = d["move"] + (f" ({d['p']})" if "p" in d else "")
            lines.append(f"  {ids[a]} -> {ids[b]} [label={json.dumps(label)}];")
        lines.append("}")
        return "\n".join(lines)
    raise ValueError(f"unknown format '{fmt}'; use {', '.join(FORMATS)}")


def print_stats(game, s: dict) -> None:
    from rich.table import Table

    from .render import console
    head = f"[bold]{escape(game.name)}[/], {game.player_count} players: {s['states']:,} states, {s['edges']:,} edges"
    console.print(head + f" in {s['seconds']} s")
    if s["complete"]:
        console.print("explored completely")
    else:
        console.print(f"[yellow]stopped by the {s['stopped_by']} limit[/] {s['limits']}: "
                      f"{s['expanded']:,} states expanded, {s['frontier']:,} found but not expanded")
    t = Table("depth", "states", "edges", "perft (sequences of this length)")
    for d, n in enumerate(s["states_per_depth"]):
        t.add_row(str(d), f"{n:,}", f"{s['edges_per_depth'][d]:,}",
                  f"{s['perft'][d]:,}" if d < len(s["perft"]) else "")
    console.print(t)
    b = s["branching"]
    console.print(f"terminal states: {s['terminal_states']:,}  outcomes: {s['outcomes']}")
    console.print(f"branching: min {b['min']}, mean {b['mean']}, max {b['max']}")
    console.print(f"longest path: {s['longest_path'] if s['acyclic'] else 'unbounded (the graph has cycles)'}")
    if s["complete_games"] is not None:
        console.print(f"distinct complete games: {s['complete_games']:,}")


def print_sample(r: dict) -> None:
    from rich.table import Table

    from .render import console
    L = r["length"]
    console.print(f"[bold]{escape(r['ruleset'])}[/]: {r['playouts']} random playouts, {r['players']} players")
    console.print(f"game length: min {L['min']}, median {L['median']}, mean {L['mean']}, max {L['max']}; "
                  f"unfinished (hit {r['max_moves']} moves): {r['unfinished']}; stalled (nobody could move): "
                  f"{r['stalled']}")
    t = Table("phase", "mean branching", "min", "max")
    for phase, d in r["branching_per_phase"].items():
        t.add_row(escape(phase), str(d["mean"]), str(d["min"]), str(d["max"]))
    console.print(t)
    t = Table("action", "legal at % of decisions", "games where legal", "taken", "taken %")
    for name, a in r["actions"].items():
        t.add_row(escape(name), f"{a['legal_share']:.1%}", str(a["games_legal"]), str(a["taken"]), f"{a['taken_share']:.1%}")
    console.print(t)
    if r["skipped_decisions"]:
        console.print(f"[yellow]decisions skipped (nobody could act):[/] {r['skipped_decisions']}")
