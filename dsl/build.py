"""Located YAML -> Ruleset records.  Reports structure problems; never raises."""
from __future__ import annotations

import difflib

from .build_display import build_board_display
from .build_flow import build_effects, build_flow, rule_of, value_span
from .build_texts import build_texts
from .build_grid import build_grid, grid_column, grid_node  # noqa: F401 (read from here too)
from .board_edges import id_clash, line_problem
from .build_support import Reader
from .generate import build_generate
from .options import check_option
from .model import (ActionDecl, BoardDecl, Check, ComponentKind, DefineDecl, EndRule, GameInfo,
                    OptionDecl, Rulebook, Scoring, SidesDecl, SummaryRow, TriggerDecl, VarDecl, ZoneDecl)
from .schema import SECTIONS, SINGLE_SECTIONS  # noqa: F401 (load.py reads them from here)
from .schema.language import UTILITIES
from .schema.limits import (MAX_BOARD_NODES, MAX_ITEM_COUNT, MAX_PLAYERS, MAX_TOTAL_ITEMS,
                            MAX_TOTAL_NODES)
from .source import LDict, Span, plain, span_of
from .templates import template_places
from .types import ANY, INT, MAX_TYPE_DEPTH, parse_type_name, type_depth


def build_game(r: Reader, value, span: Span) -> GameInfo | None:
    node = r.mapping(value, "the game section", parent_span=span)
    if node is None:
        return None
    lo, hi = _player_counts(r, node.get("players"), value_span(node, "players"))
    book = Rulebook()
    if "rulebook" in node and r.mapping(node["rulebook"], "the rulebook"):
        rb = node["rulebook"]
        book = Rulebook(*(r.string(rb.get(k), k) or "" for k in ("title", "edition", "language", "author",
                                                                  "openspiel")))
        if "sections" in rb and r.mapping(rb["sections"], "the rulebook's sections"):
            book.sections = {str(k): str(v) for k, v in rb["sections"].items() if isinstance(v, (str, int))}
    options = {}
    if "options" in node and r.mapping(node["options"], "options"):
        for name, decl in node["options"].items():
            d = r.mapping(decl, f"option '{name}'")
            if d is None:
                continue
            r.diagnostics.extend(check_option(str(name), d, value_span(d, "default")))
            choices = tuple(plain(c) for c in d["choices"]) if isinstance(d.get("choices"), list) else None
            options[str(name)] = OptionDecl(str(name), plain(d.get("default")), choices, d.span,
                                            r.string(d.get("description"), "description") or "")
    r.options = options  # what a grid's size may read
    r.players = (lo or 1, hi or 1)  # and a generated field
    labels = {}
    if "labels" in node and r.mapping(node["labels"], "labels"):
        for lang, table in node["labels"].items():
            if r.mapping(table, f"labels for '{lang}'") is not None:
                texts = {str(k): r.string(v, f"the label of '{k}'", value_span(table, k)) for k, v in table.items()}
                labels[str(lang)] = {k: v for k, v in texts.items() if v is not None}
    return GameInfo(r.string(node.get("name"), "the game name") or "", r.string(node.get("title"), "title")
                    or str(node.get("name", "")), lo or 1, hi or 1, book, options, labels, node.span,
                    r.string(node.get("description"), "description") or "")


def _player_counts(r: Reader, players, span: Span | None) -> tuple[int, int]:
    """The smallest and largest player count; (1, 1) after a reported problem."""
    lo = hi = None
    if isinstance(players, bool) or players is None:
        return 1, 1  # reported by the shape pass
    if isinstance(players, int):
        lo = hi = r.integer(players, "players", span)
        if lo is None:
            return 1, 1
    elif isinstance(players, dict):
        lo, hi = r.integer(players.get("min"), "players.min"), r.integer(players.get("max"), "players.max")
        if lo is None or hi is None:
            return 1, 1  # a missing or wrong bound is reported by the shape pass
    elif isinstance(players, str):
        a, _, b = players.partition("-")
        if a.strip().isdigit() and b.strip().isdigit():
            lo, hi = int(a), int(b)
    else:
        return 1, 1
    if lo is None or hi is None or lo < 1 or hi < lo:
        r.error("S107", "players must be a number, a range such as '3-5', or {min, max} with 1 <= min <= max",
                span_of(players, span))
        return 1, 1
    if hi > MAX_PLAYERS.value:
        r.error(MAX_PLAYERS.code, f"at most {MAX_PLAYERS.value} players are supported, not {hi}",
                span_of(players, span))
        return min(lo, MAX_PLAYERS.value), MAX_PLAYERS.value
    return lo, hi


