"""The fused playout tier: a whole random playout as one function over typed locals.

The playout kernel (kernel.py) calls the generated functions the move-by-move back end
uses: each listing, effect block, definition and end rule is a function with its own
fallback, reading the state through a context, and every write replaces its container.
For a ruleset whose state is variables of plain types (int, str, bool; maps of them keyed
by node or player; lists of ints) and zones of items (fused_zones.py), this tier writes
one function instead:

- at the start it copies each variable's container once and checks every value has its
  declared type, so inside, types are proven and reads need no guards;
- a decision lists its moves as inline loops (or, for one parameter over a plain list,
  draws an index into it), plays the chosen one's effects in place (each write checked
  against the declared type, `choices` and bounds), and tests the end rules inline
  (fused_decisions.py, fused_ends.py);
- the flow's steps after a move (effects, chance draws, loops) follow in line;
- definitions are nested functions over the same locals.

It supports a part of the language (`unsupported` says why a ruleset is outside it).
Anything unusual while it runs (a failed check, an empty `first`, a missing key) raises,
and `Game.playout` plays the whole playout again with the move-by-move loop, as for the
kernel.  Its results must equal the reference's: tests/test_fused.py compares them.
"""
from __future__ import annotations

import re

from meeple.dsl import expr_ast as A
from meeple.dsl.functions import board_adjacency, hop_walk

from ..runtime.context import Ctx
from ..runtime import rng
from ..runtime.moves import UnmadeMoves
from ..runtime.flowgraph import (ASSIGN, BRANCH, CHANCE, CHECKPOINT, CODES, DECIDE, EXEC, LOOP_BIND, LOOP_STEP,
                         LOOP_TEST, RESPOND_START, SIM_START)
from .kernel import STEP_LIMIT as _STEP_LIMIT
from .effects_runtime import set_prop
from .kernel import KernelStop, _KernelWriter
from .fused_conditions import ConditionTriggers
from .fused_decisions import Decisions
from .fused_ends import EndRules
from .fused_idioms import NAMES as _IDIOM_NAMES, Idioms
from .frame_room import padded
from .safe_source import UnsafeSource, ident
from .fused_zones import (FACES, ONLY, ONLY_NAMES, Item, Unsupported, ZonesAndEffects, bag_deal, bag_take,
                          deal, keyed_back, natural, PropColumn, rows_back, take_anywhere)
from .fused_support import (MAX_NODES, _BOARD_WALKS, _CHAIN, _FLOW_POINTS, _FORKS, _MISSING, _NOT_REMEMBERED,
                            _PY, _SCALARS, _STRAIGHT, _WALK_FOUND_PER_MISS, _exprs, _flow_nodes, _walk)
from .fused_runtime import (_held, _nested, _no_none, _sure, _bounded_range, _checked_int, _fast_bits, _first, _index_by_key, _last,
                            _memo_on_trial, _memo_site, _remember, _remembered, _set_sized, _short, _sized, _stop,
                            _walked)
from .fused_writes import Writes
from .fused_quantifiers import Quantifiers
from .fused_expressions import Expressions
from .fused_definitions import Definitions


def located_reasons(rules) -> list[tuple]:
    """Every reason `rules` is outside the fused tier with where it is written: (message,
    span or None), each once, in the order met.  See `reasons`."""
    writer = _FusedWriter(rules)
    try:
        found = writer.shape_reasons()
        if not found:
            writer.check()
    except Unsupported as exc:
        return [(str(exc), exc.span)]
    except Exception as exc:  # noqa: BLE001 - reported, so that a test sees it
        return [(f"the writer failed: {type(exc).__name__}: {exc}", None)]
    return found


def unsupported(rules) -> str | None:
    """Why `rules` is outside the fused tier (the first reason, without its place), or
    None when it is inside."""
    found = located_reasons(rules)
    return found[0][0] if found else None


def reasons(rules) -> list[str]:
    """Every reason `rules` is outside the fused tier, for an author who wants the fastest
    playouts (`meeple compile` prints them): each variable, action, item kind, decision
    and the like that the tier does not take; when the ruleset's shape is inside, the
    first expression or effect the writer cannot write.  Empty when it is inside."""
    at = _FusedWriter(rules).at  # a file by its number: the note goes into the module's text
    return [why if span is None else f"{why}, at {at(span)}" for why, span in located_reasons(rules)]


