"""The playout kernel: a ruleset's whole random playout as one generated function.

`Game.playout` with the uniform random policy spends most of its time in machinery
that is the same for every ruleset: building a `Move` per candidate, dispatching on
control points through their attributes, a fresh context per move.  Here the flow
graph is written out as one loop over `pc` with each point's constants inlined, moves
are listed as plain tuples (emit_action, `tag`), and the chosen one is played by
binding its values and calling the action's generated effects.  The state is the
playout's own copy, changed in place as `_play_in_place` would change it.

    def PLAYOUT(game, state, below, limit, played, drawn, settled=False):
        L = state.locals
        ...
        while True:
            if pc == 5:          # decide: choose [place]
                ...list, pick, play, check the end...
            elif pc == 2:        # the loop's test
                pc = 4 if L['__index2'] < len(L['__list2']) else 1
            ...

It returns the number of moves played, with `state.pc` where it stopped: at the end of
the game, at the move limit, or at a point it does not run (an explicit chance step,
whose outcome is the policy's draw), which the caller plays the usual way before
handing back; at the move limit it leaves the moves it listed there as `state._moves`
(listed_moves.py), so that a step of `Game.apply` (kernel_step.py, a limit of one) lists
nothing twice.  It notes every index it draws in `drawn`.  `settled` is the fused tier's
(fused.py: a state it handed back itself needs no proof of its types).  Any exception means only
"not here": `Game.playout` then plays the whole playout again from its start with the
move-by-move loop, feeding it those indices first, so the loop meets the same trouble at
the same move and raises the language's own error with its place.  The kernel must therefore only ever reach the
state the reference loop reaches; tests/test_kernel.py and the differential harness
compare both, step by step and at the end.
"""
from __future__ import annotations

from meeple.dsl.functions import want_list

from ..runtime import rng
from ..runtime.context import Ctx
from ..runtime.flowgraph import (ASSIGN, BRANCH, CHANCE, CHECKPOINT, CODES, COUNT_DOWN, COUNT_TEST, DECIDE, DROP, END, EXEC,
                         LOOP_BIND, LOOP_STEP, LOOP_TEST, LOOP_ZERO, NOP, PHASE, RESPOND_START, RESTORE, SIM_START)
from ..runtime.moves import requirement_levels
from ..runtime.store import pay_costs
from .emit_action import emit_enumerator
from .listed_moves import PASS_TAG, ListedShape
from .safe_source import ident
STEP_LIMIT = 100_000  # automatic steps between two moves, as game.STEP_LIMIT: past it the reference reports


class KernelStop(Exception):
    """Raised by the kernel where the reference loop might report an error."""


def build_kernel(rules, explicit_chance: bool):
    """The generated `PLAYOUT` for `rules` (a CompiledRules), or None when no point of its
    flow would run in it."""
    return _KernelWriter(rules, explicit_chance).build()


