"""Build effect statements and flow nodes from located YAML."""
from __future__ import annotations

from .build_support import Reader, single_key
from .model import Effect, FlowNode
from .narration import build_narration
from .schema import COMMON_EFFECT_KEYS, COMMON_FLOW_KEYS, EFFECT, EFFECT_KINDS, FLOW_KINDS
from .source import LDict, Span, span_of

# keyword -> the keys its mapping may hold when written inline (`move: {from: deck, to: hand}`)
INLINE_KEYS = {v.keyword: EFFECT_KINDS[v.keyword][0] | {k.name for k in v.inline}
               for v in EFFECT.variants if v.inline}


def value_span(node, key, default: Span | None = None) -> Span | None:
    """Where the value of `key` is written (values such as `true` or nothing carry no span)."""
    if isinstance(node, LDict) and key in node.value_spans:
        return node.value_spans[key]
    return default if default is not None else span_of(node)


def rule_of(r: Reader, value) -> str | None:
    if isinstance(value, dict) and "rule" in value:
        return r.string(value["rule"], "a rule citation")
    return None


def build_effects(r: Reader, value, what: str = "effects") -> list[Effect]:
    out = []
    for item in r.sequence(value, what):
        effect = build_effect(r, item)
        if effect is not None:
            out.append(effect)
    return out


def build_effect(r: Reader, value) -> Effect | None:
    effect = _build_effect(r, value)
    if effect is not None and isinstance(value, dict) and "narrate" in value:
        effect.narrate = build_narration(r, value["narrate"], value_span(value, "narrate"))
    return effect


def _build_effect(r: Reader, value) -> Effect | None:
    kind, node = single_key(r, value, "an effect", set(EFFECT_KINDS),
                            extra=set().union(*(a for a, _ in EFFECT_KINDS.values())) | COMMON_EFFECT_KEYS)
    if kind is None:
        return None
    if node is None:  # a bare string is a `set` assignment
        assign = r.assignment(value, "an assignment")
        return Effect("set", {"assignments": [assign] if assign else []}, span_of(value), None)
    allowed, required = EFFECT_KINDS[kind]
    _unknown_keys(r, node, allowed | COMMON_EFFECT_KEYS, kind, f"a '{kind}' effect")
    span: Span = node.span
    head = node[kind]
    args: dict = {}
    if kind == "deal" and isinstance(head, dict) and "count" not in head:
        # `deal: {from: deck, to: hand}`: in braces the count is a key and may be left out.
        r.error("S102", "a 'deal' effect needs the number of items each player receives ('count')",
                span_of(head, node.span), beyond_schema=True)
    if kind in INLINE_KEYS and isinstance(head, dict):
        # `move: {from: deck, to: hand[player], count: 2}`: the arguments written inside.
        _unknown_keys(r, head, INLINE_KEYS[kind], None, f"a '{kind}' effect")
        merged = type(node)({**{k: v for k, v in node.items() if k != kind}, **head})
        merged.span, merged.key_spans = node.span, {**node.key_spans, **getattr(head, "key_spans", {})}
        merged.value_spans = {**getattr(node, "value_spans", {}), **getattr(head, "value_spans", {})}
        merged[kind] = head.get("items", head.get("count") if kind == "deal" else True)
        node, head = merged, merged[kind]
        if kind == "deal" and "count" in node:
            del node["count"]
    for key in required:
        if key not in node:
            r.error("S102", f"a '{kind}' effect needs '{key}'", span)
    if kind == "set":
        values = head if isinstance(head, list) else [head]
        args["assignments"] = [a for a in (r.assignment(v, "an assignment", span) for v in values) if a]
    elif kind == "move":
        args["items"] = None if head in (True, None) else r.expr(head, "the items to move", span)
        args["from"] = r.target(node.get("from"), "the zone to move from", span) if "from" in node else None
        args["to"] = r.target(node.get("to"), "the zone to move to", span) if "to" in node else None
        args["count"] = r.expr(node["count"], "a count", span) if "count" in node else None
        args["at"] = r.string(node.get("at"), "'at'", span, choices=("top", "bottom")) or "top"
        args["face"] = r.string(node.get("face"), "'face'", span, choices=("up", "down"))
        if head is True and "from" not in node:
            r.error("S102", "a 'move' effect needs the items or a 'from' zone", span, beyond_schema=True)
    elif kind == "shuffle":
        args["zone"] = r.target(head, "the zone to shuffle", span)
    elif kind == "deal":
        args["count"] = r.expr(head, "the number of items each player receives", span)
        args["from"] = r.target(node.get("from"), "the zone to deal from", span)
        args["to"] = r.string(node.get("to"), "the per-player zone to deal to", span)
        args["players"] = r.expr(node["players"], "the players", span) if "players" in node else None
        args["face"] = r.string(node.get("face"), "'face'", span, choices=("up", "down"))
    elif kind == "flip":
        args["items"] = r.expr(head, "the items to flip", span)
        args["face"] = r.string(node.get("face"), "'face'", span, choices=("up", "down"))
    elif kind == "pass_zones":
        args["zone"] = r.string(head, "the per-player zone to pass", span)
        args["direction"] = r.expr(node.get("direction", 1), "the direction", span)
    elif kind == "if":
        args["cond"] = r.expr(head, "the condition", span)
        args["then"] = build_effects(r, node.get("then"), "then")
        args["else"] = build_effects(r, node.get("else"), "else")
    elif kind == "for":
        args["var"] = r.string(head, "the loop variable", span)
        args["in"] = r.expr(node.get("in"), "the list to loop over", span)
        args["do"] = build_effects(r, node.get("do"), "do")
    elif kind == "while":
        args["cond"] = r.expr(head, "the condition", span)
        args["max"] = r.expr(node.get("max"), "the most rounds", span)
        args["do"] = build_effects(r, node.get("do"), "do")
    elif kind == "emit":
        args["event"] = r.string(head, "the event name", span)
        args["with"] = {}
        extra = node.get("with")
        if extra is not None and r.mapping(extra, "'with'"):
            args["with"] = {str(k): r.expr(v, f"the value of '{k}'", span) for k, v in extra.items()}
    elif kind == "let":
        args["bindings"] = {}
        if r.mapping(head, "'let'", parent_span=span):
            args["bindings"] = {str(k): r.expr(v, f"the value of '{k}'", span) for k, v in head.items()}
    elif kind == "end_game":
        args["reason"] = "" if head in (True, None) else r.string(head, "the reason", span)
    elif kind == "log":
        args["message"] = r.expr(head, "the message", span)
    elif kind == "reveal":
        args["items"] = r.expr(head, "the items to reveal", span)
        args["to"] = r.expr(node.get("to", "players()"), "the players who see them", span)
    return Effect(kind, args, span, rule_of(r, node))


