"""Condition triggers in the fused tier (mixed into fused._FusedWriter).

The language tries every condition trigger after every effect, round after round until
a round runs nothing (Rules.after_effect; docs/language.md "When triggers run").  After
any effect, then, none of them holds: a condition can only come to hold through a write
to what it reads.  So the tier writes the rounds in line after exactly the effects that
may write what some condition trigger reads, and nowhere else.  That holds only while the
conditions read nothing but the declared state (variables, zones, item properties,
through definitions): not a flow local, the move counter or a cost's variable, which
change outside any effect.  A trigger's own effects start no rounds of their own (the
repeat covers them), and the 200th round in a row that still runs something gives the
step up, for the loop to report R706 as the language does.
"""
from __future__ import annotations

from ..runtime.rules import TRIGGER_LIMIT
from .fused_ends import _root
from .fused_zones import Unsupported


class ConditionTriggers:
    """What the writer knows of the ruleset's condition triggers, and their rounds."""

    def condition_triggers(self) -> list:
        return [t for t in (getattr(self.rs, "triggers", None) or {}).values() if t.on is None]

    def condition_reasons(self) -> list[tuple]:
        """(reason, span) for each condition trigger the tier cannot try after exactly the
        effects that write what it reads; noting what they read and write on the way."""
        found, reads, writes = [], set(), set()
        paid = {_root(target) for a in self.rs.actions.values() for target, _, _ in a.cost}
        for trigger in self.condition_triggers():
            bound = {name for name, _ in trigger.each}
            read = [self.state_read(node, bound) for node in (trigger.when, *(d for _, d in trigger.each))
                    if node is not None]
            if any(r is None for r in read):
                found.append((f"trigger '{trigger.name}' runs on a condition that reads more than "
                              "variables, zones and item properties", trigger.span))
                continue
            read = set().union(*read)
            if read & paid:
                found.append((f"trigger '{trigger.name}' runs on a condition over a variable "
                              f"that a cost pays ('{sorted(read & paid)[0]}')", trigger.span))
                continue
            wrote = self.effect_writes(trigger.effects, 1)
            if wrote is None:
                found.append((f"trigger '{trigger.name}' runs on a condition and writes what "
                              "the tier cannot follow", trigger.span))
                continue
            reads |= read
            writes |= wrote
        self.condition_reads, self.condition_writes = reads, writes
        return found

    def with_condition_writes(self, found: set) -> set:
        """A block's writes, with what the condition triggers write where the block may
        make one of them hold (they run inside the block, after its effect)."""
        if found & getattr(self, "condition_reads", ()):
            return found | self.condition_writes
        return found

    def condition_rounds_after(self, effect, env) -> list[str]:
        """The rounds of condition triggers after `effect`, where it may write what one of
        them reads; none inside a trigger's own effects."""
        if self.in_condition or not getattr(self, "condition_reads", None):
            return []
        if effect.kind in ("let", "log", "end_game", "if", "for", "while", "emit"):
            return []  # writes nothing itself (its inner effects have their own rounds)
        wrote = self.effect_writes([effect], 1)
        if wrote is not None and not wrote & self.condition_reads:
            return []
        if self.trying:
            raise Unsupported("a condition trigger after an effect of an action tried for `then_required`",
                              effect.span)
        self.temps += 1
        fired, count = f"_cf{self.temps}", f"_cr{self.temps}"
        self.in_condition = True
        try:
            body = [line for trigger in self.condition_triggers()
                    for line in self.triggered(trigger, {}, fired=fired)]
        finally:
            self.in_condition = False
        return [f"for {count} in range({TRIGGER_LIMIT}):", "    if state.over:", "        break",
                f"    {fired} = False", *("    " + x for x in body), f"    if not {fired}:", "        break",
                "else:", "    raise _KernelStop()"]

