"""Definitions inlined or remembered, comprehensions and the walks of lists they make,
property columns and the ranges of ints (mixed into fused._FusedWriter)."""
from __future__ import annotations

import ast
import collections
from meeple.dsl import expr_ast as A
from meeple.dsl.functions import SCAN_FREE
from ..runtime.context import COST_LIMIT
from meeple.dsl.library_core import CALL_COST, MAX_CALL_DEPTH
from .safe_source import ident
from .fused_zones import Unsupported, plain as _plain
from .fused_support import (LIMIT, _CHARGED_OR_SHORT, _LONGEST, _RANGED, _READ_AGAIN, _SCALARS,
                            _WALKS_WITH_LAMBDA, _WRITTEN_OUT, _charged_first, _combined, _given, _key_part,
                            _walk)


class Definitions:
    def inline(self, name, args, env, depth) -> tuple[str, str]:
        """A definition's body in place of its call, its parameters bound to the arguments'
        source (expressions have no side effects, so an argument may be written twice)."""
        d = self.rs.defines[name]
        if len(args) != len(d.params):
            raise Unsupported(f"'{name}' called with {len(args)} arguments")
        if name in self.recursive:
            return self.recursive_call(name, args, env, depth)
        inner = {}
        for p, a in zip(d.params, args):
            x, t = self.expr(a, env, depth + 1)
            if ":=" in x:  # the body may put it where Python forbids `:=` (a comprehension's iterable)
                self.in_iterable += 1
                try:
                    x, t = self.expr(a, env, depth + 1)
                finally:
                    self.in_iterable -= 1
            inner[p] = (f"({x})", t)
        # An argument that is more than a name or a constant is worked out once, first, as
        # the reference works out a call's arguments: bound with `:=`, or, in a
        # comprehension's iterable (where Python forbids `:=`), passed to a lambda of the body.
        bound, passed = [], []
        for p, (x, t) in list(inner.items()):
            if not _plain(x):
                self.temps += 1
                if self.in_iterable:  # no `:=` there: the body becomes a lambda called with it
                    passed.append((f"_a{self.temps}", x))
                else:
                    bound.append(f"(_a{self.temps} := {x})")
                inner[p] = (f"_a{self.temps}", t)
        # Names of the caller's comprehension variables stay visible to nothing in the body.
        scope = {k: v for k, v in env.items() if k == "player"} | inner
        key = self.remembered_by(name, scope)
        body, t = self.expr(d.expr, scope, depth + 1)
        if key is not None:
            memo = self.def_memos.setdefault(name, ident("md", len(self.def_memos)))
            parts = f"({''.join(k + ', ' for k in key)})"
            if self.in_iterable:  # no `:=` there: the value is worked out by a call when missing
                body = f"_fz_memo({memo}, {parts}, lambda: {body})"
            else:
                self.temps += 1
                got, k = f"_mv{self.temps}", f"_mk{self.temps}"
                body = (f"({got} if ({got} := {memo}.get(({k} := {parts}), _MISSING)) is not _MISSING "
                        f"else _fz_remember({memo}, {k}, {body}))")
        if passed:
            body = f"(lambda {', '.join(n for n, _ in passed)}: {body})({', '.join(x for _, x in passed)})"
        return (f"({', '.join(bound)}, {body})[-1]" if bound else body), t

    def recursive_call(self, name, args, env, depth) -> tuple[str, str]:
        """A call of a definition that calls itself: its nested function (written once,
        `recursive_function`) called with the arguments worked out first, as the reference
        works them out, and the depth of the calls, which the function limits."""
        d = self.rs.defines[name]
        texts, types = [], []
        for a in args:  # (in a comprehension's iterable, the writer writes them without `:=`)
            x, t = self.expr(a, env, depth + 1)
            texts.append(x)
            types.append(t)
        if "player" not in d.params and any(isinstance(n, A.Name) and n.name == "player" for n in _walk(d.expr)):
            if "player" not in env:
                raise Unsupported(f"definition '{name}' reads the player where there is none")
            texts.append(env["player"][0])
            types.append(env["player"][1])
        known = self.recursive_fns.get(name)
        if known is None:
            known = self.recursive_function(name, tuple(types))
        fn, given, t = known
        if tuple(types) != given:
            raise Unsupported(f"definition '{name}' calls itself and is called with arguments of other types")
        return f"{fn}({''.join(x + ', ' for x in texts)}{'_dd + 1' if self.in_recursive else '1'})", t

    def recursive_function(self, name: str, types: tuple) -> tuple:
        """The nested function of a definition that calls itself, for arguments of `types`
        (the player last, where the body reads it): its body written as its value's type
        is guessed (bool, int, text) until the body has the type guessed.  Each call is
        charged as the reference charges one, and the calls stop the tier where they nest
        deeper than half the reference's limit (the loop then works it out, or reports)."""
        d = self.rs.defines[name]
        fn = ident("_df", name)
        names = [ident("_dp", p) for p in d.params] + (["_dpl"] if len(types) > len(d.params) else [])
        scope = {p: (x, t) for p, x, t in zip([*d.params, "player"], names, types)}
        saved = self.in_iterable, self.in_recursive
        self.in_iterable, self.in_recursive = 0, True
        try:
            for guess in ("bool", "int", "str"):
                self.recursive_fns[name] = (fn, types, guess)
                try:
                    body, t = self.expr(d.expr, scope, 0)
                except Unsupported:
                    continue
                if t == guess:
                    break
            else:
                self.recursive_fns.pop(name, None)
                raise Unsupported(f"definition '{name}' calls itself, and its value is not a bool, an int or a text",
                                  d.span)
        finally:
            self.in_iterable, self.in_recursive = saved
        self.recursive_defs[name] = [
            f"def {fn}({''.join(x + ', ' for x in names)}_dd):",
            "    nonlocal _cost",
            f"    if _dd > {MAX_CALL_DEPTH // 2}:", "        raise _KernelStop()",
            f"    _cost += {CALL_COST}",
            f"    if _cost > {COST_LIMIT // 4}:", "        raise _KernelStop()",
            f"    return {body}"]
        return self.recursive_fns[name]

    def recursive_prologue(self) -> list[str]:
        """The nested functions of the definitions that call themselves, before any call."""
        if not self.recursive_defs:
            return []
        return ["_cost = 0", *(x for lines in self.recursive_defs.values() for x in lines)]

    def defined_as(self, node):
        """The expression a name stands for when it is a definition without parameters
        (through any chain of them), else the node itself."""
        while isinstance(node, A.Name) and node.name in self.rs.defines and not self.rs.defines[node.name].params:
            node = self.rs.defines[node.name].expr
        return node

    def short_constant(self, node) -> bool:
        """Whether a comprehension walks a list that is the same all game and short (the
        players, a written list): walking it again costs less than remembering."""
        node = self.defined_as(node)
        if isinstance(node, A.ListLit):
            return len(node.items) <= _WRITTEN_OUT and all(isinstance(x, A.Const) for x in node.items)
        return isinstance(node, A.Call) and node.func == "players" and not node.args

    def remembered_by(self, name: str, scope: dict) -> list[str] | None:
        """What a definition's value depends on, as the parts of a key it is remembered by
        within the game, when remembering pays and is sound; else None.  It pays for a
        definition that walks a list (other than a short one it is given, such as a hand
        of a few cards, where its key would hold a map's entries); it is sound when the
        value depends only on its arguments (and the player), the game, and variables of
        plain values (zones and item properties change in place here, so a definition
        reading them is worked out each time).  Every part is a value, not an identity: a map is keyed by its entries."""
        seen, todo, reads = {name}, [name], set()
        walks = names_player = builds_text = False
        walks_more = False  # walks something other than a list it is given
        while todo:
            d = self.rs.defines[todo.pop()]
            for n in _walk(d.expr):
                names_player = names_player or (isinstance(n, A.Name) and n.name == "player")
                builds_text = builds_text or _builds_text(n)
                if isinstance(n, (A.ListComp, A.MapComp, A.Generator)):
                    looped = [c.iter for c in n.clauses if isinstance(c, A.For) and not self.short_constant(c.iter)]
                    walks = walks or bool(looped)
                    walks_more = walks_more or any(not _given(i, d.params) for i in looped)
                if isinstance(n, A.Call) and n.func in _WALKS_WITH_LAMBDA and n.args and \
                        not self.short_constant(n.args[0]):  # `count_if(g, k => …)` walks g
                    walks = True
                    walks_more = walks_more or not _given(n.args[0], d.params)
                if isinstance(n, A.Member) and n.name not in ("id", "kind") and \
                        any(n.name in k.props for k in self.rs.components.values()):
                    return None  # an item property
                if isinstance(n, A.Call) and n.func in self.rs.defines and n.func not in seen:
                    seen.add(n.func)
                    todo.append(n.func)
                if isinstance(n, A.Name) and n.name not in d.params:
                    if n.name in self.rs.zones:
                        return None
                    if n.name in self.rs.variables:
                        reads.add(n.name)
                    elif n.name in self.rs.defines and n.name not in seen:
                        seen.add(n.name)
                        todo.append(n.name)
        if not walks and not (builds_text and not reads):
            return None  # a text made of its arguments alone (`'h-' + str(r)`) is looked up, not made again
        by_index = self.read_by_index(name, seen)
        parts = []
        keyed_by_a_map = any(t.startswith("dict:") for _, t in scope.values()) or any(
            self.types.get(v, "").startswith(("pmapd:", "gmap:", "kmapd:")) for v in reads)
        if keyed_by_a_map and not walks_more:
            return None  # walking a list it is given costs less than a key made of a map's entries
        for pname, (text, t) in scope.items():
            if pname == "player" and not names_player and pname not in self.rs.defines[name].params:
                continue  # the caller's player, which the body never reads
            part = _key_part(text, t)
            if part is None:
                return None
            parts.append(part)
        for var in sorted(reads):
            t = self.types.get(var, "")
            if t.startswith("pmapd:") and t[6:] in _SCALARS:  # one map per player: the one read, or each one
                if var in by_index and by_index[var] in scope and scope[by_index[var]][1] == "int":
                    parts.append(f"tuple({ident('v', var)}[{self.natural(scope[by_index[var]][0])}].items())")
                else:
                    parts.append(f"tuple([tuple(_m.items()) for _m in {ident('v', var)}])")
                continue
            part = _key_part(ident("v", var), {"pmap:": "list:", "gmap:": "dict:"}.get(t[:5], "") + t[5:]
                             if t.startswith(("pmap:", "gmap:")) else t)
            if part is None:
                return None
            parts.append(part)
        return parts

    def read_by_index(self, name: str, reached: set) -> dict:
        """variable -> the parameter (or `player`) of definition `name` by which its body
        alone reads it, every time (`supply[p]`), for the variables read only that way
        (`reached`: the definitions it calls, itself among them; a variable one of them
        reads is read some other way too)."""
        d = self.rs.defines[name]
        found, elsewhere = {}, set()
        for other in reached - {name}:
            elsewhere |= {n.name for n in _walk(self.rs.defines[other].expr) if isinstance(n, A.Name)}
        rebound = {x for n in _walk(d.expr) for x in A.binds(n)}
        indexed = [n for n in _walk(d.expr) if isinstance(n, A.Index) and isinstance(n.obj, A.Name) and
                   isinstance(n.index, A.Name) and n.index.name in (*d.params, "player") and
                   n.index.name not in rebound]  # `supply[p] for p in …` reads another p
        plain = collections.Counter(n.name for n in _walk(d.expr) if isinstance(n, A.Name))
        for n in indexed:
            var, by = n.obj.name, n.index.name
            found.setdefault(var, set()).add(by)
        return {var: next(iter(by)) for var, by in found.items()
                if len(by) == 1 and var not in elsewhere and var in self.rs.variables and
                plain[var] == sum(1 for n in indexed if n.obj.name == var)}

    def comprehension(self, node, env, depth, generator: bool = False) -> tuple[str, str]:
        if isinstance(node, A.ListComp) and not generator:
            written = self.written_out(node, env, depth)
            if written is not None:
                return written
        if isinstance(node, A.MapComp):
            written = self.map_written_out(node, env, depth)
            if written is not None:
                return written
        charge = []  # the first list walked, charged in line before the comprehension where `:=` may be written
        inner, clauses = self.clauses(node.clauses, env, depth, None if generator or self.in_iterable else charge)
        if isinstance(node, A.MapComp):  # later keys replace earlier ones, in the first one's place
            key, kt = self.expr(node.key, inner, depth + 1)
            value, vt = self.expr(node.value, inner, depth + 1)
            # Texts that may be none (a `cell` off the board) are checked when the map is made:
            # a none stops the tier (the loop goes on with it), so the map holds texts.
            unsure = "str?" in (kt, vt, vt[5:])
            kt, vt = (kt.replace("str?", "str"), vt.replace("str?", "str")) if unsure else (kt, vt)
            if kt != "str" or vt not in _SCALARS + ("list:str", "list:int"):
                raise Unsupported(f"a map of {kt} to {vt}")
            made = f"_fz_sized({{{key}: {value} {' '.join(clauses)}}})"
            return _charged_first(f"_fz_no_none({made})" if unsure else made, charge), f"dict:{vt}"
        element, et = self.expr(node.element, inner, depth + 1)
        body = f"{element} {' '.join(clauses)}"
        if generator:
            return body, f"gen:{et}"
        return _charged_first(f"[{body}]", charge), f"list:{et}"

    def made_once(self, value: dict) -> str:
        """The module's name for a map of constants, made once."""
        name = self.constant_maps.setdefault(repr(value), f"_fz_map{len(self.constant_maps)}")
        self.ns[name] = value  # never changed in place: every write makes a new map
        return name

    def map_written_out(self, node, env, depth) -> tuple[str, str] | None:
        """`{k: v for k in [k1, k2, …]}` over a few constants as the map `{k1: v1, k2: v2, …}`
        (a later key replaces an earlier one in its place, in both), made once when every
        value is a constant."""
        constants = self.few_constants(node.clauses[0], env, most=_WRITTEN_OUT) if len(node.clauses) == 1 else None
        if constants is None:
            return None
        pairs = [(self.expr(node.key, {**env, **value}, depth + 1), self.expr(node.value, {**env, **value}, depth + 1))
                 for value in constants]
        kinds, values = {kt for (_, kt), _ in pairs}, {vt for _, (_, vt) in pairs}
        if kinds != {"str"} or len(values) != 1 or next(iter(values)) not in _SCALARS:
            return None  # the comprehension says what it cannot take
        vt = values.pop()
        var = node.clauses[0].names[0]
        if isinstance(node.value, A.Const) and isinstance(node.key, A.Name) and node.key.name == var:
            return self.made_once({ast.literal_eval(value[var][0]): node.value.value for value in constants}), \
                f"dict:{vt}"
        return "{" + ", ".join(f"{k}: {v}" for (k, _), (v, _) in pairs) + "}", f"dict:{vt}"

    def clauses(self, given, env, depth, charge: list | None = None) -> tuple[dict, list[str]]:
        """A comprehension's `for` and `if` clauses as Python's, and the names they bind.
        With `charge`, the first list walked is held in a local, and the test charging it
        (to be written before the comprehension) is appended to `charge`."""
        inner = dict(env)
        clauses = []
        for clause in given:
            if isinstance(clause, A.For):
                pairs = self.map_pairs(clause, inner, depth)
                self.in_iterable += 1
                try:
                    seq, t = pairs[:2] if pairs else self.expr(clause.iter, inner, depth + 1)
                finally:
                    self.in_iterable -= 1
                if not t.startswith("list:"):
                    raise Unsupported("a loop over something other than a list")
                self.temps += 1
                if len(clause.names) == 1:
                    local = ident("c", clause.names[0], self.temps)
                    self.note_length(local, clause.iter)
                    if t == "list:int" and (bounds := self.loop_range(clause.iter, inner)) is not None:
                        self.local_ranges[local] = bounds
                    inner[clause.names[0]] = (local, t[5:])
                    walked = self.walked(seq, True)
                    if charge is not None and not clauses and walked != seq:
                        self.temps += 1
                        walked = f"_w{self.temps}"
                        charge.append(f"(_cost := _cost + len({walked} := {seq})) <= {COST_LIMIT // 4}")
                    clauses.append(f"for {local} in {walked}")
                    continue
                types = pairs[2] if pairs else [t[10:]] * len(clause.names) if t.startswith("list:list:") else None
                if types is None:
                    raise Unsupported("a loop that unpacks something other than lists")
                # a list of the wrong length: Python raises, the loop reports the language's error
                names = [ident("c", n, self.temps) for n in clause.names]
                inner.update((n, (x, et)) for n, x, et in zip(clause.names, names, types))
                clauses.append(f"for {', '.join(names)}{',' if len(names) == 1 else ''} in {self.walked(seq, True)}")
            else:
                clauses.append(f"if {self.truth_in(clause.cond, inner, depth)}")
                name = _not_none(clause.cond)
                if name is not None and inner.get(name, (None, None))[1] == "str?":
                    inner[name] = (inner[name][0], "str")  # `if x != none`: a text from here on
        return inner, clauses

    def walked(self, text: str, iterable: bool = False) -> str:
        """`text`, a list an expression walks, charged for its length to the tier's budget
        in line (a library function's list), or by _walked where `:=` cannot be written (a
        comprehension's `iterable`, a lambda); a range is charged already, and the players
        or a written list are a few elements at most."""
        if _CHARGED_OR_SHORT.match(text) or text == self.consts.get(("players", ())) or text.strip("()") in self.charged:
            return text
        if self.in_iterable or iterable:
            return f"_fz_walk(ctx, {text})"
        held = text = text[1:-1] if text[:1] == "(" and text[1:-1].isidentifier() else text
        if not _READ_AGAIN.match(text) or text.startswith("("):
            self.temps += 1
            held = f"_w{self.temps}"
            text = f"({held} := {text})"
        # A function over a short list (within SCAN_FREE, as the reference's `in` is free)
        # is not charged: its work is a few steps of the loop that led to it, which is.
        return f"({held} if len({text}) <= {SCAN_FREE} else _fz_walk(ctx, {held}))"

    def walk_lines(self, text: str) -> tuple[list[str], str]:
        """(lines, the loop's list) for a `for` statement over `text`, the lines charging
        its length to the tier's budget first (as _walked charges it): a name, a place or a
        part the listing keeps is read again by the loop, anything else is held in a local."""
        if self.walked(text) == text:
            return [], text
        if not _READ_AGAIN.match(text):
            self.temps += 1
            held = f"_w{self.temps}"
            return [f"{held} = {text}", *self.walk_lines(held)[0]], held
        return [f"if (_cost := _cost + len({text})) > {COST_LIMIT // 4}:", "    raise _KernelStop()"], text

    def map_pairs(self, clause, env, depth):
        """`for k, v in items(m)` over a map: (its pairs' source, a list type, the names' types)."""
        it = clause.iter
        if len(clause.names) != 2 or not (isinstance(it, A.Call) and it.func == "items" and len(it.args) == 1):
            return None
        m, mt = self.expr(it.args[0], env, depth + 1)
        if not mt.startswith("dict:"):
            return None
        return f"{m}.items()", "list:pair", ["str", mt[5:]]

    def prop_column(self, name: str) -> str:
        """The local holding the property's column for the playout (fused_zones.PropColumn)."""
        return self.prop_columns.setdefault(name, ident("col", len(self.prop_columns)))

    def prop_read(self, obj: str, name: str) -> str:
        """An item's property in line: its column's entry, filled from the state on the
        first read."""
        return f"{self.prop_column(name)}[{obj if _plain(obj) else f'({obj})'}.id]"

    def int_range(self, node, env) -> tuple[int, int] | None:
        """Bounds on the int `node` can hold, where they follow from constants, variables
        with declared bounds and lengths (`_within_limit` then needs no check of the
        language's range); None where they do not."""
        if isinstance(node, A.Const):
            return (node.value, node.value) if type(node.value) is int else None
        if isinstance(node, A.Name) and node.name in env:  # a let's or a loop's, bounded where it was bound
            return self.local_ranges.get(env[node.name][0])
        if isinstance(node, A.Name) and self.types.get(node.name) == "int":
            return self.var_range(node.name)
        if isinstance(node, A.Index) and isinstance(node.obj, A.Name) and node.obj.name not in env and \
                self.types.get(node.obj.name) in _RANGED:
            return self.var_range(node.obj.name)
        if isinstance(node, A.Call) and node.func in ("len", "count") and len(node.args) == 1 and \
                not (node.func in env or node.func in self.rs.defines):
            return (0, _LONGEST)
        if isinstance(node, A.Call) and node.func == "player_count" and not node.args and node.func not in self.rs.defines:
            return (0, _LONGEST) if self.players is None else (self.players, self.players)
        if isinstance(node, A.Call) and node.func == "index_of" and len(node.args) == 2 and \
                not (node.func in env or node.func in self.rs.defines):
            return (-1, _LONGEST)  # a place in a list, or -1
        if isinstance(node, (A.Unary, A.Binary)):
            # An operation that may pass the language's range is checked where it is written
            # (`checked`), so the value it hands on is within that range.
            return _clamped(self.op_range(node, env))
        if isinstance(node, A.Cond):
            one, other = self.int_range(node.then, env), self.int_range(node.orelse, env)
            return None if one is None or other is None else (min(one[0], other[0]), max(one[1], other[1]))
        return None

    def op_range(self, node, env) -> tuple[int, int] | None:
        """Bounds on what an operation on ints works out, before any check of the
        language's range: where they pass it, the operation is written checked."""
        if isinstance(node, A.Unary) and node.op == "-":
            inner = self.int_range(node.operand, env)
            return None if inner is None else (-inner[1], -inner[0])
        if isinstance(node, A.Binary):
            return _combined(node.op, self.int_range(node.left, env), self.int_range(node.right, env))
        return None

    def loop_range(self, seq, env) -> tuple[int, int] | None:
        """Bounds on the ints a loop over `seq` binds, where it is `range(...)` of bounded
        ints with no step."""
        if not (isinstance(seq, A.Call) and seq.func == "range" and 1 <= len(seq.args) <= 2
                and not (seq.func in env or seq.func in self.rs.defines)):
            return None
        ends = [self.int_range(a, env) for a in seq.args]
        if None in ends:
            return None
        low = ends[0][0] if len(ends) == 2 else 0
        return (low, max(low, ends[-1][1] - 1))

    def var_range(self, name: str) -> tuple[int, int]:
        """An int variable's declared bounds (the language's range where none is declared),
        proven on entry (`prologue`) and kept by every write's checks."""
        decl = self.rs.variables[name]
        self.ranged.add(name)
        return (-LIMIT if decl.min is None else decl.min, LIMIT if decl.max is None else decl.max)

    def checked(self, text: str) -> str:
        """An int result within the language's range (past it the reference reports)."""
        if self.in_iterable:
            return f"_ck({text})"
        self.temps += 1
        t = f"_i{self.temps}"
        return f"({t} if {-LIMIT} <= ({t} := {text}) <= {LIMIT} else _stop())"

    def truth_in(self, cond, env, depth) -> str:
        text, t = self.expr(cond, env, depth + 1)
        if t != "bool":
            raise Unsupported("a condition that is not bool")
        return text


def _not_none(cond) -> str | None:
    """The name a test `x != none` (or `none != x`) proves is not none, else None."""
    if not (isinstance(cond, A.Binary) and cond.op == "!="):
        return None
    for one, other in ((cond.left, cond.right), (cond.right, cond.left)):
        if isinstance(one, A.Name) and isinstance(other, A.Const) and other.value is None:
            return one.name
    return None


def _clamped(bounds):
    """Bounds cut to the language's range (what a checked operation hands on)."""
    return None if bounds is None else (max(bounds[0], -LIMIT), min(bounds[1], LIMIT))


def _builds_text(node) -> bool:
    """Whether `node` makes a new text (`str(n)`, a text literal joined with `+`): worth
    remembering by its arguments, as a lookup costs less than the joins and their checks,
    and the text it finds keeps its hash for the map it is a key of."""
    if isinstance(node, A.Call):
        return node.func in ("str", "join")
    return isinstance(node, A.Binary) and node.op == "+" and any(
        isinstance(x, A.Const) and isinstance(x.value, str) for x in (node.left, node.right))
