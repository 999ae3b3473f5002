"""The HTML report: one self-contained page (figures inline as SVG, no scripts, no
files fetched) that can be mailed or attached to an issue, with the tables the figures
are drawn from beside them, so every number can be read, not just seen."""
from __future__ import annotations

from html import escape

from .analysis import Analysis, interval_text, mean
from .figures import Figure

STYLE = """body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #ccc;padding:.2rem .5rem;
text-align:right}th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}
figure{margin:1.5rem 0}figcaption{color:#555;font-size:.9rem}svg{max-width:100%;height:auto}"""


def render(analysis: Analysis, figures: list[Figure], source: str) -> str:
    parts = [f"<!doctype html><html lang=en><meta charset=utf-8><title>meeple report: "
             f"{escape(analysis.ruleset)}</title><style>{STYLE}</style><body>",
             f"<h1>{escape(analysis.ruleset)}: {analysis.games} games</h1>",
             f"<p>From <code>{escape(source)}</code>; {len(analysis.groups)} cell(s); "
             f"{analysis.unfinished} game(s) not finished.</p>",
             _seat_table(analysis)]
    edge = analysis.first_player_edge()
    if edge:
        parts.append(_edge_table(edge))
    for fig in figures:
        svg = fig.svg[fig.svg.find("<svg"):]  # inline: without the XML prologue
        parts.append(f"<figure id={fig.name}><h2>{escape(fig.title)}</h2>{svg}"
                     f"<figcaption>{escape(fig.caption)}</figcaption></figure>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _table(title: str, headers: list[str], rows: list[list]) -> str:
    """A heading and a table; every cell is escaped here, once."""
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = ["<tr>" + "".join(f"<td>{escape(str(cell))}</td>" for cell in row) + "</tr>" for row in rows]
    return "\n".join([f"<h2>{escape(title)}</h2><table><tr>{head}</tr>", *body, "</table>"])


def _seat_table(analysis: Analysis) -> str:
    rows = []
    for g in analysis.groups:
        for seat in range(g.players):
            score = mean(g.scores[seat])
            rows.append([g.key, seat, g.bots[seat], g.finished, f"{g.win_rate(seat):.1%}",
                         interval_text(g.interval(seat), 1), "" if score is None else f"{score:.2f}",
                         f"{mean(g.lengths):.1f}"])
    return _table("By cell and seat", ["cell", "seat", "bot", "games", "win rate", "95 % interval", "mean score",
                                       "mean length"], rows)


def _edge_table(edge: dict) -> str:
    rows = [[f"{ruleset}, {players}", e["games"], f"{e['rate']:.1%}", interval_text(e["interval"], 1),
             f"{e['fair']:.1%}"] for (ruleset, players), e in edge.items()]
    return _table("First seat against its fair share",
                  ["ruleset, players", "games", "seat 0 win rate", "95 % interval", "fair share"], rows)
