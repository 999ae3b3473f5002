"""The fused tier's zones, items and effect blocks (a part of fused.py's writer).

Inside a fused playout a zone is a Python list of items, changed in place: a global
zone is `z_<name>`, a zone per player `z_<name>[p]`.  Items are the game's `Item`
objects, so an item's printed fields are read straight from it.  The state's tuples
are turned into lists once at the start (after checking every element is an item)
and back into tuples when the playout returns.

What the reference does and this writer must do the same way (interpreter/effects.py):
- `move` takes the given items out of `from` (the first equal one each) or the first
  `count` from its top, then puts them on top of `to` or under it; an item entering
  takes the move's face, else the zone's, written only where it differs;
- `flip` always writes the new face;
- `let` binds a name for the rest of its block; `for` walks a snapshot of its list.
Faces are written as the reference writes them where no kind declares a `face`
property, which is the only case inside the tier: every item's face is then "up"
until something writes it.
"""
from __future__ import annotations

from operator import is_

from meeple.dsl import expr_ast as A
from meeple.dsl.values import Item

from ..runtime import rng
from .kernel import KernelStop
from .safe_source import ident


# The most rounds of a `while` this tier writes (see ZonesAndEffects.repeated).
MAX_WHILE_ROUNDS = 1_000


class Unsupported(Exception):
    """This ruleset uses something the fused tier does not compile, written at `span`
    when it is known (the innermost expression being written, if nothing nearer)."""

    def __init__(self, message: str, span=None):
        super().__init__(message)
        self.span = span