def _unknown_type(text) -> str:
    depth = type_depth(str(text))
    if depth > MAX_TYPE_DEPTH:
        return f"the type is nested {depth} levels deep; types may nest at most {MAX_TYPE_DEPTH} levels"
    return f"unknown type '{str(text)[:80]}'"


def build_var(r: Reader, name: str, value, what="variable", span=None) -> VarDecl | None:
    if isinstance(value, str) and not isinstance(value, dict):
        value_type = parse_type_name(value)
        if value_type is None:
            r.error("T405", _unknown_type(value), span_of(value, span))
            return None
        return VarDecl(name, value_type, None, None, None, None, "error", "all", span_of(value, span))
    node = r.mapping(value, f"{what} '{name}'", parent_span=span)
    if node is None:
        return None
    type_text = node.get("type", "int")
    value_type = parse_type_name(type_text) if isinstance(type_text, str) else ANY  # else: S103
    if value_type is None:
        r.error("T405", _unknown_type(type_text), span_of(node.get("type"), node.span),
                notes=["types: int, bool, str, player, item, item[kind], list[T], set[int], set[str], map[K, V], any"])
        value_type = ANY
    per = node.get("per")
    if per is not None and per != "player":
        per = r.expr(per, "'per'", node.span)
    initial = r.expr(node["initial"], "the initial value", node.span) if "initial" in node else None
    lo, hi = r.integer(node.get("min"), "min", node.span), r.integer(node.get("max"), "max", node.span)
    if (lo is not None or hi is not None) and value_type not in (INT, ANY) and value_type.name != "map":
        r.error("T406", f"min/max bounds need an int variable, '{name}' is {value_type}", node.span)
    choices = tuple(plain(node["choices"])) if isinstance(node.get("choices"), list) else None
    return VarDecl(name, value_type, per, initial, lo, hi,
                   r.string(node.get("bounds", "error"), "bounds", node.span, ("error", "clamp")) or "error",
                   r.string(node.get("visibility", "all"), "visibility", node.span, ("all", "owner", "none"))
                   or "all", node.span, rule_of(r, node), choices, node.get("show") is not False)


def build_zone(r: Reader, name: str, value) -> ZoneDecl | None:
    node = r.mapping(value, f"zone '{name}'")
    if node is None:
        return None
    per = node.get("per")
    if per is not None and per != "player":
        per = r.expr(per, "'per'", node.span)
    return ZoneDecl(name, per,
                    r.string(node.get("kind", "stack"), "kind", node.span, ("stack", "hand", "row", "bag"))
                    or "stack",
                    r.string(node.get("visibility", "all"), "visibility", node.span,
                             ("all", "owner", "none", "top")) or "all",
                    r.string(node.get("face", "up"), "face", node.span, ("up", "down")) or "up",
                    r.expr(node["initial"], "the initial contents", node.span) if "initial" in node else None,
                    node.span, rule_of(r, node), node.get("show") is not False)


