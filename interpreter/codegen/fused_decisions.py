"""The fused tier's decisions (codegen/fused.py): a decision's moves listed in line as
nested loops over the parameters' choices, each requirement tested as soon as the
parameters it reads are bound, the parts of tests and choices that a loop does not
change kept once worked out; then the move drawn, and played in place."""
from __future__ import annotations

import collections
import dataclasses

from meeple.dsl import expr_ast as A

from ..runtime.flowgraph import BRANCH, DECIDE
from ..runtime.moves import requirement_levels
from .fused_zones import Unsupported, filter_of as _filter_of, pair_loop
from .listed_moves import ListedShape
from .safe_source import ident


class Decisions:
    """Mixed into the fused writer (fused._FusedWriter), whose expressions, effect blocks,
    end rules and flow it uses."""

    # -- a decision ---------------------------------------------------------------------------
    def decide(self, p) -> list[str]:
        """List the moves inline, draw one, play its effects in place.  At a simultaneous
        step every pending player's moves are listed together (each starting with its
        player), and one of them is drawn, as the kernel does."""
        actions = [self.rs.actions[n] for n in p.actions]
        single = len(actions) == 1 and not p.allow_pass  # a pass is one more kind of move
        together = p.kind == "simultaneous"
        plain = None if p.allow_pass else self.plain_choice(actions)
        if plain is not None:
            return self.pick_directly(p, actions[0], *plain)
        listing, kept = [], _Kept(actions)  # parts kept while the moves are listed (kept_parts)
        for tag, action in enumerate(actions):
            trial = self.then_trial(p, action) if action.then_required and p.kind == "choose" else None
            listing += self.listing(action, None if single else tag, kept, together, trial=trial)
        listing = [f"{name} = None" for name in kept.names.get(-1, ())] + listing
        if together:
            lines = ["pending = state.pending", "if not pending:", f"    pc = {p.next}", "    continue",
                     "out = []", "for p in pending:", *("    " + x for x in listing),
                     "movers = {m[0] for m in out}", "able = tuple(x for x in pending if x in movers)",
                     "if able != pending:", "    state.pending = able", "if not able:", f"    pc = {p.next}",
                     "    continue"]
        elif p.kind == "respond":  # the responder in turn; passing is always allowed
            lines = [f"order, who, passes = L[{p.var!r}]", "p = order[who]", "out = []", *listing, "out.append((-1,))"]
        else:  # a step of Game.apply is given the listing it stopped at (stop_listed)
            listed = [*self.decider(p), "out = []", *listing, *self.passing(p, "out.append((-1,))", "p"),
                      "if not out:", f"    pc = {p.next}", "    continue"]
            lines = ["if _given is not None:", "    p, out = _given", "    _given = None",
                     "else:", *("    " + x for x in listed)]
        shape = ListedShape("with_player" if together else "bare" if single else "tags",
                            self.listed_actions(actions), respond=p.kind == "respond")
        handed = not together and p.kind != "respond"
        lines += [*self.stop_listed(p, shape, "out", handed), *_drawn("len(out)"), "drawn.append(i)", "m = out[i]",
                  *(["p = m[0]"] if together else []), *([] if single else [f"a = m[{int(together)}]"]),
                  *(f"{ident('w', n)} = []" for n, t in self.types.items() if t.startswith("map:"))]
        ended = False  # may a move's effects end the game (stop_if_ended)
        for tag, action in enumerate(actions):
            names = [name for name, _, _ in action.params]
            lines.append("if True:" if single else f"{'if' if tag == 0 else 'elif'} a == {tag}:")
            first = int(together) + (0 if single else 1)
            if single and not together and len(names) == 1:
                body = [f"{ident('a', names[0])} = m"]
            else:
                body = [f"{ident('a', name)} = m[{j + first}]" for j, name in enumerate(names)]
            env = {"player": ("p", "int"), **{n: (ident("a", n), self.param_types[(action.name, n)]) for n in names}}
            before = self.game_enders
            body += self.paid(action, env) + self.effect_block(action.effects, env)
            ended = ended or self.game_enders > before
            if p.kind == "choose":
                if action.then:  # its `then` steps read the move's player and values as the flow's locals
                    saved = ("player", *names)
                    kept = "".join(f"(({n!r}, L[{n!r}]) if {n!r} in L else ({n!r},)), " for n in saved)
                    body += [f"L[{p.var!r}] = ({kept})",
                             "L['player'] = p", *(f"L[{n!r}] = {ident('a', n)}" for n in names)]
                body.append(f"pc = {p.cont[action.name]}")
            lines += ["    " + x for x in body or ["pass"]]  # a move of no effects at a simultaneous step
        if p.allow_pass and p.kind == "choose":
            lines += ["else:", f"    pc = {p.next}"]
        if p.kind == "respond":  # as Game._after_move: everyone passing in a row closes the window
            lines += ["passes = passes + 1 if a == -1 else 0", f"L[{p.var!r}] = (order, (who + 1) % len(order), passes)",
                      "if passes >= len(order):", f"    del L[{p.var!r}]", f"    pc = {p.next}"]
        if together:
            lines += ["_pd = state.pending", "_j = _pd.index(p)", "state.pending = _pd[:_j] + _pd[_j + 1:]"]  # p was drawn from them
        return lines + ["state.move_count += 1", "played += 1", "steps = 0", "ctx.cost = 0", "_cost = 0",
                        *(["if state.over:", "    break"] if ended else [])]

    def stop_listed(self, p, shape: "ListedShape", out: str, handed: bool = False) -> list[str]:
        """Where the move limit is reached: stop, and leave the moves just listed as the
        state's legal moves, made into `Move`s when they are first asked for (a step of
        Game.apply plays one move and stops at the next decision, whose moves are then not
        listed twice; a new game's walk stops at the first decision, and a playout from
        there never asks for them: runtime/moves.UnmadeMoves).  `handed`: the listing itself is
        kept too (`state._listing`), and the step that plays one of those moves starts
        from it instead of listing them again (decide: `_given`)."""
        self.temps += 1
        name = ident("_fzLISTED", self.temps, site=p.id)  # apart from the kernel's LISTED names
        shape.keep_in(self.ns, name)
        return ["if played >= limit:", f"    state._moves = _fz_Unmade({name}, p, {out})",
                *([f"    state._listing = (p, {out})"] if handed else []), "    break"]

    @staticmethod
    def listed_actions(actions) -> tuple:
        return tuple((a.name, tuple(name for name, _, _ in a.params)) for a in actions)

    def passing(self, p, then: str, decider: str) -> list[str]:
        """`then` where the move `pass` is legal at decision `p` for the player held in
        `decider`: always, never, or where its condition holds (`player` the decider)."""
        if not p.allow_pass:
            return []
        if p.pass_source is None:
            return [then]
        before, test = self.tested(p.pass_source, {**self.flow_env(), "player": (decider, "int")})
        return [*before, f"if {test}:", "    " + then]

    def decider(self, p) -> list[str]:
        """Who decides: a `choose` step's `player:` written over the tier's locals."""
        if p.player_source is None:
            return super().decider(p)
        text, t = self.expr(p.player_source, self.flow_env())
        if t != "int":
            raise Unsupported("a 'player' that is not an int")
        return [f"p = {text}", "if type(p) is not int or not 0 <= p < ctx.player_count:", "    raise _KernelStop()"]

    def plain_choice(self, actions):
        """(parameter, its list's source, element type) when the decision's only action has
        one parameter over a list, unfiltered and with no requirement: each element is one
        move, so the draw indexes the list and nothing is listed."""
        if len(actions) != 1 or len(actions[0].params) != 1 or actions[0].require or actions[0].cost or \
                actions[0].then:
            return None
        name, domain, _ = actions[0].params[0]
        if _filter_of(domain) is not None:
            return None
        text, t = self.expr(domain, {"player": ("p", "int")})
        if not t.startswith("list:"):
            raise Unsupported(f"the choices of '{name}' are not a list")
        self.param_types[(actions[0].name, name)] = t[5:]
        return name, text, t[5:]

    def pick_directly(self, p, action, name: str, seq: str, elem: str) -> list[str]:
        """The draw's index into the moves, as if they were listed (the pending players in
        order, each one's elements in order)."""
        if p.kind == "simultaneous":
            # The last player still to move (half the moves of a two-player step) draws from
            # their own list: nothing to gather or to add up.
            listed = self.listed_actions([action])
            one = ["p = pending[0]", f"_seq = {seq}", "if not _seq:", "    state.pending = ()", f"    pc = {p.next}",
                   "    continue", *self.stop_listed(p, ListedShape("plain", listed), "_seq"),
                   *_drawn("len(_seq)"), "drawn.append(i)"]
            more = ["if not pending:", f"    pc = {p.next}", "    continue",
                    "out = []", "n = 0", "for p in pending:", f"    _seq = {seq}", "    if _seq:",
                    "        out.append((p, _seq))", "        n += len(_seq)",
                    "if len(out) != len(pending):", "    state.pending = tuple([x for x, _ in out])",
                    "if not out:", f"    pc = {p.next}", "    continue",
                    *self.stop_listed(p, ListedShape("plain_by_player", listed), "out"),
                    *_drawn("n"), "drawn.append(i)", "for p, _seq in out:", "    if i < len(_seq):",
                    "        break", "    i -= len(_seq)"]
            lines = ["pending = state.pending", "if len(pending) == 1:", *("    " + x for x in one),
                     "else:", *("    " + x for x in more), f"{ident('a', name)} = _seq[i]", "_org_seq, _org_i = _seq, i"]
        else:
            lines = [*self.decider(p), f"_seq = {seq}", "if not _seq:", f"    pc = {p.next}", "    continue",
                     *self.stop_listed(p, ListedShape("plain", self.listed_actions([action])), "_seq"),
                     *_drawn("len(_seq)"), "drawn.append(i)",
                     f"{ident('a', name)} = _seq[i]", "_org_seq, _org_i = _seq, i"]
        lines += [f"{ident('w', n)} = []" for n, t in self.types.items() if t.startswith("map:")]
        before = self.game_enders
        lines += self.effect_block(action.effects, {"player": ("p", "int"), name: (ident("a", name), elem)})
        ended = self.game_enders > before
        if p.kind == "simultaneous":  # p was drawn from them
            lines += ["_pd = state.pending", "if len(_pd) == 1:", "    state.pending = ()", "else:",
                      "    _j = _pd.index(p)", "    state.pending = _pd[:_j] + _pd[_j + 1:]"]
        else:
            lines.append(f"pc = {p.cont[action.name]}")
        return lines + ["state.move_count += 1", "played += 1", "steps = 0", "ctx.cost = 0", "_cost = 0",
                        *(["if state.over:", "    break"] if ended else [])]

    # -- has_move: an action's listing that stops at its first move ----------------------------
    def has_move_call(self, args, env, depth) -> tuple[str, str]:
        """`has_move(p, ['a', ...])` as calls of functions written inside FUSED, one per
        action: its listing over the tier's locals (parameters, requirements and costs, as
        Game.has_move asks them; `then_required` is not tried there either), returning at
        the first move it finds."""
        names = args[1].items if len(args) == 2 and isinstance(args[1], A.ListLit) else None
        if names is None or not all(isinstance(x, A.Const) and x.value in self.rs.actions for x in names):
            raise Unsupported("has_move of anything but a list of the ruleset's action names")
        who, t = self.expr(args[0], env, depth + 1)
        if t != "int":
            raise Unsupported("has_move of a player that is not an int")
        calls = [f"{self.first_move_function(x.value)}({who})" for x in names]
        return ("(" + " or ".join(calls) + ")" if calls else "False"), "bool"

    def first_move_function(self, name: str) -> str:
        found = self.first_moves.get(name)
        if found is not None:
            return found[0]
        if name in self.first_moves_writing:
            raise Unsupported(f"has_move of action '{name}', whose own rules ask has_move of it")
        self.first_moves_writing.add(name)
        charged, self.charged = self.charged, set()  # the listing being written, if any, keeps its own
        try:
            kept = _Kept([self.rs.actions[name]])
            listing = self.listing(self.rs.actions[name], None, kept, into="_found")
        finally:
            self.charged = charged
            self.first_moves_writing.discard(name)
        last = listing[-1]
        listing[-1] = last[:len(last) - len(last.lstrip())] + "return True"
        fn = f"_fz_first_move{len(self.first_moves)}"
        body = ["_cost = 0", "if type(p) is not int or not 0 <= p < ctx.player_count:", "    raise _KernelStop()",
                *(f"{n} = None" for n in kept.names.get(-1, ())), *listing, "return False"]
        self.first_moves[name] = (fn, [f"def {fn}(p):", *("    " + x for x in body)])
        return fn

    def listing(self, action, tag: int, kept: "_Kept", with_player: bool = False, into: str = "out",
                trial=None) -> list[str]:
        """Nested loops over the parameters' choices, each requirement tested as soon as
        the parameters it reads are bound (the reference's order of moves); each move
        appended to the list `into`, or only when `trial` (then_trial) passes it."""
        decl = action
        levels = requirement_levels(decl.params, [c.cond for c in decl.require])
        env = {"player": ("p", "int")}
        lines, indent = [], ""
        for j in levels[0]:
            lines += self.test_lines(indent, decl.require[j].cond, env)
            indent += "    "
        kept.begin_listing()
        for k, (name, domain, _) in enumerate(decl.params):
            filtered = _filter_of(domain)
            built = self.built_list(domain, env) if filtered is None and k == 0 else None
            if filtered is not None:  # [x for x in S if c]: a loop and a test, no list made
                var, seq, conds = filtered
                text, t = self.expr(*self.kept_parts(seq, None, env, kept, k))
            elif built is not None:  # worked out once per listing, as the reference does
                before, text, t = built
                lines += [indent + x for x in before]
            else:
                text, t = self.expr(*self.kept_parts(domain, None, env, kept, k))
            if not t.startswith("list:"):
                raise Unsupported(f"the choices of '{name}' are not a list")
            elem = t[5:]
            self.param_types[(decl.name, name)] = elem
            pre, walked = self.walk_lines(text)
            lines += [indent + x for x in pre]
            lines.append(f"{indent}for {ident('a', name)} in {walked}:")
            indent += "    "
            kept.loop(k, (name, var) if filtered is not None else (name,), len(lines), indent)
            if elem.startswith("list:"):  # a list each: charged once here, for every walk of it in the tests
                lines += [f"{indent}{x}" for x in self.walk_lines(ident("a", name))[0]]
                self.charged.add(ident("a", name))
            if filtered is not None:
                inner = {**env, var: (ident("a", name), elem)}
                for cond in conds:
                    lines += self.test_lines(indent, *self.kept_parts(cond, k, inner, kept))
                    indent += "    "
            env = {**env, name: (ident("a", name), elem)}
            for j in levels[k + 1]:
                lines += self.test_lines(indent, *self.kept_parts(decl.require[j].cond, k, env, kept))
                indent += "    "
        kept.insert_resets(lines)
        self.charged.clear()  # the listing's loops are closed: the names may be bound otherwise below
        for test in self.affordable(decl, env):
            lines.append(f"{indent}if {test}:")
            indent += "    "
        if trial is not None:
            lines += [indent + x for x in trial(env)] + [f"{indent}if _ok:"]
            indent += "    "
        names = [ident("a", name) for name, _, _ in decl.params]
        if with_player:
            names = ["p", *names] if tag is None else ["p", str(tag), *names]
            lines.append(f"{indent}{into}.append(({''.join(n + ', ' for n in names)}))")
            return lines
        if tag is None:  # the decision's only action: its values alone (one value bare)
            item = names[0] if len(names) == 1 else "(" + "".join(n + ", " for n in names) + ")"
            item = item if names else "()"
        else:
            item = f"({tag}, {''.join(n + ', ' for n in names)})"
        lines.append(f"{indent}{into}.append({item})")
        return lines

    def built_list(self, domain, env) -> tuple[list[str], str, str] | None:
        """(lines, name, type) building the choices of a parameter given by a definition
        whose value filters a list (`offers(player)`, defined as `[g for g in S if
        holds(…, g) and …]`) when a test of the filter has an `any`/`all`: the list is built
        by a loop whose tests are written as `condition` writes them (loops, definitions
        in line), which the expression could only write with a generator per element.
        Where the definition is remembered, its memo is asked as before while it is kept;
        once the game has let it go (`_memo_on_trial`), the loop builds the list."""
        if not (isinstance(domain, A.Call) and domain.func in self.rs.defines and domain.func not in self.recursive):
            return None
        d = self.rs.defines[domain.func]
        filtered = _filter_of(d.expr)
        if not d.params or len(domain.args) != len(d.params) or filtered is None:
            return None
        var, seq, conds = filtered
        if not any(self.has_quantifier(c, {"player", *d.params, var}) for c in conds):
            return None
        as_expression, t = self.expr(domain, env)
        memo = self.def_memos.get(domain.func)
        remembered = memo is not None and (f"{memo}.get(" in as_expression or f"_fz_memo({memo}," in as_expression)
        lines, scope = self.bound_arguments(d, domain.args, env)
        seq_text, st = self.expr(seq, scope)
        if not st.startswith("list:"):
            return None
        self.temps += 1
        built, local = f"_dl{self.temps}", ident("c", var, self.temps)
        inner, indent = {**scope, var: (local, st[5:])}, "    "
        pre, walked = self.walk_lines(seq_text)
        lines += [f"{built} = []", *pre, f"for {local} in {walked}:"]
        for cond in conds:
            before, test = self.tested(cond, inner)
            lines += [indent + x for x in before] + [f"{indent}if {test}:"]
            indent += "    "
        lines.append(f"{indent}{built}.append({local})")
        if remembered:
            lines = [f"if {memo} is _fz_NOT_REMEMBERED:", *("    " + x for x in lines),
                     "else:", f"    {built} = {as_expression}"]
        return lines, built, t

    # -- then_required: a move offered only if its `then` steps reach a decision --------------
    def then_trial(self, p, action):
        """For an action with `then_required` at decision `p`: a function of the listing's
        names giving the lines that set `_ok` to whether the move, played, reaches a
        decision of its own `then` steps (Game.reaches_then).  The effects are played on
        the tier's locals and undone (and what they log): only variables held whole or one
        per player may be written, and no end rule may end the game at once on them."""
        why = self.then_required_reason(action)
        if why is not None:
            raise Unsupported(why, action.span)
        # a list of values per player is copied and written back in place; a global value
        # is replaced on every write, in the state's variables too
        saved = [(f"{ident('v', n)}[:]", f"{ident('v', n)}[:]") if self.types[n].startswith(_PER_PLAYER) else
                 (ident("v", n), f"{ident('v', n)} = V[{n!r}]") for n in sorted(self.effect_writes(action.effects))]
        names = [name for name, _, _ in action.params]
        local = ("player", *names)
        then = p.then_points[action.name]

        def trial(env) -> list[str]:
            keep = [f"_tv{j} = {held}" for j, (held, _) in enumerate(saved)]
            back = [f"{place} = _tv{j}" for j, (_, place) in enumerate(saved)]
            flow = "".join(f"(({n!r}, L[{n!r}]) if {n!r} in L else ({n!r},)), " for n in local)
            self.trying = True
            try:
                tried = self.effect_block(action.effects, env)
            finally:
                self.trying = False
            return ["_tc, _tg = _cost, state.log", *keep, f"_tl = ({flow})", *tried,
                    "L['player'] = p", *(f"L[{n!r}] = {ident('a', n)}" for n in names),
                    *self.reaching(p.cont[action.name], then, set(names), 0),
                    *back, "for _e in _tl:", "    if len(_e) == 2:", "        L[_e[0]] = _e[1]",
                    "    else:", "        L.pop(_e[0], None)", "_cost, state.log = _tc, _tg"]
        return trial

    def then_required_reason(self, action) -> str | None:
        """Why the tier cannot try `action`'s `then_required` on its own locals, or None."""
        writes = self.effect_writes(action.effects)
        if action.cost:
            return f"action '{action.name}' has `then_required` and a cost"
        if writes is None or any(not (self.types.get(n, "") in ("int", "bool", "str", "item") or
                                      self.types.get(n, "").startswith(_REPLACED + _PER_PLAYER)) for n in writes):
            return f"action '{action.name}' has `then_required` and writes more than variables held whole"
        for rule, (reads, _) in zip(self.rs.end, getattr(self, "end_rules", ())):
            if rule.after == "now" and (reads is None or reads & writes):
                return f"action '{action.name}' has `then_required` and an end rule reads what it writes"
        return None

    def reaching(self, pc: int, then: frozenset, taken: set, depth: int) -> list[str]:
        """Lines setting `_ok`: does the flow from `pc` stop at a decision among `then`
        with a move to make (the mover's own), going through `if` steps?"""
        point = self.rules.points[pc]
        if pc not in then:
            return ["_ok = False"]
        if depth > 8:
            raise Unsupported("`then_required` over a long chain of steps")
        if point.code == BRANCH and point.source is not None:
            before, test = self.tested(point.source, self.branch_env(point))
            return [*before, f"if {test}:", *("    " + x for x in self.reaching(point.next, then, taken, depth + 1)),
                    "else:", *("    " + x for x in self.reaching(point.alt, then, taken, depth + 1))]
        if point.code != DECIDE or point.kind != "choose" or point.player_var != "player":
            raise Unsupported(f"`then_required` reaching a step '{point.op}'")
        if point.allow_pass and point.pass_source is None:
            return ["_ok = True"]
        actions = [self.rs.actions[n] for n in point.actions]
        if any(a.then_required for a in actions) or taken & {n for a in actions for n, _, _ in a.params}:
            raise Unsupported("`then_required` reaching a decision that shares its names")
        # Only whether there is a move counts: the actions with fewer parameters are listed
        # first, and the listing stops after the first action that has one.
        kept, lines, indent = _Kept(actions), [], ""
        for tag, a in sorted(enumerate(actions), key=lambda x: len(x[1].params)):
            if lines:
                lines.append(f"{indent}if not _tout:")
                indent += "    "
            lines += [indent + x for x in self.listing(a, tag, kept, into="_tout")]
        lines = ["_tout = []", *(f"{name} = None" for name in kept.names.get(-1, ())), *lines,
                 *self.passing(point, "_tout.append((-1,))", "p")]
        return [*lines, "if _tout:", "    _ok = True", "else:",
                *("    " + x for x in self.reaching(point.next, then, taken, depth + 1))]

    def test_lines(self, indent: str, cond, env) -> list[str]:
        """`if cond:` (its body to follow, one level in).  A test with `any`/`all` in it is
        written as statements first (`condition`): loops run faster than generators."""
        before, test = self.tested(cond, env)
        return [indent + x for x in before] + [f"{indent}if {test}:"]

    def has_quantifier(self, node, bound: set, depth: int = 0) -> bool:
        """Whether `condition` writes `node` with a loop (an `any`/`all` it reaches through
        `and`, `or` and definitions)."""
        if depth > 40:
            return False
        if isinstance(node, A.BoolOp):
            return self.has_quantifier(node.left, bound, depth + 1) or self.has_quantifier(node.right, bound, depth + 1)
        if not isinstance(node, (A.Name, A.Call)):
            return False
        name, args = (node.name, ()) if isinstance(node, A.Name) else (node.func, node.args)
        if name not in bound and name in self.rs.defines and name not in self.recursive and \
                len(args) == len(self.rs.defines[name].params):
            d = self.rs.defines[name]
            return self.has_quantifier(d.expr, {"player", *d.params}, depth + 1)
        return self.looped_quantifier(node, bound)

    def looped_quantifier(self, node, bound) -> bool:
        """`any(…)`/`all(…)` over a generator that `quantifier` writes as loops (one over a
        short list of constants stays an expression: `unrolled`)."""
        if not (isinstance(node, A.Call) and node.func in ("any", "all") and len(node.args) == 1
                and isinstance(node.args[0], A.Generator) and isinstance(node.args[0].clauses[0], A.For)
                and (len(node.args[0].clauses[0].names) == 1 or pair_loop(node.args[0].clauses[0]))):
            return False
        gen = node.args[0]
        return len(gen.clauses) > 1 or self.few_constants(gen.clauses[0], bound) is None

    def kept_parts(self, node, innermost: int | None, env: dict, kept: "_Kept", choices_of: int = 0) -> tuple:
        """(`node`, env) with the parts of a test that do not change in the innermost loop
        around it (`innermost`, the level of that loop) worked out on first use and kept
        until the loop they do read goes on (the state does not change while moves are
        listed).  On first use, not before the loops: a part the reference would never
        work out (an empty loop, a short-circuit) is never worked out here either.  Parts
        are reached through operators and a definition's arguments; the same part in two
        places (`item_cost(card)` in a parameter's choices and in a requirement) is kept
        once, and a part that reads no parameter once for all the decision's actions.  In
        the choices of the parameter at level `choices_of` (`innermost` None), the choices
        or a part of them is kept where it does not change in the loop around them, or
        where it is written elsewhere in the decision too."""
        by = {}
        if innermost is not None:
            parts = _kept_candidates(node, kept.level_of, innermost, self.rs.defines)
        else:
            parts = kept.choice_parts(node, choices_of - 1, self.rs.defines)
        for part in parts:
            key = (kept.level(part), _shape(part))
            if key not in kept.shapes:
                text, t = self.expr(part, env)
                if t not in ("int", "bool", "str", "item") and not t.startswith(("list:", "dict:")):
                    kept.shapes[key] = None  # a type whose values may be None
                    continue
                self.temps += 1
                kept.shapes[key] = (f"_h{self.temps}", text, t)
                kept.names.setdefault(key[0], []).append(f"_h{self.temps}")
            if kept.shapes[key] is not None:
                name, text, t = kept.shapes[key]
                by[id(part)] = A.Name("#" + name, part.span)  # a name no ruleset can write
                env = {**env, "#" + name: (f"({name} if {name} is not None else ({name} := {text}))", t)}
        return (_replaced(node, by) if by else node), env

    def affordable(self, decl, env) -> list[str]:
        """One test per cost, in the order written, as moves.cost_shortfall makes it on a
        complete move: the amount is worked out, and where the variable has a `min`, what
        it holds less the amount must not fall below it."""
        tests = []
        for target, amount, _ in decl.cost:
            value, vt = self.expr(amount, env)
            if vt != "int":
                raise Unsupported("a cost that is not an int")
            held, name = self.cost_place(target, env)
            floor = self.rs.variables[name].min
            tests.append(f"type({value}) is int" if floor is None else f"{self.checked(f'{held} - {value}')} >= {floor}")
        return tests

    def cost_place(self, target, env) -> tuple[str, str]:
        """(what the variable a cost is paid from holds, the variable's name): an int
        variable, global or one value per player."""
        if isinstance(target, A.Name) and self.types.get(target.name) == "int":
            return ident("v", target.name), target.name
        if isinstance(target, A.Index) and isinstance(target.obj, A.Name) and \
                self.types.get(target.obj.name) == "pmap:int":
            key, kt = self.expr(target.index, env)
            if kt == "int":
                return f"{ident('v', target.obj.name)}[{self.natural(key)}]", target.obj.name
        raise Unsupported("a cost paid from something other than an int variable, global or per player")

    def paid(self, decl, env) -> list[str]:
        """The move's costs taken from their variables before its effects (store.pay_costs)."""
        lines = []
        for target, amount, _ in decl.cost:
            lines += self.assignment(_Paid(target, amount), env)
        return lines


