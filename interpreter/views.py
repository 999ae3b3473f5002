"""What one player may know.  Hidden information is absent from the view,
not merely left unprinted: a bot or a network client given a view cannot
peek.  The generator's state is never in a view (it would reveal the future).

Every item is named through `knowledge.Namer`: by its id only when the viewer
sees it whole, otherwise as "?" (nothing shows) or as the fields of its visible
side, so an id that encodes a hidden side never reaches the view.
"""
from __future__ import annotations

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
    return {"count": len(contents), "items": [s if s is not None else "?" for s in shown]}


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
        "locals": {k: namer.plain(v) for k, v in sorted(state.locals.items()) if not k.startswith("__")},
        "log": list(state.log[-20:]),
    }