def build_component(r: Reader, name: str, value) -> ComponentKind | None:
    node = r.mapping(value, f"component '{name}'")
    if node is None:
        return None
    fields = {}
    if "fields" in node and r.mapping(node["fields"], "fields"):
        for fname, ftype in node["fields"].items():
            t = parse_type_name(ftype) if isinstance(ftype, str) else ANY  # else: S103
            if t is None:
                r.error("T405", _unknown_type(ftype), span_of(ftype, node.span))
                t = ANY
            fields[str(fname)] = t
    props = {}
    if "props" in node and r.mapping(node["props"], "props"):
        for pname, pdecl in node["props"].items():
            decl = build_var(r, str(pname), pdecl, "property", node.span)
            if decl:
                props[str(pname)] = decl
    items: list[dict] = []
    for entry in r.sequence(node.get("items"), "items", node.span):
        e = r.mapping(entry, f"an item of '{name}'", parent_span=node.span)
        if e is None:
            continue
        if "id" not in e:
            r.error("S102", f"an item of '{name}' needs an 'id'", e.span)
            continue
        base = r.string(e["id"], "the id", value_span(e, "id"))
        count = r.integer(e.get("count", 1), "count", value_span(e, "count"))
        if base is None or count is None:
            continue
        if not 1 <= count <= MAX_ITEM_COUNT.value:
            r.error(MAX_ITEM_COUNT.code, f"an item's count must be 1 to {MAX_ITEM_COUNT.value:,}, not {count}",
                    value_span(e, "count"))
            continue
        if len(items) + count > MAX_TOTAL_ITEMS.value:
            r.error(MAX_TOTAL_ITEMS.code, f"a ruleset may have at most {MAX_TOTAL_ITEMS.value:,} items",
                    value_span(e, "count"))
            break
        data = {str(k): plain(v) for k, v in e.items() if k not in ("id", "count") and v is not None}
        for key in data:
            if key not in fields:
                r.error("N303", f"'{key}' is not a declared field of '{name}'", e.key_spans.get(key),
                        notes=[f"fields: {', '.join(fields) or '(none)'}"])
        for i in range(count):
            items.append({"id": base if count == 1 else f"{base}-{i + 1}", "_span": e.span, **data})
    generated = None
    if "generate" in node:
        made, generated = build_generate(r, name, node, fields, r.players)
        if generated is not None:
            generated.listed = len(items)
        items += made
    sides = _build_sides(r, name, node["sides"], fields, props) if "sides" in node else None
    kind = ComponentKind(name, fields, props, items, node.span, rule_of(r, node), sides, generated=generated)
    if "show" in node:
        _build_shows(r, kind, node["show"], value_span(node, "show"))
    if "text" in node:
        build_texts(r, kind, node["text"], value_span(node, "text"),
                    lambda text, span: _build_show(r, name, text, fields, props, span))
    return kind


def _build_shows(r: Reader, kind: ComponentKind, value, span) -> None:
    """`show: "..."`, or `show: {by: type, dog: "...", coin: "..."}`: one text per value of
    a field or property, for a kind whose items are of several sorts."""
    if isinstance(value, str):
        kind.show = _build_show(r, kind.name, value, kind.fields, kind.props, span)
        return
    if not isinstance(value, dict):
        return  # reported by the shape pass
    by = value.get("by")
    if not isinstance(by, str) or (by not in kind.fields and by not in kind.props):
        r.error("N303", f"show's 'by' must name a field or property of '{kind.name}'", span_of(by, span),
                notes=[f"fields: {', '.join(kind.fields) or '(none)'}"])
        return
    cases = {}
    for case, text in value.items():
        if case != "by" and isinstance(text, str):
            cases[str(case)] = _build_show(r, kind.name, text, kind.fields, kind.props, span_of(text, span))
    kind.show_by, kind.show_cases = by, {k: v for k, v in cases.items() if v is not None}


def _build_show(r: Reader, name: str, value, fields, props, span) -> str | None:
    """`show: "{count} {gem} -> {points} points"`: each place names a field, a property,
    `id` or `kind` of the item."""
    if not isinstance(value, str):
        return None  # reported by the shape pass
    places = template_places(value)
    if places is None:
        r.error("S117", f"the display text of '{name}' is not well formed: write a place as {{name}} "
                        "and a brace as {{ or }}", span)
        return None
    known = {*fields, *props, "id", "kind", "face"}
    for place in places:
        if place not in known:
            r.error("N303", f"'{place}' is not a field or property of '{name}'", span,
                    notes=[f"fields: {', '.join(fields) or '(none)'}; properties: {', '.join(props) or '(none)'}"])
    return value


def _build_sides(r: Reader, name: str, value, fields, props) -> SidesDecl | None:
    """`sides: {by: side, front: [title], back: [motto]}`: the fields printed only on
    each side; a field listed under no side is printed on all of them."""
    node = r.mapping(value, f"the sides of '{name}'")
    if node is None:
        return None
    by = node.get("by", "face")
    if not isinstance(by, str):
        return None  # reported by the shape pass
    if by != "face" and by not in props:
        r.error("N306", f"'{by}' is not a property of '{name}', so it cannot say which side is up",
                span_of(node.get("by"), node.span), notes=[f"properties: {', '.join(props) or '(none)'}"])
        return None
    allowed = ("up", "down") if by == "face" else (props[by].choices if props[by].choices else None)
    shows: dict[str, tuple[str, ...]] = {}
    for side, listed in node.items():
        if side == "by":
            continue
        side = str(side)
        if allowed is not None and side not in allowed:
            r.error("S105", f"'{side}' is not a value of '{by}'; values: {', '.join(map(str, allowed))}",
                    node.key_spans.get(side, node.span), beyond_schema=True)
        names = []
        for f in r.sequence(listed, f"the fields of side '{side}'", node.span):
            if not isinstance(f, (str, int)) or isinstance(f, bool):
                continue  # not a name: reported by the shape pass
            if str(f) not in fields:
                r.error("N303", f"'{f}' is not a declared field of '{name}'", span_of(f, node.span),
                        notes=[f"fields: {', '.join(fields) or '(none)'}"])
            names.append(str(f))
        shows[side] = tuple(names)
    return SidesDecl(by, shows, node.span)