# Variables a `then_required` trial can put back: held whole and replaced on every write,
# or a list of such values, one per player (fused.var_type).
_REPLACED = ("gmap:", "glist:")
_PER_PLAYER = ("pmap:", "pmapd:", "plist:")


class _Paid:
    """A cost, written as the assignment `target -= amount` it makes."""
    op = "-="

    def __init__(self, target, amount):
        self.target, self.value = target, amount


def _drawn(count: str) -> list[str]:
    """`i = below(count)`: where `below` is a `random.Random`'s own `_randbelow`, its
    steps written in line (the same calls of `getrandbits`, so the same index)."""
    return [f"_n = {count}", "if _bits is not None:", "    _k = _n.bit_length()", "    i = _bits(_k)",
            "    while i >= _n:", "        i = _bits(_k)", "else:", "    i = below(_n)"]


class _Kept:
    """What a decision's listings keep (`kept_parts`): the loop level of each parameter of
    the listing being written, the names that keep parts at each level (-1: before the
    loops, shared by the decision's actions) and where their resets go."""

    def __init__(self, actions):
        tests = [node for a in actions for node in
                 [c.cond for c in a.require] + [d for _, d, _ in a.params]]
        self.written = collections.Counter(_shape(n) for test in tests for n in A.walk(test))
        self.names: dict[int, list[str]] = {}
        self.shapes: dict = {}  # (level, shape) -> (name, text, type), or None: not kept

    def begin_listing(self) -> None:
        """A new action's loops: its levels are its own; what reads none stays."""
        self.level_of: dict[str, int] = {}
        self.marks: dict[int, tuple] = {}
        self.names = {-1: self.names.get(-1, [])}
        self.shapes = {key: v for key, v in self.shapes.items() if key[0] == -1}

    def loop(self, level: int, names, at: int, indent: str) -> None:
        """The loop at `level` binds `names`; its body starts at line `at`."""
        self.level_of.update((n, level) for n in names)
        self.marks[level] = (at, indent)

    def level(self, node) -> int:
        """The innermost loop whose names `node` reads (-1: none)."""
        return max((self.level_of[n.name] for n in A.walk(node) if isinstance(n, A.Name) and n.name in self.level_of),
                   default=-1)

    def choice_parts(self, node, around: int, defines) -> list:
        """The largest parts of a parameter's choices (the whole of them first) that do not
        change in the loop `around` them, or that are written more than once in the
        decision, reached through operators and a definition's arguments."""
        if not _cheap(node) and (self.level(node) < around or self.written[_shape(node)] > 1):
            return [node]
        return [p for child in _operands(node, defines) for p in self.choice_parts(child, around, defines)]

    def insert_resets(self, lines: list) -> None:
        """Each kept name set to None where its loop's body starts (innermost first, so
        the earlier places stay where they are); those before the loops are the
        decision's (`decide`)."""
        for level in sorted((x for x in self.names if x >= 0), reverse=True):
            at, indent = self.marks[level]
            lines[at:at] = [f"{indent}{name} = None" for name in self.names[level]]