class ZonesAndEffects:
    """Mixed into the fused writer: needs `self.rs`, `self.rules`, `self.expr`,
    `self.truth`, `self.assignment`, `self.temps`."""

    def check_zones(self) -> None:
        rs = self.rs
        self.zones: dict[str, str] = {}  # zone -> "zone" (global), "pzone" (per player), "kzone" (per key)
        self.takes_anywhere = False  # some move has no `from`: the prologue lists every zone
        for name, decl in rs.zones.items():
            if decl.per is None:
                self.zones[name] = "zone"
            elif decl.per == "player":
                self.zones[name] = "pzone"
            else:  # one per node or per element of a list: a map
                self.zones[name] = "kzone"
        # Sides say only what a player sees of an item, which a playout never asks; a
        # declared `face` or `seen_by` has a default of its own, which the tier does not read.
        kinds = [kind.name for kind in rs.components.values() if "face" in kind.props or "seen_by" in kind.props]
        if kinds:
            which = f"kind '{kinds[0]}'" if len(kinds) == 1 else "kinds " + ", ".join(f"'{k}'" for k in kinds)
            raise Unsupported(f"items of {which} declare their `face` or `seen_by`")

    def field_type(self, name: str) -> str:
        """The type of a printed field read from an item: the same in every kind that has
        it (a plain value, or a list or map of them), and no kind may have a property of
        that name."""
        types = set()
        for kind in self.rs.components.values():
            if name in kind.props:
                raise Unsupported(f"'{name}' is a property")
            t = kind.fields.get(name)
            if t is not None:
                args = getattr(t, "args", ())
                if getattr(t, "name", None) == "map" and len(args) == 2 and args[0].name == "str" and \
                        args[1].name in ("int", "str", "bool"):  # printed once: never written
                    types.add("dict:" + args[1].name)
                elif getattr(t, "name", None) == "list" and len(args) == 1 and args[0].name in ("int", "str", "bool"):
                    types.add("list:" + args[0].name)
                else:
                    types.add(getattr(t, "name", None))
        if len(types) != 1 or next(iter(types)) not in ("int", "str", "bool", "dict:int", "dict:str", "dict:bool",
                                                          "list:int", "list:str", "list:bool"):
            raise Unsupported(f"the field '{name}'")
        return types.pop()

    def prop_type(self, name: str) -> str:
        """The type of an item property: the same scalar in every kind declaring it."""
        types = {_prop_type(k.props[name].type) for k in self.rs.components.values() if name in k.props}
        if len(types) != 1 or None in types:
            raise Unsupported(f"the property '{name}'")
        return types.pop()

    # -- the zones as lists ---------------------------------------------------------------
    def zone_prologue(self) -> list[str]:
        """Each zone as lists while the playout runs; that every entry is an item is proved
        but for a state this function handed back itself (`settled`, fused.py prologue)."""
        lines = ["Z = state.zones", "P = state.props"] if self.zones else []
        checks = []
        for name, shape in self.zones.items():
            z, held = ident("z", name), f"Z[{name!r}]"
            if shape == "zone":
                lines += [f"{z} = {held}", f"if type({z}) is not tuple:", "    raise _KernelStop()", f"{z} = list({z})"]
                checks += [f"for _x in {z}:", "    if type(_x) is not _fz_Item:", "        raise _KernelStop()"]
            elif shape == "kzone":
                lines += [f"{z} = {held}", f"if type({z}) is not dict:", "    raise _KernelStop()",
                          f"{z} = {{_k: list(_t) for _k, _t in {z}.items() if type(_t) is tuple}}",
                          f"if len({z}) != len({held}):", "    raise _KernelStop()"]
                checks += [f"for _t in {z}.values():", "    for _x in _t:", "        if type(_x) is not _fz_Item:",
                           "            raise _KernelStop()"]
            else:
                lines += [f"{z} = {held}", f"if type({z}) is not tuple or len({z}) != ctx.player_count:",
                          "    raise _KernelStop()", f"{z} = [list(_t) for _t in {z} if type(_t) is tuple]",
                          f"if len({z}) != ctx.player_count:", "    raise _KernelStop()"]
                checks += [f"for _t in {z}:", "    for _x in _t:", "        if type(_x) is not _fz_Item:",
                           "            raise _KernelStop()"]
        if checks:
            lines += ["if not settled:", *("    " + x for x in checks)]
        return lines

    def anywhere_prologue(self) -> list[str]:
        """Every zone's list, in the state's order, for moves without `from`; each item
        must lie in one place only, as the reference's search assumes."""
        if not self.takes_anywhere:
            return []
        parts = [ident("z", n) if shape == "zone" else (f"*{ident('z', n)}" if shape == "pzone" else f"*{ident('z', n)}.values()")
                 for n, shape in self.zones.items()]
        return [f"if tuple(Z) != {tuple(self.zones)!r}:", "    raise _KernelStop()",
                f"_every = ({''.join(x + ', ' for x in parts)})", "_where = {}",
                "if not settled and len({id(_x) for _z in _every for _x in _z}) != sum(map(len, _every)):",
                "    raise _KernelStop()"]

    def zone_epilogue(self) -> list[str]:
        """Each zone back as the state holds it; a zone (or a player's part of one) whose
        items are the same keeps its object, so what is kept per zone object (where each
        item lies, knowledge.locate; what new games share) stays valid."""
        lines = []
        for name, shape in self.zones.items():
            z, held = ident("z", name), f"Z[{name!r}]"
            if shape == "zone":
                lines += [f"_t = tuple({z})", f"if _t != {held}:", f"    {held} = _t"]
            else:
                back = "_fz_rows_back" if shape == "pzone" else "_fz_keyed_back"
                lines.append(f"{held} = {back}({z}, {held})")
        return lines

    def zone_read(self, node, env, depth) -> tuple[str, str] | None:
        """`zone` or `zone[p]` as the list it is inside the playout, else None."""
        if isinstance(node, A.Name) and node.name not in env and self.zones.get(node.name) == "zone":
            return ident("z", node.name), "list:item"
        if isinstance(node, A.Index) and isinstance(node.obj, A.Name) and node.obj.name not in env \
                and self.zones.get(node.obj.name) == "pzone":
            key, kt = self.expr(node.index, env, depth + 1)
            if kt != "int":
                raise Unsupported(f"zone '{node.obj.name}' indexed by {kt}")
            return f"{ident('z', node.obj.name)}[{self.natural(key)}]", "list:item"
        if isinstance(node, A.Index) and isinstance(node.obj, A.Name) and node.obj.name not in env \
                and self.zones.get(node.obj.name) == "kzone":
            key, kt = self.expr(node.index, env, depth + 1)
            if kt not in ("str", "int"):
                raise Unsupported(f"zone '{node.obj.name}' indexed by {kt}")
            return f"{ident('z', node.obj.name)}[{key}]", "list:item"  # a key it lacks: KeyError, the loop reports
        return None

    def natural(self, key: str) -> str:
        """An index known not to be negative (Python would count it from the end; the
        language reports it); past the end, Python's IndexError stops the playout."""
        if key == "p" or key.isdigit():
            return key
        name = key.strip("()")
        if name.isidentifier() and len(key) - len(name) == 2 * key.count("("):  # a plain name: read twice, no call
            return f"({name} if {name} >= 0 else _stop())"
        if self.in_iterable:
            return f"_fz_natural({key})"
        self.temps += 1
        k = f"_n{self.temps}"
        return f"({k} if ({k} := {key}) >= 0 else _stop())"

    def place(self, node, env) -> str:
        found = self.zone_read(node, env, 0)
        if found is None:
            raise Unsupported("a move to or from something other than a zone")
        return found[0]

    # -- effect blocks ----------------------------------------------------------------------
    def effect_block(self, effects, env) -> list[str]:
        env = dict(env)
        lines = []
        for effect in effects:
            kind = effect.kind
            if kind == "set":
                for assign in effect.args["assignments"]:
                    lines += self.assignment(assign, env)
            elif kind == "let":
                for name, value in effect.args["bindings"].items():
                    text, t = self.expr(value, env)
                    if t.startswith("list:") and self.zone_read(value, env, 0) is not None:
                        text = f"tuple({text})"  # the zone's list changes in place; the name keeps its value
                    self.temps += 1
                    local = ident("_l", name, self.temps)
                    lines.append(f"{local} = {text}")
                    if t == "int" and (bounds := self.int_range(value, env)) is not None:
                        self.local_ranges[local] = bounds
                    env[name] = (local, t)
            elif kind == "if":
                lines.append(f"if {self.truth(effect.args['cond'], env)}:")
                lines += ["    " + x for x in self.effect_block(effect.args["then"], env) or ["pass"]]
                orelse = self.effect_block(effect.args["else"], env)
                if orelse:
                    lines += ["else:", *("    " + x for x in orelse)]
            elif kind == "for":
                seq, t = self.expr(effect.args["in"], env)
                if not t.startswith("list:"):
                    raise Unsupported("a 'for' over something other than a list")
                self.temps += 1
                local = ident("_f", effect.args["var"], self.temps)
                if t == "list:int" and (bounds := self.loop_range(effect.args["in"], env)) is not None:
                    self.local_ranges[local] = bounds
                body = self.effect_block(effect.args["do"], {**env, effect.args["var"]: (local, t[5:])})
                pre, walked = self.walk_lines(seq)
                lines += [*pre, f"for {local} in tuple({walked}):", *("    " + x for x in body or ["pass"])]
            elif kind == "while":
                lines += self.repeated(effect, env)
            elif kind == "move":
                lines += self.move(effect.args, env)
            elif kind == "flip":
                lines += self.flip(effect.args, env)
            elif kind == "shuffle":
                zone = self.place(effect.args["zone"], env)
                lines += [f"_z = {zone}", "state.rng, _mx = _fz_shuffled(state.rng, tuple(_z))", "_z[:] = _mx"]
            elif kind == "deal":
                lines += self.deal(effect.args, env)
            elif kind == "pass_zones":
                name = effect.args["zone"]
                d, dt = self.expr(effect.args["direction"], env)
                if self.zones.get(name) != "pzone" or dt != "int":
                    raise Unsupported("a 'pass_zones' of something other than a zone per player")
                lines += [f"_d = {d}", f"_n = len({ident('z', name)})", f"{ident('z', name)}[:] = [{ident('z', name)}[(_p - _d) % _n] for _p in range(_n)]"]
            elif kind == "reveal":
                lines += self.revealed(effect.args, env)
            elif kind == "emit":
                lines += self.emitted(effect.args["event"], effect.args["with"], env)
            elif kind == "log":
                text, t = self.expr(effect.args["message"], env)
                if t not in ("str", "int"):
                    raise Unsupported(f"a log message that is a {t}")
                lines.append(f"state.log = state.log + (str({text}),)")
            elif kind == "end_game":
                if self.trying:  # a trial for `then_required` is undone; ending the game is not
                    raise Unsupported("an 'end_game' effect of an action tried for `then_required`", effect.span)
                reason = effect.args["reason"] or "the rules ended the game"
                lines += ["state.over = True", f"state.end_reason = {reason!r}"]
                self.game_enders += 1
            else:
                raise Unsupported(f"a '{kind}' effect", getattr(effect, "span", None))
            lines += self.condition_rounds_after(effect, env)
        return lines

    def stop_if_ended(self, before: int) -> list[str]:
        """After a block of effects: where one of them may end the game (`end_game`, counted
        since `before`), stop there, before any end rule is tested (the reference tests none
        once the game is over, and its reason stays the effect's)."""
        return ["if state.over:", "    break"] if self.game_enders > before else []
    def repeated(self, effect, env) -> list[str]:
        """`while`: the test before each round, a round past `max` stopping the playout (the
        reference reports it, R713).  This tier does not count what a round costs, so it
        takes a `max` written as a number of at most MAX_WHILE_ROUNDS: then the rounds keep a
        move within the reference's cost limit as its other loops do."""
        most = effect.args["max"]
        if not (isinstance(most, A.Const) and type(most.value) is int and most.value <= MAX_WHILE_ROUNDS):
            raise Unsupported(f"a 'while' whose 'max' is not a number of at most {MAX_WHILE_ROUNDS:,}",
                              effect.span)
        self.temps += 1
        rounds = f"_wr{self.temps}"
        body = self.effect_block(effect.args["do"], env)
        return [f"{rounds} = 0", f"while {self.truth(effect.args['cond'], env)}:",
                f"    if {rounds} >= {most.value}:", "        raise _KernelStop()", f"    {rounds} += 1",
                *("    " + x for x in body or ["pass"])]

    def revealed(self, a, env) -> list[str]:
        """`reveal`: the players added to each item's `seen_by`, kept sorted (effects.e_reveal)."""
        items = self.items_value(a["items"], env)
        who, wt = self.expr(a["to"], env)
        if wt not in ("int", "list:int"):
            raise Unsupported(f"revealing to a {wt}")
        return [f"_its = {items}", f"_who = {'(' + who + ',)' if wt == 'int' else who}",
                "if not all(0 <= _q < ctx.player_count for _q in _who):", "    raise _KernelStop()",
                "for _it in _its:", "    _pp = P.get(_it.id) or {}",
                "    P[_it.id] = {**_pp, 'seen_by': tuple(sorted(set(_pp.get('seen_by', ())) | set(_who)))}"]

    def emitted(self, event: str, payload: dict, env) -> list[str]:
        """An `emit`: the event's triggers written in line, in the order declared
        (Rules.fire_event), each over its `each` combinations and behind its `when`, with
        only the event's names and its own bound.  An event emitted again inside its own
        triggers is left to the kernel (the reference counts how deep that goes)."""
        if event in self.emitting:
            raise Unsupported(f"the event '{event}' is emitted inside its own triggers")
        lines, bound = [], {}
        for name, value in payload.items():
            text, t = self.expr(value, env)
            if t not in ("int", "str", "bool", "item", "str?"):
                raise Unsupported(f"an event's '{name}' that is a {t}")
            self.temps += 1
            local = ident("_e", name, self.temps)
            lines.append(f"{local} = {text}")
            bound[name] = (local, t)
        self.emitting.append(event)
        try:
            for trigger in (self.rs.triggers or {}).values():
                if trigger.on == event:
                    lines += self.triggered(trigger, dict(bound))
        finally:
            self.emitting.pop()
        return lines

    def triggered(self, trigger, env, fired: str | None = None) -> list[str]:
        """A trigger's effects over its `each` combinations, behind its `when`; `fired`
        (a local) is set where they run (a round of condition triggers)."""
        lines, indent = [], ""
        for name, domain in trigger.each:  # later lists may read earlier names
            seq, t = self.expr(domain, env)
            if not t.startswith("list:"):
                raise Unsupported(f"trigger '{trigger.name}': an `each` over something other than a list")
            self.temps += 1
            local = ident("_g", name, self.temps)
            pre, walked = self.walk_lines(seq)
            lines += [indent + x for x in pre]
            lines.append(f"{indent}for {local} in tuple({walked}):")
            indent += "    "
            env = {**env, name: (local, t[5:])}
        if trigger.when is not None:
            lines.append(f"{indent}if {self.truth(trigger.when, env)}:")
            indent += "    "
        body = self.effect_block(trigger.effects, env) + ([f"{fired} = True"] if fired else []) or ["pass"]
        return lines + [indent + x for x in body]

    def items_value(self, node, env) -> str:
        text, t = self.expr(node, env)
        if t == "item":
            return f"({text},)"
        if t == "list:item":
            return f"tuple({text})"
        raise Unsupported(f"moving or flipping a {t}")

    def move(self, a, env) -> list[str]:
        self.temps += 1
        n = self.temps
        moved, dst = f"_mv{n}", f"_dst{n}"
        if a["items"] is None and a["count"] is None and a["from"] is not None and \
                self.rs.zones[_zone_name(a["from"])].kind != "bag":
            return self.front_moved(a, env, moved, f"_src{n}", dst)
        lines, one = self.taken(a, env, moved, f"_src{n}")
        lines.append(f"{dst} = {self.place(a['to'], env)}")
        if one:
            lines.append(f"{dst}.insert(0, {moved})" if a["at"] == "top" else f"{dst}.append({moved})")
        else:
            lines.append(f"{dst}[0:0] = {moved}" if a["at"] == "top" else f"{dst}.extend({moved})")
        each = self.arrived(a, dst)
        if one:
            return lines + [f"_it = {moved}", *each]
        return lines + [f"for _it in {moved}:", *("    " + x for x in each)]

    def front_moved(self, a, env, moved: str, src: str, dst: str) -> list[str]:
        """A move of the one item at the front of `from` (no items, no count): taken by
        `pop`, if there is one; both places are worked out first, as the reference does."""
        return [f"{src} = {self.place(a['from'], env)}", f"{dst} = {self.place(a['to'], env)}", f"if {src}:",
                f"    _it = {moved} = {src}.pop(0)",
                f"    {dst}.insert(0, {moved})" if a["at"] == "top" else f"    {dst}.append({moved})",
                *("    " + x for x in self.arrived(a, dst))]

    def arrived(self, a, dst: str) -> list[str]:
        """For the moved item `_it`: where it went, for a later move without `from` to look
        first, and the face of its new place (or the move's), written where it differs."""
        face = a["face"] or self.rs.zones[_zone_name(a["to"])].face
        shared = _SHARED_FACE[face]  # an item whose only property is its face holds the shared one
        if face == "up":  # an item without a record is face up too
            differs, ruled_out = f"_pp is not None and _pp is not {shared} and _pp.get('face', 'up') != 'up'", \
                ("None", shared)
        else:
            differs, ruled_out = f"_pp is not {shared} and (_pp is None or _pp.get('face', 'up') != {face!r})", (shared,)
        return [*(["_where[_it.id] = " + dst] if self.takes_anywhere else []), "_pp = P.get(_it.id)",
                f"if {differs}:", "    " + self.face_written(repr(face), shared, ruled_out)]

    def face_written(self, face: str, shared: str, known_not=()) -> str:
        """The line giving `_it` the face `face` (an expression), where `_pp` is its record:
        the shared record `shared` where the item holds nothing but a face (the shared
        records, tested first, are what the tier writes), else a copy with the face changed.
        `known_not` names what the caller's test has already ruled out `_pp` being ("None",
        "_fz_FU", "_fz_FD"), so it is not tested again."""
        tests = [f"_pp is {x}" for x in ("None", "_fz_FU", "_fz_FD") if x not in known_not]
        return (f"P[_it.id] = {shared} if {' or '.join(tests)} or (len(_pp) == 1 and 'face' in _pp) "
                f"else {{**_pp, 'face': {face}}}")

    def taken(self, a, env, moved: str, src: str) -> tuple[list[str], bool]:
        """The lines that take a move's items out, into `moved`: the given items from
        `from` (the first equal one each), or from wherever each lies, or the first
        `count` of `from`; and whether `moved` is one item itself (one named item taken
        from `from`) rather than a tuple of them.  A decision or a chance draw that
        picked its item by index notes the list and the index (`_org_seq`, `_org_i`):
        where the item is still there, it is deleted by index, without comparing it to
        the items before it (an item lies in one place, so it is the first equal one)."""
        if a["items"] is not None:
            if a["from"] is not None and isinstance(a["items"], A.Name):
                text, t = self.expr(a["items"], env)
                if t == "item":  # one item, maybe the one just drawn by index from this list
                    return [f"{src} = {self.place(a['from'], env)}", f"{moved} = {text}",
                            f"if {src} is _org_seq and _org_i < len({src}) and {src}[_org_i] is {moved}:",
                            f"    del {src}[_org_i]", "else:", f"    {src}.remove({moved})"], True
            take = [f"{moved} = {self.items_value(a['items'], env)}", f"for _it in {moved}:"]
            if a["from"] is None:
                self.takes_anywhere = True
                return take + ["    _fz_take_anywhere(_every, _where, _it)"], False
            return [f"{src} = {self.place(a['from'], env)}", *take, f"    {src}.remove(_it)"], False
        if a["from"] is None:
            raise Unsupported("a move with neither items nor 'from'")
        count = "1"
        if a["count"] is not None:
            count, ct = self.expr(a["count"], env)
            if ct != "int":
                raise Unsupported("a count that is not int")
            count = f"max(0, {count})"
        if self.rs.zones[_zone_name(a["from"])].kind == "bag":  # drawn at random, one draw per item
            return [f"{src} = {self.place(a['from'], env)}", f"{moved} = _fz_bag_take(state, {src}, {count})"], False
        return [f"{src} = {self.place(a['from'], env)}", f"_c = {count}", f"{moved} = tuple({src}[:_c])",
                f"del {src}[:_c]"], False

    def deal(self, a, env) -> list[str]:
        """`deal`: a card at a time to each player in seat order, round after round, until
        each has `count` or the source runs out (effects.e_deal)."""
        if a["players"] is not None or self.zones.get(a["to"]) != "pzone":
            raise Unsupported("a 'deal' to chosen players or not to a zone per player")
        count, ct = self.expr(a["count"], env)
        if ct != "int":
            raise Unsupported("a deal's count that is not int")
        face = a["face"] or self.rs.zones[a["to"]].face
        bag = self.rs.zones[_zone_name(a["from"])].kind == "bag"  # each item drawn at random
        return [f"{'_fz_bag_deal(state, ' if bag else '_fz_deal('}P, {self.place(a['from'], env)}, "
                f"{ident('z', a['to'])}, max(0, {count}), {face!r})"]

    def flip(self, a, env) -> list[str]:
        face = a["face"]
        items = self.items_value(a["items"], env)
        if face:
            return [f"for _it in {items}:", "    _pp = P.get(_it.id)",
                    "    " + self.face_written(repr(face), _SHARED_FACE[face])]
        return [f"for _it in {items}:", "    _pp = P.get(_it.id)",  # no face given: turned over
                "    _nf = 'up' if (_pp.get('face', 'up') if _pp else 'up') == 'down' else 'down'",
                "    " + self.face_written("_nf", "_fz_FACES[_nf]")]

    # -- flow points that read the state ---------------------------------------------------
    def local_types(self) -> dict[str, str]:
        """The type of each flow local an expression may read (chance outcomes, loop
        variables), worked out from the expressions that set them."""
        from ..runtime.flowgraph import ASSIGN, CHANCE, DECIDE, LOOP_BIND
        found: dict[str, str] = {}
        for _ in range(4):  # a local's type may come from another's
            for p in self.rules.points:
                try:
                    if p.code == CHANCE and p.source is not None:
                        _, t = self.expr(p.source, self.flow_env(found))
                        found[p.var] = t[5:] if t.startswith("list:") else "?"
                    elif p.code == ASSIGN and p.source is not None and p.var.startswith("__list"):
                        _, t = self.expr(p.source, self.flow_env(found))
                        found[p.var] = t
                    elif p.code == LOOP_BIND and found.get(p.seq, "").startswith("list:"):
                        found[p.var] = found[p.seq][5:]
                    elif p.code == DECIDE and p.kind == "choose":
                        for name, t in self.then_locals(p):
                            found[name] = t if found.get(name, t) == t else "?"  # two types: read by none
                except Unsupported:
                    continue
        return {k: t for k, t in found.items() if t in ("int", "str", "bool", "item") or t.startswith("list:")}

    def then_locals(self, p):
        """(name, type) of the locals an action's `then` steps read: its player and its
        parameters' values (the element type of each one's choices)."""
        for name in p.actions:
            action = self.rs.actions[name]
            if not action.then:
                continue
            yield "player", "int"
            for param, domain, _ in action.params:
                filtered = filter_of(domain)
                _, t = self.expr(filtered[1] if filtered is not None else domain, {"player": ("p", "int")})
                yield param, (t[5:] if t.startswith("list:") else "?")

    def flow_env(self, types=None) -> dict:
        types = self.locals if types is None else types
        return {name: (f"L[{name!r}]", t) for name, t in types.items() if not name.startswith("__")}

    def locals_prologue(self) -> list[str]:
        """A local the state already holds must have the type the writer gives it."""
        lines = []
        for name, t in self.locals.items():
            lines += [f"if {name!r} in L and not ({type_test(f'L[{name!r}]', t)}):", "    raise _KernelStop()"]
        return ["if not settled:", *("    " + x for x in lines)] if lines else []  # (settled: they are its own)