def build_board(r: Reader, name: str, value) -> BoardDecl | None:
    node = r.mapping(value, f"board '{name}'")
    if node is None:
        return None
    nodes: dict[str, dict] = {}
    edges: list[tuple[str, str, dict]] = []
    grid = None
    if "grid" in node:
        grid, nodes, edges = build_grid(r, node["grid"], value_span(node, "grid"), r.options)
    listed: dict[str, dict] = {}
    if "nodes" in node:
        raw = node["nodes"]
        if isinstance(raw, list):
            for n in raw:
                if isinstance(n, (str, int)) and not isinstance(n, bool):
                    listed[str(n)] = {}
        elif r.mapping(raw, "nodes"):
            for n, attrs in raw.items():
                listed[str(n)] = plain(attrs) if isinstance(attrs, dict) else {}
    nodes.update(listed)
    if len(nodes) > MAX_BOARD_NODES.value:
        r.error(MAX_BOARD_NODES.code, f"board '{name}' has {len(nodes):,} nodes; at most "
                f"{MAX_BOARD_NODES.value:,}", value_span(node, "nodes"))
        return None
    listed_edges = []
    for e in r.sequence(node.get("edges"), "edges", node.span):
        if isinstance(e, list) and len(e) in (2, 3):
            if not all(isinstance(end, (str, int)) and not isinstance(end, bool) for end in e[:2]):
                continue  # an end that is not a name: reported by the shape pass
            attrs = plain(e[2]) if len(e) == 3 and isinstance(e[2], dict) else {}
            a, b = str(e[0]), str(e[1])
            for end in (a, b):
                if end not in nodes:
                    r.error("N304", f"edge end '{end}' is not a node of board '{name}'", span_of(e))
            listed_edges.append((a, b, attrs))
        else:
            r.error("S103", "an edge is a list [from, to] or [from, to, {attributes}]", span_of(e, node.span))
    directed = r.boolean(node.get("directed"), "directed")
    clash = id_clash([(a, b) for a, b, _ in edges + listed_edges], directed)
    if clash is not None:
        r.error("S124", f"two edges of board '{name}' would both have the id '{clash[0]}' "
                f"([{', '.join(clash[1])}] and [{', '.join(clash[2])}]), which state kept on edges "
                "tells them apart by; rename a node", value_span(node, "edges"))
    lines = _board_lines(r, name, node, nodes)
    if grid is not None:  # kept, so that a grid sized by the options can be built again
        grid.listed_nodes, grid.listed_edges = listed, listed_edges
    display = None
    if "display" in node:
        display = build_board_display(r, name, node["display"], nodes, value_span(node, "display"))
    return BoardDecl(name, directed, nodes, edges + listed_edges, node.span, rule_of(r, node), display, grid, lines)


def _board_lines(r: Reader, name: str, node, nodes: dict) -> list[tuple[str, ...]]:
    """`lines: [[a, b, c], ...]`: the straight lines of a board, each its nodes in order."""
    out = []
    for line in r.sequence(node.get("lines"), "lines", node.span):
        if not isinstance(line, list) or not all(isinstance(n, (str, int)) and not isinstance(n, bool)
                                                 for n in line):
            continue  # not a list of names: reported by the shape pass
        names = [str(n) for n in line]
        spans = getattr(line, "item_spans", None) or [span_of(line, node.span)] * len(line)
        known = True
        for n, where in zip(names, spans):
            if n not in nodes:
                close = difflib.get_close_matches(n, list(nodes), n=1)
                r.error("N304", f"line node '{n}' is not a node of board '{name}'" +
                        (f"; did you mean '{close[0]}'?" if close else ""), where, suggestions=close)
                known = False
        problem = line_problem(names)
        if problem is not None:
            r.error("S123", f"{problem} (board '{name}')", span_of(line, node.span))
        elif known:
            out.append(tuple(names))
    return out


