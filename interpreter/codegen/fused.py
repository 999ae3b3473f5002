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

import ast
import collections
import random
import re

from meeple.dsl import expr_ast as A
from meeple.dsl.functions import MAX_LIST, MAX_RANGE, MAX_STR, SCAN_FREE, board_adjacency, hop_walk

from ..context import COST_LIMIT, Ctx
from .. import rng
from ..flowgraph import (ASSIGN, BRANCH, CHANCE, CHECKPOINT, CODES, COUNT_DOWN, COUNT_TEST, DECIDE, DROP, END, EXEC,
                         LOOP_BIND, LOOP_STEP, LOOP_TEST, LOOP_ZERO, NOP, PHASE, RESPOND_START, RESTORE, SIM_START)
from .kernel import STEP_LIMIT as _STEP_LIMIT
from .effects_runtime import set_prop
from .kernel import KernelStop, _KernelWriter
from .runtime import MEMO_TRIAL
from .fused_decisions import Decisions, _replaced
from .fused_ends import EndRules
from .fused_idioms import NAMES as _IDIOM_NAMES, Idioms
from .frame_room import padded
from .safe_source import UnsafeSource, ident
from .fused_zones import (FACES, ONLY, ONLY_NAMES, Item, Unsupported, ZonesAndEffects, bag_deal, bag_take, deal,
                          filter_of as _filter_of, keyed_back, natural, pair_loop, plain as _plain, PropColumn, rows_back,
                          take_anywhere)

_STRAIGHT = {LOOP_BIND, LOOP_STEP, LOOP_ZERO, ASSIGN, NOP, EXEC, CHANCE, SIM_START, CHECKPOINT, PHASE, RESTORE, DROP}  # one successor: followed in line
_FORKS = {LOOP_TEST, BRANCH, COUNT_TEST}  # two: both followed, to a depth
_FLOW_POINTS = {DECIDE, ASSIGN, BRANCH, NOP, END, LOOP_TEST, LOOP_BIND, LOOP_STEP, LOOP_ZERO, COUNT_TEST, COUNT_DOWN,
                CHANCE, EXEC, SIM_START, CHECKPOINT, PHASE, RESPOND_START, RESTORE, DROP}

LIMIT = 10 ** 18  # the language's ints (dsl/functions.py check_int)
# Expressions here are not charged step by step as the reference charges them; only
# `range`, whose length comes from the state, is.  Everything else iterates game constants
# (a board's nodes and lines) or lists made from them, so on boards of at most this many
# nodes a decision stays far below the reference's cost limit.
MAX_NODES = 1000
_SCALARS = ("int", "str", "bool")
_PY = {"int": "int", "str": "str", "bool": "bool"}
# Library functions whose value depends only on their (constant) arguments and the game:
# called once per playout through the real implementation.  name -> result type.
_CONSTANT = {"nodes": "list:str", "lines": "list:list:str", "players": "list:int",
             "directions": "list:str", "edges": "list:str"}  # (but the knight's moves: pairs of ints, not taken)
# Library functions called through the real implementation each time: name -> result type.
# Library functions of ints alone that read nothing else: name -> how many arguments.
_ARITHMETIC = {"abs": 1, "ceil_div": 2, "clamp": 3}
_CALLED = {"nodes_where": "list:str", "neighbours": "list:str", "clockwise": "list:int",
           "counterclockwise": "list:int", "within": "list:str",
           "row_of": "int", "col_of": "int", "ray": "list:str",  # a grid's geometry
           "has_edge": "bool", "edges_of": "list:str", "ends": "list:str"}  # a board's edges (dsl/board_edges.py)
# Library functions of a board and their arguments alone, whose arguments change during
# a game: name -> the argument types after the board's name, the result.  Each value is
# kept per game by the values of its arguments (a listing asks for the same walk for
# many candidates; a state comes back in later turns and games).
_BOARD_WALKS = {"hop_targets": (("str", "list:str", "list:str", "int"), "list:str")}
_WRITTEN_OUT = 16  # sums and maps over at most this many constants are written out, key by key
_BOARD_WALKS_UNCHECKED = {"hop_targets": "_fz_hop_walk"}  # the walk itself, once the types are proven
# Walks of a board whose arguments seldom recur (a group of stones, the squares a wall leaves
# open), called through the library each time, which checks and charges as the reference
# does: name -> the argument types after the board's name, the result.
_WALKS_CALLED = {"reachable": (("str", "list:str"), "list:str")}
_FIRST_LAST = {"first": "_first", "last": "_last"}  # their helpers' names in the generated module


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


