"""The fused tier's `let`, slices, `**`, `range` with a step, take_while / drop_while,
join and key_of (issue 42); and its refusal of sets.

The tier's values are typed locals (fused.py): a let's name becomes one more local, a
slice or a join is Python's own on a list or text whose type is proven, and `**` goes
through the library's guarded power (Python would work out `2 ** 10**9` before any
check).  Sets are not among the tier's types: a ruleset that makes one is played by
the kernel, and the reason `meeple compile` prints names the place (file:line:col).
"""
from __future__ import annotations


from meeple.dsl import expr_ast as A
from meeple.dsl.functions import power

from .fused_zones import Unsupported
from .safe_source import ident

class Idioms:
    """Mixed into the fused writer: needs `self.expr`, `self.walked`, `self.temps`,
    `self.in_iterable`, `self.module` and `self.rs`."""

    def at(self, span) -> str:
        """`file 1, line 12, column 9`: where a construct the tier does not take is, for the
        note `meeple compile` prints; the file by its number among the ruleset's files, never
        its path or name, as nothing from outside goes into the module's text."""
        files = tuple(self.rs.files)
        number = files.index(span.file) + 1 if span.file in files else 0
        return f"file {number}, line {int(span.line)}, column {int(span.col)}"

    def let(self, node, env, depth) -> tuple[str, str]:
        """`let d = v in body`: `v` bound once to a local of its own, read by the body.
        Where `:=` cannot be written (a comprehension's list, a lambda), the body is a
        lambda called with the value."""
        value, vt = self.expr(node.value, env, depth + 1)
        self.temps += 1
        local = ident("l", node.name, self.temps)
        body, bt = self.expr(node.body, {**env, node.name: (local, vt)}, depth + 1)
        if self.in_iterable:
            return f"(lambda {local}: {body})({value})", bt
        return f"(({local} := {value}), {body})[-1]", bt

    def sliced(self, node, env, depth) -> tuple[str, str]:
        """`xs[a:b:c]` of a list or a text, with int bounds: Python's slice (a zero step
        raises, and the loop reports what the reference reports)."""
        obj, ot = self.expr(node.obj, env, depth + 1)
        if not (ot.startswith("list:") or ot == "str"):
            raise Unsupported(f"a slice of a {ot}", node.span)
        bounds = []
        for part in (node.start, node.stop, node.step):
            if part is None:
                bounds.append("")
                continue
            text, t = self.expr(part, env, depth + 1)
            if t != "int":
                raise Unsupported(f"a slice bound of type {t}", part.span)
            bounds.append(text)
        return f"{self.walked(obj)}[{bounds[0]}:{bounds[1]}:{bounds[2]}]", ot

    def idiom_call(self, node, env, depth) -> tuple[str, str] | None:
        """The issue-42 library functions the tier writes, None for any other."""
        f, args = node.func, node.args
        if f == "range" and len(args) == 3:
            parts = [self.expr(a, env, depth + 1) for a in args]
            if all(t == "int" for _, t in parts):  # charged as the reference charges it
                return f"_range(ctx, {', '.join(x for x, _ in parts)})", "list:int"
        if f in ("take_while", "drop_while") and len(args) == 2 and isinstance(args[1], A.Lambda):
            seq, st = self.expr(args[0], env, depth + 1)
            if st.startswith("list:"):
                self.temps += 1
                local = ident("l", args[1].param, self.temps)
                self.in_iterable += 1  # a lambda's body: no `:=` there
                try:
                    body, bt = self.expr(args[1].body, {**env, args[1].param: (local, st[5:])}, depth + 1)
                finally:
                    self.in_iterable -= 1
                if bt == "bool":
                    return f"_fz_while({self.walked(seq)}, lambda {local}: {body}, {f == 'take_while'})", st
        if f == "join" and len(args) == 2:
            (xs, xt), (sep, sept) = self.expr(args[0], env, depth + 1), self.expr(args[1], env, depth + 1)
            if sept == "str" and xt in ("list:str", "list:int"):
                parts = self.walked(xs) if xt == "list:str" else f"map(str, {self.walked(xs)})"
                return f"_short({sep}.join({parts}))", "str"
        if f == "key_of" and len(args) == 1:  # the library's own, over the tier's plain values
            x, t = self.expr(args[0], env, depth + 1)
            x = f"tuple({x})" if t.startswith("list:") else x  # a list here may be a range
            return f"{self.module.library_function('key_of')}(ctx, {x})", "str"
        if f in ("take_while", "drop_while", "join", "key_of") or (f == "range" and len(args) == 3):
            raise Unsupported(f"the function '{f}' on these arguments", node.span)
        return None


def _while(seq, test, taking: bool):
    at_ = next((i for i, x in enumerate(seq) if not test(x)), len(seq))
    return tuple(seq[:at_]) if taking else tuple(seq[at_:])


# `**` by the library's rules: a refusal raises, and the loop reports it.
NAMES = {"_fz_pow": power, "_fz_while": _while}
