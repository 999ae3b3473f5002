"""What one player may know.  Hidden information is absent from the view,
not merely left unprinted: a bot or a network client given a view cannot
peek.  The generator's state is never in a view (it would reveal the future),
nor is a name a flow step bound (a die a `chance` step rolled, a loop's
variable) unless that step's `seen_by` names the player.

Every item is named through `knowledge.Namer`: by its id only when the viewer
sees it whole, otherwise as "?" (nothing shows) or as the fields of its visible
side, so an id that encodes a hidden side never reaches the view.
"""
from __future__ import annotations

import json

from meeple.dsl.eval_errors import EvalError
from meeple.dsl.functions import want_list

from .context import Ctx, RuleError
from .knowledge import SIDE, WHOLE, Namer


def _shown(namer, item):
    sight = namer.sight(item)
    if sight == WHOLE:
        return item.id
    return namer.face(item) if sight == SIDE else None


def _zone_view(namer, decl, contents, owner):
    state, viewer, vis = namer.state, namer.viewer, decl.visibility
    if vis == "none" or (vis == "owner" and owner != viewer):
        seen = [i.id for i in contents if viewer in (state.props.get(i.id, {}).get("seen_by") or ())]
        out = {"count": len(contents)}
        if seen:
            out["known"] = sorted(seen)
        return out
    if vis == "top":
        return {"count": len(contents), "top": _shown(namer, contents[0]) if contents else None}
    shown = [_shown(namer, item) for item in contents]
    if all(isinstance(s, str) for s in shown):
        return shown if decl.kind != "bag" else {"count": len(contents), "items": sorted(shown)}
    shown = [s if s is not None else "?" for s in shown]
    if decl.kind == "bag":  # a bag's order is never shown, not even as the order of faces
        shown.sort(key=lambda s: json.dumps(s, sort_keys=True, default=str))
    return {"count": len(contents), "items": shown}


def player_view(game, state, viewer: int) -> dict:
    rules = game.rules
    namer = Namer(game, state, viewer)
    out_vars = {}
    for name, decl in rules.variables.items():
        value = state.vars[name]
        if decl.visibility == "none":
            continue
        if decl.visibility == "owner" and decl.per == "player":
            out_vars[name] = {str(viewer): namer.plain(value[viewer])}
        else:
            out_vars[name] = namer.plain(value)
    zones = {}
    for name, decl in rules.zones.items():
        z = state.zones[name]
        if decl.per is None:
            zones[name] = _zone_view(namer, decl, z, None)
        elif decl.per == "player":
            zones[name] = [_zone_view(namer, decl, sub, p) for p, sub in enumerate(z)]
        else:
            zones[name] = {str(k): _zone_view(namer, decl, sub, None) for k, sub in z.items()}
    props = {}
    for item_id, p in sorted(state.props.items()):
        public = {k: namer.plain(v) for k, v in p.items() if k != "seen_by"}
        if public and namer.sight(rules.items[item_id]) == WHOLE:
            props[item_id] = public
    return {
        "viewer": viewer,
        "phase": state.phase,
        "to_move": list(game.current_players(state)),
        "over": state.over,
        "vars": out_vars,
        "zones": zones,
        "props": props,
        "locals": {name: namer.plain(state.locals[name]) for name in sorted(seen_locals(game, state, viewer))},
        "log": list(state.log[-20:]),
    }





def seen_locals(game, state, viewer: int) -> set:
    """The names bound by flow steps where play waits that `viewer` may know: those whose
    step says `seen_by` and lists the viewer."""
    point = game.rules.points[state.pc]
    out = set()
    for name, (seen, _) in point.in_scope.items():
        if seen is not None and name in state.locals and viewer in seers(game, state, seen, point):
            out.add(name)
    return out


def seers(game, state, seen, point) -> tuple:
    """The players a `seen_by` names, worked out where play waits."""
    ctx = Ctx(game, state)
    ctx.bindings = dict(state.locals)
    try:
        return tuple(want_list(seen(ctx), "the players of 'seen_by'"))
    except EvalError as exc:
        raise RuleError(exc.code, exc.message, exc.span or point.span, point.rule) from None


def summary(view: dict, limit: int = 400) -> str:
    """One line that says what a view holds, for a console or a debugger: who sees,
    who is to move, each variable and each zone (ids seen, counts of hidden items).
    A view stays a plain dict, compared as one and written to JSON everywhere, so the
    summary is a function of it rather than its repr.  Props, locals and the log are
    left out; `json.dumps(view)` has everything."""
    where = "over" if view.get("over") else f"to move {_brief(view.get('to_move'))}"
    if view.get("phase"):
        where += f", phase {view['phase']}"
    parts = [f"{name}={_brief(value)}" for name, value in sorted(view.get("vars", {}).items())]
    parts += [f"{name}={_zone_brief(value)}" for name, value in sorted(view.get("zones", {}).items())]
    text = f"<view of player {view.get('viewer')}, {where}: {', '.join(parts)}>"
    return text if len(text) <= limit else text[:limit - 4] + "...>"


def _zone_brief(zone) -> str:
    """A zone as `_zone_view` wrote it: a list of ids, a count with what shows of it,
    or one of those per player (a list) or per key (a mapping)."""
    if isinstance(zone, dict) and "count" in zone:
        if "top" in zone:
            return f"{zone['count']} (top {_brief(zone['top'])})" if zone["count"] else "empty"
        if "items" in zone:
            return f"{zone['count']} ({_items_brief(zone['items'])})"
        known = f" ({len(zone['known'])} known: {_items_brief(zone['known'])})" if zone.get("known") else ""
        return f"{zone['count']} hidden{known}"
    if isinstance(zone, dict):
        return "{" + ", ".join(f"{k}: {_zone_brief(z)}" for k, z in zone.items()) + "}"
    if zone and all(isinstance(z, (list, dict)) for z in zone):
        return "[" + " | ".join(_zone_brief(z) for z in zone) + "]"
    return f"[{_items_brief(zone)}]"


def _items_brief(items: list) -> str:
    shown = [item if isinstance(item, str) else _brief(item) for item in items[:4]]
    return ", ".join(shown) + (f", … {len(items) - 4} more" if len(items) > 4 else "")


def _brief(value, limit: int = 60) -> str:
    text = _plain_text(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _plain_text(value) -> str:
    """A view value as a person writes it: `{"$map": {...}}` as a mapping, `{"$item": id}`
    as the id, strings unquoted (the empty one as "")."""
    if isinstance(value, dict):
        if set(value) == {"$item"}:
            return str(value["$item"])
        inner = value["$map"] if set(value) == {"$map"} else value
        return "{" + ", ".join(f"{k}: {_plain_text(v)}" for k, v in inner.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_plain_text(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value) if value != "" else '""'