class _FusedWriter(Decisions, EndRules, ZonesAndEffects, Idioms, _KernelWriter):
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
        self.constant_maps: dict[str, str] = {}  # a map literal of constants -> its name in the module
        self.boards: dict[str, str] = {}  # a walked board's name -> its adjacency's local
        self.fixed_length: dict[str, int] = {}  # a loop's local -> the length every element has
        self.game_enders = 0  # `end_game` effects written so far (stop_if_ended)
        self.trying = False  # writing the effects of a `then_required` trial, which are undone
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
        for trigger in (getattr(rs, "triggers", None) or {}).values():
            if trigger.on is None:  # tried after every effect until none runs
                found.append((f"trigger '{trigger.name}' runs on a condition, not on an event", trigger.span))
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
        if t is not None and t.name == "item" and decl.per is None:
            return "item"  # an item, or none until one is written
        if t is not None and t.name == "set":
            raise Unsupported(f"variable '{decl.name}' of type {t} (sets are not among the tier's types)", decl.span)
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
        """Definitions become nested functions: none may call itself, directly or not."""
        calls = {name: {n.func for n in _walk(d.expr) if isinstance(n, A.Call) and n.func in self.rs.defines}
                 for name, d in self.rs.defines.items()}
        for start in calls:
            seen, todo = set(), list(calls[start])
            while todo:
                n = todo.pop()
                if n == start:
                    raise Unsupported(f"definition '{start}' calls itself", self.rs.defines[start].span)
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
        self.consts.clear()
        self.indexes.clear()
        self.sites.clear()
        self.boards.clear()
        self.fixed_length.clear()
        self.def_memos.clear()
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
        for line in ["L = state.locals", "ctx = _Ctx(game, state)", "ctx.bindings = L", *written_for, *self.prologue(),
                     *self.zone_prologue(), *self.anywhere_prologue(), *self.options_prologue(),
                     *self.locals_prologue(), *first_moves, "pc = state.pc", "steps = 0", "_cost = 0",
                     "_bits = _fz_fast_bits(below)",
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
                       _fz_sized=_sized, _fz_memo=_remembered, _fz_remember=_remember,
                       _fz_memo_on_trial=_memo_on_trial, _fz_NOT_REMEMBERED=_NOT_REMEMBERED,
                       _fz_board_adjacency=board_adjacency, _fz_hop_walk=hop_walk)
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
            lines += [f"{ident('o', name)} = game.options.get({name!r}, {self.rs.game.options[name].default!r})",
                      f"if type({ident('o', name)}) is not {_PY[t]}:", "    raise _KernelStop()"]
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
            elif t.startswith("gmap:"):  # texts to values; never changed in place, so not copied
                lines.append(f"{v} = {held}")
                checks += [f"if type({v}) is not dict or not _fz_only_str.issuperset(map(type, {v})) or "
                           f"not {ONLY_NAMES[t[5:]]}.issuperset(map(type, {v}.values())):", "    raise _KernelStop()"]
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


    def truth(self, cond, env) -> str:
        text, t = self.expr(cond, env)
        if t != "bool":
            raise Unsupported("a condition that is not bool")
        return text

    def assignment(self, assign, env) -> list[str]:
        """One `set` assignment: the value, its checks against the declaration, the write."""
        target = assign.target
        if isinstance(target, A.Member):  # an item's property: written as the back end writes it
            obj, ot = self.expr(target.obj, env)
            t = self.prop_type(target.name)
            value, vt = self.expr(assign.value, env)
            if ot != "item" or vt != t or (assign.op != "=" and (t != "int" or assign.op not in ("+=", "-=", "*="))):
                raise Unsupported(f"a write to the property '{target.name}'")
            self.temps += 1
            it, name = f"_o{self.temps}", target.name
            if assign.op != "=":
                value = self.checked(f"{self.prop_read(it, name)} {assign.op[0]} {value}")
            decls = {k.name: k.props[name] for k in self.rs.components.values() if name in k.props}
            if len({(d.min, d.max, d.bounds, None if d.choices is None else tuple(d.choices))
                    for d in decls.values()}) != 1:
                return [f"{it} = {obj}", f"_fz_set_prop(ctx, {it}, {name!r}, {value}, [])",
                        f"{self.prop_column(name)}[{it}.id] = P[{it}.id][{name!r}]"]
            # one declaration for every kind that has the property: its checks written in line
            return [f"{it} = {obj}", f"_v = {value}", *self.write_checks(next(iter(decls.values())), t),
                    f"if type({it}) is not _fz_Item or {it}.kind not in {tuple(decls)!r}:", "    raise _KernelStop()",
                    f"_pw = P.get({it}.id)", f"P[{it}.id] = {{**_pw, {name!r}: _v}} if _pw else {{{name!r}: _v}}",
                    f"{self.prop_column(name)}[{it}.id] = _v"]
        if isinstance(target, A.Name) and self.types.get(target.name, "").startswith("gmap:"):
            return self.map_write(assign, target.name, None, env)
        listed = self.list_place(target, env)
        if listed is not None:
            return self.list_write(assign, *listed, env)
        held = self.map_of(target, env, 0)
        if held is not None:  # m[p] = {...}: one player's (or key's) map whole
            return self.map_write(assign, held[0], None, env, held[1:])
        held = self.map_of(target.obj, env, 0) if isinstance(target, A.Index) else None
        if held is not None:  # m[p][k]: one entry of one player's (or key's) map
            return self.map_write(assign, held[0], target.index, env, held[1:])
        if isinstance(target, A.Index) and isinstance(target.obj, A.Name) and \
                self.types.get(target.obj.name, "").startswith("gmap:"):
            return self.map_write(assign, target.obj.name, target.index, env)
        if isinstance(target, A.Name) and target.name not in env and self.types.get(target.name) == "list:int":
            return self.int_list_write(assign, target.name, env)
        if isinstance(target, A.Name) and target.name in self.types and self.types[target.name] in _SCALARS + ("item",):
            name, where, t = target.name, ident("v", target.name), self.types[target.name]
            key_check = []
        elif isinstance(target, A.Index) and isinstance(target.obj, A.Name) and target.obj.name in self.types:
            name = target.obj.name
            kind = self.types[name]
            self.temps += 1
            k = f"_k{self.temps}"
            found, kt = self.first_passing(target.index, env, k)
            if found is None:
                key, kt = self.expr(target.index, env)
                found = [f"{k} = {key}"]
            if kind.startswith("map:"):
                t, where = kind[4:], f"{ident('v', name)}[{k}]"
                key_check = [*found, f"if {k} not in {ident('v', name)}:", "    raise _KernelStop()"]
            elif (kind == "list:int" or kind.startswith("pmap:")) and kt == "int":
                t, where = ("int" if kind == "list:int" else kind[5:]), f"{ident('v', name)}[{k}]"
                key_check = [*found, f"if not 0 <= {k} < len({ident('v', name)}):", "    raise _KernelStop()"]
            else:
                raise Unsupported(f"a write into '{name}'", assign.span)
        else:
            raise Unsupported("a write to something other than a variable", assign.span)
        if assign.op == "=" and t == "bool" and self.has_quantifier(assign.value, set(env)):
            # `any_strong = any(d.str_left > 0 for d in mine_z)`: loops, as a requirement's test
            return [*key_check, *self.condition(assign.value, env, "_v", 0), *self.write_checks(self.rs.variables[name], t),
                    *self.written(name, where, k if key_check else None)]
        value, vt = self.expr(assign.value, env)
        if assign.op != "=":
            if t != "int" or vt != "int" or assign.op not in ("+=", "-=", "*="):
                raise Unsupported(f"'{assign.op}' on {t}")
            held = self.var_range(name) if self.types[name] in _RANGED else None
            grown = _combined(assign.op[0], held, self.int_range(assign.value, env))
            value = f"({where} {assign.op[0]} {value})" if _within_limit(grown) else \
                self.checked(f"{where} {assign.op[0]} {value}")
        elif vt != t:
            raise Unsupported(f"a {vt} written into '{name}', a {t}")
        lines = [*key_check, f"_v = {value}"]
        decl = self.rs.variables[name]
        lines += self.write_checks(decl, t)
        return lines + self.written(name, where, k if key_check else None)

    def int_list_write(self, assign, name: str, env) -> list[str]:
        """`xs = …` (or `xs += …`) of a list of ints, which the tier keeps as a list changed in
        place: a new list of the value (joined to the old), of at most MAX_LIST elements, its
        copy charged.  A list assigned
        whole is not checked against the variable's bounds (docs/language.md, variables)."""
        if isinstance(assign.value, A.ListLit) and not assign.value.items:
            value, vt = "()", "list:int"  # `[]`: of the variable's type
        else:
            value, vt = self.expr(assign.value, env)
        if assign.op not in ("=", "+=") or vt != "list:int":
            raise Unsupported(f"'{assign.op}' of a {vt} into '{name}', a list of ints", assign.span)
        made = f"list({value})" if assign.op == "=" else f"[*{ident('v', name)}, *{value}]"  # `+=` joins
        return [f"_v = {made}", f"if len(_v) > {MAX_LIST}:", "    raise _KernelStop()",
                *self.walk_lines("_v")[0], f"{ident('v', name)} = _v"]

    def written(self, name: str, where: str, k: str | None) -> list[str]:
        """The store of a checked value `_v` into the variable `name` (at key `k`)."""
        if self.types[name] == "list:int" or self.types[name].startswith("pmap:"):
            return [f"{ident('v', name)}[{k}] = _v"]
        if self.types[name] in _SCALARS + ("item",):
            return [f"{ident('v', name)} = V[{name!r}] = _v"]
        if self.types[name].startswith("map:"):  # and the keys this move wrote (incremental end rules)
            return [f"{where} = _v", f"{ident('w', name)}.append({k})"]
        return [f"{where} = _v"]

    def list_place(self, target, env):
        """(lines, place, variable, element type, index or None) of a write into a list
        variable held whole: `xs = …`, `xs[i] = …`, `xs[p] = …` (per player), else None."""
        index = None
        if isinstance(target, A.Index) and isinstance(target.obj, A.Index):  # xs[p][i], per player
            target, index = target.obj, target.index
        name = target.name if isinstance(target, A.Name) else (
            target.obj.name if isinstance(target, A.Index) and isinstance(target.obj, A.Name) else None)
        t = self.types.get(name, "") if name is not None and name not in env else ""
        if t.startswith("glist:") and index is None:
            return [], ident("v", name), name, t[6:], (target.index if isinstance(target, A.Index) else None)
        if t.startswith("plist:") and isinstance(target, A.Index):
            key, kt = self.expr(target.index, env)
            if kt != "int":
                raise Unsupported(f"'{name}' indexed by {kt}")
            self.temps += 1
            at = f"_p{self.temps}"
            return [f"{at} = {self.natural(key)}"], f"{ident('v', name)}[{at}]", name, t[6:], index
        return None

    def list_write(self, assign, lines, place, name, elem, index, env) -> list[str]:
        """A list held whole gets a new tuple: a value read from it before keeps what it held
        (an element written at an index counted from either end, as store.replace_in writes it)."""
        if isinstance(assign.value, A.ListLit) and not assign.value.items and index is None:
            value, vt = "()", f"list:{elem}"  # `[]`: of the variable's type
        else:
            value, vt = self.expr(assign.value, env)
        assigned = f"{place} = V[{name!r}]" if place == ident("v", name) else place
        if index is None:
            if assign.op != "=" or vt != f"list:{elem}":
                raise Unsupported(f"a {vt} written into '{name}'")
            return [*lines, f"_v = tuple({value})", f"if len(_v) > {MAX_LIST}:", "    raise _KernelStop()",
                    *self.walk_lines("_v")[0],
                    f"{assigned} = _v"]
        key, kt = self.expr(index, env)
        counted = assign.op in ("+=", "-=", "*=") and elem == "int"  # `xs[p][i] -= 1`: the element's new count
        if kt != "int" or (assign.op != "=" and not counted) or vt != elem:
            raise Unsupported(f"'{assign.op}' of a {vt} into an element of '{name}'", assign.span)
        self.temps += 1
        k = f"_k{self.temps}"
        if counted:
            return [*lines, f"{k} = {key}", f"_l = list({place})",
                    f"_v = {self.checked(f'_l[{k}] {assign.op[0]} {value}')}",
                    *self.write_checks(self.rs.variables[name], elem), f"_l[{k}] = _v", f"{assigned} = tuple(_l)"]
        return [*lines, f"{k} = {key}", f"_v = {value}", *self.write_checks(self.rs.variables[name], elem),
                f"_l = list({place})", f"_l[{k}] = _v", f"{assigned} = tuple(_l)"]

    def map_of(self, node, env, depth):
        """`m[p]` of a map variable per player, or `m[k]` of one per key: (the variable, the
        key's text, the values' type), else None."""
        if not (isinstance(node, A.Index) and isinstance(node.obj, A.Name) and node.obj.name not in env):
            return None
        t = self.types.get(node.obj.name, "")
        if not t.startswith(("pmapd:", "kmapd:")):
            return None
        key, kt = self.expr(node.index, env, depth + 1)
        if t.startswith("pmapd:"):
            if kt != "int":
                raise Unsupported(f"'{node.obj.name}' indexed by {kt}")
            key = self.natural(key)
        elif kt not in ("str", "int"):
            raise Unsupported(f"'{node.obj.name}' indexed by {kt}")
        return node.obj.name, key, t.split(":", 1)[1]

    def map_write(self, assign, var: str, index, env, held=None) -> list[str]:
        """A write to a map, whole or at one key (a key it lacks is added at the end, as
        store.replace_in adds it): the map is replaced by a new dict, so a value read from
        it before keeps what it held.  The map is variable `var` held whole, or, with
        `held` (map_of's key text and values' type), the map of one player or key in it."""
        if held is None:
            values, place, lines = self.types[var][5:], ident("v", var), []
            assigned = f"{ident('v', var)} = V[{var!r}]"
        else:
            outer, values = held
            self.temps += 1
            at = f"_p{self.temps}"  # the player or key, worked out once
            place = assigned = f"{ident('v', var)}[{at}]"
            lines = [f"{at} = {outer}"]
        if index is None and isinstance(assign.value, A.MapLit) and not assign.value.entries:
            value, vt = "{}", f"dict:{values}"  # `{}`: of the variable's type
        else:
            value, vt = self.expr(assign.value, env)
        if index is None:
            if assign.op != "=" or vt != f"dict:{values}":
                raise Unsupported(f"a {vt} written into '{var}'")
            return [*lines, f"{assigned} = {value}"]
        key, kt = self.expr(index, env)
        if kt != "str":
            raise Unsupported(f"'{var}' indexed by {kt}")
        self.temps += 1
        k = f"_k{self.temps}"
        if assign.op != "=":
            if values != "int" or vt != "int" or assign.op not in ("+=", "-=", "*="):
                raise Unsupported(f"'{assign.op}' on {values}")
            value = self.checked(f"{place}[{k}] {assign.op[0]} {value}")  # a key it lacks: KeyError
        elif vt != values:
            raise Unsupported(f"a {vt} written into '{var}', a map of {values}")
        return [*lines, f"{k} = {key}", f"_v = {value}", *self.write_checks(self.rs.variables[var], values),
                f"{assigned} = {{**{place}, {k}: _v}}"]

    def first_passing(self, node, env, into: str):
        """`first([x for x in S if c])` (often behind a definition) as a loop that stops at
        the first element passing, for a key a write goes to: (lines, type), or (None, None)."""
        while isinstance(node, A.Call) and node.func in self.rs.defines:
            d = self.rs.defines[node.func]
            if len(node.args) != len(d.params):
                return None, None
            bound = {p: self.expr(a, env, 1) for p, a in zip(d.params, node.args)}
            env = {k: v for k, v in env.items() if k == "player"} | {p: (f"({x})", t) for p, (x, t) in bound.items()}
            node = d.expr
        if not (isinstance(node, A.Call) and node.func == "first" and len(node.args) == 1):
            return None, None
        filtered = _filter_of(node.args[0])
        if filtered is None:
            return None, None
        var, seq, conds = filtered
        seq_text, st = self.expr(seq, env, 1)
        if not st.startswith("list:"):
            return None, None
        self.temps += 1
        local = ident("c", var, self.temps)
        inner = {**env, var: (local, st[5:])}
        tests = " and ".join(f"({self.truth_in(c, inner, 1)})" for c in conds) or "True"
        pre, walked = self.walk_lines(seq_text)
        return [*pre, f"for {local} in {walked}:", f"    if {tests}:", f"        {into} = {local}", "        break",
                "else:", "    raise _KernelStop()"], st[5:]

    @staticmethod
    def write_checks(decl, t: str) -> list[str]:
        """A write keeps the variable's declared type, bounds and choices (store.check_bounds)."""
        lines = []  # its type is the expression's, which the writer checked against the declaration
        if t.startswith("dict:"):  # a map written whole: its entries are not checked (store.check_bounds)
            return lines
        if t == "int":
            for bound, op in ((decl.min, "<"), (decl.max, ">")):
                if bound is not None:
                    lines += [f"if _v {op} {bound}:",
                              f"    _v = {bound}" if decl.bounds == "clamp" else "    raise _KernelStop()"]
        if decl.choices is not None:
            allowed = tuple(c for c in decl.choices if type(c).__name__ == _PY[t])
            lines += [f"if _v not in {allowed!r}:", "    raise _KernelStop()"]
        return lines


    def condition(self, node, env, flag: str, depth: int) -> list[str]:
        """Lines that set `flag` to the value of the bool expression `node`: `any`/`all`
        as loops that stop at the first decisive element (a generator per element costs
        more than the test), `and`/`or` as nested tests, definitions inlined."""
        if depth > 40:
            raise Unsupported("definitions nested too deeply to inline")
        if isinstance(node, A.BoolOp):
            left = self.condition(node.left, env, flag, depth + 1)
            right = self.condition(node.right, env, flag, depth + 1)
            return left + [f"if {'' if node.op == 'and' else 'not '}{flag}:"] + ["    " + x for x in right]
        if isinstance(node, (A.Name, A.Call)):
            name = node.name if isinstance(node, A.Name) else node.func
            args = () if isinstance(node, A.Name) else node.args
            if name not in env and name in self.rs.defines and len(args) == len(self.rs.defines[name].params):
                before, inner = self.bound_arguments(self.rs.defines[name], args, env, depth + 1)
                return before + self.condition(self.rs.defines[name].expr, inner, flag, depth + 1)
            if self.looped_quantifier(node, env):
                return self.quantifier(node.func, node.args[0], env, flag, depth)
        return [f"{flag} = {self.truth_in(node, env, depth)}"]

    def bound_arguments(self, d, args, env, depth: int = 0) -> tuple[list[str], dict]:
        """(statements, scope) for a definition's body written as statements: each
        argument worked out once, before the body, as the reference does (bound to a
        local unless it is a name or a constant); the scope holds the caller's player and
        the parameters, nothing else of the caller's."""
        lines, scope = [], {k: v for k, v in env.items() if k == "player"}
        for param, arg in zip(d.params, args):
            x, t = self.expr(arg, env, depth)
            if not _plain(x):
                self.temps += 1
                lines.append(f"_a{self.temps} = {x}")
                x = f"_a{self.temps}"
            scope[param] = (x, t)
        return lines, scope

    def tested(self, cond, env) -> tuple[list[str], str]:
        """(statements, test) for a condition: one with `any`/`all` in it is written as
        loops first (`condition`), which run faster than generators."""
        if not self.has_quantifier(cond, set(env)):
            return [], self.truth(cond, env)
        self.temps += 1
        flag = f"_r{self.temps}"
        return self.condition(cond, env, flag, 0), flag

    def quantifier(self, func: str, gen, env, flag: str, depth: int) -> list[str]:
        """`any`/`all` over a generator as loops (one per `for` clause, an `if` per filter)
        that stop at the decisive element, leaving its answer in `flag`."""
        if any(isinstance(c, A.For) and len(c.names) != 1 and not pair_loop(c) for c in gen.clauses):
            return [f"{flag} = {self.truth_in(A.Call(func, (gen,), gen.span, gen.span), env, depth)}"]
        looped = {n for c in gen.clauses if isinstance(c, A.For) for n in c.names}
        hoisted, element, before = {}, gen.element, []
        for sub in _invariant_reads(gen.element, looped):  # the same for every element: read once
            text, st = self.expr(sub, env, depth + 1)
            self.temps += 1
            name = f"_h{self.temps}"
            before.append(f"{name} = {text}")
            hoisted[id(sub)] = A.Name("#" + name, sub.span)  # a name no ruleset can write
            env = {**env, "#" + name: (name, st)}
        if hoisted:
            element = _replaced(gen.element, hoisted)
        written = self.element_by_element(func, gen, element, env, depth, before)
        if written is not None:
            return before + [f"{flag} = {written}"]
        self.temps += 1
        decided = flag if func == "any" else f"not {flag}"
        loops = self.clause_loops(func, list(gen.clauses), element, env, depth, flag, f"_q{self.temps}", decided)
        return before + [f"{flag} = {func != 'any'}"] + loops

    def element_by_element(self, func: str, gen, element, env, depth, before: list[str]) -> str | None:
        """`all(t for n in line)` over one list whose length is known (a line of
        `lines(b, k)`) and a test without quantifiers, as `t0 and t1 and …` (`or` for any);
        a test that compares an element with a value read once before the loop from that
        very element (`cell[n] == cell[line[0]]`) is true there, and left out."""
        if len(gen.clauses) != 1 or not isinstance(gen.clauses[0], A.For) or len(gen.clauses[0].names) != 1:
            return None
        positions = self.by_position(gen.clauses[0], env, depth)
        if positions is None or self.has_quantifier(element, set(env) | {gen.clauses[0].names[0]}):
            return None
        read_once = {f"({text} == {h})" for h, text in (line.split(" = ", 1) for line in before)}
        parts = [self.truth_in(element, {**env, **value}, depth) for value in positions]
        kept = [x for x in parts if x not in read_once] or ["True"]
        if func == "any":  # a test true at some position decides an `any`: none is left out
            return " or ".join(f"({x})" for x in parts)
        return " and ".join(f"({x})" for x in kept)

    def clause_loops(self, func: str, clauses: list, element, env, depth, flag: str, inner: str, decided: str,
                     nested: bool = False) -> list[str]:
        """The loops of `quantifier` from `clauses` on; a loop inside another ends the outer
        one too once the answer is known."""
        if not clauses:
            decisive = inner if func == "any" else f"not {inner}"
            return self.condition(element, env, inner, depth + 1) + \
                [f"if {decisive}:", f"    {flag} = {func == 'any'}", "    break"]
        clause, rest = clauses[0], clauses[1:]
        if isinstance(clause, A.If):
            body = self.clause_loops(func, rest, element, env, depth, flag, inner, decided, nested)
            return [f"if {self.truth_in(clause.cond, env, depth)}:", *("    " + x for x in body)]
        if len(clause.names) == 2:  # `for k, v in items(m)`: the map's pairs, in its order
            pairs = self.map_pairs(clause, env, depth)
            if pairs is None:
                raise Unsupported("a loop over the pairs of something other than a map")
            self.temps += 1
            names = [ident("c", n, self.temps) for n in clause.names]
            inner_env = {**env, **{n: (x, pt) for n, x, pt in zip(clause.names, names, pairs[2])}}
            body = self.clause_loops(func, rest, element, inner_env, depth, flag, inner, decided, nested=True)
            pre, walked = self.walk_lines(pairs[0])
            return [*pre, f"for {', '.join(names)} in {walked}:", *("    " + x for x in body)] + \
                ([f"if {decided}:", "    break"] if nested else [])
        seq, t = self.expr(clause.iter, env, depth + 1)
        if not t.startswith("list:"):
            raise Unsupported("a loop over something other than a list")
        positions = self.by_position(clause, env, depth, (seq, t)) if not rest else None
        if positions is not None and not self.has_quantifier(element, set(env) | {clause.names[0]}):
            # over a list whose length is known (a line of `lines(b, k)`): its elements one by one
            parts = [self.truth_in(element, {**env, **value}, depth) for value in positions]
            decisive = inner if func == "any" else f"not {inner}"
            return [f"{inner} = {(' and ' if func == 'all' else ' or ').join(f'({x})' for x in parts)}",
                    f"if {decisive}:", f"    {flag} = {func == 'any'}"] + \
                ([f"if {decided}:", "    break"] if nested else [])
        self.temps += 1
        local = ident("c", clause.names[0], self.temps)
        self.note_length(local, clause.iter)
        inner_env = {**env, clause.names[0]: (local, t[5:])}
        body = self.clause_loops(func, rest, element, inner_env, depth, flag, inner, decided, nested=True)
        pre, walked = self.walk_lines(seq)
        return [*pre, f"for {local} in {walked}:", *("    " + x for x in body)] + \
            ([f"if {decided}:", "    break"] if nested else [])

    # -- expressions ----------------------------------------------------------------------------
    def expr(self, node, env: dict, depth: int = 0) -> tuple[str, str]:
        """Python source for `node` over the tier's locals, and its type.  `env` maps the
        names bound here (parameters, the mover, comprehension variables, a definition's
        parameters) to their source and type.  What the tier cannot write is reported at
        the innermost expression that holds it."""
        try:
            return self._expr(node, env, depth)
        except Unsupported as exc:
            if exc.span is None:
                exc.span = getattr(node, "span", None)
            raise

    def _expr(self, node, env: dict, depth: int) -> tuple[str, str]:
        if depth > 40:
            raise Unsupported("definitions nested too deeply to inline")
        e = lambda n, env=env: self.expr(n, env, depth + 1)  # noqa: E731
        if isinstance(node, A.Const):
            t = {int: "int", str: "str", bool: "bool"}.get(type(node.value))
            if t is None:
                raise Unsupported(f"the constant {node.value!r}")
            return repr(node.value), t
        if isinstance(node, (A.Name, A.Index)):
            zone = self.zone_read(node, env, depth)
            if zone is not None:
                return zone
        if isinstance(node, A.Name):
            if node.name in env:
                return env[node.name]
            if node.name in self.types and self.types[node.name] in _SCALARS + ("list:int", "item"):
                return ident("v", node.name), self.types[node.name]
            if self.types.get(node.name, "").startswith("gmap:"):
                return ident("v", node.name), "dict:" + self.types[node.name][5:]
            if self.types.get(node.name, "").startswith("glist:"):
                return ident("v", node.name), "list:" + self.types[node.name][6:]
            if self.types.get(node.name, "").startswith("pmap:"):  # one value per player, as a list
                return f"tuple({ident('v', node.name)})", "list:" + self.types[node.name][5:]
            if node.name in self.rs.defines and not self.rs.defines[node.name].params:
                return self.inline(node.name, (), env, depth)
            raise Unsupported(f"the name '{node.name}'")
        if isinstance(node, A.Index):
            if isinstance(node.obj, A.Name) and node.obj.name not in env and \
                    self.types.get(node.obj.name, "").startswith("map:"):
                key, _ = e(node.index)
                return f"{ident('v', node.obj.name)}[{key}]", self.types[node.obj.name][4:]
            if isinstance(node.obj, A.Name) and node.obj.name not in env and \
                    self.types.get(node.obj.name, "").startswith("pmap:"):
                key, kt = e(node.index)
                if kt != "int":
                    raise Unsupported(f"'{node.obj.name}' indexed by {kt}")
                return f"{ident('v', node.obj.name)}[{self.natural(key)}]", self.types[node.obj.name][5:]
            held = self.map_of(node, env, depth)
            if held is not None:  # a key it lacks: KeyError, the loop reports
                return f"{ident('v', held[0])}[{held[1]}]", f"dict:{held[2]}"
            if isinstance(node.obj, A.Name) and node.obj.name not in env and \
                    self.types.get(node.obj.name, "").startswith("plist:"):
                key, kt = e(node.index)
                if kt != "int":
                    raise Unsupported(f"'{node.obj.name}' indexed by {kt}")
                return f"{ident('v', node.obj.name)}[{self.natural(key)}]", "list:" + self.types[node.obj.name][6:]
            obj, ot = e(node.obj)
            index, it = e(node.index)
            if ot.startswith("dict:") and it == "str":  # a key it lacks: KeyError, the loop reports
                return f"{obj}[{index}]", ot[5:]
            if not (ot.startswith("list:") or ot == "str") or it != "int":  # out of range: the loop reports
                raise Unsupported("an index into something other than a list")
            if ot == "str":
                return f"{obj}[{index}]", "str"
            return f"{obj}[{index}]", ot[5:]
        if isinstance(node, A.Let):
            return self.let(node, env, depth)
        if isinstance(node, A.Slice):
            return self.sliced(node, env, depth)
        if isinstance(node, A.Member) and isinstance(node.obj, A.Name) and node.obj.name == "options" \
                and "options" not in env and node.name in self.rs.game.options:
            t = type(self.rs.game.options[node.name].default).__name__
            if t not in _SCALARS:
                raise Unsupported(f"the option '{node.name}'")
            self.options_used[node.name] = t
            return ident("o", node.name), t
        if isinstance(node, A.Member):
            obj, ot = e(node.obj)
            if ot.startswith("dict:"):  # `m.key` is `m['key']`; a key it lacks: KeyError, the loop reports
                return f"{obj}[{node.name!r}]", ot[5:]
            if ot != "item":
                raise Unsupported(f"'.{node.name}' of a {ot}")
            if node.name in ("id", "kind"):
                return f"{obj}.{node.name}", "str"
            if any(node.name in k.props for k in self.rs.components.values()):
                return self.prop_read(obj, node.name), self.prop_type(node.name)
            return f"{obj}.fields[{node.name!r}]", self.field_type(node.name)
        if isinstance(node, A.Unary):
            x, t = e(node.operand)
            if node.op == "not" and t == "bool":
                return f"(not {x})", "bool"
            if node.op == "-" and t == "int":
                return (f"(-{x})" if _within_limit(self.int_range(node.operand, env)) else self.checked(f"-{x}")), "int"
            raise Unsupported(f"'{node.op}' on {t}")
        if isinstance(node, A.BoolOp):
            (l, lt), (r, rt) = e(node.left), e(node.right)
            if lt != "bool" or rt != "bool":
                raise Unsupported(f"'{node.op}' on {lt} and {rt}")
            return f"({l} {node.op} {r})", "bool"
        if isinstance(node, A.Binary):
            return self.binary(node, e, env)
        if isinstance(node, A.Cond):
            c, ct = e(node.test)
            (a, at), (b, bt) = self.either(node.then, node.orelse, env, depth)
            t = _unified(at, bt)
            if ct != "bool" or t is None:
                raise Unsupported("a conditional of mixed types")
            return f"({a} if {c} else {b})", t
        if isinstance(node, A.Call):
            return self.call(node, env, depth)
        if isinstance(node, A.ListLit):
            items = [e(x) for x in node.items]
            t = _unified(*(t for _, t in items)) if items else "?"  # `[]`: a list of what it meets
            if t is None or not (t in _SCALARS + ("item", "?") or t.startswith("list:")):
                raise Unsupported("a list of mixed types")
            return "(" + "".join(x + ", " for x, _ in items) + ")", "list:" + t
        if isinstance(node, (A.ListComp, A.Generator, A.MapComp)):
            return self.comprehension(node, env, depth)
        if isinstance(node, A.MapLit) and node.entries and \
                all(isinstance(k, A.Const) and isinstance(v, A.Const) for k, v in node.entries):
            value = {k.value: v.value for k, v in node.entries}
            kinds = {type(k) for k in value}
            values = {type(v).__name__ for v in value.values()}
            if kinds == {str} and len(values) == 1 and next(iter(values)) in _SCALARS:
                return self.made_once(value), "dict:" + values.pop()
        if isinstance(node, A.MapLit) and node.entries:
            pairs = [(e(k), e(v)) for k, v in node.entries]
            kinds, values = {kt for (_, kt), _ in pairs}, {vt for _, (_, vt) in pairs}
            if kinds != {"str"} or len(values) != 1 or next(iter(values)) not in _SCALARS:
                raise Unsupported("a map of mixed or unusual types")
            return "{" + ", ".join(f"{k}: {v}" for (k, _), (v, _) in pairs) + "}", "dict:" + values.pop()
        raise Unsupported(f"the expression {type(node).__name__}")

    def binary(self, node, e, env) -> tuple[str, str]:
        (l, lt), (r, rt) = e(node.left), e(node.right)
        op = node.op
        if op == "**":  # never inline: the library refuses a huge exponent first
            if lt == rt == "int":
                return f"_fz_pow({l}, {r})", "int"
            raise Unsupported(f"'**' on {lt} and {rt}", node.span)
        if op in ("+", "-", "*", "//", "%") and lt == rt == "int":  # by zero: Python raises, the loop reports
            if _within_limit(self.int_range(node, env)):
                return f"({l} {op} {r})", "int"
            return self.checked(f"{l} {op} {r}"), "int"
        if op == "+" and lt.startswith("list:") and (_unified(lt, rt) or "").startswith("list:"):
            return f"[*{self.walked(l)}, *{self.walked(r)}]", _unified(lt, rt)
        if op == "+" and lt == rt == "str":  # within the language's longest string
            if self.in_iterable:
                return self.walked(f"_short({l} + {r})"), "str"
            self.temps += 1
            t = f"_t{self.temps}"
            return f"({self.walked(t)} if len({t} := {l} + {r}) <= {MAX_STR} else _stop())", "str"
        if op in ("==", "!=") and lt == rt and lt in _SCALARS + ("item",):  # items: Python's equality is the language's
            return f"({l} {op} {r})", "bool"
        if op in ("==", "!=") and {lt, rt} <= {"str", "str?"}:  # a missing text (none) equals no text
            return f"({l} {op} {r})", "bool"
        if op in ("<", "<=", ">", ">=") and lt == rt and lt in ("int", "str"):
            return f"({l} {op} {r})", "bool"
        if op in ("in", "not in") and rt == f"list:{lt}":
            return f"({l} {op} {self.walked(r)})", "bool"
        if op in ("in", "not in") and lt == "str" and rt.startswith("dict:"):
            return f"({l} {op} {r})", "bool"
        raise Unsupported(f"'{op}' on {lt} and {rt}")

    def call(self, node, env, depth) -> tuple[str, str]:
        f, args = node.func, node.args
        if f in self.rs.defines:
            return self.inline(f, args, env, depth)
        e = lambda n: self.expr(n, env, depth + 1)  # noqa: E731
        idiom = self.idiom_call(node, env, depth)
        if idiom is not None:
            return idiom
        if f == "has_move":
            return self.has_move_call(args, env, depth)
        if f in ("any", "all") and len(args) == 1 and isinstance(args[0], A.Generator):
            unrolled = self.unrolled(f, args[0], env, depth)
            if unrolled is not None:
                return unrolled, "bool"
            inner, t = self.comprehension(args[0], env, depth, generator=True)
            if t != "gen:bool":
                raise Unsupported(f"{f} over values that are not bool")
            return f"{f}({inner})", "bool"
        if f in ("len", "count") and len(args) == 1:
            counted = self.counted(args[0], env, depth)
            if counted is not None:
                return counted, "int"
            x, t = e(args[0])
            if t.startswith(("list:", "dict:")) or t == "str":  # as the library counts them
                return f"len({x})", "int"
        if f == "attr" and len(args) == 3 and isinstance(args[0], A.Const) and isinstance(args[2], A.Const):
            t = self.attr_type(args[0].value, args[2].value)
            node_text, nt = e(args[1])
            if nt == "str":  # an attribute of one type on every node of the board: kept per node
                site = self.sites.setdefault(("attr", (repr(args[0].value), None, repr(args[2].value))),
                                             ident("s", len(self.sites)))
                impl = self.module.library_function("attr")
                return (f"({site}[{node_text}] if {node_text} in {site} else _memo_site({site}, {node_text}, "
                        f"{impl}(ctx, {args[0].value!r}, {node_text}, {args[2].value!r})))"), t
        if f == "with_key" and len(args) == 3:
            (m, mt), (k, kt), (v, vt) = e(args[0]), e(args[1]), e(args[2])
            if mt == f"dict:{vt}" and kt == "str":
                return f"_fz_sized({{**{self.walked(m)}, {k}: {v}}})", mt
        if f == "count_of" and len(args) == 2:
            (xs, xt), (v, vt) = e(args[0]), e(args[1])
            if xt == f"list:{vt}" and vt in _SCALARS + ("item",):  # one type: Python's equality is the language's
                return f"{self.walked(xs)}.count({v})", "int"
        if f == "unique" and len(args) == 1:
            x, t = e(args[0])
            if t in ("list:int", "list:str", "list:bool", "list:item"):  # one type: Python's equality is the language's
                return f"tuple(dict.fromkeys({self.walked(x)}))", t
        if f in ("keys", "values") and len(args) == 1:
            x, t = e(args[0])
            if t.startswith("dict:"):  # in the map's order, as the library lists them
                return (f"tuple({self.walked(x)})", "list:str") if f == "keys" else \
                    (f"tuple({self.walked(x)}.values())", "list:" + t[5:])
        if f == "get" and len(args) == 3:
            (m, mt), (k, kt), (d, dt) = e(args[0]), e(args[1]), e(args[2])
            if mt.startswith("dict:") and kt == "str" and dt == mt[5:]:
                return f"{m}.get({k}, {d})", dt
        if f == "sum" and len(args) == 1:
            summed = self.summed(args[0], env, depth)
            if summed is not None:
                return self.checked(summed), "int"
            x, t = e(args[0])
            if t == "list:int":
                return self.checked(f"sum({self.walked(x)})"), "int"
        if f == "range" and 1 <= len(args) <= 2:
            parts = [e(a) for a in args]
            if all(t == "int" for _, t in parts):
                bounds = [x for x, _ in parts] if len(parts) == 2 else ["0", parts[0][0]]
                if self.in_iterable:  # no `:=` there: a call
                    return f"_range(ctx, {', '.join(bounds)})", "list:int"
                if all(isinstance(a, A.Const) for a in args):  # a constant range: its charge is known
                    lo, hi = (0, args[0].value) if len(args) == 1 else (args[0].value, args[1].value)
                    return (f"(range({lo}, {hi}) if (_cost := _cost + {abs(hi - lo)}) < {COST_LIMIT // 8} "
                            "else _stop())"), "list:int"
                self.temps += 1
                lo, hi = f"_lo{self.temps}", f"_hi{self.temps}"
                # charged |hi - lo|: never less than the reference's charge for it
                return (f"(range({lo}, {hi}) if (_cost := _cost + abs(({hi} := {bounds[1]}) - ({lo} := {bounds[0]}))) "
                        f"< {COST_LIMIT // 4} else _stop())"), "list:int"
        if f == "next_player" and 1 <= len(args) <= 2:
            parts = [e(a) for a in args]
            if all(t == "int" for _, t in parts):
                step = parts[1][0] if len(parts) == 2 else "1"
                return f"(({parts[0][0]} + {step}) % ctx.player_count)", "int"
        if f == "concat" and args:
            parts = [e(a) for a in args]
            t = _unified(*(t for _, t in parts))
            if t is not None and t.startswith("list:"):
                return "[" + ", ".join(f"*{self.walked(x)}" for x, _ in parts) + "]", t
        if f == "index_of" and len(args) == 2:
            (xs, xt), (v, vt) = e(args[0]), e(args[1])
            if xt == f"list:{vt}" and vt in _SCALARS + ("item",):  # the language's equality, for one type
                self.temps += 1
                i, x = f"_i{self.temps}", f"_x{self.temps}"
                return f"next(({i} for {i}, {x} in enumerate({self.walked(xs, True)}) if {x} == {v}), -1)", "int"
        if f == "str" and len(args) == 1:
            x, t = e(args[0])
            if t in ("int", "str"):  # as the library renders them
                return f"str({x})", "str"
        if f == "move_count" and not args:  # counted in place by every move the tier plays
            return "state.move_count", "int"
        if f == "player_count" and not args:
            return ("ctx.player_count" if self.players is None else str(self.players)), "int"
        if f == "players" and not args and self.players is not None:
            return repr(tuple(range(self.players))), "list:int"
        if f in ("max", "min") and len(args) > 1:
            parts = [e(a) for a in args]
            if all(t == "int" for _, t in parts):
                return f"{f}({', '.join(x for x, _ in parts)})", "int"
        if f in ("max", "min") and len(args) == 1:
            if isinstance(args[0], A.Generator):
                gen = args[0]
                constants = self.few_constants(gen.clauses[0], env) if len(gen.clauses) == 1 else None
                if constants is not None:  # written out: max(e1, e2, …), in the same order
                    parts = [self.expr(gen.element, {**env, **value}, depth + 1) for value in constants]
                    if all(t == "int" for _, t in parts):
                        texts = [x for x, _ in parts]
                        return (f"{f}({', '.join(texts)})" if len(texts) > 1 else f"({texts[0]})"), "int"
                inner, t = self.comprehension(args[0], env, depth, generator=True)
                if t == "gen:int":
                    return f"{f}({inner})", "int"
            else:
                x, t = e(args[0])
                if t == "list:int":
                    return f"{f}({self.walked(x)})", "int"
        if f in ("max_by", "min_by") and len(args) == 2 and isinstance(args[1], A.Lambda):
            seq, st = e(args[0])
            if st.startswith("list:"):
                self.temps += 1
                local = ident("l", args[1].param, self.temps)
                self.in_iterable += 1  # a lambda's body: no `:=` there either
                try:
                    body, bt = self.expr(args[1].body, {**env, args[1].param: (local, st[5:])}, depth + 1)
                finally:
                    self.in_iterable -= 1
                if bt == "int":  # the first of the largest (smallest), as the library picks
                    return f"{f[:3]}({self.walked(seq)}, key=lambda {local}: {body})", st[5:]
        if f == "count_if" and len(args) == 2 and isinstance(args[1], A.Lambda):
            seq, st = e(args[0])
            if st.startswith("list:"):
                self.temps += 1
                local = ident("l", args[1].param, self.temps)
                body, bt = self.expr(args[1].body, {**env, args[1].param: (local, st[5:])}, depth + 1)
                if bt == "bool":
                    return f"sum(1 for {local} in {self.walked(seq, True)} if {body})", "int"
        if f == "top" and len(args) == 1:
            f = "first"
        if f in ("first", "last") and len(args) == 1:
            filtered = _filter_of(args[0]) if f == "first" and not self.in_iterable else None
            if filtered is not None:  # first([x for x in S if c]): stop at the first that passes
                var, seq, conds = filtered
                seq_text, st = e(seq)
                if not st.startswith("list:"):
                    raise Unsupported("a loop over something other than a list")
                self.temps += 1
                local, hit = ident("c", var, self.temps), f"_f{self.temps}"
                inner = {**env, var: (local, st[5:])}
                tests = " and ".join(f"({self.truth_in(c, inner, depth)})" for c in conds) or "True"
                return (f"({hit} if ({hit} := next(({local} for {local} in {self.walked(seq_text, True)} if {tests}), _MISSING)) "
                        f"is not _MISSING else _stop())"), st[5:]
            x, t = e(args[0])
            if t.startswith("list:"):
                if self.in_iterable:
                    return f"{_FIRST_LAST[f]}({x})", t[5:]
                self.temps += 1
                seq = f"_s{self.temps}"
                return f"({seq}[{0 if f == 'first' else -1}] if ({seq} := {x}) else _stop())", t[5:]
        if f in _CONSTANT and all(isinstance(a, A.Const) for a in args) and \
                not (f == "directions" and args and args[0].value == "knight"):
            key = (f, tuple(a.value for a in args))
            self.module.library_function(f)
            name = self.consts.setdefault(key, ident("c", len(self.consts)))
            return name, _CONSTANT[f]
        if f in _CALLED:  # a function of the board alone: kept per call site and arguments
            shape = tuple(repr(a.value) if isinstance(a, A.Const) else None for a in args)
            varying = [e(a)[0] for a in args if not isinstance(a, A.Const)]
            site = self.sites.setdefault((f, shape), ident("s", len(self.sites)))
            key = varying[0] if len(varying) == 1 else "(" + "".join(v + ", " for v in varying) + ")"
            given = iter(varying)
            call = ", ".join(c if c is not None else next(given) for c in shape)
            impl = self.module.library_function(f)
            return f"({site}.get({key}) or _memo_site({site}, {key}, {impl}(ctx, {call})))", _CALLED[f]
        if f in _BOARD_WALKS and len(args) == 1 + len(_BOARD_WALKS[f][0]) and isinstance(args[0], A.Const):
            wanted, result = _BOARD_WALKS[f]
            parts = [e(a) for a in args[1:]]
            if all(_unified(t, w) == w for (_, t), w in zip(parts, wanted)):  # the library walks the board
                # ... without checking the arguments' types again, on the board's adjacency fetched once
                board = self.boards.setdefault(args[0].value, ident("bw", len(self.boards)))
                walk = _BOARD_WALKS_UNCHECKED[f]
                site = self.sites.setdefault((f, (repr(args[0].value),)), ident("s", len(self.sites)))
                key = "(" + "".join((f"tuple({x})" if t.startswith("list:") else x) + ", " for x, t in parts) + ")"
                call = f"{walk}(ctx, {board}, {', '.join(x for x, _ in parts)})"
                if self.in_iterable:  # no `:=` there: worked out by a call when missing
                    return f"_fz_memo({site}, {key}, lambda: {call})", result
                self.temps += 1
                got, k, n = f"_mv{self.temps}", f"_mk{self.temps}", self.temps
                given = [ident("_b", j, n) for j in range(len(parts))]  # each argument worked out once
                key = "(" + "".join((f"tuple({b})" if t.startswith("list:") else b) + ", "
                                    for b, (_, t) in zip(given, parts)) + ")"
                call = f"{walk}(ctx, {board}, {', '.join(given)})"
                # A memo the game let go is not asked: its key is not even made.
                remembered = (f"({call} if {site} is _fz_NOT_REMEMBERED else "
                              f"{got} if ({got} := {site}.get(({k} := {key}), _MISSING)) is not _MISSING "
                              f"else _fz_remember({site}, {k}, {call}))")
                bound = "".join(f"({b} := {x}), " for b, (x, _) in zip(given, parts))
                return f"({bound}{remembered})[-1]", result
        if f in _WALKS_CALLED and len(args) == 1 + len(_WALKS_CALLED[f][0]) and isinstance(args[0], A.Const):
            wanted, result = _WALKS_CALLED[f]
            parts = [e(a) for a in args[1:]]
            if all(_unified(t, w) == w for (_, t), w in zip(parts, wanted)):
                impl = self.module.library_function(f)
                return f"{impl}(ctx, {args[0].value!r}, {', '.join(x for x, _ in parts)})", result
        if f in _ARITHMETIC and len(args) == _ARITHMETIC[f]:  # through the library itself, which reports
            parts = [e(a) for a in args]
            if all(t == "int" for _, t in parts):
                return f"{self.module.library_function(f)}(ctx, {', '.join(x for x, _ in parts)})", "int"
        raise Unsupported(f"the function '{f}'")

    def unrolled(self, f: str, gen, env, depth) -> str | None:
        """`all(c for x in [k1, k2, …])` over a short list of constants (or over a list whose
        length is known, `by_position`), as `c1 and c2 and …` (`or` for any): the same
        values, stopping at the same element."""
        if len(gen.clauses) != 1:
            return None
        constants = self.few_constants(gen.clauses[0], env)
        if constants is None:
            constants = self.by_position(gen.clauses[0], env, depth)
        if constants is None:
            return None
        parts = []
        for value in constants:
            text, t = self.expr(gen.element, {**env, **value}, depth + 1)
            if t != "bool":
                raise Unsupported(f"{f} over values that are not bool")
            parts.append(f"({text})")
        return "(" + (" and " if f == "all" else " or ").join(parts) + ")"

    def counted(self, node, env, depth) -> str | None:
        """`count(x for x in [k1, k2, …] if c)` (or `len` of that list) over a short list of
        constants, as `(c1) + (c2) + …`: the elements that pass, without making them.  The
        list may be a definition's value, called with names or constants."""
        if isinstance(node, (A.Call, A.Name)) and depth < 40:
            name, args = (node.name, ()) if isinstance(node, A.Name) else (node.func, node.args)
            d = self.rs.defines.get(name) if name not in env else None
            if d is None or len(args) != len(d.params):
                return None
            inner = {k: v for k, v in env.items() if k == "player"}
            for param, arg in zip(d.params, args):
                x, t = self.expr(arg, env, depth + 1)
                if not _plain(x):
                    return None
                inner[param] = (x, t)
            return self.counted(d.expr, inner, depth + 1)
        if not isinstance(node, (A.Generator, A.ListComp)) or not isinstance(node.element, (A.Name, A.Const)) or \
                not all(isinstance(c, A.If) for c in node.clauses[1:]):
            return None
        constants = self.few_constants(node.clauses[0], env)
        if constants is None or (isinstance(node.element, A.Name) and node.element.name not in constants[0]):
            return None
        parts = []
        for value in constants:
            tests = [self.truth_in(c.cond, {**env, **value}, depth) for c in node.clauses[1:]]
            parts.append("(" + " and ".join(tests) + ")" if tests else "1")
        return "(" + " + ".join(parts) + ")"

    def summed(self, node, env, depth) -> str | None:
        """`sum(v for x in [k1, k2, …] if c)` over a short list of constants, as
        `(v1 if c1 else 0) + (v2 if c2 else 0) + …`: the same ints added, with no list made."""
        if not isinstance(node, (A.Generator, A.ListComp)) or not all(isinstance(c, A.If) for c in node.clauses[1:]):
            return None
        constants = self.few_constants(node.clauses[0], env, most=_WRITTEN_OUT)
        if constants is None:
            return None
        parts = []
        for value in constants:
            inner = {**env, **value}
            text, t = self.expr(node.element, inner, depth + 1)
            if t != "int":
                return None
            tests = [self.truth_in(c.cond, inner, depth) for c in node.clauses[1:]]
            parts.append(f"({text} if {' and '.join(tests)} else 0)" if tests else f"({text})")
        return "(" + " + ".join(parts) + ")"

    def written_out(self, node, env, depth) -> tuple[str, str] | None:
        """A list comprehension whose first loop is over a few constants (the players, in a
        playout written for their number), written out element by element:
        `[e for x in [k1, k2] if c]` as `[*((e1,) if c1 else ()), *((e2,) if c2 else ())]`,
        and `[y for x in [k1, k2] for y in s]` as `[*s1, *s2]`; the same order of work."""
        constants = self.few_constants(node.clauses[0], env) if node.clauses else None
        rest = node.clauses[1:]
        inner_loop = len(rest) == 1 and isinstance(rest[0], A.For) and len(rest[0].names) == 1 and \
            isinstance(node.element, A.Name) and node.element.name == rest[0].names[0]
        if constants is None or not (inner_loop or all(isinstance(c, A.If) for c in rest)):
            return None
        parts, types = [], set()
        for value in constants:
            bound = {**env, **value}
            if inner_loop:
                seq, t = self.expr(rest[0].iter, bound, depth + 1)
                if not t.startswith("list:"):
                    return None
                parts.append(seq)
                types.add(t[5:])
                continue
            element, t = self.expr(node.element, bound, depth + 1)
            types.add(t)
            tests = [self.truth_in(c.cond, bound, depth) for c in rest]
            parts.append(f"(({element},) if {' and '.join(tests)} else ())" if tests else f"({element},)")
        if len(types) != 1:
            return None
        return "[" + ", ".join(f"*{x}" for x in parts) + "]", f"list:{types.pop()}"

    def by_position(self, clause, env, depth, written: tuple[str, str] | None = None) -> list[dict] | None:
        """For `for x in line` over a list whose length is known (see note_length), each
        position as the binding of `x` (`line[0]`, `line[1]`, …); else None.  `written`:
        the loop's list as already written, with its type."""
        if not isinstance(clause, A.For) or len(clause.names) != 1:
            return None
        seq, t = written or self.expr(clause.iter, env, depth + 1)
        length = self.fixed_length.get(seq)
        if length is None or not t.startswith("list:"):
            return None
        return [{clause.names[0]: (f"{seq}[{j}]", t[5:])} for j in range(length)]

    def note_length(self, local: str, seq) -> None:
        """Note that every element of `seq`, bound to `local`, has one known length: each
        line of `lines(board, k)` holds k nodes."""
        seq = self.defined_as(seq)
        if isinstance(seq, A.Call) and seq.func == "lines" and "lines" not in self.rs.defines and \
                len(seq.args) == 2 and isinstance(seq.args[1], A.Const) and type(seq.args[1].value) is int and \
                1 <= seq.args[1].value <= 8:
            self.fixed_length[local] = seq.args[1].value

    def few_constants(self, clause, env, most: int = 8) -> list[dict] | None:
        """For `for x in [k1, k2, …]` over at most `most` int or str constants (written, or
        a definition that is; not a name bound in `env`), each element as the binding of
        `x`; else None."""
        if not isinstance(clause, A.For) or len(clause.names) != 1:
            return None
        seq = clause.iter
        seq = seq if isinstance(seq, A.Name) and seq.name in env else self.defined_as(seq)
        if self.players is not None and 0 < self.players <= 8 and isinstance(seq, A.Call) and \
                seq.func == "players" and not seq.args and "players" not in self.rs.defines:
            return [{clause.names[0]: (repr(p), "int")} for p in range(self.players)]
        if not (isinstance(seq, A.ListLit) and 0 < len(seq.items) <= most and
                all(isinstance(x, A.Const) and type(x.value) in (int, str) for x in seq.items)):
            return None
        return [{clause.names[0]: (repr(x.value), type(x.value).__name__)} for x in seq.items]

    def either(self, one, other, env, depth):
        """Two values that must have one type; an empty list `[]` takes the other's."""
        empty = [isinstance(x, A.ListLit) and not x.items for x in (one, other)]
        if empty[0] != empty[1]:
            x, t = self.expr(other if empty[0] else one, env, depth + 1)
            if t.startswith("list:"):
                return ((("()", t), (x, t)) if empty[0] else ((x, t), ("()", t)))
        return self.expr(one, env, depth + 1), self.expr(other, env, depth + 1)

    def attr_type(self, board: str, key: str) -> str:
        """The type of attribute `key` on the nodes of `board`: the same one on every node
        (a scalar, or a map from texts to one scalar), else the tier does not read it."""
        graph = self.rules.boards.get(board)
        found = set()
        for _, data in (graph.nodes(data=True) if graph is not None else ()):
            v = data.get(key)
            if type(v) is dict and all(type(k) is str for k in v) and len({type(x) for x in v.values()}) == 1:
                found.add("dict:" + type(next(iter(v.values()))).__name__)
            else:
                found.add(type(v).__name__)
        if found == {"str", "NoneType"}:  # marked on some nodes only: compared, and nothing else
            return "str?"
        if len(found) != 1 or next(iter(found)) not in _SCALARS + ("dict:int", "dict:str", "dict:bool"):
            raise Unsupported(f"the attribute '{key}' of board '{board}'")
        return found.pop()

    def inline(self, name, args, env, depth) -> tuple[str, str]:
        """A definition's body in place of its call, its parameters bound to the arguments'
        source (expressions have no side effects, so an argument may be written twice)."""
        d = self.rs.defines[name]
        if len(args) != len(d.params):
            raise Unsupported(f"'{name}' called with {len(args)} arguments")
        inner = {}
        for p, a in zip(d.params, args):
            x, t = self.expr(a, env, depth + 1)
            if ":=" in x:  # the body may put it where Python forbids `:=` (a comprehension's iterable)
                self.in_iterable += 1
                try:
                    x, t = self.expr(a, env, depth + 1)
                finally:
                    self.in_iterable -= 1
            inner[p] = (f"({x})", t)
        # An argument that is more than a name or a constant is worked out once, first, as
        # the reference works out a call's arguments: bound with `:=`, or, in a
        # comprehension's iterable (where Python forbids `:=`), passed to a lambda of the body.
        bound, passed = [], []
        for p, (x, t) in list(inner.items()):
            if not _plain(x):
                self.temps += 1
                if self.in_iterable:  # no `:=` there: the body becomes a lambda called with it
                    passed.append((f"_a{self.temps}", x))
                else:
                    bound.append(f"(_a{self.temps} := {x})")
                inner[p] = (f"_a{self.temps}", t)
        # Names of the caller's comprehension variables stay visible to nothing in the body.
        scope = {k: v for k, v in env.items() if k == "player"} | inner
        key = self.remembered_by(name, scope)
        body, t = self.expr(d.expr, scope, depth + 1)
        if key is not None:
            memo = self.def_memos.setdefault(name, ident("md", len(self.def_memos)))
            parts = f"({''.join(k + ', ' for k in key)})"
            if self.in_iterable:  # no `:=` there: the value is worked out by a call when missing
                body = f"_fz_memo({memo}, {parts}, lambda: {body})"
            else:
                self.temps += 1
                got, k = f"_mv{self.temps}", f"_mk{self.temps}"
                body = (f"({got} if ({got} := {memo}.get(({k} := {parts}), _MISSING)) is not _MISSING "
                        f"else _fz_remember({memo}, {k}, {body}))")
        if passed:
            body = f"(lambda {', '.join(n for n, _ in passed)}: {body})({', '.join(x for _, x in passed)})"
        return (f"({', '.join(bound)}, {body})[-1]" if bound else body), t

    def defined_as(self, node):
        """The expression a name stands for when it is a definition without parameters
        (through any chain of them), else the node itself."""
        while isinstance(node, A.Name) and node.name in self.rs.defines and not self.rs.defines[node.name].params:
            node = self.rs.defines[node.name].expr
        return node

    def short_constant(self, node) -> bool:
        """Whether a comprehension walks a list that is the same all game and short (the
        players, a written list): walking it again costs less than remembering."""
        node = self.defined_as(node)
        if isinstance(node, A.ListLit):
            return len(node.items) <= _WRITTEN_OUT and all(isinstance(x, A.Const) for x in node.items)
        return isinstance(node, A.Call) and node.func == "players" and not node.args

    def remembered_by(self, name: str, scope: dict) -> list[str] | None:
        """What a definition's value depends on, as the parts of a key it is remembered by
        within the game, when remembering pays and is sound; else None.  It pays for a
        definition that walks a list (other than a short one it is given, such as a hand
        of a few cards, where its key would hold a map's entries); it is sound when the
        value depends only on its arguments (and the player), the game, and variables of
        plain values (zones and item properties change in place here, so a definition
        reading them is worked out each time).  Every part is a value, not an identity: a map is keyed by its entries."""
        seen, todo, reads = {name}, [name], set()
        walks = names_player = False
        walks_more = False  # walks something other than a list it is given
        while todo:
            d = self.rs.defines[todo.pop()]
            for n in _walk(d.expr):
                names_player = names_player or (isinstance(n, A.Name) and n.name == "player")
                if isinstance(n, (A.ListComp, A.MapComp, A.Generator)):
                    looped = [c.iter for c in n.clauses if isinstance(c, A.For) and not self.short_constant(c.iter)]
                    walks = walks or bool(looped)
                    walks_more = walks_more or any(not _given(i, d.params) for i in looped)
                if isinstance(n, A.Call) and n.func in _WALKS_WITH_LAMBDA and n.args and \
                        not self.short_constant(n.args[0]):  # `count_if(g, k => …)` walks g
                    walks = True
                    walks_more = walks_more or not _given(n.args[0], d.params)
                if isinstance(n, A.Member) and n.name not in ("id", "kind") and \
                        any(n.name in k.props for k in self.rs.components.values()):
                    return None  # an item property
                if isinstance(n, A.Call) and n.func in self.rs.defines and n.func not in seen:
                    seen.add(n.func)
                    todo.append(n.func)
                if isinstance(n, A.Name) and n.name not in d.params:
                    if n.name in self.rs.zones:
                        return None
                    if n.name in self.rs.variables:
                        reads.add(n.name)
                    elif n.name in self.rs.defines and n.name not in seen:
                        seen.add(n.name)
                        todo.append(n.name)
        if not walks:
            return None
        by_index = self.read_by_index(name, seen)
        parts = []
        keyed_by_a_map = any(t.startswith("dict:") for _, t in scope.values()) or any(
            self.types.get(v, "").startswith(("pmapd:", "gmap:", "kmapd:")) for v in reads)
        if keyed_by_a_map and not walks_more:
            return None  # walking a list it is given costs less than a key made of a map's entries
        for pname, (text, t) in scope.items():
            if pname == "player" and not names_player and pname not in self.rs.defines[name].params:
                continue  # the caller's player, which the body never reads
            part = _key_part(text, t)
            if part is None:
                return None
            parts.append(part)
        for var in sorted(reads):
            t = self.types.get(var, "")
            if t.startswith("pmapd:") and t[6:] in _SCALARS:  # one map per player: the one read, or each one
                if var in by_index and by_index[var] in scope and scope[by_index[var]][1] == "int":
                    parts.append(f"tuple({ident('v', var)}[{self.natural(scope[by_index[var]][0])}].items())")
                else:
                    parts.append(f"tuple([tuple(_m.items()) for _m in {ident('v', var)}])")
                continue
            part = _key_part(ident("v", var), {"pmap:": "list:", "gmap:": "dict:"}.get(t[:5], "") + t[5:]
                             if t.startswith(("pmap:", "gmap:")) else t)
            if part is None:
                return None
            parts.append(part)
        return parts

    def read_by_index(self, name: str, reached: set) -> dict:
        """variable -> the parameter (or `player`) of definition `name` by which its body
        alone reads it, every time (`supply[p]`), for the variables read only that way
        (`reached`: the definitions it calls, itself among them; a variable one of them
        reads is read some other way too)."""
        d = self.rs.defines[name]
        found, elsewhere = {}, set()
        for other in reached - {name}:
            elsewhere |= {n.name for n in _walk(self.rs.defines[other].expr) if isinstance(n, A.Name)}
        rebound = {x for n in _walk(d.expr) for x in A.binds(n)}
        indexed = [n for n in _walk(d.expr) if isinstance(n, A.Index) and isinstance(n.obj, A.Name) and
                   isinstance(n.index, A.Name) and n.index.name in (*d.params, "player") and
                   n.index.name not in rebound]  # `supply[p] for p in …` reads another p
        plain = collections.Counter(n.name for n in _walk(d.expr) if isinstance(n, A.Name))
        for n in indexed:
            var, by = n.obj.name, n.index.name
            found.setdefault(var, set()).add(by)
        return {var: next(iter(by)) for var, by in found.items()
                if len(by) == 1 and var not in elsewhere and var in self.rs.variables and
                plain[var] == sum(1 for n in indexed if n.obj.name == var)}

    def comprehension(self, node, env, depth, generator: bool = False) -> tuple[str, str]:
        if isinstance(node, A.ListComp) and not generator:
            written = self.written_out(node, env, depth)
            if written is not None:
                return written
        if isinstance(node, A.MapComp):
            written = self.map_written_out(node, env, depth)
            if written is not None:
                return written
        charge = []  # the first list walked, charged in line before the comprehension where `:=` may be written
        inner, clauses = self.clauses(node.clauses, env, depth, None if generator or self.in_iterable else charge)
        if isinstance(node, A.MapComp):  # later keys replace earlier ones, in the first one's place
            key, kt = self.expr(node.key, inner, depth + 1)
            value, vt = self.expr(node.value, inner, depth + 1)
            if kt != "str" or vt not in _SCALARS:
                raise Unsupported(f"a map of {kt} to {vt}")
            return _charged_first(f"_fz_sized({{{key}: {value} {' '.join(clauses)}}})", charge), f"dict:{vt}"
        element, et = self.expr(node.element, inner, depth + 1)
        body = f"{element} {' '.join(clauses)}"
        if generator:
            return body, f"gen:{et}"
        return _charged_first(f"[{body}]", charge), f"list:{et}"

    def made_once(self, value: dict) -> str:
        """The module's name for a map of constants, made once."""
        name = self.constant_maps.setdefault(repr(value), f"_fz_map{len(self.constant_maps)}")
        self.ns[name] = value  # never changed in place: every write makes a new map
        return name

    def map_written_out(self, node, env, depth) -> tuple[str, str] | None:
        """`{k: v for k in [k1, k2, …]}` over a few constants as the map `{k1: v1, k2: v2, …}`
        (a later key replaces an earlier one in its place, in both), made once when every
        value is a constant."""
        constants = self.few_constants(node.clauses[0], env, most=_WRITTEN_OUT) if len(node.clauses) == 1 else None
        if constants is None:
            return None
        pairs = [(self.expr(node.key, {**env, **value}, depth + 1), self.expr(node.value, {**env, **value}, depth + 1))
                 for value in constants]
        kinds, values = {kt for (_, kt), _ in pairs}, {vt for _, (_, vt) in pairs}
        if kinds != {"str"} or len(values) != 1 or next(iter(values)) not in _SCALARS:
            return None  # the comprehension says what it cannot take
        vt = values.pop()
        var = node.clauses[0].names[0]
        if isinstance(node.value, A.Const) and isinstance(node.key, A.Name) and node.key.name == var:
            return self.made_once({ast.literal_eval(value[var][0]): node.value.value for value in constants}), \
                f"dict:{vt}"
        return "{" + ", ".join(f"{k}: {v}" for (k, _), (v, _) in pairs) + "}", f"dict:{vt}"

    def clauses(self, given, env, depth, charge: list | None = None) -> tuple[dict, list[str]]:
        """A comprehension's `for` and `if` clauses as Python's, and the names they bind.
        With `charge`, the first list walked is held in a local, and the test charging it
        (to be written before the comprehension) is appended to `charge`."""
        inner = dict(env)
        clauses = []
        for clause in given:
            if isinstance(clause, A.For):
                pairs = self.map_pairs(clause, inner, depth)
                self.in_iterable += 1
                try:
                    seq, t = pairs[:2] if pairs else self.expr(clause.iter, inner, depth + 1)
                finally:
                    self.in_iterable -= 1
                if not t.startswith("list:"):
                    raise Unsupported("a loop over something other than a list")
                self.temps += 1
                if len(clause.names) == 1:
                    local = ident("c", clause.names[0], self.temps)
                    self.note_length(local, clause.iter)
                    inner[clause.names[0]] = (local, t[5:])
                    walked = self.walked(seq, True)
                    if charge is not None and not clauses and walked != seq:
                        self.temps += 1
                        walked = f"_w{self.temps}"
                        charge.append(f"(_cost := _cost + len({walked} := {seq})) <= {COST_LIMIT // 4}")
                    clauses.append(f"for {local} in {walked}")
                    continue
                types = pairs[2] if pairs else [t[10:]] * len(clause.names) if t.startswith("list:list:") else None
                if types is None:
                    raise Unsupported("a loop that unpacks something other than lists")
                # a list of the wrong length: Python raises, the loop reports the language's error
                names = [ident("c", n, self.temps) for n in clause.names]
                inner.update((n, (x, et)) for n, x, et in zip(clause.names, names, types))
                clauses.append(f"for {', '.join(names)}{',' if len(names) == 1 else ''} in {self.walked(seq, True)}")
            else:
                clauses.append(f"if {self.truth_in(clause.cond, inner, depth)}")
        return inner, clauses

    def walked(self, text: str, iterable: bool = False) -> str:
        """`text`, a list an expression walks, charged for its length to the tier's budget
        in line (a library function's list), or by _walked where `:=` cannot be written (a
        comprehension's `iterable`, a lambda); a range is charged already, and the players
        or a written list are a few elements at most."""
        if _CHARGED_OR_SHORT.match(text) or text == self.consts.get(("players", ())) or text.strip("()") in self.charged:
            return text
        if self.in_iterable or iterable:
            return f"_fz_walk(ctx, {text})"
        held = text = text[1:-1] if text[:1] == "(" and text[1:-1].isidentifier() else text
        if not _READ_AGAIN.match(text) or text.startswith("("):
            self.temps += 1
            held = f"_w{self.temps}"
            text = f"({held} := {text})"
        # A function over a short list (within SCAN_FREE, as the reference's `in` is free)
        # is not charged: its work is a few steps of the loop that led to it, which is.
        return f"({held} if len({text}) <= {SCAN_FREE} else _fz_walk(ctx, {held}))"

    def walk_lines(self, text: str) -> tuple[list[str], str]:
        """(lines, the loop's list) for a `for` statement over `text`, the lines charging
        its length to the tier's budget first (as _walked charges it): a name, a place or a
        part the listing keeps is read again by the loop, anything else is held in a local."""
        if self.walked(text) == text:
            return [], text
        if not _READ_AGAIN.match(text):
            self.temps += 1
            held = f"_w{self.temps}"
            return [f"{held} = {text}", *self.walk_lines(held)[0]], held
        return [f"if (_cost := _cost + len({text})) > {COST_LIMIT // 4}:", "    raise _KernelStop()"], text

    def map_pairs(self, clause, env, depth):
        """`for k, v in items(m)` over a map: (its pairs' source, a list type, the names' types)."""
        it = clause.iter
        if len(clause.names) != 2 or not (isinstance(it, A.Call) and it.func == "items" and len(it.args) == 1):
            return None
        m, mt = self.expr(it.args[0], env, depth + 1)
        if not mt.startswith("dict:"):
            return None
        return f"{m}.items()", "list:pair", ["str", mt[5:]]

    def prop_column(self, name: str) -> str:
        """The local holding the property's column for the playout (fused_zones.PropColumn)."""
        return self.prop_columns.setdefault(name, ident("col", len(self.prop_columns)))

    def prop_read(self, obj: str, name: str) -> str:
        """An item's property in line: its column's entry, filled from the state on the
        first read."""
        return f"{self.prop_column(name)}[{obj if _plain(obj) else f'({obj})'}.id]"

    def int_range(self, node, env) -> tuple[int, int] | None:
        """Bounds on the int `node` can hold, where they follow from constants, variables
        with declared bounds and lengths (`_within_limit` then needs no check of the
        language's range); None where they do not."""
        if isinstance(node, A.Const):
            return (node.value, node.value) if type(node.value) is int else None
        if isinstance(node, A.Name) and node.name not in env and self.types.get(node.name) == "int":
            return self.var_range(node.name)
        if isinstance(node, A.Index) and isinstance(node.obj, A.Name) and node.obj.name not in env and \
                self.types.get(node.obj.name) in _RANGED:
            return self.var_range(node.obj.name)
        if isinstance(node, A.Call) and node.func in ("len", "count") and len(node.args) == 1 and \
                not (node.func in env or node.func in self.rs.defines):
            return (0, _LONGEST)
        if isinstance(node, A.Call) and node.func == "player_count" and not node.args and node.func not in self.rs.defines:
            return (0, _LONGEST) if self.players is None else (self.players, self.players)
        if isinstance(node, A.Unary) and node.op == "-":
            inner = self.int_range(node.operand, env)
            return None if inner is None else (-inner[1], -inner[0])
        if isinstance(node, A.Binary):
            return _combined(node.op, self.int_range(node.left, env), self.int_range(node.right, env))
        if isinstance(node, A.Cond):
            one, other = self.int_range(node.then, env), self.int_range(node.orelse, env)
            return None if one is None or other is None else (min(one[0], other[0]), max(one[1], other[1]))
        return None

    def var_range(self, name: str) -> tuple[int, int]:
        """An int variable's declared bounds (the language's range where none is declared),
        proven on entry (`prologue`) and kept by every write's checks."""
        decl = self.rs.variables[name]
        self.ranged.add(name)
        return (-LIMIT if decl.min is None else decl.min, LIMIT if decl.max is None else decl.max)

    def checked(self, text: str) -> str:
        """An int result within the language's range (past it the reference reports)."""
        if self.in_iterable:
            return f"_ck({text})"
        self.temps += 1
        t = f"_i{self.temps}"
        return f"({t} if {-LIMIT} <= ({t} := {text}) <= {LIMIT} else _stop())"

    def truth_in(self, cond, env, depth) -> str:
        text, t = self.expr(cond, env, depth + 1)
        if t != "bool":
            raise Unsupported("a condition that is not bool")
        return text


