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


def emit_enumerator(module, action, decl, scope, level_indexes: list, tag: int | None = None):
    """The generated `fn(ctx, player, out)` listing `action`'s legal moves: as `Move`s, or
    with a `tag`, as plain tuples `(tag, player, value, ...)` in the parameters' order, the
    form the playout kernel (kernel.py) picks from without building a move."""
    names = [name for name, _, _ in decl.params]
    params = {"player": "l_player", **{n: f"l_{n}" for n in names}}
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
        unit.kinds[f"l_{name}"] = dom.elem
        body.append(f"{indent}for l_{name} in _dom(ctx, {dom.text}):")
        indent += "    "
        pruned = test(i + 1)
        if pruned:
            body.append(f"{indent}if {pruned}:")
            body.append(f"{indent}    continue")
    if decl.cost:
        body.append(f"{indent}B = ctx.bindings")
        body.extend(f"{indent}B[{n!r}] = {p}" for n, p in params.items())
        body.append(f"{indent}if _unaffordable(ctx, COSTS[{action.name!r}]):")
        body.append(f"{indent}    {'continue' if names else 'return'}")
    args = "(" + "".join(f"({n!r}, l_{n}), " for n in names) + ")"
    if tag is None:
        body.append(f"{indent}out.append(Move(l_player, {action.name!r}{', ' + args if names else ''}))")
        ident, fallback = f"A_{action.name}", "_refact("
    else:
        values = "".join(f", l_{n}" for n in names)
        body.append(f"{indent}out.append(({tag}, l_player{values}))")
        ident, fallback = f"K_{action.name}", f"_reftuples({tag}, "
    what = "its legal moves" if tag is None else "its legal moves as tuples"
    lines = [f"# {module.where(decl)}  action '{action.name}': {what}",
             f"def {ident}(ctx, l_player, out):", "    _c = ctx.cost", "    _n = len(out)", "    try:",
             *("        " + line for line in unit.prologue()), *body, "        return",
             "    except Exception:", "        ctx.cost = _c", "        del out[_n:]",
             f"    {fallback}ctx, {action.name!r}, l_player, out)"]
    return module.add("\n".join(lines), ident)