def build_action(r: Reader, name: str, value) -> ActionDecl | None:
    node = r.mapping(value, f"action '{name}'")
    if node is None:
        return None
    params = []
    if "params" in node and r.mapping(node["params"], "params"):
        for pname, domain in node["params"].items():
            params.append((str(pname), r.expr(domain, f"the domain of '{pname}'", node.span),
                           node["params"].key_spans.get(pname, node.span)))
    require = build_checks(r, node.get("require"), "require", node.span)
    cost = []
    if "cost" in node and r.mapping(node["cost"], "cost"):
        for target, amount in node["cost"].items():
            ks = node["cost"].key_spans.get(target)
            t = r.target(target, "the thing paid", ks)
            cost.append((t, r.expr(amount, "the amount", ks), ks))
    decl = ActionDecl(name, params, require, cost, build_effects(r, node.get("effects")),
                      build_flow(r, node.get("then"), "then"), node.span, rule_of(r, node),
                      r.string(node.get("label"), "label") or name,
                      r.string(node.get("description"), "description") or "",
                      r.boolean(node.get("then_required"), "then_required", node.span))
    decl.secret = _secret(r, node, params)
    return decl


def _secret(r: Reader, node, params) -> bool | tuple:
    """`secret: true` (the whole move) or the names of secret parameters, each checked."""
    value = node.get("secret")
    if value is None or value is False:
        return False
    where = value_span(node, "secret")
    if node.get("then"):
        r.error("S120", "a secret move cannot have 'then' steps: they would be played where the others "
                "read them", where)
    if value is True:
        return True
    names = tuple(str(n) for n in value) if isinstance(value, list) else ()
    declared = {p for p, _, _ in params}
    for n, span in zip(names, getattr(value, "item_spans", None) or [where] * len(names)):
        if n not in declared:
            close = difflib.get_close_matches(n, sorted(declared), n=1)
            r.error("S119", f"'{n}' is not a parameter of this action" + (f"; did you mean '{close[0]}'?"
                    if close else ""), span, suggestions=close)
    return names


def build_summary(r: Reader, value) -> list[SummaryRow]:
    """`summary:`, the player panel: name -> expression, in the order written."""
    node = r.mapping(value, "summary")
    if node is None:
        return []
    return [SummaryRow(str(name), r.expr(expr, f"the summary's '{name}'", node.span),
                       node.key_spans.get(name, node.span)) for name, expr in node.items()]


def build_checks(r: Reader, value, what: str, span=None) -> list[Check]:
    """Conditions with a reason and a citation: `require` of actions, and `invariants`."""
    out = []
    for chk in r.sequence(value, what, span):
        if isinstance(chk, dict):
            c = r.mapping(chk, "a condition")
            if c is not None:
                out.append(Check(r.expr(c.get("check"), "the check", c.span),
                                 r.string(c.get("reason"), "the reason") or f"requires {c.get('check')}",
                                 c.span, rule_of(r, c)))
        else:
            out.append(Check(r.expr(chk, "the check", span), f"requires {chk}", span_of(chk, span), None))
    return out


def build_trigger(r: Reader, name: str, value) -> TriggerDecl | None:
    node = r.mapping(value, f"trigger '{name}'")  # needs `on` or `when`: the shape pass says so
    if node is None:
        return None
    each = []
    if "each" in node and r.mapping(node["each"], "each"):
        each = [(str(k), r.expr(v, f"the domain of '{k}'", node.span)) for k, v in node["each"].items()]
    return TriggerDecl(name, r.string(node.get("on"), "the event"), each,
                       r.expr(node["when"], "the condition", node.span) if "when" in node else None,
                       build_effects(r, node.get("effects")), node.span, rule_of(r, node))


def build_end(r: Reader, value) -> list[EndRule]:
    out = []
    for e in r.sequence(value, "end"):
        node = r.mapping(e, "an end rule")
        if node is None:
            continue
        out.append(EndRule(r.expr(node.get("when"), "the end condition", node.span),
                           r.string(node.get("after", "now"), "after") or "now", node.span,
                           rule_of(r, node), r.string(node.get("reason"), "reason") or ""))
    return out