def _unified(*types: str) -> str | None:
    """The one type values of `types` share, or None: an empty list (`list:?`) takes the
    type of a list it meets, at any depth (`[[]]` beside `[['a']]`)."""
    found = types[0]
    for t in types[1:]:
        found = _unify(found, t)
        if found is None:
            return None
    return found


def _unify(a: str, b: str) -> str | None:
    if a == b or b == "?":
        return a
    if a == "?":
        return b
    if a.startswith("list:") and b.startswith("list:"):
        inner = _unify(a[5:], b[5:])
        return None if inner is None else "list:" + inner
    return None


def _given(node, params) -> bool:
    """A list a definition is given: a parameter, or the pairs of a map parameter."""
    if isinstance(node, A.Call) and node.func == "items" and len(node.args) == 1:
        node = node.args[0]
    return isinstance(node, A.Name) and node.name in params


def _key_part(text: str, t: str) -> str | None:
    """A value as part of a memo key: itself when plain, else a tuple of what it holds."""
    if t in ("int", "str", "bool", "item"):
        return text
    if t in ("list:int", "list:str", "list:bool", "list:item"):
        return f"tuple({text})"
    if t in ("dict:int", "dict:str", "dict:bool"):
        return f"tuple({text}.items())"
    return None


def _remembered(memo: dict, key, work):
    """A definition's value for `key`, worked out once (`work()`)."""
    value = memo.get(key, _MISSING)
    return _remember(memo, key, work()) if value is _MISSING else value


