"""Which parts of the state an invariant reads, so that checking it after every move can
skip the invariants whose inputs the move did not touch.

State values are never changed in place (a write stores a new tuple or map), so an
invariant whose variables and zones are the very same objects as at its last check, and
whose item properties are equal, has the same result.  The cache keeps the objects
themselves, never their ids, so a reused address cannot fool it."""
from __future__ import annotations

from meeple.dsl import expr_ast as A


def state_reads(expr, rs) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    """(variables, zones, reads item properties?) read by `expr`, through definitions."""
    variables, zones, props = set(), set(), False
    constant = constant_members(rs)
    seen: set = set()
    todo = [expr]
    while todo:
        node = todo.pop()
        called = set()
        for n in A.walk(node):
            if isinstance(n, A.Member) and n.name not in constant:
                props = True  # `x.f` may read an item's mutable property
            elif isinstance(n, A.Call):
                called.add(n.func)  # a definition with parameters is called, not named
        for name in A.names_read(node) | called:
            if name in rs.variables:
                variables.add(name)
            elif name in rs.zones:
                zones.add(name)
            elif name in rs.defines and name not in seen:
                seen.add(name)
                todo.append(rs.defines[name].expr)
    return tuple(sorted(variables)), tuple(sorted(zones)), props


def constant_members(rs) -> frozenset:
    """Member names that never read the state: an item's id, kind and printed fields
    (a name that is a property of any kind may be one here too)."""
    fields = {f for k in rs.components.values() for f in k.fields}
    props = {p for k in rs.components.values() for p in k.props} | {"face", "seen_by"}
    return frozenset((fields - props) | {"id", "kind"})


class ReadsCache:
    """The last inputs and result of each of a list of expressions, by what they read."""

    def __init__(self, reads: list):
        self.reads = reads
        self.last: list = [None] * len(self.reads)

    def inputs(self, i, state):
        variables, zones, props = self.reads[i]
        return (tuple(state.vars[v] for v in variables), tuple(state.zones[z] for z in zones),
                dict(state.props) if props else None)

    def known(self, i, inputs):
        """The cached result if the inputs are unchanged, else None."""
        last = self.last[i]
        if last is None:
            return None
        (vs, zs, props), ok = last
        if all(a is b for a, b in zip(vs, inputs[0])) and all(a is b for a, b in zip(zs, inputs[1])) \
                and props == inputs[2]:
            return ok
        return None

    def remember(self, i, inputs, ok):
        self.last[i] = (inputs, ok)


class InvariantCache(ReadsCache):
    """The last inputs and result of each invariant."""

    def __init__(self, rules):
        super().__init__([state_reads(check.cond, rules.ruleset) for _, check in rules.invariants])
