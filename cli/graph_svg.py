"""Flow and state graphs drawn straight to SVG (matplotlib, the `sim` extra), so a
picture needs no Graphviz.  Layered top to bottom: a flow graph by the number of steps
from the start, a state graph by depth; edges carry the move that takes them."""
from __future__ import annotations

import io

import networkx as nx

MAX_DRAWN = 300  # nodes; beyond this a picture is unreadable (GraphML or JSON then)


class DrawingError(Exception):
    """Nothing to draw, too much to draw, or no matplotlib."""


def draw_svg(g: nx.DiGraph, root, labels: dict, layers: dict, edge_labels: dict, title: str) -> str:
    if g.number_of_nodes() > MAX_DRAWN:
        raise DrawingError(f"{g.number_of_nodes()} nodes is too many for a picture (at most {MAX_DRAWN}); "
                           "use graphml or json")
    try:
        import matplotlib
        matplotlib.use("Agg")
        matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: searchable, smaller
        import matplotlib.pyplot as plt
    except ImportError:
        raise DrawingError("drawing SVG needs matplotlib: pip install 'meeple[sim]' "
                           "(or write dot and use Graphviz)") from None
    # Drawn over plain ids: a state graph's nodes are state keys (tuples), which
    # networkx would read as edge tuples in some calls.
    ids = {n: i for i, n in enumerate(g.nodes)}
    drawn = nx.DiGraph()
    drawn.add_nodes_from((i, {"layer": layers[n]}) for n, i in ids.items())
    drawn.add_edges_from((ids[a], ids[b]) for a, b in g.edges())
    pos = nx.multipartite_layout(drawn, subset_key="layer", align="horizontal", scale=1)
    pos = {i: (x, -y) for i, (x, y) in pos.items()}  # the start at the top
    labels = {ids[n]: text for n, text in labels.items()}
    edge_labels = {(ids[a], ids[b]): text for (a, b), text in edge_labels.items()}
    root = ids.get(root)
    widest = max(sum(1 for n in g.nodes if layers[n] == k) for k in set(layers.values()))
    fig, ax = plt.subplots(figsize=(max(6, 2.6 * widest), max(4, 1.1 * (max(layers.values()) + 1))))
    nx.draw_networkx_edges(drawn, pos, ax=ax, arrows=True, arrowsize=10, edge_color="#888",
                           connectionstyle="arc3,rad=0.08", node_size=1800)
    nx.draw_networkx_edge_labels(drawn, pos, edge_labels=edge_labels, ax=ax, font_size=6, rotate=False)
    box = dict(boxstyle="round,pad=0.3", fc="#f7f7f7", ec="#555")
    for n, (x, y) in pos.items():
        ax.text(x, y, labels[n], ha="center", va="center", fontsize=7, wrap=True,
                bbox=dict(box, fc="#fff3d6") if n == root else box)
    ax.set_title(title)
    ax.axis("off")
    fig.tight_layout()
    out = io.StringIO()
    fig.savefig(out, format="svg")
    plt.close(fig)
    return out.getvalue()


def steps_from(g: nx.DiGraph, root) -> dict:
    """Each node's distance in steps from `root`; nodes it cannot reach go one layer below."""
    distance = nx.single_source_shortest_path_length(g, root)
    below = max(distance.values(), default=0) + 1
    return {n: distance.get(n, below) for n in g.nodes}