def build_fused(rules, players: int | None = None):
    """The fused playout `(function, points it runs)`, or None when unsupported.  A
    ruleset this writer cannot handle for any other reason keeps the kernel: the tier is
    only ever a faster way to the same result.  With `players`, the playout is written
    for games of that many players only: `players()` is a written tuple and
    `player_count()` a number, so loops over the players can be written out."""
    writer = _FusedWriter(rules, players)
    try:
        writer.check()
        return writer.build()
    except UnsafeSource:  # a slip of the writer that safe_source stopped: never hidden
        raise
    except Exception:  # noqa: BLE001 - Unsupported, or a shape the writer does not foresee
        return None



def _nested_list(t) -> str | None:
    """"list:list:int" for a declared list[list[int]] (two levels or more, of ints or texts)."""
    depth = 0
    while t is not None and t.name == "list" and len(t.args) == 1:
        depth, t = depth + 1, t.args[0]
    if depth < 2 or t is None or t.name not in ("int", "str"):
        return None
    return "list:" * (depth - 1) + t.name

class _FusedWriter(Decisions, ConditionTriggers, EndRules, ZonesAndEffects, Idioms, Writes, Quantifiers, Expressions, Definitions,
                   _KernelWriter):
    def __init__(self, rules, players: int | None = None):
        super().__init__(rules, explicit_chance=False)
        self.rs = rules.ruleset
        self.players = players  # the player count the playout is written for, if one
        self.types: dict[str, str] = {}  # variable -> its value's type: "int", "map:str", "pmap:int", "list:int"
        self.locals: dict[str, str] = {}  # flow local -> its value's type (fused_zones.local_types)
        self.consts: dict[tuple, str] = {}  # (function, args) -> the Python name of its value
        self.indexes: dict[str, str] = {}  # key -> elements holding it, for an incremental `any`
        self.sites: dict[tuple, str] = {}  # (function, its constant arguments) -> the site's table
        self.witnesses: list[str] = []  # the last failing element of each watched `all`
        self.param_types: dict[tuple, str] = {}  # (action, parameter) -> its values' type
        self.in_iterable = 0  # inside a comprehension's iterable, where Python forbids `:=`
        self.charged: set[str] = set()  # listing loop variables holding lists, charged as they are bound
        self.temps = 0
        self.options_used: dict[str, str] = {}  # option -> its type, read once per playout
        self.emitting: list[str] = []  # the events whose triggers are being written (fused_zones.emitted)
        self.def_memos: dict[str, str] = {}  # definition -> its memo's local (inline, remembered_by)
        self.prop_columns: dict[str, str] = {}  # item property -> its column's local (prop_column)
        self.ranged: set[str] = set()  # int variables whose declared bounds the writer relied on
        self.local_ranges: dict[str, tuple[int, int]] = {}  # a let's or a loop's local (its text) -> its bounds
        self.records: list[dict] = []  # a record of constants' key -> its type (fused_expressions._constant_map)
        self.recursive: set[str] = set()  # definitions that call themselves, directly or not (check_definitions)
        self.recursive_fns: dict[str, tuple] = {}  # such a definition -> (function, argument types, value type)
        self.recursive_defs: dict[str, list[str]] = {}  # such a definition -> its nested function's lines
        self.in_recursive = False  # writing the body of such a function
        self.constant_maps: dict[str, str] = {}  # a map literal of constants -> its name in the module
        self.boards: dict[str, str] = {}  # a walked board's name -> its adjacency's local
        self.fixed_length: dict[str, int] = {}  # a loop's local -> the length every element has
        self.game_enders = 0  # `end_game` effects written so far (stop_if_ended)
        self.trying = False  # writing the effects of a `then_required` trial, which are undone
        self.in_condition = False  # writing a condition trigger's effects (no rounds of their own)
        self.first_moves: dict[str, tuple] = {}  # action -> (its has_move function, its lines)
        self.first_moves_writing: set[str] = set()  # has_move functions being written (no recursion)

    # -- what is inside the tier ----------------------------------------------------------
    def check(self) -> None:
        found = self.shape_reasons()
        if found:
            raise Unsupported(found[0])
        self.locals = self.local_types()
        # Writing every decision and end rule once finds what the expression writer does not know.
        self.end_checks()
        for p in self.rules.points:
            if p.code == DECIDE:
                self.decide(p)
            elif p.code in (EXEC, CHANCE, BRANCH, ASSIGN):
                self.point(p)

    def shape_reasons(self) -> list[str]:
        """What of the ruleset's declarations and flow the tier does not take, all of it
        (the variables' types are noted on the way)."""
        rs, found = self.rs, []

        def note(test, *args):
            try:
                return test(*args)
            except Unsupported as exc:
                found.append((str(exc), exc.span))
                return None
        found += self.condition_reasons()  # tried after the effects that write what they read
        note(self.check_zones)
        if any(len(b.nodes) > MAX_NODES for b in rs.boards.values()):
            found.append((f"a board of more than {MAX_NODES} nodes", None))
        for name, decl in rs.variables.items():
            t = note(self.var_type, decl)
            if t is not None:
                self.types[name] = t
        for p in self.rules.points:
            if p.code == DECIDE and p.kind not in ("choose", "simultaneous", "respond"):
                found.append((f"a '{p.kind}' decision", p.span))
            elif not self.runs(p) or p.code not in _FLOW_POINTS:
                found.append((f"a flow point '{p.op}'", p.span))
            elif p.code == DECIDE and p.allow_pass and p.kind == "simultaneous":
                found.append(("a simultaneous decision that may be passed", p.span))
        for action in rs.actions.values():
            if action.then_required:  # each candidate's effects tried on the locals, and undone
                why = self.then_required_reason(action)
                if why is not None:
                    found.append((why, action.span))
        note(self.check_definitions)
        note(self.check_flow_reads)
        return list(dict.fromkeys(found))  # each once, in the order met (spans are frozen records)

    def var_type(self, decl) -> str:
        t = decl.type
        if t is not None and t.name == "map" and len(t.args) == 2 and t.args[0].name == "str" and \
                t.args[1].name in _SCALARS:  # a map held whole: a dict, replaced on every write
            shape = "gmap:" if decl.per is None else ("pmapd:" if decl.per == "player" else "kmapd:")
            return shape + t.args[1].name  # held whole, per player (a list of them) or per key (a dict)
        if t is not None and t.name == "list" and len(t.args) == 1 and t.args[0].name in _SCALARS and \
                (decl.per == "player" or (decl.per is None and t.args[0].name != "int")):
            # held whole, as a tuple replaced on every write (global, or one per player)
            return ("plist:" if decl.per == "player" else "glist:") + t.args[0].name
        if t is not None and t.name == "map" and decl.per is None and len(t.args) == 2 and t.args[0].name == "str" \
                and t.args[1].name == "list" and len(t.args[1].args) == 1 and t.args[1].args[0].name in ("int", "str"):
            return "gmap:list:" + t.args[1].args[0].name  # texts to tuples, the dict replaced on every write
        nested = _nested_list(t)
        if nested is not None and (decl.per is None or decl.per == "player"):
            # tuples of tuples (...), replaced whole on every write (global, or one per player)
            return ("plist:" if decl.per == "player" else "glist:") + nested
        if t is not None and t.name == "item" and decl.per is None:
            return "item"  # an item, or none until one is written
        if t is not None and t.name == "set" and decl.per is None and len(t.args) == 1 and t.args[0].name in ("int", "str"):
            return "gset:" + t.args[0].name  # a frozenset, replaced whole on every write
        if t is not None and t.name == "set":
            raise Unsupported(f"variable '{decl.name}' of type {t} (only a set of ints or texts held whole is "
                              "among the tier's types)", decl.span)
        if t is None or (t.name not in _SCALARS and not (t.name == "list" and len(t.args) == 1
                                                          and t.args[0].name == "int")):
            raise Unsupported(f"variable '{decl.name}' of type {t}", decl.span)
        inner = t.name if t.name in _SCALARS else "list:int"
        if decl.per is None:
            return inner
        if inner not in _SCALARS:
            raise Unsupported(f"variable '{decl.name}': a list per {'player' if decl.per == 'player' else 'key'}", decl.span)
        return ("pmap:" if decl.per == "player" else "map:") + inner

    def check_definitions(self) -> None:
        """Definitions are written in line where they are called, but for those that call
        themselves, directly or not (`recursive`): each of those is a nested function."""
        calls = {name: {n.func for n in _walk(d.expr) if isinstance(n, A.Call) and n.func in self.rs.defines}
                 for name, d in self.rs.defines.items()}
        self.recursive = set()
        for start in calls:
            seen, todo = set(), list(calls[start])
            while todo:
                n = todo.pop()
                if n == start:
                    self.recursive.add(start)
                    break
                if n not in seen:
                    seen.add(n)
                    todo += calls.get(n, ())

    def check_flow_reads(self) -> None:
        """Who decides at a `simultaneous` step (`players:`) runs through the back end's
        functions on the same state: it must read no variable or zone, since this tier
        changes them in place.  The flow's other expressions (branches, loop lists, chance,
        the player of a `choose`) are written here."""
        state_names = set(self.rs.variables) | set(self.rs.defines) | set(self.rs.zones)
        for node in _flow_nodes(self.rs.flow):
            for key, value in node.args.items():
                if key not in ("player", "players") or node.kind in ("turns", "respond", "choose"):  # written here
                    continue
                for expr in _exprs(value):
                    for n in _walk(expr):
                        read = n.name if isinstance(n, A.Name) else (n.func if isinstance(n, A.Call) else None)
                        if read in state_names:
                            raise Unsupported(f"the '{key}' of a '{node.kind}' step reads the state ('{read}')", n.span)

    # -- writing ------------------------------------------------------------------------------
    def build(self):
        self.check_flow_reads()
        self.condition_reasons()  # what the condition triggers read and write (effect_writes)
        self.consts.clear()
        self.indexes.clear()
        self.sites.clear()
        self.boards.clear()
        self.fixed_length.clear()
        self.def_memos.clear()
        self.local_ranges.clear()
        self.recursive_fns.clear()
        self.recursive_defs.clear()
        self.prop_columns.clear()
        self.witnesses.clear()
        self.first_moves.clear()
        self.end_checks()
        # Every point is written before the prologue, which defines the constants they use.
        bodies = {p.id: self.decide(p) + self.ends_after(self.decision_writes(p)) + self.chain(p)
                  if p.code == DECIDE else self.point(p) for p in self.rules.points}
        first_moves = [x for _, lines in self.first_moves.values() for x in lines]
        bodies = _without_unread_budgets({**bodies, -1: first_moves})
        first_moves = bodies.pop(-1)
        emit = self.lines.append
        emit("# the whole random playout over typed locals, for Game.playout (codegen/fused.py)")
        emit("def FUSED(game, state, below, limit, played, drawn, settled=False):")
        written_for = [] if self.players is None else [f"if ctx.player_count != {self.players}:", "    raise _KernelStop()"]
        for line in ["L = state.locals", "ctx = _Ctx.over(game, state, L)", *written_for, *self.prologue(),
                     *self.zone_prologue(), *self.anywhere_prologue(), *self.options_prologue(),
                     *self.locals_prologue(), *self.recursive_prologue(), *first_moves, "pc = state.pc", "steps = 0",
                     "_cost = 0",
                     "_bits = _fz_fast_bits(below)", "_given = state._listing", "state._listing = None",
                     "_org_seq, _org_i = None, 0"]:
            emit("    " + line)
        emit("    while True:")
        emit(f"        if steps > {_STEP_LIMIT}:")
        emit("            raise _KernelStop()")
        emit("        steps += 1")
        for line in _dispatch(sorted(self.rules.points, key=lambda p: p.id), bodies):
            emit("        " + line)
        emit("    state.pc = pc")
        for name, t in self.types.items():
            if t == "list:int" or t.startswith(("pmap:", "pmapd:", "plist:")):
                emit(f"    V[{name!r}] = tuple({ident('v', name)})")
        for line in self.zone_epilogue():
            emit("    " + line)
        emit("    return played")
        # The module's namespace is shared with the other generated code: the tier's helpers
        # are prefixed so that none of them replaces one of theirs.
        self.ns.update(ONLY)
        self.ns.update(_fz_FACES=FACES, _fz_FU=FACES["up"], _fz_FD=FACES["down"], _fz_fast_bits=_fast_bits, _fz_PropColumn=PropColumn, _fz_set_prop=set_prop, _fz_Item=Item, _fz_natural=natural,
                       _fz_shuffled=rng.shuffled, _fz_take_anywhere=take_anywhere, _fz_deal=deal, _fz_bag_deal=bag_deal, _fz_bag_take=bag_take,
                       _fz_rows_back=rows_back, _fz_keyed_back=keyed_back,
                       _fz_sized=_sized, _fz_set_sized=_set_sized, _fz_memo=_remembered, _fz_remember=_remember,
                       _fz_memo_on_trial=_memo_on_trial, _fz_NOT_REMEMBERED=_NOT_REMEMBERED,
                       _fz_board_adjacency=board_adjacency, _fz_hop_walk=hop_walk, _fz_nested=_nested, _fz_held=_held, _fz_no_none=_no_none, _fz_sure=_sure,
                       _fz_Unmade=UnmadeMoves)
        self.ns.update(_KernelStop=KernelStop, _Ctx=Ctx, _ck=_checked_int, _range=_bounded_range, _fz_walk=_walked,
                       _first=_first, _last=_last, _short=_short, _index_by_key=_index_by_key, _memo_site=_memo_site, _stop=_stop, _MISSING=_MISSING)
        self.ns.update(_IDIOM_NAMES)
        text = padded("\n".join(self.lines), "FUSED")
        return self.module.add(text, "FUSED"), frozenset(p.id for p in self.rules.points)

    def point(self, p) -> list[str]:
        """Flow points whose expressions may read the state are written over the tier's
        locals; the flow's own bookkeeping is the kernel's."""
        if p.code == CHECKPOINT:  # the game ends here if an end rule named this checkpoint
            return [f"if state.ending == {p.label!r}:", f"    pc = {p.id}", "    state.over = True", "    break",
                    f"pc = {p.next}"]
        if p.code == RESPOND_START and p.source is not None:  # who is asked, from the state
            self.ns[ident("POINT", p.id)] = p
            order = f"game._players_of({self.expr(p.source, self.flow_env())[0]}, {ident('POINT', p.id)})"
            return [f"order = {order}", f"L[{p.var!r}] = (order, 0, 0)", f"pc = {p.next}", "if not order:",
                    f"    del L[{p.var!r}]", f"    pc = {self.rules.points[p.next].next}"]
        if p.code == SIM_START and p.source is None:  # every player, in seat order
            everyone = "tuple(range(ctx.player_count))" if self.players is None else repr(tuple(range(self.players)))
            return [f"state.pending = {everyone}", f"pc = {p.next}"]
        if p.source is None or p.code not in (BRANCH, ASSIGN, CHANCE, EXEC):
            return super().point(p)
        env = self.flow_env()
        if p.code == BRANCH:
            before, test = self.tested(p.source, self.branch_env(p))
            return before + [f"pc = {p.next} if {test} else {p.alt}"]
        if p.code == EXEC:
            resets = [f"{ident('w', n)} = []" for n, t in self.types.items() if t.startswith("map:")]
            before = self.game_enders
            return [*resets, *self.effect_block(p.source, env), f"pc = {p.next}", *self.stop_if_ended(before),
                    *self.ends_after(self.effect_writes(p.source))]
        text, t = self.expr(p.source, env)
        if p.code == CHANCE and t.startswith("list:"):
            # interpreter/rng.py's `below`, written out: SplitMix64 draws until one is under
            # the largest multiple of n that fits in 64 bits
            return [f"_o = {text}", "if not _o:", "    raise _KernelStop()", "_n = len(_o)", "_r = state.rng",
                    f"_lim = {1 << 64} - {1 << 64} % _n", "while True:",
                    f"    _r = (_r + {rng.GOLDEN}) & {rng.MASK}",
                    f"    _z = ((_r ^ (_r >> 30)) * {0xBF58476D1CE4E5B9}) & {rng.MASK}",
                    f"    _z = ((_z ^ (_z >> 27)) * {0x94D049BB133111EB}) & {rng.MASK}",
                    "    _z ^= _z >> 31", "    if _z < _lim:", "        break",
                    "state.rng = _r", "_org_seq, _org_i = _o, _z % _n", f"L[{p.var!r}] = _o[_org_i]", f"pc = {p.next}"]
        if p.code == ASSIGN and p.var.startswith("__list") and t.startswith("list:"):
            return [f"L[{p.var!r}] = tuple({text})", f"pc = {p.next}"]
        if p.code == ASSIGN and p.var.startswith(("__loop", "__who")) and t == "int":
            return [f"L[{p.var!r}] = {text}", f"pc = {p.next}"]  # a count, or who decides (checked there)
        raise Unsupported(f"a flow step '{p.op}' over a {t}")

    def branch_env(self, p) -> dict:
        """The names a branch's condition reads: the flow's locals, and `player` as the
        decider where the branch is a choose's `again` (flowgraph.Point)."""
        env = self.flow_env()
        if p.player_var is not None:
            env = {**env, "player": (f"L[{p.player_var!r}]", "int")}
        elif p.player_const is not None:
            env = {**env, "player": (repr(p.player_const), "int")}
        return env

    def options_prologue(self) -> list[str]:
        lines = []
        for name, t in self.options_used.items():
            o = ident("o", name)
            if t.startswith("list:"):  # a list of ints or texts, as a tuple; its default held in the namespace
                self.ns[ident("_fzd", name)] = tuple(self.rs.game.options[name].default)
                lines += [f"{o} = game.options.get({name!r}, {ident('_fzd', name)})",
                          f"if type({o}) not in (list, tuple) or not {ONLY_NAMES[t[5:]]}.issuperset(map(type, {o})):",
                          "    raise _KernelStop()", f"{o} = tuple({o})"]
                continue
            lines += [f"{o} = game.options.get({name!r}, {self.rs.game.options[name].default!r})",
                      f"if type({o}) is not {_PY[t]}:", "    raise _KernelStop()"]
        return lines

    def chain(self, decision) -> list[str]:
        """After a move, the flow's bookkeeping up to the next decision written out in
        line (`pc = …` left for the dispatch only where the chain stops), so a turn loop
        costs no trip through the dispatch per step.  Where the decision's actions go on
        at different points, each point has a chain of its own."""
        if decision.kind == "simultaneous":  # once nobody is pending, on to the next step
            return ["if not state.pending:", *("    " + x for x in self.follow(decision.next, depth=0))]
        conts = sorted(set(decision.cont.values()))
        if decision.kind != "choose":
            return []
        if len(conts) == 1 and (not decision.allow_pass or decision.next == conts[0]):
            return self.follow(conts[0], depth=0)  # (a pass that goes elsewhere, as past an `again`, is told apart below)
        lines = []  # the actions go on at different points (their `then` steps): one chain each
        for pc in conts:
            follow = self.follow(pc, depth=0)
            if follow != [f"pc = {pc}"]:
                lines += [f"{'elif' if lines else 'if'} pc == {pc}:", *("    " + x for x in follow)]
        return lines

    def follow(self, pc: int, depth: int) -> list[str]:
        point = self.rules.points[pc]
        if depth >= 8 or point.code not in _STRAIGHT | _FORKS:
            return [f"pc = {pc}"]
        turn = self.turn_step(point)
        if turn is not None and depth + 2 < 8:
            lines, after = turn
            return lines + ["    " + x for x in self.follow(after, depth + 3)] + \
                ["else:", *("    " + x for x in self.follow(point.alt, depth + 1))]
        lines = self.point(point)
        if point.code == EXEC and point.source is not None:  # `pc = next` stays: an end rule may stop here
            return lines + self.follow(point.next, depth + 1)
        if point.code in _STRAIGHT:
            assert lines[-1] == f"pc = {point.next}"
            return lines[:-1] + self.follow(point.next, depth + 1)
        *before, test = lines  # "pc = A if COND else B", after the statements COND needs
        head, _, rest = test.partition(" if ")
        cond, _, _ = rest.rpartition(" else ")
        if head != f"pc = {point.next}" or not rest.endswith(f" else {point.alt}") or \
                any(x.lstrip().startswith("pc =") for x in before):
            return lines
        return before + [f"if {cond}:", *("    " + x for x in self.follow(point.next, depth + 1)),
                         "else:", *("    " + x for x in self.follow(point.alt, depth + 1))]

    def turn_step(self, test) -> tuple[list[str], int] | None:
        """A loop's test, the binding of its variable and the step of its index (a
        `turns` or `for` loop going on to its next element) as one test over locals,
        each of the loop's entries read once, and the point after them; None for any
        other shape."""
        points = self.rules.points
        if test.code != LOOP_TEST:
            return None
        bind = points[test.next]
        step = points[bind.next] if bind.code == LOOP_BIND else None
        if step is None or step.code != LOOP_STEP or (bind.seq, bind.index, step.var) != (test.seq, test.index, test.index):
            return None
        self.temps += 1
        ix, sq = f"_ix{self.temps}", f"_sq{self.temps}"
        return [f"{ix} = L[{test.index!r}]", f"{sq} = L[{test.seq!r}]", f"if {ix} < len({sq}):",
                f"    L[{bind.var!r}] = {sq}[{ix}]", f"    L[{test.index!r}] = {ix} + 1"], step.next

    def prologue(self) -> list[str]:
        """Own copies of the variables' containers, and the proof of their types: skipped
        for a state this function handed back itself (`settled`, kernel_step.py), whose
        values it wrote and nobody has replaced since."""
        lines = ["V = state.vars", *(f"{ident('w', n)} = []" for n, t in self.types.items() if t.startswith("map:")),
                 *(f"{w} = _MISSING" for w in self.witnesses)]
        checks = []
        for name, t in self.types.items():
            v, held = ident("v", name), f"V[{name!r}]"
            if t.startswith("map:"):
                lines.append(f"{v} = {held} = dict({held})")
                checks += [f"for _x in {v}.values():", f"    if type(_x) is not {_PY[t[4:]]}:", "        raise _KernelStop()"]
            elif t.startswith("pmap:"):  # one value per player: a list while the playout runs
                lines.append(f"{v} = list({held})")
                checks += [f"if type({held}) is not tuple or len({held}) != ctx.player_count:", "    raise _KernelStop()",
                           f"for _x in {v}:", f"    if type(_x) is not {_PY[t[5:]]}:", "        raise _KernelStop()"]
            elif t.startswith("gmap:list:"):  # texts to lists; never changed in place, so not copied
                lines.append(f"{v} = {held}")
                checks += [f"if type({v}) is not dict or not _fz_only_str.issuperset(map(type, {v})) or not all("
                           f"type(_l) is tuple and {ONLY_NAMES[t[10:]]}.issuperset(map(type, _l)) for _l in {v}.values()):",
                           "    raise _KernelStop()"]
            elif t.startswith("gmap:"):  # texts to values; never changed in place, so not copied
                lines.append(f"{v} = {held}")
                checks += [f"if type({v}) is not dict or not _fz_only_str.issuperset(map(type, {v})) or "
                           f"not {ONLY_NAMES[t[5:]]}.issuperset(map(type, {v}.values())):", "    raise _KernelStop()"]
            elif t.startswith("glist:list:"):
                lines.append(f"{v} = {held}")
                depth, leaf = t.count("list:"), t.rsplit(":", 1)[1]
                checks += [f"if not _fz_nested({v}, {depth}, {ONLY_NAMES[leaf]}):", "    raise _KernelStop()"]
            elif t.startswith("plist:list:"):
                lines.append(f"{v} = list({held})")
                depth, leaf = t.count("list:"), t.rsplit(":", 1)[1]
                checks += [f"if type({held}) is not tuple or len({held}) != ctx.player_count:", "    raise _KernelStop()",
                           f"for _l in {v}:", f"    if not _fz_nested(_l, {depth}, {ONLY_NAMES[leaf]}):",
                           "        raise _KernelStop()"]
            elif t.startswith("glist:"):
                lines.append(f"{v} = {held}")
                checks += [f"if type({v}) is not tuple or not {ONLY_NAMES[t[6:]]}.issuperset(map(type, {v})):",
                           "    raise _KernelStop()"]
            elif t.startswith("plist:"):
                lines.append(f"{v} = list({held})")
                checks += [f"if type({held}) is not tuple or len({held}) != ctx.player_count:", "    raise _KernelStop()",
                           f"for _l in {v}:", f"    if type(_l) is not tuple or not {ONLY_NAMES[t[6:]]}.issuperset(map(type, _l)):",
                           "        raise _KernelStop()"]
            elif t.startswith(("pmapd:", "kmapd:")):  # the outer container is the playout's own
                per_player = t.startswith("pmapd:")
                inner = t.split(":", 1)[1]
                if per_player:
                    lines.append(f"{v} = list({held})")
                    checks += [f"if type({held}) is not tuple or len({held}) != ctx.player_count:", "    raise _KernelStop()"]
                else:
                    checks += [f"if type({held}) is not dict:", "    raise _KernelStop()"]
                    lines.append(f"{v} = {held} = dict({held})")
                checks += [f"for _d in {v if per_player else v + '.values()'}:",
                           "    if type(_d) is not dict or not _fz_only_str.issuperset(map(type, _d)) or "
                           f"not {ONLY_NAMES[inner]}.issuperset(map(type, _d.values())):", "        raise _KernelStop()"]
            elif t == "list:int":  # a list while the playout runs, a tuple again when it returns
                lines.append(f"{v} = list({held})")
                checks += [f"if type({held}) is not tuple:", "    raise _KernelStop()",
                           f"for _x in {v}:", "    if type(_x) is not int:", "        raise _KernelStop()"]
            elif t.startswith("gset:"):  # never changed in place, so not copied
                lines.append(f"{v} = {held}")
                checks += [f"if type({v}) is not frozenset or not {ONLY_NAMES[t[5:]]}.issuperset(map(type, {v})):",
                           "    raise _KernelStop()"]
            elif t == "item":  # none reads as an error the loop reports (`.id` of None)
                lines.append(f"{v} = {held}")
                checks += [f"if type({v}) is not _fz_Item and {v} is not None:", "    raise _KernelStop()"]
            else:
                lines.append(f"{v} = {held}")
                checks += [f"if type({v}) is not {_PY[t]}:", "    raise _KernelStop()"]
        for name in sorted(self.ranged):  # the bounds int_range relied on hold on entry (writes keep them)
            lo, hi = self.var_range(name)
            t = self.types[name]
            values = f"({ident('v', name)},)" if t == "int" else f"{ident('v', name)}.values()" if t.startswith("map:") else ident("v", name)
            checks += [f"if {values} and (min({values}) < {lo} or max({values}) > {hi}):", "    raise _KernelStop()"]
        if checks:
            lines += ["if not settled:", *("    " + x for x in checks)]
        if self.consts or self.sites or self.def_memos or self.prop_columns:
            lines.append("M = game.memo")
        for name, column in self.prop_columns.items():
            lines.append(f"{column} = _fz_PropColumn(state.props, game, {name!r}, M.setdefault({('fused-prop-default', name)!r}, {{}}))")
        for (func, shape), site in self.sites.items():
            if func in _BOARD_WALKS:  # a walk's arguments may seldom recur: it is remembered on trial
                lines.append(f"{site} = _fz_memo_on_trial(M, {('fused-site', func, shape)!r}, {_WALK_FOUND_PER_MISS})")
            else:
                lines.append(f"{site} = M.setdefault({('fused-site', func, shape)!r}, {{}})")
        for board, local in self.boards.items():
            lines.append(f"{local} = _fz_board_adjacency(ctx, {board!r})")
        for name, memo in self.def_memos.items():
            lines.append(f"{memo} = _fz_memo_on_trial(M, {('fused-define', name)!r})")
        for (func, args), const in self.consts.items():
            key = ("fused", func, args)
            lines += [f"{const} = M.get({key!r})", f"if {const} is None:",
                      f"    {const} = M[{key!r}] = {ident('F', func)}(ctx, {', '.join(repr(a) for a in args)})"]
        for index, seq in self.indexes.items():
            key = ("fused-index", index)
            lines += [f"{index} = M.get({key!r})", f"if {index} is None:",
                      f"    {index} = M[{key!r}] = _index_by_key({seq})",
                      f"{ident('f', int(index[2:]))} = not settled"]  # a settled state's rules were tested
        return lines


