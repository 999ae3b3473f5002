"""Which parts of the state an invariant reads, so that checking it after every move can
skip the invariants whose inputs the move did not touch.

State values are never changed in place (a write stores a new tuple or map), so an
invariant whose variables and zones are the very same objects as at its last check, and
whose item properties are equal, has the same result.  The cache keeps the objects
themselves, never their ids, so a reused address cannot fool it."""
from __future__ import annotations

from meeple.dsl import expr_ast as A
from meeple.dsl.functions import FUNCTIONS


def state_reads(expr, rs, others: set | None = None) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    """(variables, zones, reads item properties?) read by `expr`, through definitions.
    Into `others`, when given, go the other names it reads (a flow local, `options`),
    not a definition's own parameters."""
    variables, zones, props = set(), set(), False
    constant = constant_members(rs)
    seen: set = set()
    todo = [(expr, frozenset())]
    while todo:
        node, params = todo.pop()
        called = set()
        for n in A.walk(node):
            if isinstance(n, A.Member) and n.name not in constant:
                props = True  # `x.f` may read an item's mutable property
            elif isinstance(n, A.Call):
                called.add(n.func)  # a definition with parameters is called, not named
        if any(name in FUNCTIONS and FUNCTIONS[name].reads_state for name in called):
            # has_move: the actions' rules may read any variable, zone or property (never
            # a flow local: an action's expressions see only its player and parameters)
            return tuple(sorted(rs.variables)), tuple(sorted(rs.zones)), True
        for name in A.names_read(node) | called:
            if name in rs.variables:
                variables.add(name)
            elif name in rs.zones:
                zones.add(name)
            elif name in rs.defines:
                if name not in seen:
                    seen.add(name)
                    todo.append((rs.defines[name].expr, frozenset(rs.defines[name].params)))
            elif others is not None and name not in params and name not in called:
                others.add(name)
    return tuple(sorted(variables)), tuple(sorted(zones)), props


def reads_moves(expr, rs) -> bool:
    """Does `expr` read the move counter (`move_count()`), itself or through definitions?
    No variable, zone or property holds it, so what `state_reads` finds cannot tell when
    such an expression's value changed: it is evaluated afresh each time."""
    seen: set = set()
    todo = [expr]
    while todo:
        for n in A.walk(todo.pop()):
            name = n.func if isinstance(n, A.Call) else n.name if isinstance(n, A.Name) else None
            if name in FUNCTIONS and FUNCTIONS[name].reads_moves:
                return True
            if name in rs.defines and name not in seen:
                seen.add(name)
                todo.append(rs.defines[name].expr)
    return False


def cache_reads(expr, rs):
    """What a ReadsCache keeps for `expr`: its `state_reads`, or None when it reads the
    move counter."""
    return None if reads_moves(expr, rs) else state_reads(expr, rs)


def constant_members(rs) -> frozenset:
    """Member names that never read the state: an item's id, kind and printed fields
    (a name that is a property of any kind may be one here too)."""
    fields = {f for k in rs.components.values() for f in k.fields}
    props = {p for k in rs.components.values() for p in k.props} | {"face", "seen_by"}
    return frozenset((fields - props) | {"id", "kind"})


class ReadsCache:
    """The last inputs and result of each of a list of expressions, by what they read
    (`cache_reads`: None for one that is never kept).

    `lookup(i, state)` answers the cached result of expression i when nothing it reads
    changed since it was last evaluated (else None) and keeps what it read; `store(i, ok)`
    then records the result of evaluating it on those inputs.  End rules are looked up
    after every move, so the common shapes (one variable; variables only) take short paths."""

    def __init__(self, reads: list):
        self.reads = reads
        self.last: list = [None] * len(self.reads)
        self._seen = None  # what the last lookup read: (objects, props copy or None)
        # Per expression: its one variable's name when that is all it reads, else None.
        self._single = [None if r is None else r[0][0] if len(r[0]) == 1 and not r[1] and not r[2] else None
                        for r in reads]

    def lookup(self, i, state):
        name = self._single[i]
        if name is not None:
            value = state.vars[name]
            self._seen = ((value,), None)
            last = self.last[i]
            if last is not None and last[0][0] is value:
                return last[2]
            return None
        reads = self.reads[i]
        if reads is None:
            self._seen = None
            return None
        variables, zones, props = reads
        vs, zs = state.vars, state.zones
        objects = tuple([vs[v] for v in variables] + [zs[z] for z in zones])
        copy = dict(state.props) if props else None
        self._seen = (objects, copy)
        last = self.last[i]
        if last is None:
            return None
        old, old_props, ok = last
        for a, b in zip(old, objects):
            if a is not b:
                return None
        if old_props != copy:
            return None
        return ok

    def store(self, i, ok):
        """Remember `ok` as the result for what the last lookup read."""
        if self._seen is None:
            return
        objects, props = self._seen
        self.last[i] = (objects, props, ok)


class InvariantCache(ReadsCache):
    """The last inputs and result of each invariant."""

    def __init__(self, rules):
        super().__init__([cache_reads(check.cond, rules.ruleset) for _, check in rules.invariants])