def _prop_type(t) -> str | None:
    """The writer's type of a property declared `t`: a scalar, or a map of texts to one
    scalar type, held whole (a dict, replaced on every write)."""
    name = getattr(t, "name", None)
    if name in ("int", "str", "bool"):
        return name
    if name == "map" and len(t.args) == 2 and t.args[0].name == "str" and t.args[1].name in ("int", "str", "bool"):
        return "dict:" + t.args[1].name
    return None


def type_test(text: str, t: str, depth: int = 0) -> str:
    """A test that the value of `text` has the writer's type `t`, written out in line (a
    playout of a short game such as nim spent a third of its start in calls of a general
    function)."""
    if t.startswith("list:") and t[5:] in _TYPE_NAMES:  # the types of the elements, in C
        return f"type({text}) is tuple and {ONLY_NAMES[t[5:]]}.issuperset(map(type, {text}))"
    if t.startswith("list:"):
        element = f"_e{depth}"
        return (f"type({text}) is tuple and all({type_test(element, t[5:], depth + 1)} "
                f"for {element} in {text})")
    return f"type({text}) is {_TYPE_NAMES[t]}"


_TYPE_NAMES = {"int": "int", "str": "str", "bool": "bool", "item": "_fz_Item"}
# `_fz_only_int` and the rest, for type_test: the set of the one type a container may hold
ONLY_NAMES = {"int": "_fz_only_int", "str": "_fz_only_str", "bool": "_fz_only_bool", "item": "_fz_only_item"}
ONLY = {ONLY_NAMES[t]: frozenset({k}) for t, k in (("int", int), ("str", str), ("bool", bool), ("item", Item))}


