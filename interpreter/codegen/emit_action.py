"""An action's legal moves as one generated function of nested loops.

    def A_take(ctx, l_player, out):
        ...
        for l_heap in _dom(ctx, <domain of heap>):
            if not <requirements reading heap>: continue
            for l_count in _dom(ctx, <domain of count>):
                ...
                out.append(Move(l_player, 'take', (('heap', l_heap), ('count', l_count))))

The parameters are Python locals, not entries of `ctx.bindings`; each requirement
is tested in the loop of the last parameter it reads (moves.requirement_levels,
the same split the reference uses), and costs on complete moves.  If anything
fails, the moves found so far are dropped and the reference lists them instead.
"""
from __future__ import annotations

from .emit_expr import BOOL, INT, ExprEmitter, Unit
from .safe_source import ident


def emit_enumerator(module, action, decl, scope, level_indexes: list, tag: int | None = None):
    """The generated `fn(ctx, player, out)` listing `action`'s legal moves: as `Move`s, or
    with a `tag`, as plain tuples `(tag, player, value, ...)` in the parameters' order, the
    form the playout kernel (kernel.py) picks from without building a move."""
    names = [name for name, _, _ in decl.params]
    params = {"player": "l_player", **{n: ident("l", n) for n in names}}
    unit = Unit(module, scope, params)
    unit.kinds["l_player"] = INT
    emit = ExprEmitter(unit).emit
    conds = [c.cond for c in decl.require]

    def test(level: int) -> str | None:
        codes = [emit(conds[j]) for j in level_indexes[level]]
        if not codes:
            return None
        return " or ".join(f"not {c.text}" if c.kind == BOOL else f"{c.text} is not True" for c in codes)

    body: list[str] = []
    indent = "        "
    first = test(0)
    if first:
        body.append(f"{indent}if {first}:")
        body.append(f"{indent}    return")
    for i, (name, domain, _) in enumerate(decl.params):
        dom = emit(domain)
        unit.kinds[params[name]] = dom.elem
        body.append(f"{indent}for {params[name]} in _dom(ctx, {dom.text}):")
        indent += "    "
        pruned = test(i + 1)
        if pruned:
            body.append(f"{indent}if {pruned}:")
            body.append(f"{indent}    continue")
    if decl.cost:
        skip = "continue" if names else "return"
        general = ["B = ctx.bindings", *(f"B[{n!r}] = {p}" for n, p in params.items()),
                   f"if _unaffordable(ctx, COSTS[{action.name!r}]):", f"    {skip}"]
        inline = _costs_in_line(module, decl, emit)
        if inline is None:
            body.extend(indent + line for line in general)
        else:
            reads, ints, short = inline
            body.extend(indent + line for line in reads)
            body.append(f"{indent}if {ints}:")
            body.append(f"{indent}    if {short}:")
            body.append(f"{indent}        {skip}")
            body.append(f"{indent}else:")
            body.extend(indent + "    " + line for line in general)
    args = "(" + "".join(f"({n!r}, {params[n]}), " for n in names) + ")"
    if tag is None:
        body.append(f"{indent}out.append(Move(l_player, {action.name!r}{', ' + args if names else ''}))")
        fn, fallback = ident("A", action.name), "_refact("
    else:
        values = "".join(f", {params[n]}" for n in names)
        body.append(f"{indent}out.append(({tag}, l_player{values}))")
        fn, fallback = ident("K", action.name), f"_reftuples({tag}, "
    what = "its legal moves" if tag is None else "its legal moves as tuples"
    lines = [module.comment(decl, f"action: {what}"),
             f"def {fn}(ctx, l_player, out):", "    _c = ctx.cost", "    _n = len(out)", "    try:",
             *("        " + line for line in unit.prologue()), *body, "        return",
             "    except Exception:", "        ctx.cost = _c", "        del out[_n:]",
             f"    {fallback}ctx, {action.name!r}, l_player, out)"]
    return module.add("\n".join(lines), fn)


def _costs_in_line(module, decl, emit):
    """An action's costs tested in line when each is paid from a variable with a `min`
    (`silver[player]: 2`): (the lines reading what is held and what is asked, the test
    that all are ints, the test that one falls short), as moves.cost_shortfall decides;
    anything else (None, or values that are not ints) goes to the general check."""
    from meeple.dsl import expr_ast as A
    reads, ints, short = [], [], []
    for n, (target, amount, _) in enumerate(decl.cost):
        base = target
        while isinstance(base, A.Index):
            base = base.obj
        var = module.rs.variables.get(base.name) if isinstance(base, A.Name) else None
        if var is None or var.min is None or isinstance(var.min, bool) or not isinstance(var.min, int):
            return None
        have, asked = f"_have{n}", f"_asked{n}"
        reads += [f"{have} = {emit(target).text}", f"{asked} = {emit(amount).text}"]
        ints.append(f"type({have}) is int and type({asked}) is int")
        # the difference within the language's ints, as arith checks it; past them the
        # reference reports it (Deopt hands the listing over)
        short.append(f"(_left{n} if -MAX_INT <= (_left{n} := {have} - {asked}) <= MAX_INT else _deopt()) < {var.min!r}")
    return reads, " and ".join(ints), " or ".join(short)