def _remember(memo: dict, key, value):
    """Keep a definition's value; a memo past its size starts again."""
    if memo is _NOT_REMEMBERED:
        return value
    if len(memo) >= _MEMO_SIZE:
        memo.clear()
    memo[key] = value
    return value


_MEMO_SIZE = 100_000


class _OnTrial(dict):
    """A memo on trial counts how often it is asked and how often it misses.  Whether
    remembering pays depends on how often the same arguments (and the state they read)
    come back, which the writer cannot see: a board walk from a piece's space past every
    piece on the board, or choices keyed by two maps of counts that most moves change,
    may meet their key again almost never, and then keeping every value costs building
    its key and fills memory (which the collector walks) for nothing."""

    __slots__ = ("asked", "missed")

    def __init__(self):
        super().__init__()
        self.asked = self.missed = 0

    def get(self, key, default=None):
        self.asked += 1
        return dict.get(self, key, default)

    def __setitem__(self, key, value):
        self.missed += 1
        dict.__setitem__(self, key, value)


_NOT_REMEMBERED = {}  # the memo of a definition or walk not worth remembering: always empty


def _memo_on_trial(memo: dict, key, found_per_miss: float = 0.25):
    """The memo kept at `key` of the game's memo: on trial at first; once asked
    MEMO_TRIAL times, a plain dict if it found `found_per_miss` values for each one it
    missed (a quarter, the rule of the module's own memos, runtime.MemoSite), else
    _NOT_REMEMBERED for the rest of the game, its values let go.  Only the speed depends
    on the verdict."""
    kept = memo.get(key)
    if kept is None:
        kept = memo[key] = _OnTrial()
    elif type(kept) is _OnTrial and kept.asked >= _EARLY_TRIAL:
        found = kept.asked - kept.missed
        if found * _EARLY_MISSES_PER_FOUND < kept.missed:  # hopeless already: let go early
            kept = memo[key] = _NOT_REMEMBERED
        elif kept.asked >= MEMO_TRIAL:
            kept = memo[key] = dict(kept) if found >= kept.missed * found_per_miss else _NOT_REMEMBERED
    return kept


