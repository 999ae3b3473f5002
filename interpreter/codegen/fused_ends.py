"""The fused tier's end rules (codegen/fused.py): each one tested after a move or an
`effects` step only where the block may write what it reads, with the incremental forms
for a rule over a board's lines and for a watched `all`."""
from __future__ import annotations

from meeple.dsl import expr_ast as A

from ..runtime.invariant_deps import reads_moves, state_reads
from .safe_source import ident


class EndRules:
    """Mixed into the fused writer (fused._FusedWriter), whose expressions it uses."""

    def end_checks(self) -> list[str]:
        """Every end rule's test, in order; each rule's lines and what it reads are kept in
        `end_rules` for `ends_after`."""
        self.end_rules = []
        for rule in self.rs.end:
            reason = rule.reason or "an end condition was met"
            self.temps += 1
            flag = f"_e{self.temps}"
            lines = self.incremental(rule.when, flag) or self.witnessed(rule.when, flag) or \
                self.condition(rule.when, {}, flag, 0)
            if rule.after == "now":
                lines += [f"if {flag}:", "    state.over = True", f"    state.end_reason = {reason!r}", "    break"]
            else:  # the game ends at the checkpoint: the first such rule to hold names it (Game._check_end)
                reason = rule.reason or f"an end condition was met; the {rule.after} is finished"
                lines += [f"if {flag} and state.ending is None:", f"    state.ending = {rule.after!r}",
                          f"    state.end_reason = {reason!r}"]
            self.end_rules.append((self.state_read(rule.when), lines))
        return [line for _, lines in self.end_rules for line in lines]

    def ends_after(self, writes: set | None) -> list[str]:
        """The end rules' tests after a block that writes `writes` (None: it may write
        anything).  A rule that reads only variables, zones and item properties the block
        does not write is left out: it was tested after whatever last wrote them, and its
        answer has not changed (had it held at once, the game would be over)."""
        return [line for reads, lines in self.end_rules if writes is None or reads is None or reads & writes
                for line in lines]

    def state_read(self, expr, bound: set = frozenset()) -> set | None:
        """The variables and zones `expr` reads (`#props` for item properties), through
        definitions; None when it reads any other name than `bound` ones (a flow local may
        change between blocks, and the move counter with every move)."""
        if reads_moves(expr, self.rs):
            return None
        others: set = set()
        variables, zones, props = state_reads(expr, self.rs, others)
        if others - {"options"} - bound:
            return None
        return {*variables, *zones, *(("#props",) if props else ())}

    def decision_writes(self, p) -> set | None:
        """What a move at decision `p` may write: its costs' variables and its effects'."""
        found = set()
        for name in p.actions:
            action = self.rs.actions[name]
            writes = self.effect_writes(action.effects)
            if writes is None:
                return None
            found |= writes | {_root(target) for target, _, _ in action.cost}
        return None if None in found else found

    def effect_writes(self, effects, depth: int = 0) -> set | None:
        """The variables, zones and `#props` that a block of effects may write, with the
        triggers of the events it emits; None for an effect not foreseen here."""
        found: set = set()
        for effect in effects:
            kind, args = effect.kind, effect.args
            if kind == "set":
                found |= {_root(a.target) for a in args["assignments"]}
                found |= {"#props" for a in args["assignments"] if _in_member(a.target)}
                parts = []
            elif kind in ("let", "log", "end_game"):  # (end_game ends the game: nothing is tested after it)
                parts = []
            elif kind == "if":
                parts = [args["then"], args["else"]]
            elif kind in ("for", "while"):
                parts = [args["do"]]
            elif kind == "emit" and depth < 8:
                parts = [t.effects for t in self.rs.triggers.values() if t.on == args["event"]]
            elif kind in ("move", "shuffle", "deal", "flip", "pass_zones", "reveal"):
                found |= set(self.rs.zones) | {"#props"}
                parts = []
            else:
                return None
            for part in parts:
                writes = self.effect_writes(part, depth + 1)
                if writes is None:
                    return None
                found |= writes
        if None in found:
            return None
        return self.with_condition_writes(found) if depth == 0 else found

    def witnessed(self, node, flag: str) -> list[str] | None:
        """`all(test(e) for e in S)`: the element that made it false last time is tested
        first, and while it still fails the answer is false without looking further (a
        board is full only once its last empty cell is taken)."""
        gen = _one_loop(self.unwrapped(node), "all")
        if gen is None:
            return None
        seq, t = self.expr(gen.clauses[0].iter, {}, 1)
        if not t.startswith("list:"):
            return None
        self.temps += 1
        n = self.temps
        elem, inner, witness = f"c{n}_e", f"_q{n}", ident("wit", n)
        self.witnesses.append(witness)
        self.note_length(elem, gen.clauses[0].iter)
        env = {gen.clauses[0].names[0]: (elem, t[5:])}
        test = self.condition(gen.element, env, inner, 1)
        again = [f"{elem} = {witness}", *test]
        scan = [f"{flag} = True", f"for {elem} in {seq}:", *("    " + x for x in test),
                f"    if not {inner}:", f"        {flag} = False", f"        {witness} = {elem}", "        break"]
        return [f"{flag} = True", f"if {witness} is not _MISSING:", *("    " + x for x in again),
                f"    if not {inner}:", f"        {flag} = False", f"if {flag}:", *("    " + x for x in scan)]

    def unwrapped(self, node):
        """A definition without parameters, replaced by its body (as often as needed)."""
        while isinstance(node, (A.Name, A.Call)):
            name = node.name if isinstance(node, A.Name) else node.func
            d = self.rs.defines.get(name)
            if d is None or d.params or (isinstance(node, A.Call) and node.args):
                break
            node = d.expr
        return node

    def incremental(self, node, flag: str) -> list[str] | None:
        """`any(test(e) for e in C)` over a game constant C, where the test reads one
        variable keyed by node, only at keys inside its element (`x[e[0]]`, `x[n] for n in
        e`): once it was false, a move can make it true only through an element holding a
        key the move wrote, so only those are tested (the lines through the last disc).
        The first check of a playout tests every element."""
        gen = _one_loop(self.unwrapped(node), "any")
        if gen is None:
            return None
        seq, t = self.expr(gen.clauses[0].iter, {}, 1)
        var = _keyed_inside(gen.element, gen.clauses[0].names[0], self.types)
        if var is None or seq not in self.consts.values():
            return None
        self.temps += 1
        n, index = self.temps, ident("x", self.temps)
        self.indexes[index] = seq
        elem, inner = f"c{n}_e", f"_q{n}"
        self.note_length(elem, gen.clauses[0].iter)
        env = {gen.clauses[0].names[0]: (elem, t[5:])}
        test = self.condition(gen.element, env, inner, 1)
        hit = [f"if {inner}:", f"    {flag} = True", "    break"]
        full = [f"for {elem} in {seq}:", *("    " + x for x in test + hit)]
        some = [f"for _key in {ident('w', var)}:", f"    for {elem} in {index}.get(_key, ()):",
                *("        " + x for x in test + hit), f"    if {flag}:", "        break"]
        return [f"{flag} = False", f"if {ident('f', n)}:", *("    " + x for x in full), f"    {ident('f', n)} = False", "else:",
                *("    " + x for x in some)]