class _KernelWriter:
    def __init__(self, rules, explicit_chance: bool):
        self.rules = rules
        self.module = rules.module
        self.explicit_chance = explicit_chance
        self.ns = self.module.ns
        self.lines: list[str] = []

    # -- which points run here -------------------------------------------------------------
    def runs(self, point) -> bool:
        if point.code == CHANCE:
            return not self.explicit_chance  # an explicit one is the policy's draw
        return point.code in _RUN

    # -- writing ---------------------------------------------------------------------------
    def build(self):
        points = self.rules.points
        running = [p for p in points if self.runs(p)]
        if not any(p.code == DECIDE for p in running):
            return None
        self.tags = {}  # action name -> its tag in the move tuples
        for p in running:
            if p.code == DECIDE:
                for name in p.actions:
                    self.enumerator(name)
        emit = self.lines.append
        emit("# the whole random playout, for Game.playout (codegen/kernel.py)")
        emit("def PLAYOUT(game, state, below, limit, played, drawn, settled=False):")
        emit("    L = state.locals")
        emit("    ctx = _Ctx(game, state)")
        emit("    ctx.bindings = L")
        emit("    lc = _Ctx(game, state)")
        emit("    lc.bindings = L")
        emit("    check_end = game._check_end")
        emit("    pc = state.pc")
        emit("    steps = 0")
        emit("    while True:")
        emit(f"        if steps > {STEP_LIMIT}:")
        emit("            raise _KernelStop()")
        emit("        steps += 1")
        # Decisions first: they are where the time goes.
        order = sorted(running, key=lambda p: p.code != DECIDE)
        for n, point in enumerate(order):
            emit(f"        {'if' if n == 0 else 'elif'} pc == {point.id}:  # {point.op if point.op in CODES else 'step'}")
            for line in self.point(point):
                emit("            " + line)
        emit("        else:")
        emit("            break")
        emit("    state.pc = pc")
        emit("    return played")
        self.ns.update(_KernelStop=KernelStop, _Ctx=Ctx, _want_list=want_list, _rng_below=rng.below,
                       _pay_costs=pay_costs)
        return self.module.add("\n".join(self.lines), "PLAYOUT"), frozenset(p.id for p in running)

    def enumerator(self, name: str) -> None:
        if name in self.tags:
            return
        action = self.rules.actions[name]
        decl = action.decl
        tag = self.tags[name] = len(self.tags)
        self.ns[ident("EFFECTS", tag)] = action.effects
        self.ns[ident("ACTION", tag)] = action
        levels = requirement_levels(decl.params, [c.cond for c in decl.require])
        emit_enumerator(self.module, action, decl, self.rules.action_scope(decl), levels, tag=tag)

    def point(self, p) -> list[str]:
        code = p.code
        self.ns[ident("POINT", p.id)] = p
        if p.fn is not None:
            self.ns[ident("FN", p.id)] = p.fn
        if code == DECIDE:
            return self.decide(p)
        if code == LOOP_TEST:
            return [f"pc = {p.next} if L[{p.index!r}] < len(L[{p.seq!r}]) else {p.alt}"]
        if code == LOOP_BIND:
            return [f"L[{p.var!r}] = L[{p.seq!r}][L[{p.index!r}]]", f"pc = {p.next}"]
        if code == LOOP_STEP:
            return [f"L[{p.var!r}] = L[{p.var!r}] + 1", f"pc = {p.next}"]
        if code == LOOP_ZERO:
            return [f"L[{p.var!r}] = 0", f"pc = {p.next}"]
        if code == COUNT_TEST:
            return [f"pc = {p.next} if (L[{p.index!r}] > 0) is True else {p.alt}"]
        if code == COUNT_DOWN:
            return [f"L[{p.var!r}] = L[{p.var!r}] - 1", f"pc = {p.next}"]
        if code == ASSIGN:
            return [f"L[{p.var!r}] = {ident('FN', p.id)}(ctx)", f"pc = {p.next}"]
        if code == BRANCH:
            return [f"pc = {p.next} if {ident('FN', p.id)}(ctx) is True else {p.alt}"]
        if code == EXEC:
            # An effect's `let` binds names in the context only: it runs on a copy.
            return ["ctx.bindings = L.copy()", f"{ident('FN', p.id)}(ctx)", "check_end(ctx)", "ctx.bindings = L",
                    f"pc = {p.next}", "if state.over:", "    break"]
        if code == PHASE:
            return [f"state.phase = {p.name!r}", f"pc = {p.next}"]
        if code == CHECKPOINT:
            return [f"if state.ending == {p.label!r}:", "    state.over = True", "    break", f"pc = {p.next}"]
        if code == RESPOND_START:
            return [f"order = game._players_of({ident('FN', p.id)}(ctx), {ident('POINT', p.id)})", f"L[{p.var!r}] = (order, 0, 0)",
                    f"pc = {p.next}", "if not order:", f"    del L[{p.var!r}]",
                    f"    pc = {self.rules.points[p.next].next}"]
        if code == SIM_START:
            return [f"state.pending = game._players_of({ident('FN', p.id)}(ctx), {ident('POINT', p.id)})", f"pc = {p.next}"]
        if code == CHANCE:
            return [f"outcomes = _want_list({ident('FN', p.id)}(ctx), 'the outcomes of a chance step')",
                    "if not outcomes:", "    raise _KernelStop()",
                    "state.rng, i = _rng_below(state.rng, len(outcomes))",
                    f"L[{p.var!r}] = outcomes[i]", f"pc = {p.next}"]
        if code == DROP:
            return [f"L.pop({name!r}, None)" for name in p.names] + [f"pc = {p.next}"]
        if code == RESTORE:
            return [f"for entry in L.pop({p.var!r}):", "    if len(entry) == 2:", "        L[entry[0]] = entry[1]",
                    "    else:", "        L.pop(entry[0], None)", f"pc = {p.next}"]
        if code == NOP:
            return [f"pc = {p.next}"]
        if code == END:
            return ["state.over = True", "state.end_reason = state.end_reason or 'the flow of play is complete'",
                    "break"]
        raise AssertionError(f"no kernel code for point {p.op}")

    # -- a decision ---------------------------------------------------------------------------
    def decide(self, p) -> list[str]:
        actions = [self.rules.actions[n] for n in p.actions]
        filtered = {a.name for a in actions if a.then_required and p.kind == "choose"}
        # Listing an action with costs writes its bindings: then it lists on a copy.
        bindings = "L.copy()" if any(a.costs for a in actions) or filtered else "L"
        listing = [f"lc.bindings = {bindings}", "lc.cost = 0"]
        for a in actions:
            if a.name in filtered:  # only moves that reach their `then` steps (Game.reaches_then)
                tag = self.tags[a.name]
                listing += ["found = []", f"{ident('ACTION', tag)}.enumerate(lc, p, found)", "state.pc = pc",
                            f"out.extend(({tag}, x.player, *(v for _, v in x.args)) for x in found "
                            "if game.reaches_then(state, x))"]
            else:
                listing.append(f"{ident('K', a.name)}(lc, p, out)")
        if p.allow_pass and p.pass_fn is not None:  # as Game.may_pass: over the locals, `player` the decider
            self.ns[ident("PASS", p.id)] = p.pass_fn
            listing += ["lc.bindings = {**L, 'player': p}", f"if {ident('PASS', p.id)}(lc) is True:",
                        f"    out.append(({PASS_TAG}, p))"]
        elif p.allow_pass:
            listing.append(f"out.append(({PASS_TAG}, p))")
        listing.append("ctx.charge(lc.cost)")
        if p.kind == "simultaneous":
            lines = ["pending = state.pending", "if not pending:", f"    pc = {p.next}", "    continue",
                     "out = []", "for p in pending:", *("    " + x for x in listing),
                     "movers = {m[1] for m in out}", "able = tuple(x for x in pending if x in movers)",
                     "if able != pending:", "    state.pending = able", "if not able:", f"    pc = {p.next}",
                     "    continue"]
        elif p.kind == "respond":
            # Nobody is skipped: a responder who cannot act passes (Game._stop_at).
            lines = [f"order, who, passes = L[{p.var!r}]", "p = order[who]", "out = []", *listing,
                     "if not out:", *("    " + x for x in self.responded(p, "passes + 1")), "    continue"]
        else:
            lines = [*self.decider(p), "out = []", *listing, "if not out:", f"    pc = {p.next}", "    continue"]
        # Where the move limit is reached, the moves just listed are the state's legal moves
        # (listed_moves.py: a step of Game.apply stops here and lists nothing twice).
        ListedShape("tagged", {self.tags[a.name]: (a.name, tuple(name for name, _, _ in a.decl.params))
                               for a in actions}).keep_in(self.ns, ident("LISTED", p.id))
        lines += ["if played >= limit:", f"    state._moves = {ident('LISTED', p.id)}.moves(p, out)", "    break",
                  "i = below(len(out))", "drawn.append(i)", "m = out[i]",
                  "ctx.bindings = B = L.copy()", "ctx.cost = 0", "B['player'] = m[1]", "a = m[0]"]
        for n, action in enumerate(actions):
            tag = self.tags[action.name]
            names = [name for name, _, _ in action.decl.params]
            lines.append(f"{'if' if n == 0 else 'elif'} a == {tag}:")
            lines += [f"    B[{name!r}] = m[{j + 2}]" for j, name in enumerate(names)]
            if action.costs:
                lines.append(f"    _pay_costs(ctx, {ident('ACTION', tag)})")
            lines.append(f"    {ident('EFFECTS', tag)}(ctx)")
            if p.kind == "choose":
                if action.has_then:  # its `then` steps see the flow's locals, saved here, and the move's
                    saved = ("player", *names)
                    lines += [f"    L[{p.var!r}] = tuple((n, L[n]) if n in L else (n,) for n in {saved!r})",
                              "    L['player'] = m[1]", *(f"    L[{name!r}] = m[{j + 2}]" for j, name in enumerate(names))]
                lines.append(f"    pc = {p.cont[action.name]}")
        if p.kind == "choose" and p.allow_pass:
            lines += ["else:", f"    pc = {p.next}"]
        if p.kind == "simultaneous":
            lines.append("state.pending = tuple(x for x in state.pending if x != m[1])")
        if p.kind == "respond":
            lines += self.responded(p, f"passes + 1 if a == {PASS_TAG} else 0")
        lines += ["state.move_count += 1", "played += 1", "check_end(ctx)", "ctx.bindings = L", "ctx.cost = 0",
                  "steps = 0", "if state.over:", "    break"]
        return lines

    @staticmethod
    def responded(p, passes: str) -> list[str]:
        """The bookkeeping after a responder's turn (Game._after_move): all passed in a row ends it."""
        return [f"passes = {passes}", f"L[{p.var!r}] = (order, (who + 1) % len(order), passes)",
                "if passes >= len(order):", f"    del L[{p.var!r}]", f"    pc = {p.next}"]

    def decider(self, p) -> list[str]:
        if p.player_const is not None:
            who = [f"p = {p.player_const!r}"]
        elif p.player_var is not None:
            who = [f"p = L[{p.player_var!r}]"]
        else:
            self.ns[ident("PLAYER", p.id)] = p.player_fn
            who = [f"p = {ident('PLAYER', p.id)}(ctx)"]
        return who + ["if type(p) is not int or not 0 <= p < ctx.player_count:", "    raise _KernelStop()"]


_RUN = {DECIDE, EXEC, ASSIGN, BRANCH, PHASE, CHECKPOINT, SIM_START, RESPOND_START, RESTORE, NOP, END, LOOP_TEST,
        LOOP_BIND, LOOP_STEP, LOOP_ZERO, COUNT_TEST, COUNT_DOWN, DROP}
