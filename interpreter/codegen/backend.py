"""`CompiledRules`: the reference `Rules` with its expressions taken from a
generated module.

Rules compiles a ruleset piece by piece and asks `self.expr(node, scope)` for
every expression it needs (actions, effects, flow, end rules, scoring); here that
question is answered with a generated function instead of a closure, and every
effect block with one generated function of statements (emit_effects.py).  The
definitions' closure bodies stay as the reference the generated code falls back
to.  Nothing else changes, so the `Game` on top behaves the same, and tests can
run any ruleset on both back ends and compare them step by step.
"""
from __future__ import annotations

from ..runtime.flowgraph import CHANCE
from ..runtime.moves import requirement_levels
from ..runtime.rules import Rules
from .emit_action import emit_enumerator
from .emit_effects import GeneratedEffects
from .fused import MAX_NODES, build_fused, reasons
from .kernel import build_kernel
from .module import GeneratedModule
from .safe_source import note


class CompiledRules(Rules):
    backend = "compiled"

    @property
    def module(self) -> GeneratedModule:
        """Made on first use: Rules builds its scope and definitions first."""
        module = self.__dict__.get("_module")
        if module is None:
            module = self._module = GeneratedModule(self.ruleset, self.scope, self._define_fns)
        return module

    @property
    def effects(self):
        return self._effects

    @effects.setter
    def effects(self, reference):
        """Rules.__init__ sets its EffectCompiler before compiling any block; here every
        block (actions, flow steps, triggers, setup) becomes a generated function instead."""
        self._effects = GeneratedEffects(self)

    def expr(self, node, scope):
        return self.module.expression(node, scope, _what(node))

    def _action(self, decl):
        action = super()._action(decl)
        scope = self.action_scope(decl)
        levels = requirement_levels(decl.params, [c.cond for c in decl.require])
        self.module.ns.setdefault("COSTS", {})[action.name] = action.costs
        self.module.ns.setdefault("_ACTIONS", {})[action.name] = action
        action.enumerate = emit_enumerator(self.module, action, decl, scope, levels)
        return action

    def playout_kernel(self, explicit_chance: bool, players: int | None = None, boards: dict | None = None):
        """(PLAYOUT, ids of the points it runs) for Game.playout, made on first use; None
        when it would run no decision.  With `players`, a fused playout is written for
        games of that many players (its loops over the players written out); `meeple
        compile` shows the one for any number.  `boards`: the game's boards, when its
        options made a grid larger than the fused tier takes (it does not charge the cost
        counter step by step, which only boards of at most fused.MAX_NODES nodes allow):
        such a game gets the kernel."""
        if boards is not None and any(len(g) > MAX_NODES for g in boards.values()):
            return self._large_board_kernel(explicit_chance)
        kernels = self.__dict__.setdefault("_kernels", {})
        key = (explicit_chance, players)
        made = kernels.get(key, _UNMADE)
        if made is not _UNMADE:
            return made
        if explicit_chance not in kernels:
            # The fused tier, where the ruleset is inside it; explicit chance is the
            # policy's draw, which only the kernel hands back to the loop.  A flow without
            # `chance` steps has no such draw (effects that draw take no kernel at all with
            # chance explicit, Game._playout_kernel): it plays as it would without.
            fused = build_fused(self) if not explicit_chance or \
                not any(p.code == CHANCE for p in self.points) else None
            kernels[explicit_chance] = fused or build_kernel(self, explicit_chance)
        made = kernels[explicit_chance]
        if players is not None and made is not None and made[0].__name__ == "FUSED":
            made = build_fused(self, players) or made
        kernels[key] = made
        return made

    def _large_board_kernel(self, explicit_chance: bool):
        kernels = self.__dict__.setdefault("_kernels", {})
        key = (explicit_chance, "large boards")
        if key not in kernels:
            made = self.playout_kernel(explicit_chance)
            if made is not None and made[0].__name__ == "FUSED":
                made = build_kernel(self, explicit_chance)
            kernels[key] = made
        return kernels[key]

    def source(self) -> str:
        """The generated module's text, as `meeple compile` writes it: after the header, a
        note of which playout function runs the random playouts, and what keeps the
        ruleset out of the fused tier when it is."""
        note = self.playout_note()  # writes the playout function first, so that it is shown
        header, *rest = self.module.parts
        return "\n\n".join([header, note, *rest]) + "\n"

    def playout_tier(self) -> str | None:
        """Which generated function plays random playouts: 'fused' (FUSED), 'kernel'
        (PLAYOUT), or None when no decision would run in one."""
        made = self.playout_kernel(False)
        return None if made is None else ("fused" if made[0].__name__ == "FUSED" else "kernel")

    def playout_note(self) -> str:
        tier = self.playout_tier()
        if tier is None:
            return "# Random playouts: no decision runs in a generated playout; Game.playout plays move by move."
        if tier == "fused":
            return "# Random playouts: `def FUSED` below (the fused tier, docs/compiled.md)."
        found = reasons(self) or ["its writer stopped while writing the playout (a shape it does not foresee)"]
        return "\n".join(["# Random playouts: `def PLAYOUT` below (the playout kernel).  The fused tier",
                          "# (docs/compiled.md) would be faster, but does not take this ruleset:",
                          *(note(f"  - {why}") for why in found)])


_UNMADE = object()


def _what(node) -> str:
    return type(node).__name__.lower()