def _root(target) -> str | None:
    """The variable an assignment's target writes (`x`, `x[k]`, `x[k].f`), or None."""
    while isinstance(target, (A.Index, A.Member)):
        target = target.obj
    return target.name if isinstance(target, A.Name) else None


def _in_member(target) -> bool:
    """Whether an assignment's target goes through `.name` (an item's property)."""
    while isinstance(target, (A.Index, A.Member)):
        if isinstance(target, A.Member):
            return True
        target = target.obj
    return False


def _one_loop(node, func: str):
    """The generator of `func(test(e) for e in S)` with one loop variable and no filter,
    or None."""
    if isinstance(node, A.Call) and node.func == func and len(node.args) == 1 \
            and isinstance(node.args[0], A.Generator) and len(node.args[0].clauses) == 1 \
            and isinstance(node.args[0].clauses[0], A.For) and len(node.args[0].clauses[0].names) == 1:
        return node.args[0]
    return None


def _keyed_inside(test, elem: str, types: dict) -> str | None:
    """The one variable keyed by node that `test` reads, when it reads it only at keys
    inside the element `elem` (`x[elem]`, `x[elem[i]]`, `x[k]` for `k` looping over
    `elem`) and reads no other variable; else None."""
    over_elem = {n for c in A.walk(test) if isinstance(c, (A.Generator, A.ListComp))
                 for f in c.clauses if isinstance(f, A.For) and isinstance(f.iter, A.Name) and f.iter.name == elem
                 for n in f.names}
    read = set()
    for n in A.walk(test):
        if isinstance(n, A.Index) and isinstance(n.obj, A.Name) and types.get(n.obj.name, "").startswith("map:"):
            k = n.index
            inside = (isinstance(k, A.Name) and (k.name == elem or k.name in over_elem)) or \
                (isinstance(k, A.Index) and isinstance(k.obj, A.Name) and k.obj.name == elem
                 and isinstance(k.index, A.Const))
            if not inside:
                return None
            read.add(n.obj.name)
        elif isinstance(n, A.Name) and n.name in types and not any(
                isinstance(m, A.Index) and m.obj is n for m in A.walk(test)):
            return None
        elif isinstance(n, A.Call) and n.func not in ("all", "any", "len"):
            return None
    return read.pop() if len(read) == 1 else None
