"""Exports of the flow graph: DOT for pictures, GraphML and JSON for tools."""
from __future__ import annotations

import io
import json

import networkx as nx


def _label(g, n):
    d = g.nodes[n]
    text = d["op"]
    if d["op"] == "decide":
        text = f"{d['kind']}: {d['actions']}"
    elif d.get("name"):
        text = f"{d['op']} {d['name']}"
    if d.get("label"):
        text += f" [{d['label']}]"
    return f"{n}: {text}"


def export_flow(rules, fmt: str) -> str:
    g = rules.flow.graph
    if fmt == "json":
        return json.dumps(nx.node_link_data(g, edges="edges"), indent=1, default=str)
    if fmt == "graphml":
        buf = io.BytesIO()
        nx.write_graphml(g, buf)
        return buf.getvalue().decode()
    if fmt == "dot":
        lines = [f'digraph "{rules.ruleset.game.name}" {{', "  node [shape=box, fontname=Helvetica];"]
        for n in g.nodes:
            shape = "ellipse" if g.nodes[n]["op"] == "decide" else "box"
            lines.append(f'  n{n} [label={json.dumps(_label(g, n))}, shape={shape}];')
        for a, b, d in g.edges(data=True):
            lines.append(f'  n{a} -> n{b} [label={json.dumps(d.get("move", ""))}];')
        lines.append("}")
        return "\n".join(lines)
    raise ValueError(f"unknown format '{fmt}'; use dot, graphml or json")