def _without_unread_budgets(bodies: dict) -> dict:
    """Each move starts the evaluation budgets afresh (`ctx.cost`, which the library's
    functions charge, and `_cost`, the tier's own for ranges); where no line of the
    playout charges one, its resets are dropped, two stores per move saved."""
    lines = [x.strip() for body in bodies.values() for x in body]
    drop = set()
    if not any("_cost" in x and x != "_cost = 0" for x in lines):
        drop.add("_cost = 0")
    if not any(re.search(r"\bctx\b(?!\.player_count\b)", x) and x != "ctx.cost = 0" for x in lines):
        drop.add("ctx.cost = 0")
    if not drop:
        return bodies
    return {pc: [x for x in body if x.strip() not in drop] for pc, body in bodies.items()}


def _dispatch(points: list, bodies: dict) -> list[str]:
    """Each point's body under a test of `pc`: a binary tree of `pc < id` tests, so a
    playout of a game with fifty points makes six tests per step, not
    twenty-five; an unknown `pc` leaves the loop."""
    if len(points) > _CHAIN:
        half = len(points) // 2
        return [f"if pc < {points[half].id}:", *("    " + x for x in _dispatch(points[:half], bodies)),
                "else:", *("    " + x for x in _dispatch(points[half:], bodies))]
    lines = []
    for n, point in enumerate(sorted(points, key=lambda p: p.code != DECIDE)):
        lines.append(f"{'if' if n == 0 else 'elif'} pc == {point.id}:  # {point.op if point.op in CODES else 'step'}")
        lines += ["    " + x for x in bodies[point.id]]
    return lines + ["else:", "    break"]


