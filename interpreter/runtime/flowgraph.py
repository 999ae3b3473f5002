"""The structured flow compiled to a graph of control points (networkx DiGraph).

Each node is one control point: a decision (choose / simultaneous / respond),
an automatic step (effects, a local assignment, a branch, a chance draw,
entering a phase, a label checkpoint) or the end.  The interpreter keeps the
current node id in `state.pc` and walks the graph; the same graph is what
`meeple graph --flow` exports.

Building runs backwards, in continuation-passing style: every structured node
is compiled knowing the id of the node that follows it.
"""
from __future__ import annotations

import networkx as nx

from meeple.dsl.types import INT
from meeple.dsl.expr_ast import Unary, names_read


# `Point.code`: the op as a small int for the walk's dispatch (game.Game._advance), with
# the loop bookkeeping `for`, `turns` and `times` compile to told apart from other
# assignments and branches, so the walk runs it inline instead of calling a function.
# The op itself (what `meeple graph --flow` exports) is unchanged.
DECIDE, EXEC, ASSIGN, BRANCH, PHASE, CHECKPOINT, SIM_START, RESPOND_START, CHANCE, RESTORE, NOP, END = range(12)
LOOP_TEST = 12  # branch: bindings[var] < len(bindings[seq])
LOOP_BIND = 13  # assign: var = bindings[seq][bindings[index]]
LOOP_STEP = 14  # assign: var = bindings[var] + 1
LOOP_ZERO = 15  # assign: var = 0
COUNT_TEST = 16  # branch: bindings[index] > 0
COUNT_DOWN = 17  # assign: var = bindings[var] - 1
DROP = 18  # the names a scope bound (`names`), gone as it ends
CODES = {"decide": DECIDE, "exec": EXEC, "assign": ASSIGN, "branch": BRANCH, "phase": PHASE,
         "checkpoint": CHECKPOINT, "sim_start": SIM_START, "respond_start": RESPOND_START, "chance": CHANCE,
         "restore": RESTORE, "nop": NOP, "end": END, "drop": DROP}


class Point:
    """One control point.  `next` is the usual successor; `alt` the else-branch.

    `code` is the op for dispatch (see above); `seq` and `index` name the locals a
    loop's bookkeeping reads.  At a choose, `player_var` names the local holding the
    deciding player and `player_const` is that player when it is fixed, so finding
    who decides needs no context (`player_fn` computes the same).  `source` is what
    `fn` was compiled from (an expression, or an `effects` step's list of effects), for
    back ends that write the point's code themselves (codegen/fused.py).  At a decision,
    `in_scope` lists the names flow steps have bound there: name -> (the compiled `seen_by`
    of the step that bound it, or None: nobody may know it; the `chance` point that drew
    it, or None), which views and observations read (views.py, determinize.py).

    `allow_pass` says whether the move `pass` can be legal at a decision at all (the
    action table gives it an id); `pass_fn`, when not None, is the condition it also
    requires, read with `player` bound to the decider (`pass_source`, `pass_text`: its
    expression and its text as written).  A branch whose condition reads `player` as a
    step's decider (a choose's `again`) has that decider's `player_var` or `player_const`,
    so a back end writing the branch knows what `player` is there."""

    __slots__ = ("id", "op", "next", "alt", "fn", "name", "kind", "actions", "cont", "then_points",
                 "player_fn", "allow_pass", "span", "rule", "label", "var", "turn_var", "phase",
                 "code", "seq", "index", "player_var", "player_const", "source", "player_source",
                 "names", "in_scope", "seen", "pass_fn", "pass_source", "pass_text")

    def __init__(self, id, op, **kw):
        self.id, self.op = id, op
        self.code = CODES[op]
        self.next = self.alt = self.fn = self.player_fn = None
        self.name = self.kind = self.label = self.var = self.turn_var = None
        self.seq = self.index = self.player_var = self.player_const = self.source = self.player_source = None
        self.actions, self.cont, self.then_points = (), {}, {}
        self.names, self.in_scope, self.seen = (), {}, None
        self.allow_pass = False
        self.pass_fn = self.pass_source = self.pass_text = None
        self.span = self.rule = None
        self.phase = ""
        for k, v in kw.items():
            setattr(self, k, v)