# An item whose only property is its face shares one of these: properties are replaced on
# every write (`{**old, ...}`, effects_runtime.put_prop), never changed in place.
FACES = {"up": {"face": "up"}, "down": {"face": "down"}}
_SHARED_FACE = {"up": "_fz_FU", "down": "_fz_FD"}  # their names in the generated module


def natural(k: int) -> int:
    if k >= 0:
        return k
    raise KernelStop()


def rows_back(rows: list, old: tuple) -> tuple:
    """A zone per player back as tuples, keeping the rows (and the whole) that are unchanged.
    A row is unchanged when it holds the very same items: items are compared by identity,
    which is all a playout's moves keep (comparing them by value costs a hash and a field
    comparison per item, most of a step's write-back on a card game)."""
    if len(rows) != len(old):
        return tuple(map(tuple, rows))
    new = tuple(o if len(o) == len(r) and all(map(is_, r, o)) else tuple(r) for r, o in zip(rows, old))
    return old if all(map(is_, new, old)) else new


def keyed_back(rows: dict, old: dict) -> dict:
    """A zone per key back as tuples, keeping the rows (and the whole) that are unchanged
    (the same items, by identity, as rows_back)."""
    new = {k: (o if (o := old.get(k)) is not None and len(o) == len(r) and all(map(is_, r, o)) else tuple(r))
           for k, r in rows.items()}
    return old if len(new) == len(old) and all(new[k] is old.get(k) for k in new) else new


