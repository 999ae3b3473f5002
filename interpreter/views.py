"""What one player may know.  Hidden information is absent from the view,
not merely left unprinted: a bot or a network client given a view cannot
peek.  The generator's state is never in a view (it would reveal the future).
"""
from __future__ import annotations

from meeple.dsl.values import Item


def _visible_item(game, state, item: Item, viewer: int, owner) -> bool:
    props = state.props.get(item.id, {})
    if props.get("face", "up") == "up":
        return True
    if viewer in (props.get("seen_by") or ()):
        return True
    return owner is not None and owner == viewer


def _zone_view(game, state, decl, contents, viewer, owner):
    vis = decl.visibility
    if vis == "none" or (vis == "owner" and owner != viewer):
        seen = [i.id for i in contents if viewer in (state.props.get(i.id, {}).get("seen_by") or ())]
        out = {"count": len(contents)}
        if seen:
            out["known"] = sorted(seen)
        return out
    shown = []
    limit = 1 if vis == "top" else len(contents)
    for index, item in enumerate(contents):
        if index < limit and _visible_item(game, state, item, viewer, owner if vis != "top" else None):
            shown.append(item.id)
        else:
            shown.append(None)
    if vis == "top":
        return {"count": len(contents), "top": shown[0] if shown else None}
    if all(s is not None for s in shown):
        return shown if decl.kind != "bag" else {"count": len(contents), "items": sorted(shown)}
    return {"count": len(contents), "items": [s if s is not None else "?" for s in shown]}


def player_view(game, state, viewer: int) -> dict:
    from .state import to_plain
    rules = game.rules
    out_vars = {}
    for name, decl in rules.variables.items():
        value = state.vars[name]
        if decl.visibility == "none":
            continue
        if decl.visibility == "owner" and decl.per == "player":
            out_vars[name] = {str(viewer): to_plain(value[viewer])}
        else:
            out_vars[name] = to_plain(value)
    zones = {}
    for name, decl in rules.zones.items():
        z = state.zones[name]
        if decl.per is None:
            zones[name] = _zone_view(game, state, decl, z, viewer, None)
        elif decl.per == "player":
            zones[name] = [_zone_view(game, state, decl, sub, viewer, p) for p, sub in enumerate(z)]
        else:
            zones[name] = {str(k): _zone_view(game, state, decl, sub, viewer, None) for k, sub in z.items()}
    props = {}
    for item_id, p in sorted(state.props.items()):
        public = {k: to_plain(v) for k, v in p.items() if k not in ("seen_by",)}
        if public and _item_visible_anywhere(game, state, item_id, viewer, zones):
            props[item_id] = public
    return {
        "viewer": viewer,
        "phase": state.phase,
        "to_move": list(game.current_players(state)),
        "over": state.over,
        "vars": out_vars,
        "zones": zones,
        "props": props,
        "locals": {k: to_plain(v) for k, v in sorted(state.locals.items()) if not k.startswith("__")},
        "log": list(state.log[-20:]),
    }


def _item_visible_anywhere(game, state, item_id, viewer, zones) -> bool:
    def walk(v):
        if isinstance(v, list):
            return any(walk(x) for x in v)
        if isinstance(v, dict):
            return any(walk(x) for x in v.values())
        return v == item_id
    return walk(zones)