def _unknown_keys(r: Reader, node, allowed: set, kind: str | None, what: str):
    for key in node:
        if key not in allowed and key != kind:
            r.error("S101", f"unknown key '{key}' in {what}", node.key_spans.get(key) if isinstance(node, LDict)
                    else None, notes=[f"expected: {', '.join(sorted(allowed))}"])


def build_flow(r: Reader, value, what: str = "flow") -> list[FlowNode]:
    out = []
    for item in r.sequence(value, what):
        node = build_flow_node(r, item)
        if node is not None:
            out.append(node)
    return out


def build_flow_node(r: Reader, value) -> FlowNode | None:
    extras = set().union(*(a for a, _ in FLOW_KINDS.values())) | COMMON_FLOW_KEYS
    kind, node = single_key(r, value, "a flow step", set(FLOW_KINDS), extra=extras)
    if kind is None:
        return None
    if node is None:
        r.error("S103", "a flow step must be a mapping such as {choose: [action]}", span_of(value))
        return None
    allowed, required = FLOW_KINDS[kind]
    _unknown_keys(r, node, allowed | COMMON_FLOW_KEYS, kind, f"a '{kind}' step")
    for key in required:
        if key not in node:
            r.error("S102", f"a '{kind}' step needs '{key}'", node.span)
    span = node.span
    head = node[kind]
    args: dict = {}
    body: list[FlowNode] = []
    orelse: list[FlowNode] = []
    if kind == "phase":
        args["name"] = r.string(head, "the phase name", span)
        body = build_flow(r, node.get("do"), "do")
    elif kind == "loop":
        body = build_flow(r, head, "the loop body")
        conds = [k for k in ("while", "until", "times") if k in node]
        if len(conds) > 1:
            r.error("S106", "a loop takes one of 'while', 'until' or 'times'", span)
        for k in conds:
            args[k] = r.expr(node[k], f"the '{k}' of a loop", span)
    elif kind == "for":
        args["var"] = r.string(head, "the loop variable", span)
        args["in"] = r.expr(node.get("in"), "the list to loop over", span)
        body = build_flow(r, node.get("do"), "do")
    elif kind == "turns":
        args["players"] = r.expr(head, "the players taking turns, in order", span)
        args["var"] = r.string(node.get("as", "player"), "the name of the player taking the turn", span)
        if "until" in node:
            args["until"] = r.expr(node["until"], "the 'until' of a 'turns'", span)
        body = build_flow(r, node.get("do"), "do")
    elif kind in ("choose", "simultaneous", "respond"):
        names = head if isinstance(head, list) else [head]
        args["actions"] = [(r.string(n, "an action name", span), span_of(n, span)) for n in names]
        if kind == "choose":
            args["player"] = r.expr(node["player"], "the deciding player", span) if "player" in node else None
            args["pass"] = _passing(r, node.get("pass"), span)
            if isinstance(node.get("pass"), str):
                args["pass_text"] = str(node["pass"])  # what a refused pass is told it requires
            if "again" in node:
                args["again"] = r.expr(node["again"], "the 'again' of a 'choose'", span)
        else:
            args["players"] = r.expr(node["players"], "the players", span) if "players" in node else None
    elif kind == "effects":
        args["effects"] = build_effects(r, head, "effects")
    elif kind == "if":
        args["cond"] = r.expr(head, "the condition", span)
        body = build_flow(r, node.get("then"), "then")
        orelse = build_flow(r, node.get("else"), "else")
    elif kind == "chance":
        args["var"] = r.string(head, "the name bound to the outcome", span)
        args["from"] = r.expr(node.get("from"), "the possible outcomes", span)
    elif kind == "call":
        args["name"] = r.string(head, "the fragment's name", span)
        args["name_span"] = value_span(node, "call", span)
        args["with"], args["with_spans"] = {}, {}
        given = node.get("with")
        if given is not None and r.mapping(given, "'with'", parent_span=span):
            for k, v in given.items():
                args["with"][str(k)] = r.expr(v, f"the argument '{k}'", span)
                args["with_spans"][str(k)] = given.key_spans.get(k, span) if isinstance(given, LDict) else span
    if kind in ("chance", "for", "turns", "call") and "seen_by" in node:
        args["seen_by"] = r.expr(node["seen_by"], "the players who may know it", span)
    label = r.string(node.get("label"), "a label", span) if "label" in node else None
    if kind == "phase" and label is None:
        label = args.get("name")
    return FlowNode(kind, args, body, span, label=label, rule=rule_of(r, node), orelse=orelse)


def _passing(r: Reader, value, span):
    """`pass:` is true or false (nothing: false), or a condition the pass requires."""
    if value is None or isinstance(value, bool):
        return bool(value)
    return r.expr(value, "the condition for passing", span)