# A memo asked a few hundred times that found almost nothing is let go then, not after
# MEMO_TRIAL asks: a definition a game asks for 170 times (docs/compiled.md has one)
# would otherwise make and keep a key at every ask for a dozen games.
_EARLY_TRIAL = 200
_EARLY_MISSES_PER_FOUND = 20


# A board walk's key (the occupied places, as tuples) costs about as much as the walk
# itself (about 1.4 µs on a rulebook game's board), so its memo pays only where most walks recur.
_WALK_FOUND_PER_MISS = 1.0

_WALKS_WITH_LAMBDA = ("count_if", "max_by", "min_by")  # library functions that walk their first argument


def _sized(m: dict) -> dict:
    """A map made by a comprehension, within the language's longest list (check_list)."""
    if len(m) > MAX_LIST:
        raise KernelStop()
    return m


def _memo_site(site: dict, key, value):
    site[key] = value
    return value


def _index_by_key(elements) -> dict:
    """key -> the elements holding it (an element is a key, or a list of keys)."""
    index: dict = {}
    for e in elements:
        for key in dict.fromkeys(e if type(e) is tuple else (e,)):
            index.setdefault(key, []).append(e)
    return index


def _invariant_reads(element, looped: set) -> list:
    """The largest reads of a variable (`x[k]`) inside `element` that use neither a name
    in `looped` nor a name bound inside `element`: they are the same for every element
    of the loops."""
    bound = set(looped) | {n for c in _walk(element) if isinstance(c, (A.Generator, A.ListComp))
                     for f in c.clauses if isinstance(f, A.For) for n in f.names}
    found = []

    def visit(node):
        if isinstance(node, A.Index) and isinstance(node.obj, A.Name) and \
                not {n.name for n in _walk(node) if isinstance(n, A.Name)} & bound:
            found.append(node)
            return
        for child in A.iter_children(node):
            visit(child)
    visit(element)
    return found


