"""`any`, `all`, counts and sums written as loops, unrolled or written out over a few
constants, and conditions tested into a flag (mixed into fused._FusedWriter)."""
from __future__ import annotations

from meeple.dsl import expr_ast as A
from .fused_decisions import _replaced
from .safe_source import ident
from .fused_zones import Unsupported, pair_loop, plain as _plain
from .fused_support import _WRITTEN_OUT, _invariant_reads


class Quantifiers:
    def condition(self, node, env, flag: str, depth: int) -> list[str]:
        """Lines that set `flag` to the value of the bool expression `node`: `any`/`all`
        as loops that stop at the first decisive element (a generator per element costs
        more than the test), `and`/`or` as nested tests, definitions inlined."""
        if depth > 40:
            raise Unsupported("definitions nested too deeply to inline")
        if isinstance(node, A.BoolOp):
            left = self.condition(node.left, env, flag, depth + 1)
            right = self.condition(node.right, env, flag, depth + 1)
            return left + [f"if {'' if node.op == 'and' else 'not '}{flag}:"] + ["    " + x for x in right]
        if isinstance(node, (A.Name, A.Call)):
            name = node.name if isinstance(node, A.Name) else node.func
            args = () if isinstance(node, A.Name) else node.args
            if name not in env and name in self.rs.defines and name not in self.recursive and \
                    len(args) == len(self.rs.defines[name].params):
                before, inner = self.bound_arguments(self.rs.defines[name], args, env, depth + 1)
                return before + self.condition(self.rs.defines[name].expr, inner, flag, depth + 1)
            if self.looped_quantifier(node, env):
                return self.quantifier(node.func, node.args[0], env, flag, depth)
        return [f"{flag} = {self.truth_in(node, env, depth)}"]

    def bound_arguments(self, d, args, env, depth: int = 0) -> tuple[list[str], dict]:
        """(statements, scope) for a definition's body written as statements: each
        argument worked out once, before the body, as the reference does (bound to a
        local unless it is a name or a constant); the scope holds the caller's player and
        the parameters, nothing else of the caller's."""
        lines, scope = [], {k: v for k, v in env.items() if k == "player"}
        for param, arg in zip(d.params, args):
            x, t = self.expr(arg, env, depth)
            if not _plain(x):
                self.temps += 1
                lines.append(f"_a{self.temps} = {x}")
                x = f"_a{self.temps}"
            scope[param] = (x, t)
        return lines, scope

    def tested(self, cond, env) -> tuple[list[str], str]:
        """(statements, test) for a condition: one with `any`/`all` in it is written as
        loops first (`condition`), which run faster than generators."""
        if not self.has_quantifier(cond, set(env)):
            return [], self.truth(cond, env)
        self.temps += 1
        flag = f"_r{self.temps}"
        return self.condition(cond, env, flag, 0), flag

    def quantifier(self, func: str, gen, env, flag: str, depth: int) -> list[str]:
        """`any`/`all` over a generator as loops (one per `for` clause, an `if` per filter)
        that stop at the decisive element, leaving its answer in `flag`."""
        if any(isinstance(c, A.For) and len(c.names) != 1 and not pair_loop(c) for c in gen.clauses):
            return [f"{flag} = {self.truth_in(A.Call(func, (gen,), gen.span, gen.span), env, depth)}"]
        looped = {n for c in gen.clauses if isinstance(c, A.For) for n in c.names}
        hoisted, element, before = {}, gen.element, []
        for sub in _invariant_reads(gen.element, looped):  # the same for every element: read once
            text, st = self.expr(sub, env, depth + 1)
            self.temps += 1
            name = f"_h{self.temps}"
            before.append(f"{name} = {text}")
            hoisted[id(sub)] = A.Name("#" + name, sub.span)  # a name no ruleset can write
            env = {**env, "#" + name: (name, st)}
        if hoisted:
            element = _replaced(gen.element, hoisted)
        written = self.element_by_element(func, gen, element, env, depth, before)
        if written is not None:
            return before + [f"{flag} = {written}"]
        self.temps += 1
        decided = flag if func == "any" else f"not {flag}"
        loops = self.clause_loops(func, list(gen.clauses), element, env, depth, flag, f"_q{self.temps}", decided)
        return before + [f"{flag} = {func != 'any'}"] + loops

    def element_by_element(self, func: str, gen, element, env, depth, before: list[str]) -> str | None:
        """`all(t for n in line)` over one list whose length is known (a line of
        `lines(b, k)`) and a test without quantifiers, as `t0 and t1 and …` (`or` for any);
        a test that compares an element with a value read once before the loop from that
        very element (`cell[n] == cell[line[0]]`) is true there, and left out."""
        if len(gen.clauses) != 1 or not isinstance(gen.clauses[0], A.For) or len(gen.clauses[0].names) != 1:
            return None
        positions = self.by_position(gen.clauses[0], env, depth)
        if positions is None or self.has_quantifier(element, set(env) | {gen.clauses[0].names[0]}):
            return None
        read_once = {f"({text} == {h})" for h, text in (line.split(" = ", 1) for line in before)}
        parts = [self.truth_in(element, {**env, **value}, depth) for value in positions]
        kept = [x for x in parts if x not in read_once] or ["True"]
        if func == "any":  # a test true at some position decides an `any`: none is left out
            return " or ".join(f"({x})" for x in parts)
        return " and ".join(f"({x})" for x in kept)

    def clause_loops(self, func: str, clauses: list, element, env, depth, flag: str, inner: str, decided: str,
                     nested: bool = False) -> list[str]:
        """The loops of `quantifier` from `clauses` on; a loop inside another ends the outer
        one too once the answer is known."""
        if not clauses:
            decisive = inner if func == "any" else f"not {inner}"
            return self.condition(element, env, inner, depth + 1) + \
                [f"if {decisive}:", f"    {flag} = {func == 'any'}", "    break"]
        clause, rest = clauses[0], clauses[1:]
        if isinstance(clause, A.If):
            body = self.clause_loops(func, rest, element, env, depth, flag, inner, decided, nested)
            return [f"if {self.truth_in(clause.cond, env, depth)}:", *("    " + x for x in body)]
        if len(clause.names) == 2:  # `for k, v in items(m)`: the map's pairs, in its order
            pairs = self.map_pairs(clause, env, depth)
            if pairs is None:
                raise Unsupported("a loop over the pairs of something other than a map")
            self.temps += 1
            names = [ident("c", n, self.temps) for n in clause.names]
            inner_env = {**env, **{n: (x, pt) for n, x, pt in zip(clause.names, names, pairs[2])}}
            body = self.clause_loops(func, rest, element, inner_env, depth, flag, inner, decided, nested=True)
            pre, walked = self.walk_lines(pairs[0])
            return [*pre, f"for {', '.join(names)} in {walked}:", *("    " + x for x in body)] + \
                ([f"if {decided}:", "    break"] if nested else [])
        seq, t = self.expr(clause.iter, env, depth + 1)
        if not t.startswith("list:"):
            raise Unsupported("a loop over something other than a list")
        positions = self.by_position(clause, env, depth, (seq, t)) if not rest else None
        if positions is not None and not self.has_quantifier(element, set(env) | {clause.names[0]}):
            # over a list whose length is known (a line of `lines(b, k)`): its elements one by one
            parts = [self.truth_in(element, {**env, **value}, depth) for value in positions]
            decisive = inner if func == "any" else f"not {inner}"
            return [f"{inner} = {(' and ' if func == 'all' else ' or ').join(f'({x})' for x in parts)}",
                    f"if {decisive}:", f"    {flag} = {func == 'any'}"] + \
                ([f"if {decided}:", "    break"] if nested else [])
        self.temps += 1
        local = ident("c", clause.names[0], self.temps)
        self.note_length(local, clause.iter)
        inner_env = {**env, clause.names[0]: (local, t[5:])}
        body = self.clause_loops(func, rest, element, inner_env, depth, flag, inner, decided, nested=True)
        pre, walked = self.walk_lines(seq)
        return [*pre, f"for {local} in {walked}:", *("    " + x for x in body)] + \
            ([f"if {decided}:", "    break"] if nested else [])

    def unrolled(self, f: str, gen, env, depth) -> str | None:
        """`all(c for x in [k1, k2, …])` over a short list of constants (or over a list whose
        length is known, `by_position`), as `c1 and c2 and …` (`or` for any): the same
        values, stopping at the same element."""
        if len(gen.clauses) != 1:
            return None
        constants = self.few_constants(gen.clauses[0], env)
        if constants is None:
            constants = self.by_position(gen.clauses[0], env, depth)
        if constants is None:
            return None
        parts = []
        for value in constants:
            text, t = self.expr(gen.element, {**env, **value}, depth + 1)
            if t != "bool":
                raise Unsupported(f"{f} over values that are not bool")
            parts.append(f"({text})")
        return "(" + (" and " if f == "all" else " or ").join(parts) + ")"

    def counted(self, node, env, depth) -> str | None:
        """`count(x for x in [k1, k2, …] if c)` (or `len` of that list) over a short list of
        constants, as `(c1) + (c2) + …`: the elements that pass, without making them.  The
        list may be a definition's value, called with names or constants."""
        if isinstance(node, (A.Call, A.Name)) and depth < 40:
            name, args = (node.name, ()) if isinstance(node, A.Name) else (node.func, node.args)
            d = self.rs.defines.get(name) if name not in env else None
            if d is None or len(args) != len(d.params):
                return None
            inner = {k: v for k, v in env.items() if k == "player"}
            for param, arg in zip(d.params, args):
                x, t = self.expr(arg, env, depth + 1)
                if not _plain(x):
                    return None
                inner[param] = (x, t)
            return self.counted(d.expr, inner, depth + 1)
        if not isinstance(node, (A.Generator, A.ListComp)) or not isinstance(node.element, (A.Name, A.Const)) or \
                not all(isinstance(c, A.If) for c in node.clauses[1:]):
            return None
        constants = self.few_constants(node.clauses[0], env)
        if constants is None or (isinstance(node.element, A.Name) and node.element.name not in constants[0]):
            return None
        parts = []
        for value in constants:
            tests = [self.truth_in(c.cond, {**env, **value}, depth) for c in node.clauses[1:]]
            parts.append("(" + " and ".join(tests) + ")" if tests else "1")
        return "(" + " + ".join(parts) + ")"

    def summed(self, node, env, depth) -> str | None:
        """`sum(v for x in [k1, k2, …] if c)` over a short list of constants, as
        `(v1 if c1 else 0) + (v2 if c2 else 0) + …`: the same ints added, with no list made."""
        if not isinstance(node, (A.Generator, A.ListComp)) or not all(isinstance(c, A.If) for c in node.clauses[1:]):
            return None
        constants = self.few_constants(node.clauses[0], env, most=_WRITTEN_OUT)
        if constants is None:
            return None
        parts = []
        for value in constants:
            inner = {**env, **value}
            text, t = self.expr(node.element, inner, depth + 1)
            if t != "int":
                return None
            tests = [self.truth_in(c.cond, inner, depth) for c in node.clauses[1:]]
            parts.append(f"({text} if {' and '.join(tests)} else 0)" if tests else f"({text})")
        return "(" + " + ".join(parts) + ")"

    def written_out(self, node, env, depth) -> tuple[str, str] | None:
        """A list comprehension whose first loop is over a few constants (the players, in a
        playout written for their number), written out element by element:
        `[e for x in [k1, k2] if c]` as `[*((e1,) if c1 else ()), *((e2,) if c2 else ())]`,
        and `[y for x in [k1, k2] for y in s]` as `[*s1, *s2]`; the same order of work."""
        constants = self.few_constants(node.clauses[0], env) if node.clauses else None
        rest = node.clauses[1:]
        inner_loop = len(rest) == 1 and isinstance(rest[0], A.For) and len(rest[0].names) == 1 and \
            isinstance(node.element, A.Name) and node.element.name == rest[0].names[0]
        if constants is None or not (inner_loop or all(isinstance(c, A.If) for c in rest)):
            return None
        parts, types = [], set()
        for value in constants:
            bound = {**env, **value}
            if inner_loop:
                seq, t = self.expr(rest[0].iter, bound, depth + 1)
                if not t.startswith("list:"):
                    return None
                parts.append(seq)
                types.add(t[5:])
                continue
            element, t = self.expr(node.element, bound, depth + 1)
            types.add(t)
            tests = [self.truth_in(c.cond, bound, depth) for c in rest]
            parts.append(f"(({element},) if {' and '.join(tests)} else ())" if tests else f"({element},)")
        if len(types) != 1:
            return None
        return "[" + ", ".join(f"*{x}" for x in parts) + "]", f"list:{types.pop()}"

    def by_position(self, clause, env, depth, written: tuple[str, str] | None = None) -> list[dict] | None:
        """For `for x in line` over a list whose length is known (see note_length), each
        position as the binding of `x` (`line[0]`, `line[1]`, …); else None.  `written`:
        the loop's list as already written, with its type."""
        if not isinstance(clause, A.For) or len(clause.names) != 1:
            return None
        seq, t = written or self.expr(clause.iter, env, depth + 1)
        length = self.fixed_length.get(seq)
        if length is None or not t.startswith("list:"):
            return None
        return [{clause.names[0]: (f"{seq}[{j}]", t[5:])} for j in range(length)]

    def note_length(self, local: str, seq) -> None:
        """Note that every element of `seq`, bound to `local`, has one known length: each
        line of `lines(board, k)` holds k nodes."""
        seq = self.defined_as(seq)
        if isinstance(seq, A.Call) and seq.func == "lines" and "lines" not in self.rs.defines and \
                len(seq.args) == 2 and isinstance(seq.args[1], A.Const) and type(seq.args[1].value) is int and \
                1 <= seq.args[1].value <= 8:
            self.fixed_length[local] = seq.args[1].value

    def few_constants(self, clause, env, most: int = 8) -> list[dict] | None:
        """For `for x in [k1, k2, …]` over at most `most` int or str constants (written, or
        a definition that is; not a name bound in `env`), each element as the binding of
        `x`; else None."""
        if not isinstance(clause, A.For) or len(clause.names) != 1:
            return None
        seq = clause.iter
        seq = seq if isinstance(seq, A.Name) and seq.name in env else self.defined_as(seq)
        if self.players is not None and 0 < self.players <= 8 and isinstance(seq, A.Call) and \
                seq.func == "players" and not seq.args and "players" not in self.rs.defines:
            return [{clause.names[0]: (repr(p), "int")} for p in range(self.players)]
        if not (isinstance(seq, A.ListLit) and 0 < len(seq.items) <= most and
                all(isinstance(x, A.Const) and type(x.value) in (int, str) for x in seq.items)):
            return None
        return [{clause.names[0]: (repr(x.value), type(x.value).__name__)} for x in seq.items]

    def either(self, one, other, env, depth):
        """Two values that must have one type; an empty list `[]` takes the other's."""
        empty = [isinstance(x, A.ListLit) and not x.items for x in (one, other)]
        if empty[0] != empty[1]:
            x, t = self.expr(other if empty[0] else one, env, depth + 1)
            if t.startswith("list:"):
                return ((("()", t), (x, t)) if empty[0] else ((x, t), ("()", t)))
        return self.expr(one, env, depth + 1), self.expr(other, env, depth + 1)