def take_anywhere(every, where: dict, item) -> None:
    """Take `item` out of the first zone holding it (by identity, else by equality).
    `where` is a hint: the list a move of the playout last put the item in, looked at
    first; a stale entry only costs the full search (each item lies in one place)."""
    z = where.get(item.id)
    if z is not None:
        if z and z[0] is item:  # a whole zone moved, item by item, from its front
            del z[0]
            return
        for i, x in enumerate(z):
            if x is item:
                del z[i]
                return
    for z in every:
        for i, x in enumerate(z):
            if x is item:
                del z[i]
                return
    for z in every:
        if item in z:
            z.remove(item)
            return
    raise KernelStop()


def deal(P, src: list, dests: list, n: int, face: str) -> None:
    """Round by round, one item from the front of `src` to each of `dests` in turn."""
    if not dests:
        return
    k = min(min(n, -(-len(src) // len(dests))) * len(dests), len(src))
    taken = src[:k]
    del src[:k]
    ways = len(dests)
    for i, item in enumerate(taken):
        dests[i % ways].append(item)
        _faced(P, item, face)


def bag_deal(state, P, src: list, dests: list, n: int, face: str) -> None:
    """`deal` out of a bag: the same rounds, each item drawn at random from what is left,
    with the draws the reference makes in its order (effects.e_deal, rng.below)."""
    if not dests:
        return
    r = _generator(state)
    for _ in range(min(n, -(-len(src) // len(dests)))):
        for dest in dests:
            if not src:
                break
            r, i = rng.below(r, len(src))
            item = src.pop(i)
            dest.append(item)
            _faced(P, item, face)
    state.rng = r


def bag_take(state, src: list, n: int) -> tuple:
    """`n` items drawn at random out of a bag's list, one draw each (draws.bag_pick)."""
    r = _generator(state)
    taken = []
    for _ in range(min(n, len(src))):
        r, i = rng.below(r, len(src))
        taken.append(src.pop(i))
    state.rng = r
    return tuple(taken)


def _generator(state) -> int:
    """The state's generator.  A playout draws from it; a tape (chance explicit) never
    reaches the tier, whose kernel is not used then, but would stop it rather than be
    read as a number."""
    r = state.rng
    if type(r) is not int:
        raise KernelStop()
    return r


def _faced(P, item, face: str) -> None:
    """An item entering a zone takes `face`, written only where it differs."""
    pp = P.get(item.id)
    if (pp["face"] if pp and "face" in pp else "up") != face:
        P[item.id] = {**pp, "face": face} if pp else FACES[face]


class PropColumn(dict):
    """One item property's values for a playout, by item id: the first read of an item
    takes what the state holds, else its default (checked as `prop_default` checks it),
    and every write inside the tier goes to the state and to the column alike.  A read
    is then one lookup, where the state's own layout takes four."""

    __slots__ = ("props", "game", "name", "kept")

    def __init__(self, props: dict, game, name: str, kept: dict):
        self.props, self.game, self.name, self.kept = props, game, name, kept

    def __missing__(self, item_id):
        pp = self.props.get(item_id)
        if pp is not None and self.name in pp:
            value = pp[self.name]
        elif item_id in self.kept:
            value = self.kept[item_id]
        else:
            value = prop_default(self.kept, self.game, self.game.items[item_id], self.name)
        self[item_id] = value
        return value


def prop_default(kept: dict, game, item, name):
    """An item's property that the state does not hold: its default, checked as `prop`
    checks it, and kept by the item's id for the playout's later reads (a default reads
    only the item and the game)."""
    if type(item) is not Item or game.rules.prop_decl(item.kind, name) is None:
        raise KernelStop()
    value = kept[item.id] = game.prop_default(item, name)
    return value


def _zone_name(place) -> str:
    """The zone a place (`zone` or `zone[key]`) names; `place` checked its shape."""
    return place.obj.name if isinstance(place, A.Index) else place.name


def plain(text: str) -> bool:
    """Whether an argument's text is a name or a constant, cheap to write more than once."""
    inner = text.strip("()")
    return inner.isidentifier() or inner.lstrip("-").isdigit() or (
        len(inner) >= 2 and inner[0] == inner[-1] and inner[0] in "'\"" and inner.count(inner[0]) == 2)


def pair_loop(clause) -> bool:
    """Whether a `for` clause walks a map's pairs: `for k, v in items(m)`."""
    it = clause.iter
    return len(clause.names) == 2 and isinstance(it, A.Call) and it.func == "items" and len(it.args) == 1


def filter_of(domain):
    """(variable, sequence, conditions) of a domain `[x for x in S if c ...]`, else None."""
    if not isinstance(domain, A.ListComp) or not isinstance(domain.element, A.Name) or not domain.clauses:
        return None
    first, rest = domain.clauses[0], domain.clauses[1:]
    if not isinstance(first, A.For) or len(first.names) != 1 or first.names[0] != domain.element.name:
        return None
    if not all(isinstance(c, A.If) for c in rest):
        return None
    return first.names[0], first.iter, [c.cond for c in rest]
