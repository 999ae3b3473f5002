"""Expressions over the tier's locals: names, operators and the library's calls, each
with its type (mixed into fused._FusedWriter)."""
from __future__ import annotations

from meeple.dsl import expr_ast as A
from meeple.dsl.functions import MAX_STR
from ..runtime.context import COST_LIMIT
from .safe_source import ident
from .fused_zones import Unsupported, filter_of as _filter_of
from .fused_support import (_ARITHMETIC, _BOARD_WALKS, _BOARD_WALKS_UNCHECKED, _CALLED, _CONSTANT,
                            _FIRST_LAST, _SCALARS, _WALKS_CALLED, _unified, _within_limit)


class Expressions:
    def truth(self, cond, env) -> str:
        text, t = self.expr(cond, env)
        if t != "bool":
            raise Unsupported("a condition that is not bool")
        return text

    # -- expressions ----------------------------------------------------------------------------
    def expr(self, node, env: dict, depth: int = 0) -> tuple[str, str]:
        """Python source for `node` over the tier's locals, and its type.  `env` maps the
        names bound here (parameters, the mover, comprehension variables, a definition's
        parameters) to their source and type.  What the tier cannot write is reported at
        the innermost expression that holds it."""
        try:
            return self._expr(node, env, depth)
        except Unsupported as exc:
            if exc.span is None:
                exc.span = getattr(node, "span", None)
            raise

    def _expr(self, node, env: dict, depth: int) -> tuple[str, str]:
        if depth > 40:
            raise Unsupported("definitions nested too deeply to inline")
        e = lambda n, env=env: self.expr(n, env, depth + 1)  # noqa: E731
        if isinstance(node, A.Const):
            t = {int: "int", str: "str", bool: "bool", type(None): "none"}.get(type(node.value))
            if t is None:
                raise Unsupported(f"the constant {node.value!r}")
            return repr(node.value), t
        if isinstance(node, (A.Name, A.Index)):
            zone = self.zone_read(node, env, depth)
            if zone is not None:
                return zone
        if isinstance(node, A.Name):
            if node.name in env:
                return env[node.name]
            if node.name in self.types and self.types[node.name] in _SCALARS + ("list:int", "item"):
                return ident("v", node.name), self.types[node.name]
            if self.types.get(node.name, "").startswith("gmap:"):
                return ident("v", node.name), "dict:" + self.types[node.name][5:]
            if self.types.get(node.name, "").startswith("glist:"):
                return ident("v", node.name), "list:" + self.types[node.name][6:]
            if self.types.get(node.name, "").startswith("map:"):  # one value per key, changed in place: a copy
                return f"dict({ident('v', node.name)})", "dict:" + self.types[node.name][4:]
            if self.types.get(node.name, "").startswith("gset:"):
                return ident("v", node.name), "set:" + self.types[node.name][5:]
            if self.types.get(node.name, "").startswith("pmap:"):  # one value per player, as a list
                return f"tuple({ident('v', node.name)})", "list:" + self.types[node.name][5:]
            if node.name in self.rs.defines and not self.rs.defines[node.name].params:
                return self.inline(node.name, (), env, depth)
            raise Unsupported(f"the name '{node.name}'")
        if isinstance(node, A.Index):
            if isinstance(node.obj, A.Name) and node.obj.name not in env and \
                    self.types.get(node.obj.name, "").startswith("map:"):
                key, _ = e(node.index)
                return f"{ident('v', node.obj.name)}[{key}]", self.types[node.obj.name][4:]
            if isinstance(node.obj, A.Name) and node.obj.name not in env and \
                    self.types.get(node.obj.name, "").startswith("pmap:"):
                key, kt = e(node.index)
                if kt != "int":
                    raise Unsupported(f"'{node.obj.name}' indexed by {kt}")
                return f"{ident('v', node.obj.name)}[{self.natural(key)}]", self.types[node.obj.name][5:]
            held = self.map_of(node, env, depth)
            if held is not None:  # a key it lacks: KeyError, the loop reports
                return f"{ident('v', held[0])}[{held[1]}]", f"dict:{held[2]}"
            if isinstance(node.obj, A.Name) and node.obj.name not in env and \
                    self.types.get(node.obj.name, "").startswith("plist:"):
                key, kt = e(node.index)
                if kt != "int":
                    raise Unsupported(f"'{node.obj.name}' indexed by {kt}")
                return f"{ident('v', node.obj.name)}[{self.natural(key)}]", "list:" + self.types[node.obj.name][6:]
            obj, ot = e(node.obj)
            index, it = e(node.index)
            if ot.startswith("dict:") and it == "str":  # a key it lacks: KeyError, the loop reports
                return f"{obj}[{index}]", ot[5:]
            if ot.startswith("idict:") and it == "int":  # a map of constants keyed by ints (read only)
                return f"{obj}[{index}]", ot[6:]
            if not (ot.startswith("list:") or ot == "str") or it != "int":  # out of range: the loop reports
                raise Unsupported("an index into something other than a list")
            if ot == "str":
                return f"{obj}[{index}]", "str"
            return f"{obj}[{index}]", ot[5:]
        if isinstance(node, A.Let):
            return self.let(node, env, depth)
        if isinstance(node, A.Slice):
            return self.sliced(node, env, depth)
        if isinstance(node, A.Member) and isinstance(node.obj, A.Name) and node.obj.name == "options" \
                and "options" not in env and node.name in self.rs.game.options:
            t = _option_type(self.rs.game.options[node.name].default)
            if t is None:
                raise Unsupported(f"the option '{node.name}'")
            self.options_used[node.name] = t
            return ident("o", node.name), t
        if isinstance(node, A.Member):
            obj, ot = e(node.obj)
            if ot.startswith("dict:"):  # `m.key` is `m['key']`; a key it lacks: KeyError, the loop reports
                return f"{obj}[{node.name!r}]", ot[5:]
            if ot.startswith("rec:"):  # a record of constants: each key has its own type
                fields = self.records[int(ot[4:])]
                if node.name not in fields:
                    raise Unsupported(f"'.{node.name}' of a map without that key", node.span)
                return f"{obj}[{node.name!r}]", fields[node.name]
            if ot != "item":
                raise Unsupported(f"'.{node.name}' of a {ot}")
            if node.name in ("id", "kind"):
                return f"{obj}.{node.name}", "str"
            if any(node.name in k.props for k in self.rs.components.values()):
                return self.prop_read(obj, node.name), self.prop_type(node.name)
            if node.name == "face" and not any("face" in k.fields for k in self.rs.components.values()):
                # the side an item shows, kept with its properties; up unless a move or flip
                # turned it (no kind here declares a `face` of its own: zone_shapes)
                return f"P.get({obj}.id, _fz_FU).get('face', 'up')", "str"
            return f"{obj}.fields[{node.name!r}]", self.field_type(node.name)
        if isinstance(node, A.Unary):
            x, t = e(node.operand)
            if node.op == "not" and t == "bool":
                return f"(not {x})", "bool"
            if node.op == "-" and t == "int":
                return (f"(-{x})" if _within_limit(self.op_range(node, env)) else self.checked(f"-{x}")), "int"
            raise Unsupported(f"'{node.op}' on {t}")
        if isinstance(node, A.BoolOp):
            (l, lt), (r, rt) = e(node.left), e(node.right)
            if lt != "bool" or rt != "bool":
                raise Unsupported(f"'{node.op}' on {lt} and {rt}")
            return f"({l} {node.op} {r})", "bool"
        if isinstance(node, A.Binary):
            return self.binary(node, e, env)
        if isinstance(node, A.Cond):
            c, ct = e(node.test)
            (a, at), (b, bt) = self.either(node.then, node.orelse, env, depth)
            t = _unified(at, bt)
            if ct != "bool" or t is None:
                raise Unsupported("a conditional of mixed types")
            return f"({a} if {c} else {b})", t
        if isinstance(node, A.Call):
            return self.call(node, env, depth)
        if isinstance(node, A.ListLit):
            items = [e(x) for x in node.items]
            t = _unified(*(t for _, t in items)) if items else "?"  # `[]`: a list of what it meets
            if t is None and all(x in _SCALARS + ("str?",) or x.startswith(("list:", "dict:")) for _, x in items):
                t = "mixed"  # only handed on whole, to a library function that takes any value (`key_of`)
            if t is None or not (t in _SCALARS + ("item", "?", "str?", "mixed") or t.startswith("list:")):
                raise Unsupported("a list of mixed types")
            return "(" + "".join(x + ", " for x, _ in items) + ")", "list:" + t
        if isinstance(node, (A.ListComp, A.Generator, A.MapComp)):
            return self.comprehension(node, env, depth)
        if isinstance(node, A.MapLit) and node.entries:
            written = _constant_map(node, self.records)  # a map of constants, maps of them nested: made once
            if written is not None:
                return self.made_once(written[0]), written[1]
        if isinstance(node, A.MapLit) and node.entries and \
                all(isinstance(k, A.Const) and isinstance(v, A.Const) for k, v in node.entries):
            value = {k.value: v.value for k, v in node.entries}
            kinds = {type(k) for k in value}
            values = {type(v).__name__ for v in value.values()}
            if kinds == {str} and len(values) == 1 and next(iter(values)) in _SCALARS:
                return self.made_once(value), "dict:" + values.pop()
        if isinstance(node, A.MapLit) and node.entries:
            pairs = [(e(k), e(v)) for k, v in node.entries]
            kinds, values = {kt for (_, kt), _ in pairs}, {vt for _, (_, vt) in pairs}
            text = "{" + ", ".join(f"{k}: {v}" for (k, _), (v, _) in pairs) + "}"
            if kinds == {"str"} and len(values) > 1 and _mixed_lists(values):
                return text, "dict:list:mixed"  # lists of different kinds (directions named, and steps)
            if kinds != {"str"} or len(values) != 1 or next(iter(values)) not in _SCALARS + ("list:str", "list:int"):
                raise Unsupported("a map of mixed or unusual types")
            return text, "dict:" + values.pop()
        raise Unsupported(f"the expression {type(node).__name__}")

    def binary(self, node, e, env) -> tuple[str, str]:
        (l, lt), (r, rt) = e(node.left), e(node.right)
        op = node.op
        if "mixed" in (lt, rt):  # only handed on, to a library function that takes any of them
            raise Unsupported(f"'{op}' on a value of mixed kinds", node.span)
        if op == "**":  # never inline: the library refuses a huge exponent first
            if lt == rt == "int":
                return f"_fz_pow({l}, {r})", "int"
            raise Unsupported(f"'**' on {lt} and {rt}", node.span)
        if op in ("+", "-", "*", "//", "%") and lt == rt == "int":  # by zero: Python raises, the loop reports
            if _within_limit(self.op_range(node, env)):
                return f"({l} {op} {r})", "int"
            return self.checked(f"{l} {op} {r}"), "int"
        if op == "+" and lt.startswith("list:") and (_unified(lt, rt) or "").startswith("list:"):
            return f"[*{self.walked(l)}, *{self.walked(r)}]", _unified(lt, rt)
        if op == "+" and lt == rt == "str":  # within the language's longest string
            if self.in_iterable:
                return self.walked(f"_short({l} + {r})"), "str"
            self.temps += 1
            t = f"_t{self.temps}"
            return f"({self.walked(t)} if len({t} := {l} + {r}) <= {MAX_STR} else _stop())", "str"
        if op in ("==", "!=") and lt == rt and lt in _SCALARS + ("item",):  # items: Python's equality is the language's
            return f"({l} {op} {r})", "bool"
        if op in ("==", "!=") and ({lt, rt} <= {"str", "str?", "none"} or {lt, rt} == {"item", "none"}):
            # a text or none: none equals only none, as Python's None does
            return f"({l} {op} {r})", "bool"
        if op in ("<", "<=", ">", ">=") and lt == rt and lt in ("int", "str"):
            return f"({l} {op} {r})", "bool"
        if op in ("in", "not in") and (rt == f"list:{lt}" or (lt in ("str", "str?") and rt in ("list:str", "list:str?"))):
            return f"({l} {op} {self.walked(r)})", "bool"
        if op in ("in", "not in") and rt.startswith("set:") and lt in ("int", "str"):  # a set holds one type
            return f"({l} {op} {r})", "bool"
        if op in ("in", "not in") and (lt, rt) == ("str?", "set:str"):  # none in a set is an error the loop reports
            return f"(_fz_sure({l}) {op} {r})", "bool"
        if op in ("in", "not in") and lt == "str" and rt.startswith("dict:"):
            return f"({l} {op} {r})", "bool"
        raise Unsupported(f"'{op}' on {lt} and {rt}")

    def call(self, node, env, depth) -> tuple[str, str]:
        f, args = node.func, node.args
        if f in self.rs.defines:
            return self.inline(f, args, env, depth)
        e = lambda n: self.expr(n, env, depth + 1)  # noqa: E731
        idiom = self.idiom_call(node, env, depth)
        if idiom is not None:
            return idiom
        if f == "has_move":
            return self.has_move_call(args, env, depth)
        if f in ("any", "all") and len(args) == 1 and isinstance(args[0], A.Generator):
            unrolled = self.unrolled(f, args[0], env, depth)
            if unrolled is not None:
                return unrolled, "bool"
            inner, t = self.comprehension(args[0], env, depth, generator=True)
            if t != "gen:bool":
                raise Unsupported(f"{f} over values that are not bool")
            return f"{f}({inner})", "bool"
        if f in ("len", "count") and len(args) == 1:
            counted = self.counted(args[0], env, depth)
            if counted is not None:
                return counted, "int"
            x, t = e(args[0])
            if t.startswith(("list:", "dict:", "set:")) or t == "str":  # as the library counts them
                return f"len({x})", "int"
        if f == "attr" and len(args) == 3 and isinstance(args[0], A.Const) and isinstance(args[2], A.Const):
            t = self.attr_type(args[0].value, args[2].value)
            node_text, nt = e(args[1])
            if nt == "str":  # an attribute of one type on every node of the board: kept per node
                site = self.sites.setdefault(("attr", (repr(args[0].value), None, repr(args[2].value))),
                                             ident("s", len(self.sites)))
                impl = self.module.library_function("attr")
                return (f"({site}[{node_text}] if {node_text} in {site} else _memo_site({site}, {node_text}, "
                        f"{impl}(ctx, {args[0].value!r}, {node_text}, {args[2].value!r})))"), t
        if f == "with_key" and len(args) == 3:
            (m, mt), (k, kt), (v, vt) = e(args[0]), e(args[1]), e(args[2])
            if mt == f"dict:{vt}" and kt == "str":
                return f"_fz_sized({{**{self.walked(m)}, {k}: {v}}})", mt
        if f == "count_of" and len(args) == 2:
            (xs, xt), (v, vt) = e(args[0]), e(args[1])
            if xt == f"list:{vt}" and vt in _SCALARS + ("item",):  # one type: Python's equality is the language's
                return f"{self.walked(xs)}.count({v})", "int"
        if f == "unique" and len(args) == 1:
            x, t = e(args[0])
            if t in ("list:int", "list:str", "list:bool", "list:item"):  # one type: Python's equality is the language's
                return f"tuple(dict.fromkeys({self.walked(x)}))", t
        if f in ("keys", "values") and len(args) == 1:
            x, t = e(args[0])
            if t.startswith("dict:"):  # in the map's order, as the library lists them
                return (f"tuple({self.walked(x)})", "list:str") if f == "keys" else \
                    (f"tuple({self.walked(x)}.values())", "list:" + t[5:])
        if f == "get" and len(args) == 3:
            (m, mt), (k, kt), (d, dt) = e(args[0]), e(args[1]), e(args[2])
            if mt.startswith("dict:") and kt in ("str", "str?") and _unified(dt, mt[5:]) is not None:
                return f"{m}.get({k}, {d})", _unified(dt, mt[5:])  # (none is no key: the default)
        if f == "sum" and len(args) == 1:
            summed = self.summed(args[0], env, depth)
            if summed is not None:
                return self.checked(summed), "int"
            x, t = e(args[0])
            if t == "list:int":
                return self.checked(f"sum({self.walked(x)})"), "int"
        if f == "range" and 1 <= len(args) <= 2:
            parts = [e(a) for a in args]
            if all(t == "int" for _, t in parts):
                bounds = [x for x, _ in parts] if len(parts) == 2 else ["0", parts[0][0]]
                if self.in_iterable:  # no `:=` there: a call
                    return f"_range(ctx, {', '.join(bounds)})", "list:int"
                if all(isinstance(a, A.Const) for a in args):  # a constant range: its charge is known
                    lo, hi = (0, args[0].value) if len(args) == 1 else (args[0].value, args[1].value)
                    return (f"(range({lo}, {hi}) if (_cost := _cost + {abs(hi - lo)}) < {COST_LIMIT // 8} "
                            "else _stop())"), "list:int"
                self.temps += 1
                lo, hi = f"_lo{self.temps}", f"_hi{self.temps}"
                # charged |hi - lo|: never less than the reference's charge for it
                return (f"(range({lo}, {hi}) if (_cost := _cost + abs(({hi} := {bounds[1]}) - ({lo} := {bounds[0]}))) "
                        f"< {COST_LIMIT // 4} else _stop())"), "list:int"
        if f == "next_player" and 1 <= len(args) <= 2:
            parts = [e(a) for a in args]
            if all(t == "int" for _, t in parts):
                step = parts[1][0] if len(parts) == 2 else "1"
                return f"(({parts[0][0]} + {step}) % ctx.player_count)", "int"
        if f == "concat" and args:
            parts = [e(a) for a in args]
            t = _unified(*(t for _, t in parts))
            if t is not None and t.startswith("list:"):
                return "[" + ", ".join(f"*{self.walked(x)}" for x, _ in parts) + "]", t
        if f == "index_of" and len(args) == 2:
            (xs, xt), (v, vt) = e(args[0]), e(args[1])
            if xt == f"list:{vt}" and vt in _SCALARS + ("item",):  # the language's equality, for one type
                self.temps += 1
                i, x = f"_i{self.temps}", f"_x{self.temps}"
                return f"next(({i} for {i}, {x} in enumerate({self.walked(xs, True)}) if {x} == {v}), -1)", "int"
        if f == "str" and len(args) == 1:
            x, t = e(args[0])
            if t in ("int", "str"):  # as the library renders them
                return f"str({x})", "str"
        if f == "move_count" and not args:  # counted in place by every move the tier plays
            return "state.move_count", "int"
        if f == "player_count" and not args:
            return ("ctx.player_count" if self.players is None else str(self.players)), "int"
        if f == "players" and not args and self.players is not None:
            return repr(tuple(range(self.players))), "list:int"
        if f in ("max", "min") and len(args) > 1:
            parts = [e(a) for a in args]
            if all(t == "int" for _, t in parts):
                return f"{f}({', '.join(x for x, _ in parts)})", "int"
        if f in ("max", "min") and len(args) == 1:
            if isinstance(args[0], A.Generator):
                gen = args[0]
                constants = self.few_constants(gen.clauses[0], env) if len(gen.clauses) == 1 else None
                if constants is not None:  # written out: max(e1, e2, …), in the same order
                    parts = [self.expr(gen.element, {**env, **value}, depth + 1) for value in constants]
                    if all(t == "int" for _, t in parts):
                        texts = [x for x, _ in parts]
                        return (f"{f}({', '.join(texts)})" if len(texts) > 1 else f"({texts[0]})"), "int"
                inner, t = self.comprehension(args[0], env, depth, generator=True)
                if t == "gen:int":
                    return f"{f}({inner})", "int"
            else:
                x, t = e(args[0])
                if t == "list:int":
                    return f"{f}({self.walked(x)})", "int"
        if f in ("max_by", "min_by") and len(args) == 2 and isinstance(args[1], A.Lambda):
            seq, st = e(args[0])
            if st.startswith("list:"):
                local, body, bt = self.key_lambda(args[1], st[5:], env, depth)
                if bt == "int":  # the first of the largest (smallest), as the library picks
                    return f"{f[:3]}({self.walked(seq)}, key=lambda {local}: {body})", st[5:]
        if f in ("sort", "sort_desc") and len(args) in (1, 2) and (len(args) == 1 or isinstance(args[1], A.Lambda)):
            seq, st = e(args[0])  # a stable sort by ints or by texts: Python's order is the library's
            if st in ("list:int", "list:str") and len(args) == 1:
                return f"sorted({self.walked(seq)}{', reverse=True' if f == 'sort_desc' else ''})", st
            if st.startswith("list:") and len(args) == 2:
                local, body, bt = self.key_lambda(args[1], st[5:], env, depth)
                if bt in ("int", "str"):
                    order = ", reverse=True" if f == "sort_desc" else ""
                    return f"sorted({self.walked(seq)}, key=lambda {local}: {body}{order})", st
        if f == "reverse" and len(args) == 1:
            seq, st = e(args[0])
            if st.startswith("list:"):
                return f"{self.walked(seq)}[::-1]", st
        if f == "count_if" and len(args) == 2 and isinstance(args[1], A.Lambda):
            seq, st = e(args[0])
            if st.startswith("list:"):
                self.temps += 1
                local = ident("l", args[1].param, self.temps)
                body, bt = self.expr(args[1].body, {**env, args[1].param: (local, st[5:])}, depth + 1)
                if bt == "bool":
                    return f"sum(1 for {local} in {self.walked(seq, True)} if {body})", "int"
        if f == "top" and len(args) == 1:
            f = "first"
        if f in ("first", "last") and len(args) == 1:
            filtered = _filter_of(args[0]) if f == "first" and not self.in_iterable else None
            if filtered is not None:  # first([x for x in S if c]): stop at the first that passes
                var, seq, conds = filtered
                seq_text, st = e(seq)
                if not st.startswith("list:"):
                    raise Unsupported("a loop over something other than a list")
                self.temps += 1
                local, hit = ident("c", var, self.temps), f"_f{self.temps}"
                inner = {**env, var: (local, st[5:])}
                tests = " and ".join(f"({self.truth_in(c, inner, depth)})" for c in conds) or "True"
                return (f"({hit} if ({hit} := next(({local} for {local} in {self.walked(seq_text, True)} if {tests}), _MISSING)) "
                        f"is not _MISSING else _stop())"), st[5:]
            x, t = e(args[0])
            if t.startswith("list:"):
                if self.in_iterable:
                    return f"{_FIRST_LAST[f]}({x})", t[5:]
                self.temps += 1
                seq = f"_s{self.temps}"
                return f"({seq}[{0 if f == 'first' else -1}] if ({seq} := {x}) else _stop())", t[5:]
        if f in _CONSTANT and all(isinstance(a, A.Const) for a in args):
            key = (f, tuple(a.value for a in args))
            self.module.library_function(f)
            name = self.consts.setdefault(key, ident("c", len(self.consts)))
            knight = f == "directions" and args and args[0].value == "knight"  # its steps: pairs of ints
            return name, "list:list:int" if knight else _CONSTANT[f]
        if f in _CALLED:  # a function of the board alone: kept per call site and arguments (a none found again)
            shape = tuple(repr(a.value) if isinstance(a, A.Const) else None for a in args)
            given = [e(a) for a in args if not isinstance(a, A.Const)]
            varying = [x for x, _ in given]
            keys = [f"tuple({x})" if t.startswith("list:") else f"_fz_held({x})" if t == "mixed" else x
                    for x, t in given]  # a step [dr, dc]; a direction's name or a step
            site = self.sites.setdefault((f, shape), ident("s", len(self.sites)))
            key = keys[0] if len(keys) == 1 else "(" + "".join(v + ", " for v in keys) + ")"
            given = iter(varying)
            call = ", ".join(c if c is not None else next(given) for c in shape)
            impl = self.module.library_function(f)
            return f"({site}.get({key}) or _memo_site({site}, {key}, {impl}(ctx, {call})))", _CALLED[f]
        if f in _BOARD_WALKS and len(args) == 1 + len(_BOARD_WALKS[f][0]) and isinstance(args[0], A.Const):
            wanted, result = _BOARD_WALKS[f]
            parts = [e(a) for a in args[1:]]
            if all(_unified(t, w) == w for (_, t), w in zip(parts, wanted)):  # the library walks the board
                # ... without checking the arguments' types again, on the board's adjacency fetched once
                board = self.boards.setdefault(args[0].value, ident("bw", len(self.boards)))
                walk = _BOARD_WALKS_UNCHECKED[f]
                site = self.sites.setdefault((f, (repr(args[0].value),)), ident("s", len(self.sites)))
                key = "(" + "".join((f"tuple({x})" if t.startswith("list:") else x) + ", " for x, t in parts) + ")"
                call = f"{walk}(ctx, {board}, {', '.join(x for x, _ in parts)})"
                if self.in_iterable:  # no `:=` there: worked out by a call when missing
                    return f"_fz_memo({site}, {key}, lambda: {call})", result
                self.temps += 1
                got, k, n = f"_mv{self.temps}", f"_mk{self.temps}", self.temps
                given = [ident("_b", j, n) for j in range(len(parts))]  # each argument worked out once
                key = "(" + "".join((f"tuple({b})" if t.startswith("list:") else b) + ", "
                                    for b, (_, t) in zip(given, parts)) + ")"
                call = f"{walk}(ctx, {board}, {', '.join(given)})"
                # A memo the game let go is not asked: its key is not even made.
                remembered = (f"({call} if {site} is _fz_NOT_REMEMBERED else "
                              f"{got} if ({got} := {site}.get(({k} := {key}), _MISSING)) is not _MISSING "
                              f"else _fz_remember({site}, {k}, {call}))")
                bound = "".join(f"({b} := {x}), " for b, (x, _) in zip(given, parts))
                return f"({bound}{remembered})[-1]", result
        if f in _WALKS_CALLED and len(args) == 1 + len(_WALKS_CALLED[f][0]) and isinstance(args[0], A.Const):
            wanted, result = _WALKS_CALLED[f]
            parts = [e(a) for a in args[1:]]
            if all(_unified(t, w) == w for (_, t), w in zip(parts, wanted)):
                impl = self.module.library_function(f)
                return f"{impl}(ctx, {args[0].value!r}, {', '.join(x for x, _ in parts)})", result
        if f in ("set", "union", "intersection", "difference"):
            return self.set_call(f, args, e)
        if f in _ARITHMETIC and len(args) == _ARITHMETIC[f]:  # through the library itself, which reports
            parts = [e(a) for a in args]
            if all(t == "int" for _, t in parts):
                return f"{self.module.library_function(f)}(ctx, {', '.join(x for x, _ in parts)})", "int"
        raise Unsupported(f"the function '{f}'")

    def key_lambda(self, lam, elem: str, env, depth) -> tuple[str, str, str]:
        """A lambda given to max_by, min_by or sort, as (its parameter's local, its body, the
        body's type): written inside a Python lambda, where `:=` may not stand."""
        self.temps += 1
        local = ident("l", lam.param, self.temps)
        self.in_iterable += 1
        try:
            body, bt = self.expr(lam.body, {**env, lam.param: (local, elem)}, depth + 1)
        finally:
            self.in_iterable -= 1
        return local, body, bt

    def set_call(self, f: str, args, e) -> tuple[str, str]:
        """`set`, `union`, `intersection` and `difference` of sets (or lists) of ints or of
        texts, as frozensets: the library's rules (one type of element, at most MAX_SET) are
        checked where they could fail; a set is walked nowhere here, so its order never shows."""
        parts = [e(a) for a in args]
        elems = {t.split(":", 1)[1] for _, t in parts if t.startswith(("set:", "list:"))}
        elems.discard("?")
        if any(not t.startswith(("set:", "list:")) for _, t in parts) or not elems <= {"int", "str"} or len(elems) > 1:
            raise Unsupported(f"'{f}' of other than sets or lists of ints or of texts")
        t = "set:" + (elems.pop() if elems else "?")
        made = [x if pt.startswith("set:") else f"frozenset({self.walked(x)})" for x, pt in parts]
        if f == "set":
            return ("frozenset()" if not made else made[0]), t
        if f == "union":
            text = made[0] if len(made) == 1 else f"{made[0]}.union({', '.join(made[1:])})"
            return f"_fz_set_sized({text})", t
        if f == "intersection":
            return (made[0] if len(made) == 1 else f"{made[0]}.intersection({', '.join(made[1:])})"), t
        if len(made) != 2:
            raise Unsupported("'difference' of other than two sets")
        return f"({made[0]} - {made[1]})", t

    def attr_type(self, board: str, key: str) -> str:
        """The type of attribute `key` on the nodes of `board`: the same one on every node
        (a scalar, or a map from texts to one scalar), else the tier does not read it."""
        graph = self.rules.boards.get(board)
        found = set()
        for _, data in (graph.nodes(data=True) if graph is not None else ()):
            v = data.get(key)
            if type(v) is dict and all(type(k) is str for k in v) and len({type(x) for x in v.values()}) == 1:
                found.add("dict:" + type(next(iter(v.values()))).__name__)
            else:
                found.add(type(v).__name__)
        if found == {"str", "NoneType"}:  # marked on some nodes only: compared, and nothing else
            return "str?"
        if len(found) != 1 or next(iter(found)) not in _SCALARS + ("dict:int", "dict:str", "dict:bool"):
            raise Unsupported(f"the attribute '{key}' of board '{board}'")
        return found.pop()


