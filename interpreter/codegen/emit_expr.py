"""An expression's checked syntax tree as one Python expression over locals.

Each node becomes Python source whose fast path is plain Python on values of
the types for which Python means what the language means (two ints, two texts,
a tuple indexed by an int); any other value goes to a helper in runtime.py.
Names are resolved here, once: comprehension variables and lambda parameters
become Python locals, parameters and loop variables are read from the context
once per call, variables and zones are read from the state's dicts, and a
sub-expression that depends only on the game (options, boards, items, pure
definitions) is computed once per game and kept in `Game.memo`.

Expressions have no side effects, so generated code may evaluate operands in
any order: if anything fails, the caller (module.py) forgets the attempt and
asks the reference evaluator, which fails in the language's order with the
language's message.  Generated code must therefore only ever *return* a value
the reference would return; it may raise where the reference would not, at
the price of speed.

Python forbids `:=` in a comprehension's iterable, so an iterable is emitted
without temporaries (`plain=True`): its slow paths are helper calls.
"""
from __future__ import annotations

from dataclasses import dataclass

from meeple.dsl import expr_ast as A
from meeple.dsl.functions import FUNCTIONS

from .safe_source import ident

INT, BOOL, STR, LIST = "int", "bool", "str", "list"
_ARITH = {"+", "-", "*", "//", "%", "**"}
_ORDER = {"<", ">", "<=", ">="}
_INT_RESULTS = {"len", "count", "abs", "count_if", "index_of", "count_of", "player_count", "move_count", "distance",
                "ceil_div", "clamp"}
_VAR_KINDS = {"var", "player_var", "keyed_var"}
# Library functions with a faster version in runtime.py for their usual arguments.
_FAST_LIBRARY = {"len": "_len_", "count": "_len_", "range": "_range_", "sum": "_sum_", "min": "_min_",
                 "max": "_max_", "count_of": "_count_of_", "concat": "_concat_"}
_ZONE_KINDS = {"zone", "player_zone", "keyed_zone"}


@dataclass(frozen=True)
class Code:
    text: str
    kind: str | None = None  # the value's type when the syntax alone guarantees it
    atom: bool = False  # a local or a literal: may be written twice without a temporary
    elem: str | None = None  # for a list: its elements' type when the syntax guarantees it


def literal(value) -> str | None:
    """Python source for a constant value, or None if it has no literal form here."""
    t = type(value)
    if value is None or t is bool or t is int or t is str:
        return repr(value)
    if t is tuple:
        parts = [literal(v) for v in value]
        if any(p is None for p in parts):
            return None
        return "(" + "".join(p + ", " for p in parts) + ")"
    return None


def kind_of_value(value) -> str | None:
    return {int: INT, bool: BOOL, str: STR, tuple: LIST}.get(type(value))


class Unit:
    """One generated function being written: the context names its body uses, its
    temporaries, and the bindings it reads once at the top."""

    def __init__(self, module, scope, params: dict | None = None):
        self.module = module
        self.scope = scope
        self.uses: set = set()  # "M": the game's memo
        self.reads: dict = {}  # ("vars" | "zones", name) -> local holding it
        self.bindings: dict = {}  # language name -> local read from ctx.bindings at the top
        self.params = dict(params or {})  # language name -> Python parameter of the function
        self.constant = False  # writing a game constant: its parts are not memoized apart
        self.kinds: dict = {}  # Python local -> its value's type, where the syntax guarantees it
        self.recording: frozenset = frozenset()  # variables whose keyed reads go to `R` (incremental.py)
        self.temps = 0

    def state_read(self, part: str, name: str) -> str:
        """A variable or zone, read once at the top: nothing changes the state while an
        expression is evaluated or moves are listed."""
        local = self.reads.get((part, name))
        if local is None:
            local = self.reads[(part, name)] = ident(part[0], name)
        return local

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    def prologue(self) -> list[str]:
        lines = []
        if self.reads:
            lines.append("S = ctx.state")
            lines.extend(f"{local} = S.{part}[{name!r}]" for (part, name), local in self.reads.items())
        if "M" in self.uses:
            lines.append("M = ctx.game.memo")
        if self.bindings:
            lines.append("B = ctx.bindings")
            lines.extend(f"{local} = B[{name!r}]" for name, local in self.bindings.items())
        return lines