class FlowBuilder:
    def __init__(self, rules):
        self.rules = rules
        self.points: list[Point] = []
        self.graph = nx.DiGraph()
        self.frames: dict = {}  # id(scope) -> (scope, name it binds, seen_by or None, chance node or None)
        self.drawn: dict = {}  # id(chance node) -> its point
        self.seen_by: dict = {}  # id(flow node) -> its compiled `seen_by`, or None

    def add(self, op, **kw) -> Point:
        p = Point(len(self.points), op, **kw)
        self.points.append(p)
        return p

    # -- building --------------------------------------------------------------
    def build(self, flow, scope) -> int:
        end = self.add("end")
        start = self.seq(flow, scope, end.id, turn_var=None, phase="")
        for p in self.points:  # the chance steps were compiled after the decisions they bind names for
            p.in_scope = {name: (seen, self.drawn[id(node)] if node is not None else None)
                          for name, (seen, node) in p.in_scope.items()}
        self._export()
        return start

    def bind(self, scope, node, name: str, kind=None):
        """`scope` with the name a flow step binds, remembered with who may know its value."""
        inner = scope.bind({name: kind})
        seen = node.args.get("seen_by")
        seen_fn = self.rules.expr(seen, inner) if seen is not None else None
        self.frames[id(inner)] = (inner, name, seen_fn, node if node.kind == "chance" else None)
        self.seen_by[id(node)] = seen_fn
        return inner

    def in_scope(self, scope) -> dict:
        """name -> (seen_by, chance node) of each name flow steps bound in `scope`."""
        out = {}
        while scope is not None:
            frame = self.frames.get(id(scope))
            if frame is not None and frame[1] not in out:
                out[frame[1]] = frame[2:]
            scope = scope.parent
        return out

    def seq(self, nodes, scope, k: int, turn_var, phase) -> int:
        # A chance step binds its outcome for the steps after it, so scopes are
        # worked out forwards before the steps are compiled backwards; the names end
        # with the list (a `drop` point before what follows it).
        scopes, drawn = [], []
        for node in nodes:
            scopes.append(scope)
            if node.kind == "chance" and node.args.get("var"):
                scope = self.bind(scope, node, node.args["var"])
                drawn.append(node.args["var"])
        if drawn:
            k = self.add("drop", names=tuple(drawn), next=k, phase=phase).id
        for node, node_scope in zip(reversed(nodes), reversed(scopes)):
            k = self.one(node, node_scope, k, turn_var, phase)
        return k

    def one(self, node, scope, k, turn_var, phase) -> int:
        if node.label:
            k = self.add("checkpoint", label=node.label, next=k, span=node.span).id
        return getattr(self, "f_" + node.kind)(node, scope, k, turn_var, phase)

    def f_phase(self, node, scope, k, turn_var, phase):
        name = node.args["name"]
        body = self.seq(node.body, scope, k, turn_var, name)
        return self.add("phase", name=name, next=body, span=node.span, rule=node.rule, phase=name).id

    def f_effects(self, node, scope, k, turn_var, phase):
        fn = self.rules.effects.block(node.args["effects"], scope)
        return self.add("exec", fn=fn, source=node.args["effects"], next=k, span=node.span, rule=node.rule, phase=phase).id

    def f_if(self, node, scope, k, turn_var, phase):
        cond = self.rules.expr(node.args["cond"], scope)
        branch = self.add("branch", fn=cond, source=node.args["cond"], span=node.span, rule=node.rule, phase=phase)
        branch.next = self.seq(node.body, scope, k, turn_var, phase)
        branch.alt = self.seq(node.orelse, scope, k, turn_var, phase)
        return branch.id

    def f_loop(self, node, scope, k, turn_var, phase):
        a = node.args
        if "times" in a:
            counter = f"__loop{len(self.points)}"
            times = self.rules.expr(a["times"], scope)
            done = self.add("drop", names=(counter,), next=k, phase=phase)
            test = self.add("branch", fn=lambda ctx: ctx.bindings[counter] > 0, alt=done.id, span=node.span,
                            phase=phase, code=COUNT_TEST, index=counter)
            dec = self.add("assign", var=counter, fn=lambda ctx: ctx.bindings[counter] - 1, phase=phase,
                           code=COUNT_DOWN)
            dec.next = self.seq(node.body, scope, test.id, turn_var, phase)
            test.next = dec.id
            return self.add("assign", var=counter, fn=times, source=a["times"], next=test.id, span=node.span, phase=phase).id
        if "while" in a or "until" in a:
            cond = self.rules.expr(a.get("while") or a.get("until"), scope)
            fn = cond if "while" in a else (lambda ctx, c=cond: not c(ctx))
            source = a["while"] if "while" in a else Unary("not", a["until"], a["until"].span)
            test = self.add("branch", fn=fn, source=source, alt=k, span=node.span, rule=node.rule, phase=phase)
            test.next = self.seq(node.body, scope, test.id, turn_var, phase)
            return test.id
        head = self.add("nop", span=node.span, phase=phase)
        head.next = self.seq(node.body, scope, head.id, turn_var, phase)
        return head.id

    def _iterate(self, node, scope, k, var, domain_expr, turn_var, phase):
        tag = len(self.points)
        lst, idx = f"__list{tag}", f"__index{tag}"
        domain = self.rules.expr(domain_expr, scope)
        inner = self.bind(scope, node, var, INT if node.kind == "turns" else None)
        done = self.add("drop", names=(var, lst, idx), next=k, phase=phase)
        test = self.add("branch", fn=lambda ctx: ctx.bindings[idx] < len(ctx.bindings[lst]), alt=done.id,
                        span=node.span, phase=phase, code=LOOP_TEST, index=idx, seq=lst)
        step = self.add("assign", var=idx, fn=lambda ctx: ctx.bindings[idx] + 1, phase=phase, code=LOOP_STEP)
        bind = self.add("assign", var=var, fn=lambda ctx: ctx.bindings[lst][ctx.bindings[idx]],
                        next=step.id, phase=phase, name=node.kind, code=LOOP_BIND, index=idx, seq=lst)
        step.next = self.seq(node.body, inner, test.id, var if node.kind == "turns" else turn_var, phase)
        test.next = bind.id
        until = node.args.get("until")
        if until is not None:
            # `turns ... until`: tested when a player is left to take a turn, before that
            # player is bound (so it reads the names around the step, as a loop's `until`).
            holds = self.rules.expr(until, scope)
            gate = self.add("branch", fn=lambda ctx, c=holds: not c(ctx), source=Unary("not", until, until.span),
                            next=bind.id, alt=done.id, span=node.span, rule=node.rule, phase=phase, name="until")
            test.next = gate.id
        zero = self.add("assign", var=idx, fn=lambda ctx: 0, next=test.id, phase=phase, code=LOOP_ZERO)
        return self.add("assign", var=lst, fn=lambda ctx: tuple(domain(ctx)), source=domain_expr, next=zero.id,
                        span=node.span, rule=node.rule, phase=phase).id

    def f_for(self, node, scope, k, turn_var, phase):
        return self._iterate(node, scope, k, node.args["var"], node.args["in"], turn_var, phase)

    def f_turns(self, node, scope, k, turn_var, phase):
        return self._iterate(node, scope, k, node.args["var"], node.args["players"], turn_var, phase)

    def _decide(self, node, scope, k, turn_var, phase, kind):
        names = [n for n, _ in node.args["actions"] if n]
        again = node.args.get("again") if kind == "choose" else None
        # A step that may come again to a decider named by `player:` remembers who that was
        # in a local, so the repeat is theirs whatever the expression says by then.
        who = f"__who{len(self.points)}" if again is not None and node.args.get("player") is not None else None
        if who is not None:
            k_out = self.add("drop", names=(who,), next=k, phase=phase).id
        else:
            k_out = k
        point = self.add("decide", kind=kind, next=k_out, span=node.span, rule=node.rule, phase=phase,
                         turn_var=turn_var, label=node.label, in_scope=self.in_scope(scope))
        point.actions = tuple(n for n in names if n != "pass")
        passing = node.args.get("pass")
        point.allow_pass = "pass" in names or (passing is not None and passing is not False)
        decider_scope = scope.bind({"player": INT}, kind="param")  # `player` in the step's own conditions
        if passing is not None and not isinstance(passing, bool):
            point.pass_fn = self.rules.expr(passing, decider_scope)
            point.pass_source, point.pass_text = passing, node.args.get("pass_text")
        if kind == "choose":
            if who is not None:
                point.player_fn = lambda ctx, v=who: ctx.bindings[v]
                point.player_var = who
            elif node.args.get("player") is not None:
                point.player_fn = self.rules.expr(node.args["player"], scope)
                point.player_source = node.args["player"]
            elif turn_var:
                point.player_fn = lambda ctx, v=turn_var: ctx.bindings[v]
                point.player_var = turn_var
            else:
                point.player_fn = lambda ctx: 0
                point.player_const = 0
        else:
            players = node.args.get("players")
            point.player_fn = self.rules.expr(players, scope) if players is not None else \
                (lambda ctx: tuple(range(ctx.player_count)))
        # After a move (its `then` steps included) play goes on after the step, or first
        # to the test of `again`; a pass, or nobody able to move, leaves the step.
        after = self._again(point, again, decider_scope, k_out, node, phase) if again is not None else k
        for name in point.actions:
            action = self.rules.ruleset.actions[name]
            if kind == "choose" and action.then:
                # The action's player and parameters are bound for its sub-decisions only:
                # `apply` saves what they shadow and this point puts it back afterwards.
                point.var = f"__saved{point.id}"
                restore = self.add("restore", var=point.var, next=after, phase=phase)
                inner = self.rules.action_scope(action, scope)
                # Sub-decisions are the acting player's unless a step names someone else.
                first_id = len(self.points)
                point.cont[name] = self.seq(action.then, inner, restore.id, "player", phase)
                point.then_points[name] = frozenset(range(first_id, len(self.points)))
            else:
                point.cont[name] = after
        if who is not None:  # the decider, worked out once as the step starts
            return self.add("assign", var=who, fn=self.rules.expr(node.args["player"], scope),
                            source=node.args["player"], next=point.id, span=node.span, rule=node.rule,
                            phase=phase).id
        return point.id

    def _again(self, point, again, decider_scope, k_out, node, phase) -> int:
        """The branch after a move at `point`: back to it (the same decider) while `again`
        holds, else on to `k_out`.  `player` in the condition is the decider."""
        holds = self.rules.expr(again, decider_scope)
        branch = self.add("branch", source=again, next=point.id, alt=k_out, span=node.span, rule=node.rule,
                          phase=phase, name="again")
        if point.player_var == "player" or "player" not in names_read(again):
            branch.fn = holds
        else:
            branch.player_var, branch.player_const = point.player_var, point.player_const
            branch.fn = _read_as_decider(holds, point.player_var, point.player_const)
        return branch.id

    def f_choose(self, node, scope, k, turn_var, phase):
        return self._decide(node, scope, k, turn_var, phase, "choose")

    def f_simultaneous(self, node, scope, k, turn_var, phase):
        decide = self._decide(node, scope, k, turn_var, phase, "simultaneous")
        point = self.points[decide]
        return self.add("sim_start", fn=point.player_fn, source=node.args.get("players"), next=decide,
                        span=node.span, phase=phase).id

    def f_respond(self, node, scope, k, turn_var, phase):
        decide = self._decide(node, scope, k, turn_var, phase, "respond")
        point = self.points[decide]
        point.allow_pass = True
        point.var = f"__respond{decide}"
        return self.add("respond_start", var=point.var, fn=point.player_fn, source=node.args.get("players"),
                        next=decide, span=node.span,
                        phase=phase).id

    def f_chance(self, node, scope, k, turn_var, phase):
        point = self.add("chance", var=node.args["var"], fn=self.rules.expr(node.args["from"], scope),
                         source=node.args["from"], next=k, span=node.span, rule=node.rule, phase=phase,
                         in_scope=self.in_scope(scope),  # where play waits when chance is explicit
                         seen=self.seen_by.get(id(node)))  # who may know what it draws
        self.drawn[id(node)] = point
        return point.id

    # -- export ------------------------------------------------------------------
    def _export(self):
        g = self.graph
        for p in self.points:
            attrs = {"op": p.op, "phase": p.phase or ""}
            if p.op == "decide":
                attrs["kind"] = p.kind
                attrs["actions"] = ",".join(p.actions) + (",pass" if p.allow_pass else "")
                if p.pass_fn is not None:
                    attrs["pass_requires"] = p.pass_text or ""
            if p.label:
                attrs["label"] = p.label
            if p.name:
                attrs["name"] = p.name
            if p.var and not p.var.startswith("__"):
                attrs["var"] = p.var
            if p.span is not None:
                attrs["source"] = str(p.span)
            if p.rule:
                attrs["rule"] = p.rule
            g.add_node(p.id, **attrs)
        for p in self.points:
            if p.op == "decide":
                for action, target in p.cont.items():
                    g.add_edge(p.id, target, move=action)
                if p.allow_pass or p.kind != "choose":
                    g.add_edge(p.id, p.next, move="pass" if p.allow_pass else "all decided")
                if p.kind == "respond":
                    g.add_edge(p.id, p.id, move="next responder")
            else:
                if p.next is not None:
                    g.add_edge(p.id, p.next, move="" if p.op != "branch" else "true")
                if p.alt is not None:
                    g.add_edge(p.id, p.alt, move="false")


_UNBOUND = object()


def _read_as_decider(fn, var, const):
    """`fn` evaluated with `player` bound to a step's decider (the local `var`, or the
    player `const`), and `player` put back afterwards: the walk's bindings mirror the
    flow's locals, which must not change."""
    def read(ctx):
        bindings = ctx.bindings
        saved = bindings.get("player", _UNBOUND)
        bindings["player"] = const if var is None else bindings[var]
        try:
            return fn(ctx)
        finally:
            if saved is _UNBOUND:
                del bindings["player"]
            else:
                bindings["player"] = saved
    return read