def _constant_map(node, records: list):
    """(value, type) of a map literal whose keys are all texts or all ints and whose values
    are constants of one type, lists of them, or such maps in turn (chess's `glyph[c]['N']`);
    None for any other.  Its type is `dict:T` (text keys) or `idict:T` (int keys), read by
    indexing.  A map keyed by texts whose values differ in type is a record, `rec:N`: N is
    its place in `records`, which holds each key's type, read by `m.key` (chess's
    `castle_of[r].empty`)."""
    if not isinstance(node, A.MapLit) or not node.entries:
        return None
    keys, values, types = [], [], []
    for k, v in node.entries:
        if not isinstance(k, A.Const) or type(k.value) not in (int, str):
            return None
        if isinstance(v, A.Const) and type(v.value) in (int, str, bool):
            value, t = v.value, type(v.value).__name__
        elif isinstance(v, A.ListLit) and v.items and all(isinstance(x, A.Const) for x in v.items) and \
                len({type(x.value) for x in v.items}) == 1 and type(v.items[0].value) in (int, str):
            value, t = tuple(x.value for x in v.items), "list:" + type(v.items[0].value).__name__  # (chess's `sliding`)
        else:
            inner = _constant_map(v, records)
            if inner is None:
                return None
            value, t = inner
        keys.append(k.value)
        values.append(value)
        types.append(t)
    kinds = {type(k) for k in keys}
    if len(kinds) != 1 or len(set(keys)) != len(keys):
        return None
    if len(set(types)) == 1:
        return dict(zip(keys, values)), ("idict:" if kinds == {int} else "dict:") + types[0]
    if kinds != {str}:
        return None
    fields = dict(zip(keys, types))
    if fields not in records:
        records.append(fields)
    return dict(zip(keys, values)), f"rec:{records.index(fields)}"


def _option_type(default) -> str | None:
    """The tier's type of an option, from its default: a scalar, or a list of ints or of
    texts (read as a tuple); None for any other."""
    t = type(default).__name__
    if t in _SCALARS:
        return t
    if isinstance(default, (list, tuple)) and default:
        kinds = {type(x) for x in default}
        if kinds == {int} or kinds == {str}:
            return "list:" + kinds.pop().__name__
    return None


def _mixed_lists(types: set) -> bool:
    """Whether `types` are lists that share no one element type, each of plain values or of
    lists of them: the map holding them is a map of lists of "mixed" elements, which are
    only handed on (to a library function of the board, `step`)."""
    if _unified(*types) is not None or not all(t.startswith("list:") for t in types):
        return False
    return all(t[5:] in _SCALARS or (t[5:].startswith("list:") and t[10:] in _SCALARS) for t in types)
