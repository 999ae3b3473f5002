"""Writes into the tier's locals: variables, lists and maps, each value checked against
its declaration (mixed into fused._FusedWriter)."""
from __future__ import annotations

from meeple.dsl import expr_ast as A
from meeple.dsl.functions import MAX_LIST
from .safe_source import ident
from .fused_zones import Unsupported, filter_of as _filter_of
from .fused_support import _PY, _RANGED, _SCALARS, _combined, _unified, _within_limit


class Writes:
    def assignment(self, assign, env) -> list[str]:
        """One `set` assignment: the value, its checks against the declaration, the write."""
        target = assign.target
        if isinstance(target, A.Member):  # an item's property: written as the back end writes it
            obj, ot = self.expr(target.obj, env)
            t = self.prop_type(target.name)
            value, vt = self.expr(assign.value, env)
            if ot != "item" or vt != t or (assign.op != "=" and (t != "int" or assign.op not in ("+=", "-=", "*="))):
                raise Unsupported(f"a write to the property '{target.name}'")
            self.temps += 1
            it, name = f"_o{self.temps}", target.name
            if assign.op != "=":
                value = self.checked(f"{self.prop_read(it, name)} {assign.op[0]} {value}")
            decls = {k.name: k.props[name] for k in self.rs.components.values() if name in k.props}
            if len({(d.min, d.max, d.bounds, None if d.choices is None else tuple(d.choices))
                    for d in decls.values()}) != 1:
                return [f"{it} = {obj}", f"_fz_set_prop(ctx, {it}, {name!r}, {value}, [])",
                        f"{self.prop_column(name)}[{it}.id] = P[{it}.id][{name!r}]"]
            # one declaration for every kind that has the property: its checks written in line
            return [f"{it} = {obj}", f"_v = {value}", *self.write_checks(next(iter(decls.values())), t),
                    f"if type({it}) is not _fz_Item or {it}.kind not in {tuple(decls)!r}:", "    raise _KernelStop()",
                    f"_pw = P.get({it}.id)", f"P[{it}.id] = {{**_pw, {name!r}: _v}} if _pw else {{{name!r}: _v}}",
                    f"{self.prop_column(name)}[{it}.id] = _v"]
        if isinstance(target, A.Name) and self.types.get(target.name, "").startswith("gmap:"):
            return self.map_write(assign, target.name, None, env)
        listed = self.list_place(target, env)
        if listed is not None:
            return self.list_write(assign, *listed, env)
        held = self.map_of(target, env, 0)
        if held is not None:  # m[p] = {...}: one player's (or key's) map whole
            return self.map_write(assign, held[0], None, env, held[1:])
        held = self.map_of(target.obj, env, 0) if isinstance(target, A.Index) else None
        if held is not None:  # m[p][k]: one entry of one player's (or key's) map
            return self.map_write(assign, held[0], target.index, env, held[1:])
        if isinstance(target, A.Index) and isinstance(target.obj, A.Name) and \
                self.types.get(target.obj.name, "").startswith("gmap:"):
            return self.map_write(assign, target.obj.name, target.index, env)
        if isinstance(target, A.Name) and target.name not in env and self.types.get(target.name) == "list:int":
            return self.int_list_write(assign, target.name, env)
        if isinstance(target, A.Name) and target.name in self.types and self.types[target.name].startswith("gset:"):
            value, vt = self.expr(assign.value, env)
            if assign.op != "=" or _unified(vt, "set:" + self.types[target.name][5:]) is None:
                raise Unsupported(f"a {vt} written into '{target.name}', a set", assign.span)
            return [f"_v = {value}", f"{ident('v', target.name)} = V[{target.name!r}] = _v"]
        if isinstance(target, A.Name) and target.name in self.types and self.types[target.name] in _SCALARS + ("item",):
            name, where, t = target.name, ident("v", target.name), self.types[target.name]
            key_check = []
        elif isinstance(target, A.Index) and isinstance(target.obj, A.Name) and target.obj.name in self.types:
            name = target.obj.name
            kind = self.types[name]
            self.temps += 1
            k = f"_k{self.temps}"
            found, kt = self.first_passing(target.index, env, k)
            if found is None:
                key, kt = self.expr(target.index, env)
                found = [f"{k} = {key}"]
            if kind.startswith("map:"):
                t, where = kind[4:], f"{ident('v', name)}[{k}]"
                key_check = [*found, f"if {k} not in {ident('v', name)}:", "    raise _KernelStop()"]
            elif (kind == "list:int" or kind.startswith("pmap:")) and kt == "int":
                t, where = ("int" if kind == "list:int" else kind[5:]), f"{ident('v', name)}[{k}]"
                key_check = [*found, f"if not 0 <= {k} < len({ident('v', name)}):", "    raise _KernelStop()"]
            else:
                raise Unsupported(f"a write into '{name}'", assign.span)
        else:
            raise Unsupported("a write to something other than a variable", assign.span)
        if assign.op == "=" and t == "bool" and self.has_quantifier(assign.value, set(env)):
            # `any_strong = any(d.str_left > 0 for d in mine_z)`: loops, as a requirement's test
            return [*key_check, *self.condition(assign.value, env, "_v", 0), *self.write_checks(self.rs.variables[name], t),
                    *self.written(name, where, k if key_check else None)]
        value, vt = self.expr(assign.value, env)
        if assign.op != "=":
            if t != "int" or vt != "int" or assign.op not in ("+=", "-=", "*="):
                raise Unsupported(f"'{assign.op}' on {t}")
            held = self.var_range(name) if self.types[name] in _RANGED else None
            grown = _combined(assign.op[0], held, self.int_range(assign.value, env))
            value = f"({where} {assign.op[0]} {value})" if _within_limit(grown) else \
                self.checked(f"{where} {assign.op[0]} {value}")
        elif vt != t and not (vt == "str?" and t == "str"):
            raise Unsupported(f"a {vt} written into '{name}', a {t}")
        lines = [*key_check, f"_v = {value}"]
        if vt != t:  # a text that may be none: none stops the tier, and the loop reports the write
            lines += ["if type(_v) is not str:", "    raise _KernelStop()"]
        decl = self.rs.variables[name]
        lines += self.write_checks(decl, t)
        return lines + self.written(name, where, k if key_check else None)

    def int_list_write(self, assign, name: str, env) -> list[str]:
        """`xs = …` (or `xs += …`) of a list of ints, which the tier keeps as a list changed in
        place: a new list of the value (joined to the old), of at most MAX_LIST elements, its
        copy charged.  A list assigned
        whole is not checked against the variable's bounds (docs/language.md, variables)."""
        if isinstance(assign.value, A.ListLit) and not assign.value.items:
            value, vt = "()", "list:int"  # `[]`: of the variable's type
        else:
            value, vt = self.expr(assign.value, env)
        if assign.op not in ("=", "+=") or vt != "list:int":
            raise Unsupported(f"'{assign.op}' of a {vt} into '{name}', a list of ints", assign.span)
        made = f"list({value})" if assign.op == "=" else f"[*{ident('v', name)}, *{value}]"  # `+=` joins
        return [f"_v = {made}", f"if len(_v) > {MAX_LIST}:", "    raise _KernelStop()",
                *self.walk_lines("_v")[0], f"{ident('v', name)} = _v"]

    def written(self, name: str, where: str, k: str | None) -> list[str]:
        """The store of a checked value `_v` into the variable `name` (at key `k`)."""
        if self.types[name] == "list:int" or self.types[name].startswith("pmap:"):
            return [f"{ident('v', name)}[{k}] = _v"]
        if self.types[name] in _SCALARS + ("item",):
            return [f"{ident('v', name)} = V[{name!r}] = _v"]
        if self.types[name].startswith("map:"):  # and the keys this move wrote (incremental end rules)
            return [f"{where} = _v", f"{ident('w', name)}.append({k})"]
        return [f"{where} = _v"]

    def list_place(self, target, env):
        """(lines, place, variable, element type, index or None) of a write into a list
        variable held whole: `xs = …`, `xs[i] = …`, `xs[p] = …` (per player), else None."""
        index = None
        if isinstance(target, A.Index) and isinstance(target.obj, A.Index):  # xs[p][i], per player
            target, index = target.obj, target.index
        name = target.name if isinstance(target, A.Name) else (
            target.obj.name if isinstance(target, A.Index) and isinstance(target.obj, A.Name) else None)
        t = self.types.get(name, "") if name is not None and name not in env else ""
        if t.startswith("glist:") and index is None:
            return [], ident("v", name), name, t[6:], (target.index if isinstance(target, A.Index) else None)
        if t.startswith("plist:") and isinstance(target, A.Index):
            key, kt = self.expr(target.index, env)
            if kt != "int":
                raise Unsupported(f"'{name}' indexed by {kt}")
            self.temps += 1
            at = f"_p{self.temps}"
            return [f"{at} = {self.natural(key)}"], f"{ident('v', name)}[{at}]", name, t[6:], index
        return None

    def list_write(self, assign, lines, place, name, elem, index, env) -> list[str]:
        """A list held whole gets a new tuple: a value read from it before keeps what it held
        (an element written at an index counted from either end, as store.replace_in writes it)."""
        if isinstance(assign.value, A.ListLit) and not assign.value.items and index is None:
            value, vt = "()", f"list:{elem}"  # `[]`: of the variable's type
        else:
            value, vt = self.expr(assign.value, env)
        assigned = f"{place} = V[{name!r}]" if place == ident("v", name) else place
        if index is None:
            # texts that may be none (`cell` off the board) are checked as they are written:
            # none stops the tier, and the loop reports the write
            maybe_none = vt != f"list:{elem}" and vt.replace("str?", "str") == f"list:{elem}"
            if (_unified(vt, f"list:{elem}") != f"list:{elem}" and not maybe_none) or assign.op not in ("=", "+=") \
                    or elem.count("list:") > 1:
                raise Unsupported(f"a {vt} written into '{name}'")
            if assign.op == "+=":  # `xs += [...]`: the list with the new elements after its own
                value = f"[*{self.walked(place)}, *{self.walked(value)}]"
            made = "tuple([tuple(_e) for _e in _w])" if elem.startswith("list:") else f"tuple({value})"
            before = [f"_w = {value}"] if elem.startswith("list:") else []  # no `:=` in a comprehension's iterable
            checked = [f"if not _fz_nested(_v, {elem.count('list:') + 1}, _fz_only_str):", "    raise _KernelStop()"] \
                if maybe_none else []
            return [*lines, *before, f"_v = {made}", *checked, f"if len(_v) > {MAX_LIST}:", "    raise _KernelStop()",
                    *self.walk_lines("_v")[0],
                    f"{assigned} = _v"]
        key, kt = self.expr(index, env)
        counted = assign.op in ("+=", "-=", "*=") and elem == "int"  # `xs[p][i] -= 1`: the element's new count
        if kt != "int" or (assign.op != "=" and not counted) or vt != elem:
            raise Unsupported(f"'{assign.op}' of a {vt} into an element of '{name}'", assign.span)
        self.temps += 1
        k = f"_k{self.temps}"
        if counted:
            return [*lines, f"{k} = {key}", f"_l = list({place})",
                    f"_v = {self.checked(f'_l[{k}] {assign.op[0]} {value}')}",
                    *self.write_checks(self.rs.variables[name], elem), f"_l[{k}] = _v", f"{assigned} = tuple(_l)"]
        return [*lines, f"{k} = {key}", f"_v = {value}", *self.write_checks(self.rs.variables[name], elem),
                f"_l = list({place})", f"_l[{k}] = _v", f"{assigned} = tuple(_l)"]

    def map_of(self, node, env, depth):
        """`m[p]` of a map variable per player, or `m[k]` of one per key: (the variable, the
        key's text, the values' type), else None."""
        if not (isinstance(node, A.Index) and isinstance(node.obj, A.Name) and node.obj.name not in env):
            return None
        t = self.types.get(node.obj.name, "")
        if not t.startswith(("pmapd:", "kmapd:")):
            return None
        key, kt = self.expr(node.index, env, depth + 1)
        if t.startswith("pmapd:"):
            if kt != "int":
                raise Unsupported(f"'{node.obj.name}' indexed by {kt}")
            key = self.natural(key)
        elif kt not in ("str", "int"):
            raise Unsupported(f"'{node.obj.name}' indexed by {kt}")
        return node.obj.name, key, t.split(":", 1)[1]

    def map_write(self, assign, var: str, index, env, held=None) -> list[str]:
        """A write to a map, whole or at one key (a key it lacks is added at the end, as
        store.replace_in adds it): the map is replaced by a new dict, so a value read from
        it before keeps what it held.  The map is variable `var` held whole, or, with
        `held` (map_of's key text and values' type), the map of one player or key in it."""
        if held is None:
            values, place, lines = self.types[var][5:], ident("v", var), []
            assigned = f"{ident('v', var)} = V[{var!r}]"
        else:
            outer, values = held
            self.temps += 1
            at = f"_p{self.temps}"  # the player or key, worked out once
            place = assigned = f"{ident('v', var)}[{at}]"
            lines = [f"{at} = {outer}"]
        if index is None and isinstance(assign.value, A.MapLit) and not assign.value.entries:
            value, vt = "{}", f"dict:{values}"  # `{}`: of the variable's type
        else:
            value, vt = self.expr(assign.value, env)
        if index is None:
            if assign.op != "=" or vt != f"dict:{values}":
                raise Unsupported(f"a {vt} written into '{var}'")
            if values.startswith("list:"):  # the state holds lists as tuples
                return [*lines, f"_w = {value}", f"{assigned} = {{_k: tuple(_l) for _k, _l in _w.items()}}"]
            return [*lines, f"{assigned} = {value}"]
        key, kt = self.expr(index, env)
        if kt != "str":
            raise Unsupported(f"'{var}' indexed by {kt}")
        self.temps += 1
        k = f"_k{self.temps}"
        if assign.op != "=":
            if values != "int" or vt != "int" or assign.op not in ("+=", "-=", "*="):
                raise Unsupported(f"'{assign.op}' on {values}")
            value = self.checked(f"{place}[{k}] {assign.op[0]} {value}")  # a key it lacks: KeyError
        elif vt != values:
            raise Unsupported(f"a {vt} written into '{var}', a map of {values}")
        if values.startswith("list:"):
            value = f"tuple({value})"
        return [*lines, f"{k} = {key}", f"_v = {value}", *self.write_checks(self.rs.variables[var], values),
                f"{assigned} = {{**{place}, {k}: _v}}"]

    def first_passing(self, node, env, into: str):
        """`first([x for x in S if c])` (often behind a definition) as a loop that stops at
        the first element passing, for a key a write goes to: (lines, type), or (None, None)."""
        while isinstance(node, A.Call) and node.func in self.rs.defines and node.func not in self.recursive:
            d = self.rs.defines[node.func]
            if len(node.args) != len(d.params):
                return None, None
            bound = {p: self.expr(a, env, 1) for p, a in zip(d.params, node.args)}
            env = {k: v for k, v in env.items() if k == "player"} | {p: (f"({x})", t) for p, (x, t) in bound.items()}
            node = d.expr
        if not (isinstance(node, A.Call) and node.func == "first" and len(node.args) == 1):
            return None, None
        filtered = _filter_of(node.args[0])
        if filtered is None:
            return None, None
        var, seq, conds = filtered
        seq_text, st = self.expr(seq, env, 1)
        if not st.startswith("list:"):
            return None, None
        self.temps += 1
        local = ident("c", var, self.temps)
        inner = {**env, var: (local, st[5:])}
        tests = " and ".join(f"({self.truth_in(c, inner, 1)})" for c in conds) or "True"
        pre, walked = self.walk_lines(seq_text)
        return [*pre, f"for {local} in {walked}:", f"    if {tests}:", f"        {into} = {local}", "        break",
                "else:", "    raise _KernelStop()"], st[5:]

    @staticmethod
    def write_checks(decl, t: str) -> list[str]:
        """A write keeps the variable's declared type, bounds and choices (store.check_bounds)."""
        lines = []  # its type is the expression's, which the writer checked against the declaration
        if t.startswith("dict:"):  # a map written whole: its entries are not checked (store.check_bounds)
            return lines
        if t == "int":
            for bound, op in ((decl.min, "<"), (decl.max, ">")):
                if bound is not None:
                    lines += [f"if _v {op} {bound}:",
                              f"    _v = {bound}" if decl.bounds == "clamp" else "    raise _KernelStop()"]
        if decl.choices is not None:
            allowed = tuple(c for c in decl.choices if type(c).__name__ == _PY[t])
            lines += [f"if _v not in {allowed!r}:", "    raise _KernelStop()"]
        return lines
