"""`any`/`all` over a game constant, re-evaluated only where the state changed.

An end rule such as "some line of four holds four equal discs" walks every line
of the board after every move, although a move changes one cell and so only the
lines through that cell.  When a quantifier walks a list that is the same all
game (`lines('grid', 4)`, `nodes('grid')`, `players()`) and each element's test
reads nothing but that element, the game, and variables indexed by a key
(`cell[n]`), the test of one element can only change when one of the keys it
read changed.  So the generated code keeps, per game, each element's result and
the keys it read, and after a change re-tests only the elements that read a
changed key (incremental_runtime.Quantifier).

The element's test becomes a function `Q<i>(ctx, l_x, R)` in which every read
`var[key]` also appends `(var, key)` to `R`; a variable used whole (`len(cell)`)
makes every element depend on all of it.  Anything else the test might read
(zones, item properties, parameters, loop variables, definitions that read the
state) makes the quantifier an ordinary one.
"""
from __future__ import annotations

from meeple.dsl import expr_ast as A
from meeple.dsl.functions import is_pure_library

from ..runtime.store import note_write
from .emit_expr import _VAR_KINDS, BOOL, Code, ExprEmitter, Unit
from .safe_source import ident


# Below this many elements, walking them all costs less than keeping track of them.
FEW = 24


def quantifier(module, node, env: dict, unit: Unit, passed: dict, kinds: dict, plain: bool = False) -> Code | None:
    """`any(...)`/`all(...)` kept incrementally when the list is long, walked as loops
    (module.quantifier_loop) when it is short; None when its test reads something other
    than its element, the game and variables.  The list is worked out once, as the
    reference works it out (and charges for it) once."""
    plan = _plan(module, node, env, unit)
    if plan is None:
        return None
    x, body, keyed, whole = plan
    first = node.args[0].clauses[0]
    elements = ExprEmitter(unit).emit(first.iter, env, plain=True).text
    i = _element_function(module, node, x, body, keyed, unit.scope)
    module.incremental_sites[i] = (node.func, tuple(sorted(keyed)), tuple(sorted(whole)))
    module.ns["_note_write"] = note_write  # from now on generated writes are journaled for it
    if plain:  # no temporary here (a comprehension's list): a short list is walked by _inc too
        return Code(f"_inc(ctx, {i}, {elements}, Q{i})", BOOL)
    j = module.quantifier_loop(node, unit.scope, passed, kinds, unit.recording, given=True)
    args = "".join(", " + ident for ident in passed.values()) + (", R" if unit.recording else "")
    t = unit.temp()
    return Code(f"(_inc(ctx, {i}, {t}, Q{i}) if len({t} := {elements}) >= {FEW} else L{j}(ctx, {t}{args}))", BOOL)


def _plan(module, node, env: dict, unit: Unit):
    gen = node.args[0]
    if unit.constant or not gen.clauses or not isinstance(gen.clauses[0], A.For):
        return None
    first = gen.clauses[0]
    if len(first.names) != 1 or any(isinstance(c, A.For) for c in gen.clauses[1:]):
        return None
    if not module.is_game_constant(first.iter, env, unit):
        return None
    x = first.names[0]
    body = [c.cond for c in gen.clauses[1:]] + [gen.element]
    outer = set(env) | set(unit.params)
    variables: set = set()
    for part in body:
        found = _state_variables(module, part, x, outer, unit.scope)
        if found is None:
            return None
        variables |= found
    if not variables:
        return None  # it reads no state: the game-constant path keeps it already
    bound = {x} | {n for part in body for n in _names_bound(part)}
    if bound & variables:
        return None  # a variable's name reused inside: its uses could not be told apart
    indexed = {id(n.obj) for part in body for n in A.walk(part)
               if isinstance(n, A.Index) and isinstance(n.obj, A.Name)}
    whole = {n.name for part in body for n in A.walk(part)
             if isinstance(n, A.Name) and n.name in variables and id(n) not in indexed}
    return x, body, variables, whole


def _state_variables(module, part, x: str, outer: set, scope) -> set | None:
    """The variables `part` reads, or None if it reads any other part of the state or
    anything bound outside the quantifier."""
    for n in A.walk(part):
        if isinstance(n, A.Member) and not module.is_field_only(n.name) and n.name not in ("id", "kind"):
            return None
        if isinstance(n, A.Call) and not is_pure_library(n.func):
            sym = scope.lookup(n.func)
            if sym is None or sym.kind != "function" or not module.is_pure_define(n.func):
                return None
    found = set()
    for name in A.names_read(part) - {x}:
        if name in outer:
            return None
        sym = scope.lookup(name)
        if sym is None:
            return None
        if sym.kind in _VAR_KINDS:
            found.add(name)
        elif not ((name == "options" and sym.kind == "const")
                  or (sym.kind == "define" and module.is_pure_define(name))):
            return None
    return found


def _names_bound(node) -> set:
    out = set()
    for n in A.walk(node):
        out.update(A.binds(n))
    return out


def _element_function(module, node, x: str, body: list, keyed: set, scope) -> int:
    """Write `Q<i>(ctx, l_x, R)`: one element's test, recording the keys it reads."""
    i = len(module._refs)
    module._refs.append((node, scope))
    local = ident("l", x)
    unit = Unit(module, scope, {x: local})
    unit.recording = frozenset(keyed)
    emitter = ExprEmitter(unit)
    tests = [emitter._truth(emitter.emit(part)) for part in body]
    conds, element = tests[:-1], tests[-1]
    if not conds:
        text = element
    elif node.func == "any":
        text = "(" + " and ".join(conds + [element]) + ")"
    else:  # all(e for x in xs if c): an element that fails c counts as true
        text = f"(not ({' and '.join(conds)}) or {element})"
    lines = [module.comment(node, "one element of any or all, tested again only when a key it read changed"),
             f"def Q{i}(ctx, {local}, R):",
             *["    " + line for line in unit.prologue()], f"    return {text}"]
    module.add("\n".join(lines), f"Q{i}")
    return i