class ExprEmitter:
    """Writes expressions into one Unit."""

    def __init__(self, unit: Unit):
        self.u = unit
        self.m = unit.module

    # -- entry -------------------------------------------------------------------
    def emit(self, node, env: dict | None = None, plain: bool = False) -> Code:
        """`env` maps the language's local names to Python locals; `plain` forbids `:=`."""
        env = env if env is not None else {}
        if not isinstance(node, (A.Const, A.Name)) and not self.u.constant:
            folded = self.m.folded(node)
            if folded is not None:
                return folded
            if not isinstance(node, A.ListLit) and self.m.is_game_constant(node, env, self.u):
                i = self.m.game_constant(node, self.u.scope)
                self.u.uses.add("M")
                return Code(f"(M[{i}] if {i} in M else G{i}(ctx))")
            args = self.m.memo_arguments(node, env, self.u)
            # A list is never a memo key (only ints, texts and items are): no memo for it.
            if args and not any(self.u.kinds.get(env.get(n) or self.u.params[n]) == LIST for n in args):
                return self._memo_call(node, env, args, plain)
        return self.dispatch(node, env, plain)

    def _memo_call(self, node, env, names: list, plain: bool) -> Code:
        """A sub-expression that depends on the game and a few locals only, kept in the
        game's memo per value of those locals (when each is an int, a text or an item)."""
        idents = [env.get(n) or self.u.params[n] for n in names]
        i = self.m.memo_function(node, self.u.scope, dict(zip(names, idents)))
        args = ", ".join(idents)
        if plain:
            return Code(f"P{i}(ctx, {args})")
        self.u.uses.add("M")
        t = self.u.temp()
        keyable = " and ".join(f"type({x}) in _KEYABLE" for x in idents)
        key = f"({i}, {args}, )"
        return Code(f"(M[{t}] if {keyable} and ({t} := {key}) in M else P{i}(ctx, {args}))")

    def dispatch(self, node, env: dict | None = None, plain: bool = False) -> Code:
        return getattr(self, "_" + type(node).__name__)(node, env if env is not None else {}, plain)

    # -- leaves -----------------------------------------------------------------------
    def _Const(self, node, env, plain):
        return Code(repr(node.value), kind_of_value(node.value), atom=True)

    def _Name(self, node, env, plain):
        name = node.name
        if name in env:
            return Code(env[name], self.u.kinds.get(env[name]), atom=True)
        if name in self.u.params:
            return Code(self.u.params[name], self.u.kinds.get(self.u.params[name]), atom=True)
        sym = self.u.scope.lookup(name)
        if sym is None or sym.kind == "function":
            return Code("_deopt()")
        if sym.kind in _VAR_KINDS:
            return Code(self.u.state_read("vars", name), atom=True)
        if sym.kind in _ZONE_KINDS:
            return Code(self.u.state_read("zones", name), atom=True)
        if name == "options" and sym.kind == "const":
            return Code("ctx.options")
        if sym.kind == "define":
            return Code(f"{self.m.define_function(name)}(ctx)")
        if sym.kind in ("binding", "param", "value"):
            local = self.u.bindings.get(name)
            if local is None:
                local = self.u.bindings[name] = ident("b", name)
            kind = INT if name == "player" and sym.kind == "param" else None
            return Code(local, kind, atom=True)
        return Code(f"{self.m.symbol_reader(sym)}(ctx)")

    def _ListLit(self, node, env, plain):
        parts = [self.emit(x, env, plain) for x in node.items]
        return Code("(" + "".join(p.text + ", " for p in parts) + ")", LIST)

    def _MapLit(self, node, env, plain):
        entries = []
        for k, v in node.entries:
            kc, vc = self.emit(k, env, plain), self.emit(v, env, plain)
            key = kc.text if kc.kind in (INT, STR) else f"_key({kc.text})"
            entries.append(f"{key}: {vc.text}")
        return Code("{" + ", ".join(entries) + "}")

    # -- operators ------------------------------------------------------------------------
    def _hold(self, code: Code, plain: bool) -> tuple[str, str]:
        """(first use, later uses) of a value needed twice: a walrus and its temporary,
        or the text itself when it is a local or a literal."""
        if code.atom or plain:
            return code.text, code.text
        t = self.u.temp()
        return f"({t} := {code.text})", t

    def _Binary(self, node, env, plain):
        left, right = self.emit(node.left, env, plain), self.emit(node.right, env, plain)
        op = node.op
        if op in _ARITH:
            return self._arith(op, left, right, plain)
        if op in ("==", "!="):
            code = self._equal(left, right, plain)
            return code if op == "==" else Code(f"(not {code.text})", BOOL)
        if op in _ORDER:
            return self._order(op, left, right, plain)
        test = f"_in(ctx, {left.text}, {right.text})"
        return Code(test if op == "in" else f"(not {test})", BOOL)

    def _arith(self, op, left, right, plain) -> Code:
        if op == "**":  # never inline: Python would work out 2 ** 10**9 before any check
            return Code(f"_pow({left.text}, {right.text})", INT)
        result = INT if op != "+" or (left.kind == INT and right.kind == INT) else None
        if plain and not (left.kind == INT and right.kind == INT):
            return Code(f"_calc(ctx, {op!r}, {left.text}, {right.text})", result)
        if left.kind == INT and right.kind == INT:
            if op in ("//", "%"):
                if right.atom and right.text.isdigit() and right.text != "0":
                    return Code(f"({left.text} {op} {right.text})", INT)
                if plain:
                    return Code(f"_calc(ctx, {op!r}, {left.text}, {right.text})", INT)
                b1, b = self._hold(right, plain)
                return Code(f"({left.text} {op} {b} if {b1} else _deopt())", INT)
            if plain:
                return Code(f"_calc(ctx, {op!r}, {left.text}, {right.text})", INT)
            t = self.u.temp()
            return Code(f"({t} if -MAX_INT <= ({t} := {left.text} {op} {right.text}) <= MAX_INT "
                        f"else _ovf({t}))", INT)
        a1, a = self._hold(left, plain)
        b1, b = self._hold(right, plain)
        tests = [f"(type({x}) is int)" for x, code in ((a1, left), (b1, right)) if code.kind != INT]
        guard = " & ".join(tests) if len(tests) > 1 else tests[0]
        for x, code in ((a1, left), (b1, right)):
            if code.kind == INT and x != code.text:  # a temporary is still assigned first
                guard = f"(({x}) is not None) and {guard}"
        slow = f"_calc(ctx, {op!r}, {a}, {b})"
        if op in ("//", "%"):
            return Code(f"({a} {op} {b} if {guard} and {b} else {slow})", result)
        t = self.u.temp()
        return Code(f"({t} if {guard} and -MAX_INT <= ({t} := {a} {op} {b}) <= MAX_INT else {slow})",
                    result)

    def _equal(self, left, right, plain) -> Code:
        if right.atom and right.text in ("None", "True", "False"):
            return Code(f"({left.text} is {right.text})", BOOL)
        if left.atom and left.text in ("None", "True", "False"):
            return Code(f"({right.text} is {left.text})", BOOL)
        for this, other in ((left, right), (right, left)):
            if other.atom and other.kind in (INT, STR):
                if this.kind == other.kind:
                    return Code(f"({this.text} == {other.text})", BOOL)
                if plain:
                    return Code(f"_eq(ctx, {this.text}, {other.text})", BOOL)
                a1, a = self._hold(this, plain)
                pytype = "int" if other.kind == INT else "str"
                return Code(f"({a} == {other.text} if type({a1}) is {pytype} else _eq(ctx, {a}, {other.text}))",
                            BOOL)
        if left.kind is not None and left.kind == right.kind and left.kind in (INT, STR, BOOL):
            return Code(f"({left.text} == {right.text})", BOOL)
        if plain:
            return Code(f"_eq(ctx, {left.text}, {right.text})", BOOL)
        a1, a = self._hold(left, plain)
        b1, b = self._hold(right, plain)
        return Code(f"({a} == {b} if type({a1}) is type({b1}) and type({a}) in _FLAT else _eq(ctx, {a}, {b}))",
                    BOOL)

    def _order(self, op, left, right, plain) -> Code:
        if left.kind == INT and right.kind == INT:
            return Code(f"({left.text} {op} {right.text})", BOOL)
        slow_of = {"<": "_lt(ctx, {a}, {b})", ">": "_lt(ctx, {b}, {a})",
                   "<=": "(not _lt(ctx, {b}, {a}))", ">=": "(not _lt(ctx, {a}, {b}))"}[op]
        if plain:
            return Code(slow_of.format(a=left.text, b=right.text), BOOL)
        if left.kind == INT:
            a1 = a = left.text
            b1, b = self._hold(right, plain)
            guard = f"type({b1}) is int"
        elif right.kind == INT:
            a1, a = self._hold(left, plain)
            b1 = b = right.text
            guard = f"type({a1}) is int"
        else:
            a1, a = self._hold(left, plain)
            b1, b = self._hold(right, plain)
            guard = f"(type({a1}) is int) & (type({b1}) is int)"
        return Code(f"({a} {op} {b} if {guard} else {slow_of.format(a=a, b=b)})", BOOL)

    def _Unary(self, node, env, plain):
        x = self.emit(node.operand, env, plain)
        if node.op == "not":
            return Code(f"(not {x.text})" if x.kind == BOOL else f"_not({x.text})", BOOL)
        return Code(f"(-{x.text})" if x.kind == INT else f"_neg({x.text})", INT)

    def _truth(self, code: Code) -> str:
        return code.text if code.kind == BOOL else f"_truth({code.text})"

    def _BoolOp(self, node, env, plain):
        left, right = self.emit(node.left, env, plain), self.emit(node.right, env, plain)
        return Code(f"({self._truth(left)} {node.op} {self._truth(right)})", BOOL)

    def _Cond(self, node, env, plain):
        test = self.emit(node.test, env, plain)
        yes, no = self.emit(node.then, env, plain), self.emit(node.orelse, env, plain)
        kind = yes.kind if yes.kind == no.kind else None
        return Code(f"({yes.text} if {self._truth(test)} else {no.text})", kind)

    # -- access -------------------------------------------------------------------------------
    def _Index(self, node, env, plain):
        obj, idx = self.emit(node.obj, env, plain), self.emit(node.index, env, plain)
        if self.u.recording and isinstance(node.obj, A.Name) and node.obj.name in self.u.recording \
                and node.obj.name not in env and node.obj.name not in self.u.params:
            return self._recorded(node.obj.name, obj, idx, plain)
        if idx.kind in (INT, STR):
            return Code(f"{obj.text}[{idx.text}]")
        if plain:
            return Code(f"_index({obj.text}, {idx.text})")
        o1, o = self._hold(obj, plain)
        i1, i = self._hold(idx, plain)
        first = f"({o1} is {o}) and " if o1 != o else ""
        return Code(f"({o}[{i}] if {first}(type({i1}) is str or type({i}) is int) else _index({o}, {i}))")

    def _Slice(self, node, env, plain):
        obj = self.emit(node.obj, env, plain)
        parts = [("None" if p is None else self.emit(p, env, plain).text) for p in (node.start, node.stop, node.step)]
        kind = obj.kind if obj.kind in (LIST, STR) else None
        return Code(f"_slice(ctx, {obj.text}, {', '.join(parts)})", kind, elem=obj.elem if kind == LIST else None)

    def _Let(self, node, env, plain):
        """`let d = v in body` as a lambda called with the value: the name is a Python
        local of the body alone, whatever the body is inside (a comprehension's iterable,
        where `:=` is refused, or its element)."""
        value = self.emit(node.value, env, plain)
        local = ident("l", node.name)
        inner = dict(env)
        inner[node.name] = local
        saved = dict(self.u.kinds)
        self.u.kinds[local] = value.kind
        body = self.emit(node.body, inner, plain)
        self.u.kinds = saved
        return Code(f"(lambda {local}: {body.text})({value.text})", body.kind, elem=body.elem)

    def _recorded(self, name: str, obj: Code, idx: Code, plain: bool) -> Code:
        """`var[key]` that also notes the key in `R` (incremental.py): inline for the keys
        a keyed variable (a map) or a per-player one (a list) is read by, else `_rd`."""
        slow = f"_rd(R, {name!r}, {obj.text}, {idx.text})"
        kind = self.u.scope.lookup(name).kind
        if plain or kind not in ("keyed_var", "player_var"):
            return Code(slow)
        i1, i = self._hold(idx, plain)
        if kind == "keyed_var":
            guard = f"(type({i1}) is str or type({i}) is int)"
        else:
            guard = f"(type({i1}) is int and {i} >= 0)"
        return Code(f"((R.append(({name!r}, {i})) or {obj.text}[{i}]) if {guard} "
                    f"else _rd(R, {name!r}, {obj.text}, {i}))")

    def _Member(self, node, env, plain):
        obj = self.emit(node.obj, env, plain)
        name = node.name
        if plain:
            return Code(f"_member(ctx, {obj.text}, {name!r})")
        o1, o = self._hold(obj, plain)
        if name in ("id", "kind"):
            fast = f"{o}.{name}"
        elif self.m.is_field_only(name):
            fast = f"{o}.fields[{name!r}]"
        elif self.m.is_prop_only(name):
            fast = f"ctx.item_prop({o}, {name!r})"
        else:
            return Code(f"_member(ctx, {obj.text}, {name!r})")
        return Code(f"({fast} if type({o1}) is Item else _member(ctx, {o}, {name!r}))")

    def _Lambda(self, node, env, plain):
        return Code("_deopt()")

    # -- calls --------------------------------------------------------------------------------
    def _Call(self, node, env, plain):
        name, n = node.func, len(node.args)
        fn = FUNCTIONS.get(name)
        if fn is None:
            sym = self.u.scope.lookup(name)
            params = sym.meta.get("params") if sym is not None else None
            if sym is None or sym.kind != "function" or (params is not None and len(params) != n):
                return Code("_deopt()")
            args = [self.emit(a, env, plain).text for a in node.args]
            return Code(f"{self.m.define_function(name)}(ctx, {', '.join(args)})")
        if n < fn.min_args or (fn.max_args is not None and n > fn.max_args):
            return Code("_deopt()")
        if n == 1 and isinstance(node.args[0], A.Generator) and fn.lazy:
            return self._any_all(node, env, plain)
        args = []
        for i, arg in enumerate(node.args):
            if i in fn.lambdas:
                if not isinstance(arg, A.Lambda):
                    return Code("_deopt()")
                inner = dict(env)
                inner[arg.param] = ident("l", arg.param)
                body = self.emit(arg.body, inner, plain)
                args.append(f"(lambda {inner[arg.param]}: {body.text})")
            else:
                args.append(self.emit(arg, env, plain).text)
        kind = INT if name in _INT_RESULTS else (BOOL if fn.lazy else None)
        elem = INT if name in ("range", "players") else None
        fn = _FAST_LIBRARY.get(name) or self.m.library_function(name)
        return Code(f"{fn}(ctx{''.join(', ' + a for a in args)})", kind, elem=elem)

    # -- comprehensions --------------------------------------------------------------------------
    def _clauses(self, clauses, env, plain) -> tuple[str, dict]:
        """`for ... in ... if ...` in Python, and the names bound for the element."""
        env = dict(env)
        parts = []
        for clause in clauses:
            if isinstance(clause, A.For):
                it = self.emit(clause.iter, env, plain=True)
                names = [ident("l", n) for n in clause.names]
                for local in names:
                    self.u.kinds[local] = it.elem if len(names) == 1 else None
                it = it.text
                if len(names) == 1:
                    parts.append(f"for {names[0]} in _seq(ctx, {it})")
                else:
                    parts.append(f"for {', '.join(names)} in _unpacked(ctx, {it}, {len(names)})")
                env.update(zip(clause.names, names))
            else:
                parts.append(f"if {self._truth(self.emit(clause.cond, env, plain))}")
        return " ".join(parts), env

    def _ListComp(self, node, env, plain):
        saved = dict(self.u.kinds)
        clauses, inner = self._clauses(node.clauses, env, plain)
        element = self.emit(node.element, inner, plain)
        self.u.kinds = saved
        return Code(f"_listed(tuple([{element.text} {clauses}]))", LIST, elem=element.kind)

    _Generator = _ListComp

    def _MapComp(self, node, env, plain):
        saved = dict(self.u.kinds)
        clauses, inner = self._clauses(node.clauses, env, plain)
        k, v = self.emit(node.key, inner, plain), self.emit(node.value, inner, plain)
        self.u.kinds = saved
        key = k.text if k.kind in (INT, STR) else f"_key({k.text})"
        return Code(f"_listed({{{key}: {v.text} {clauses}}})")

    def _any_all(self, node, env, plain) -> Code:
        """`any`/`all` as a call of its own function of loops (module.quantifier_loop),
        which stops at the first decisive element without a generator per walk; the
        Python locals the generator reads are passed to it."""
        free = A.names_read(node)
        passed = {n: env[n] for n in sorted(free) if n in env}
        passed.update({n: self.u.params[n] for n in sorted(free) if n in self.u.params and n not in env})
        kinds = {local: self.u.kinds.get(local) for local in passed.values()}
        kept = self.m.incremental(node, env, self.u, passed, kinds, plain)
        if kept is not None:
            return kept
        i = self.m.quantifier_loop(node, self.u.scope, passed, kinds, self.u.recording)
        args = "".join(", " + local for local in passed.values()) + (", R" if self.u.recording else "")
        return Code(f"L{i}(ctx{args})", BOOL)