def build_scoring(r: Reader, value) -> Scoring | None:
    node = r.mapping(value, "scoring")
    if node is None:
        return None
    utility = r.string(node.get("utility"), "utility", choices=UTILITIES) or "general"
    total = r.integer(node.get("total"), "total")
    if (utility == "constant_sum") != ("total" in node):
        where = "total" if "total" in node else "utility"
        r.error("S121", "'total' goes with 'utility: constant_sum' and only with it: it is what the scores "
                "of every finished game add up to" if where == "total" else
                "'utility: constant_sum' needs 'total': what the scores of every finished game add up to",
                value_span(node, where, node.span))
    return Scoring(r.expr(node["score"], "the score", node.span) if "score" in node else None,
                   [r.expr(t, "a tie-breaker", node.span) for t in r.sequence(node.get("tiebreak"), "tiebreak")],
                   r.expr(node["winners"], "the winners", node.span) if "winners" in node else None,
                   node.span, rule_of(r, node),
                   r.expr(node["estimate"], "the estimate", node.span) if "estimate" in node else None,
                   utility, total, value_span(node, "utility", node.span))


def build_define(r: Reader, name: str, value) -> DefineDecl | None:
    if isinstance(value, dict):
        node = r.mapping(value, f"definition '{name}'")
        if node is None:
            return None
        params = [str(p) for p in r.sequence(node.get("params"), "params") if isinstance(p, (str, int))]
        return DefineDecl(name, params, r.expr(node.get("expr"), "the definition", node.span), node.span,
                          rule_of(r, node))
    return DefineDecl(name, [], r.expr(value, "the definition"), span_of(value) or Span.unknown())


NAMED_SECTIONS = {
    "components": build_component,
    "zones": build_zone,
    "boards": build_board,
    "actions": build_action,
    "triggers": build_trigger,
    "define": build_define,
}


def build_named(r: Reader, section: str, value, into: dict, seen: dict):
    """Sections that map names to declarations; names are unique across files."""
    if value is None or r.mapping(value, f"the {section} section") is None:
        return  # an empty section is reported by the shape pass
    for name, decl in value.items():
        key_span = value.key_spans.get(name) if isinstance(value, LDict) else None
        name = str(name)
        if name in seen:
            r.error("S104", f"'{name}' is declared twice", key_span, notes=[f"first declared at {seen[name]}"])
            continue
        seen[name] = key_span
        if section == "variables":
            built = build_var(r, name, decl, span=key_span)
        else:
            built = NAMED_SECTIONS[section](r, name, decl)
        if built is not None and not _within_totals(r, section, built, into, key_span):
            built = None
        if built is None and section in _PLACEHOLDERS:
            # Still declared, empty: its uses are not reported again as undefined names.
            built = _PLACEHOLDERS[section](name, key_span or Span.unknown(r.file))
        if built is not None:
            if key_span is not None:
                built.span = key_span  # a declaration is pointed at by its name
            into[name] = built


_PLACEHOLDERS = {
    "variables": lambda name, span: VarDecl(name, ANY, None, None, None, None, "error", "all", span),
    "zones": lambda name, span: ZoneDecl(name, None, "stack", "all", "up", None, span),
    "components": lambda name, span: ComponentKind(name, {}, {}, [], span),
    "boards": lambda name, span: BoardDecl(name, False, {}, [], span),
    "actions": lambda name, span: ActionDecl(name, [], [], [], [], [], span, label=name),
}


# section -> (its limit over the whole ruleset, what is counted in one declaration, its name)
_TOTALS = {
    "components": (MAX_TOTAL_ITEMS, lambda kind: len(kind.items), "items"),
    "boards": (MAX_TOTAL_NODES, lambda board: len(board.nodes), "board nodes"),
}


def _within_totals(r: Reader, section: str, built, into: dict, span: Span | None) -> bool:
    """Items and board nodes are limited per ruleset too, over all files."""
    if section not in _TOTALS:
        return True
    limit, size, what = _TOTALS[section]
    total = sum(size(d) for d in into.values()) + size(built)
    if total > limit.value:
        r.error(limit.code, f"with '{built.name}' the ruleset has {total:,} {what}; at most {limit.value:,}", span)
        return False
    return True