def _kept_candidates(node, level_of: dict, innermost: int | None, defines) -> list:
    """The largest parts of `node` that read no name bound at `innermost` or deeper (any
    part, for None), reached through operators and the arguments of definitions, that
    are more than a name, a constant or a plain index."""
    reads = {n.name for n in A.walk(node) if isinstance(n, A.Name)}
    if innermost is None or all(level_of[n] < innermost for n in reads if n in level_of):
        return [] if _cheap(node) else [node]
    return [p for child in _operands(node, defines) for p in _kept_candidates(child, level_of, innermost, defines)]


def _operands(node, defines) -> list:
    """What is always worked out before `node` itself: an operator's operands and a
    definition's arguments (a short-circuit may skip some: the kept part is lazy)."""
    if isinstance(node, (A.BoolOp, A.Binary, A.Unary, A.Cond)):
        return list(A.iter_children(node))
    if isinstance(node, A.Call) and node.func in defines:
        return list(node.args)
    return []


def _shape(node):
    """`node` without its source spans: two places that write the same expression."""
    if isinstance(node, A.Node):
        return (type(node).__name__,) + tuple(_shape(getattr(node, f.name)) for f in dataclasses.fields(node)
                                              if not f.name.endswith("span"))
    if isinstance(node, tuple):
        return tuple(_shape(x) for x in node)
    return node


def _cheap(node) -> bool:
    """Read as fast as a kept value would be."""
    plain = (A.Const, A.Name)
    return isinstance(node, plain) or (isinstance(node, A.Unary) and isinstance(node.operand, A.Const)) or \
        (isinstance(node, A.ListLit) and all(isinstance(x, A.Const) for x in node.items)) or \
        (isinstance(node, A.Index) and isinstance(node.obj, plain) and isinstance(node.index, plain))


def _replaced(node, by: dict):
    """`node` with each subtree whose id is a key of `by` replaced by its value."""
    import dataclasses
    if id(node) in by:
        return by[id(node)]
    changes = {}
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if isinstance(value, A.Node):
            new = _replaced(value, by)
        elif isinstance(value, tuple):
            new = tuple(_replaced(v, by) if isinstance(v, A.Node) else v for v in value)
        else:
            continue
        if new is not value and new != value:
            changes[f.name] = new
    return dataclasses.replace(node, **changes) if changes else node