_RANGED = ("int", "pmap:int", "map:int")  # variables whose declared bounds `int_range` reads
_LONGEST = 1 << 40  # more than any list or text in memory holds


def _combined(op: str, left, right) -> tuple[int, int] | None:
    """Bounds on `left op right` from the operands' bounds (None: not known)."""
    if left is None or right is None:
        return None
    (a, b), (c, d) = left, right
    if op == "+":
        return (a + c, b + d)
    if op == "-":
        return (a - d, b - c)
    if op == "*":
        products = (a * c, a * d, b * c, b * d)
        return (min(products), max(products))
    if op in ("//", "%") and c == d and c > 0:  # by a positive constant
        return (a // c, b // c) if op == "//" else (-(c - 1), c - 1)
    return None


def _within_limit(bounds) -> bool:
    return bounds is not None and -LIMIT <= bounds[0] and bounds[1] <= LIMIT


_MISSING = object()  # `next`'s default: no element passed
# A loop's list that costs nothing to write twice: a name, a place in one (`v_hand[p]`), a
# map's pairs, or a part a listing keeps (fused_decisions._Kept), worked out once.
# A list whose walk needs no charge: a range, charged for its length where it is made; a
# list made here (`[...]`, `tuple(...)`: a comprehension, a join, `unique`, `keys`), no
# longer than the charged walks that made it; or a list written out (a few constants).
_CHARGED_OR_SHORT = re.compile(r"^(\(range\(|_range\(|\[|tuple\(|\((('[^'\\]*'|-?\d+|True|False)(, |,?\)$))*\)?$)")
_READ_AGAIN = re.compile(r"^(\((_h\d+) if \2 is not None else \(\2 := .*\)\)|"
                         r"[A-Za-z_]\w*(\[\w+\]|\.\w+)*(\.items\(\))?)$")


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


def _stop():
    raise KernelStop()


_CHAIN = 8  # points tested one after another (decisions first); more are split in halves by their ids


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


_RANDBELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)


