"""`any(...)` and `all(...)` as statements: nested loops that stop at the first element
that settles the answer, as the language's lazy walk does.

The element's test is split at its top-level `and`s.  A part that is itself an `any`/
`all` over one `for` of the enclosing loop's variables (`all(cell[n] == m for n in
line)`) is written inline, as a loop with a flag, rather than as a call of a function
of its own: in `any(cell[line[0]] != '' and all(... for n in line) for line in lines)`
the inner walk runs once per line, and a call per line cost more than the walk.

A walk over a list charges the evaluation's cost for its length, and gives up
(`Deopt`) past the limit, as `runtime.seq` does, without the call.
"""
from __future__ import annotations

from meeple.dsl import expr_ast as A
from meeple.dsl.functions import FUNCTIONS

from .emit_expr import Code
from .safe_source import ident


class LoopWriter:
    def __init__(self, module, unit, emitter, given: str | None = None):
        self.m, self.u, self.e = module, unit, emitter
        self.flags = 0
        self.given = given  # a parameter holding the first list walked, already worked out (and charged for)

    def quantifier(self, node) -> list[str]:
        """The body of `L<i>`: loops, then the fall-through answer."""
        lines: list[str] = []
        env, indent = self.loops(node.args[0], {}, "    ", lines)
        element = node.args[0].element
        if node.func == "any":
            self.test(element, env, indent, lines, on_false="continue")
            lines.append(f"{indent}return True")
        else:
            self.test(element, env, indent, lines, on_false="return False")
        lines.append(f"    return {node.func != 'any'}")
        return lines

    def loops(self, gen, env: dict, indent: str, lines: list) -> tuple[dict, str]:
        env = dict(env)
        for clause in gen.clauses:
            if isinstance(clause, A.For):
                walked = self.e.emit(clause.iter, env) if self.given is None else Code(self.given)
                self.given = None
                names = [ident("l", n) for n in clause.names]
                for local in names:
                    self.u.kinds[local] = walked.elem if len(names) == 1 else None
                if len(names) == 1:
                    s = self.fresh("_s")
                    lines += [f"{indent}{s} = {walked.text}",
                              f"{indent}if type({s}) is not tuple:", f"{indent}    {s} = _as_seq({s})",
                              f"{indent}ctx.cost += len({s})",
                              f"{indent}if ctx.cost > COST_LIMIT:", f"{indent}    raise Deopt()",
                              f"{indent}for {names[0]} in {s}:"]
                else:
                    lines.append(f"{indent}for {', '.join(names)} in _unpacked(ctx, {walked.text}, {len(names)}):")
                env.update(zip(clause.names, names))
                indent += "    "
            else:
                lines += [f"{indent}if not ({self.e._truth(self.e.emit(clause.cond, env))}):",
                          f"{indent}    continue"]
        return env, indent

    def test(self, element, env: dict, indent: str, lines: list, on_false: str) -> None:
        """Statements that do `on_false` when `element` is false and fall through when true."""
        for term in _conjuncts(element):
            if self.inlinable(term, env):
                flag = self.fresh("_q")
                is_any = term.func == "any"
                lines.append(f"{indent}{flag} = {not is_any}")
                inner_env, inner = self.loops(term.args[0], env, indent, lines)
                value = self.e._truth(self.e.emit(term.args[0].element, inner_env))
                lines += [f"{inner}if {value if is_any else f'not ({value})'}:",
                          f"{inner}    {flag} = {is_any}", f"{inner}    break",
                          f"{indent}if not {flag}:", f"{indent}    {on_false}"]
            else:
                lines += [f"{indent}if not ({self.e._truth(self.e.emit(term, env))}):", f"{indent}    {on_false}"]

    def inlinable(self, term, env: dict) -> bool:
        """An `any`/`all` over a single `for` that reads the loop's variables: written inline.
        One the module keeps (the same for the game, or per value of a few locals) is not."""
        if not (isinstance(term, A.Call) and term.func in ("any", "all") and len(term.args) == 1
                and isinstance(term.args[0], A.Generator) and FUNCTIONS[term.func].lazy):
            return False
        fors = [c for c in term.args[0].clauses if isinstance(c, A.For)]
        if len(fors) != 1 or len(fors[0].names) != 1 or not A.names_read(term) & set(env):
            return False
        return not self.m.is_game_constant(term, env, self.u) and not self.m.memo_arguments(term, env, self.u)

    def fresh(self, prefix: str) -> str:
        self.flags += 1
        return f"{prefix}{self.flags}"


def _conjuncts(node) -> list:
    if isinstance(node, A.BoolOp) and node.op == "and":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]