def _fast_bits(below):
    """The `getrandbits` behind `below` when it is a stock Random's `_randbelow`, so that the
    playout draws as that method would without a call per draw; else None."""
    return below.__self__.getrandbits if getattr(below, "__func__", None) is _RANDBELOW else None


def _checked_int(r: int) -> int:
    """An int result within the language's range; past it, the reference reports."""
    if -LIMIT <= r <= LIMIT:
        return r
    raise KernelStop()


def _bounded_range(ctx, a: int, b: int | None = None, step: int | None = None):
    """`range` charged as the reference charges it: a decision's ranges past the cost
    limit stop here, where the reference would report (a zero step too)."""
    lo, hi = (0, a) if b is None else (a, b)
    numbers = range(lo, hi) if step is None else range(lo, hi, step)  # a zero step raises
    if len(numbers) > MAX_RANGE:
        raise KernelStop()
    if numbers:
        ctx.cost += len(numbers)
        if ctx.cost > COST_LIMIT // 4:  # the reference charges a few steps per element: stop well before
            raise KernelStop()
    return numbers


def _walked(ctx, seq):
    """A list (or text, or map) walked by a loop, a comprehension or a library function,
    charged its length as the reference charges such a walk.  The tier charges its walks
    and ranges, not every step the reference charges (a definition's call, a nested
    comparison), so it stops at a quarter of the limit: with every walk charged, the work
    of a move stays within a few times the limit, and a move whose walks pass it goes to
    the loop, which reports what the reference reports."""
    ctx.cost += len(seq)
    if ctx.cost > COST_LIMIT // 4:
        raise KernelStop()
    return seq


def _charged_first(comprehension: str, charge: list) -> str:
    """A comprehension after the test that charges the first list it walks (clauses)."""
    return f"({comprehension} if {charge[0]} else _stop())" if charge else comprehension


def _short(s: str) -> str:
    if len(s) <= MAX_STR:
        return s
    raise KernelStop()


def _first(seq):
    if seq:
        return seq[0]
    raise KernelStop()


def _last(seq):
    if seq:
        return seq[-1]
    raise KernelStop()


def _walk(node):
    yield node
    for child in A.iter_children(node):
        yield from _walk(child)


def _exprs(value):
    if isinstance(value, A.Expr):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _exprs(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _exprs(v)


def _flow_nodes(nodes):
    for node in nodes:
        yield node
        yield from _flow_nodes(node.body)
        yield from _flow_nodes(node.orelse)
