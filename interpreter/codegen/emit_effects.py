"""Effect blocks as generated functions: one `X<i>(ctx)` of straight-line Python
statements per block (an action's effects, a flow `effects` step, a trigger's
effects, the setup).

    # 1:40:11  effects of an action
    def X3(ctx):
        S = ctx.state
        V = S.vars
        Z = S.zones
        B = ctx.bindings
        _c = ctx.cost
        _sz0 = Z['bid']                 # what the block may write, kept
        ...
        try:
            # 1:42:11  move
            b_player = B['player']      # what the statement reads, read here
            ...
            return
        except Exception:
            ctx.cost = _c               # put the state back as it was ...
            Z['bid'] = _sz0
            ...
        _refblock(ctx, 3)               # ... and let the reference run the whole block

Expressions are written inline by ExprEmitter; places are resolved inline with
the zone's or variable's layout known here (per player: a tuple; keyed: a map);
`let` and `for` names are Python locals (`k_name`), mirrored into ctx.bindings
because the reference reads them from there; `if` and `for` are Python's.  A
statement written nowhere here (`reveal`, a `deal` into the zone it deals from)
runs the reference interpreter's own closure for it.  `rules.after_effect` is called after each
statement exactly where the reference calls it, and not at all when the ruleset
has no triggers (then it does nothing).

Generated statements change the state as they go, so any exception puts back
what the block may have written (writes replace containers, never mutate them,
so keeping the old entries is enough) and runs the reference closure of the
whole block, which then fails with its own error and YAML position, or succeeds.
`module.deopts` counts these hand-backs.  An error that already comes from the
reference (a nested block's hand-back: an event or trigger fired from this block)
is passed on as it is; running this block again would only meet it again, once
more for every level of nesting.
"""
from __future__ import annotations

import ast
from collections import Counter

from meeple.dsl import expr_ast as A
from meeple.dsl.compile_expr import compile_expr
from meeple.dsl.schema.language import EFFECT_KINDS

from . import effects_runtime
from ..runtime.effects import OPS, EffectCompiler
from ..runtime.targets import split_target
from .emit_expr import BOOL, INT, STR, Code, ExprEmitter, Unit, literal
from .safe_source import ident

_FLAT_KINDS = (INT, BOOL, STR)
_SHARED_LINES = {"S = ctx.state", "B = ctx.bindings", "M = ctx.game.memo"}


# -- the compiler ------------------------------------------------------------------------------------
class _ReferenceRules:
    """The compiled rules as the reference back end sees them: expressions as closures.
    Blocks built through it are the fallback of generated ones and add nothing to the module."""

    def __init__(self, rules):
        self._rules = rules

    def expr(self, node, scope):
        return compile_expr(node, scope)

    def __getattr__(self, name):
        return getattr(self._rules, name)


class GeneratedEffects(EffectCompiler):
    """The EffectCompiler of the compiled back end: `block` answers with a generated function."""

    def __init__(self, rules):
        super().__init__(rules)
        self.reference = EffectCompiler(_ReferenceRules(rules))
        self.fallbacks: list = []  # X<i> -> the reference closure of its block
        self.statements = 0  # ST<n>: reference closures of single statements
        self._labels: dict | None = None
        rs = rules.ruleset
        self.has_triggers = any(not t.on for t in rs.triggers.values())

    def block(self, effects, scope):
        # The reference block first: it refuses at load time what the reference refuses.
        fallback = self.reference.block(effects, scope)
        if not effects:
            return fallback
        module = self.rules.module
        if "_refblock" not in module.ns:
            face_declared = any("face" in k.props for k in self.rules.ruleset.components.values())
            module.ns.update(effects_runtime.names(face_declared))
            module.ns["_refblock"] = self._run_reference
            module.ns["_after_effect"] = self.rules.after_effect
            module.ns["_fire_event"] = self.rules.fire_event
        i = len(self.fallbacks)
        self.fallbacks.append(fallback)
        return BlockWriter(self, effects, scope).write(i, self.label(effects))

    def _run_reference(self, ctx, i):
        self.rules.module.deopts += 1
        try:
            self.fallbacks[i](ctx)
        except Exception as exc:
            # The reference's own answer: a generated block around this one (an event or a
            # trigger fired from it) would get the same answer from the reference, so it
            # passes it on instead of running everything again at every level.
            exc.meeple_reference = True
            raise

    def reference_statement(self, effect, scope) -> str:
        """The name of a statement's closure as the interpreter runs it (expressions generated)."""
        fn = f"ST{self.statements}"
        self.statements += 1
        self.rules.module.ns[fn] = EffectCompiler(self.rules).one(effect, scope)
        return fn

    def label(self, effects) -> str:
        """What a block is, for the comment above its function."""
        if self._labels is None:
            rs = self.rules.ruleset
            labels = {id(rs.setup): "setup"}
            labels.update({id(a.effects): "effects of an action" for a in rs.actions.values()})
            labels.update({id(t.effects): "effects of a trigger" for t in rs.triggers.values()})
            stack = list(rs.flow)
            while stack:
                node = stack.pop()
                if node.kind == "effects":
                    labels[id(node.args["effects"])] = "effects step of the flow"
                stack.extend(node.body)
                stack.extend(getattr(node, "orelse", None) or ())
            self._labels = labels
        return self._labels.get(id(effects), "effects")


def _binding_counts(effects, counts: Counter) -> Counter:
    for e in effects:
        if e.kind == "let":
            counts.update(list(e.args["bindings"]))
        elif e.kind == "for":
            counts[e.args["var"]] += 1
            _binding_counts(e.args["do"], counts)
        elif e.kind == "while":
            _binding_counts(e.args["do"], counts)
        elif e.kind == "if":
            _binding_counts(e.args["then"], counts)
            _binding_counts(e.args["else"], counts)
    return counts


class BlockWriter:
    """Writes one block's function."""

    def __init__(self, owner: GeneratedEffects, effects, scope):
        self.owner = owner
        self.rules = owner.rules
        self.module = owner.rules.module
        self.effects, self.scope = effects, scope
        self.lines: list[str] = []
        self.depth = 2
        self.n = 0
        self.env: dict = {}  # language name -> Python local: names `let` and `for` bound in the block
        self.kinds: dict = {}  # Python local -> type, for names bound once in the block
        self.once = {n for n, c in _binding_counts(effects, Counter()).items() if c == 1}
        self.after = owner.has_triggers
        self.open = self.after  # may the block write anything at all (reference closures, triggers)?
        self.vars: dict = {}  # variable name -> the local its old value is kept in
        self.zones: dict = {}
        self.uses: set = set()  # "props", "rng", "over", "log", "bindings", "memo"
        self.guarded: set = set()

    # -- the function ------------------------------------------------------------------------------
    def write(self, i: int, label: str):
        self.block(self.effects, self.scope)
        head = ["S = ctx.state", "V = S.vars", "Z = S.zones", "B = ctx.bindings", "_c = ctx.cost"]
        back = ["ctx.cost = _c"]
        if "memo" in self.uses:
            head.append("M = ctx.game.memo")
        if self.open:
            for kept, place in (("_sv", "V"), ("_sz", "Z"), ("_sp", "S.props"), ("_sb", "B")):
                head.append(f"{kept} = dict({place})")
                back.append(f"_restore({place}, {kept})")
            self.uses |= {"rng", "over", "log"}
        else:
            for store, saved in (("V", self.vars), ("Z", self.zones)):
                head.extend(f"{local} = {store}[{name!r}]" for name, local in saved.items())
                back.extend(f"{store}[{name!r}] = {local}" for name, local in saved.items())
            if "bindings" in self.uses:
                head.append("_sb = dict(B)")
                back.append("_restore(B, _sb)")
        if "props" in self.uses:
            head.append("_u = []")
            if not self.open:
                back.append("_undo_props(S.props, _u)")
        for use, fields in (("rng", ("rng",)), ("over", ("over", "end_reason")), ("log", ("log",))):
            if use in self.uses:
                head.extend(f"{ident('_s', f)} = S.{f}" for f in fields)
                back.extend(f"S.{f} = {ident('_s', f)}" for f in fields)
        name = f"X{i}"
        text = [self.module.comment(self.effects[0], label), f"def {name}(ctx):",
                *("    " + line for line in head), "    try:", *self.lines, "        return",
                "    except Exception as _x:", *("        " + line for line in back),
                "        if _from_reference(_x):", "            raise", f"    _refblock(ctx, {i})"]
        return self.module.add("\n".join(text), name)

    def emit(self, line: str):
        self.lines.append("    " * self.depth + line)

    def temp(self, prefix: str = "_e") -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def unit(self, scope) -> Unit:
        unit = Unit(self.module, scope, dict(self.env))
        unit.kinds.update(self.kinds)
        return unit

    def prologue(self, unit: Unit):
        """What a statement's expressions read, read where the statement starts."""
        if "M" in unit.uses:
            self.uses.add("memo")
        for line in unit.prologue():
            if line not in _SHARED_LINES:
                self.emit(line)

    def value(self, node, scope) -> Code:
        """One expression a statement needs, after the lines reading what it reads."""
        unit = self.unit(scope)
        code = ExprEmitter(unit).emit(node)
        self.prologue(unit)
        return code

    def held(self, code: Code) -> str:
        """A value used more than once: the text of a local or literal, else a new local."""
        if code.atom:
            return code.text
        t = self.temp()
        self.emit(f"{t} = {code.text}")
        return t

    # -- blocks ------------------------------------------------------------------------------------
    def block(self, effects, scope):
        if not effects:
            self.emit("pass")
        for effect in effects:
            span = effect.span
            self.emit(self.module.comment(effect, effect.kind if effect.kind in EFFECT_KINDS else "effect"))
            self.guarded = set()  # zone keys tested in this statement (a key is tested once)
            getattr(self, "s_" + effect.kind, self.s_reference)(effect, scope)
            if self.after:
                self.emit("_after_effect(ctx)")
            if effect.kind == "let":
                scope = scope.bind({n: None for n in effect.args["bindings"]})

    def nested(self, effects, scope):
        env = dict(self.env)
        self.depth += 1
        self.block(effects, scope)
        self.depth -= 1
        self.env = env

    def bind(self, name: str, kind) -> str:
        local = ident("k", name)
        self.env[name] = local
        if name in self.once and kind is not None:
            self.kinds[local] = kind
        self.uses.add("bindings")
        return local

    # -- statements ----------------------------------------------------------------------------------
    def s_reference(self, effect, scope):
        fn = self.owner.reference_statement(effect, scope)
        self.emit(f"{fn}(ctx)  # as the reference interpreter runs it")
        self.open = True

    def s_let(self, effect, scope):
        for name, node in effect.args["bindings"].items():
            code = self.value(node, scope)
            local = ident("k", name)
            self.emit(f"{local} = {code.text}")
            if code.kind not in _FLAT_KINDS:
                self.emit(f"if type({local}) is tuple or type({local}) is dict:")
                self.emit(f"    _depth(ctx, {local}, 0)")
            self.emit(f"B[{name!r}] = {local}")
            self.bind(name, code.kind)

    def s_if(self, effect, scope):
        cond = self.value(effect.args["cond"], scope)
        self.emit(f"if {cond.text}:" if cond.kind == BOOL else f"if ({cond.text}) is True:")
        self.nested(effect.args["then"], scope)
        if effect.args["else"]:
            self.emit("else:")
            self.nested(effect.args["else"], scope)

    def s_for(self, effect, scope):
        var = effect.args["var"]
        domain = self.value(effect.args["in"], scope)
        had, old = self.temp("_h"), self.temp("_o")
        outer = var in self.env
        self.emit(f"{had} = {var!r} in B")
        self.emit(f"{old} = B.get({var!r})")
        env = dict(self.env)
        node = effect.args["in"]
        elem = INT if isinstance(node, A.Call) and node.func in ("players", "range") else domain.elem
        local = self.bind(var, elem)
        self.emit(f"for {local} in _each({domain.text}):")
        self.depth += 1
        self.emit("ctx.cost += 1")
        self.emit("if ctx.cost > COST_LIMIT:")
        self.emit("    raise Deopt()")
        self.emit(f"B[{var!r}] = {local}")
        self.block(effect.args["do"], scope.bind({var: None}))
        self.depth -= 1
        self.env = env
        self.emit(f"if {had}:")
        self.emit(f"    B[{var!r}] = {old}")
        if outer:
            self.emit(f"    {local} = {old}")
        self.emit("else:")
        self.emit(f"    B.pop({var!r}, None)")

    def s_while(self, effect, scope):
        """A Python `while` whose test reads the state again at every round; a round past
        `max`, a `max` that is not an int or the cost limit hand the block back to the
        reference, which reports them (R713, R701, R702) at the effect."""
        most = self.value(effect.args["max"], scope)
        bound, rounds = self.temp("_wb"), self.temp("_wr")
        self.emit(f"{bound} = {most.text}")
        if most.kind != INT:
            self.emit(f"if type({bound}) is not int:")
            self.emit("    raise Deopt()")
        self.emit(f"{rounds} = 0")
        self.emit("while True:")
        self.depth += 1
        cond = self.value(effect.args["cond"], scope)  # what it reads, read again before each round
        self.emit(f"if not ({cond.text}):" if cond.kind == BOOL else f"if ({cond.text}) is not True:")
        self.emit("    break")
        self.emit(f"if {rounds} >= {bound}:")
        self.emit("    raise Deopt()")
        self.emit(f"{rounds} += 1")
        self.emit("ctx.cost += 1")
        self.emit("if ctx.cost > COST_LIMIT:")
        self.emit("    raise Deopt()")
        env = dict(self.env)
        self.block(effect.args["do"], scope)
        self.env = env
        self.depth -= 1

    def s_set(self, effect, scope):
        for assign in effect.args["assignments"]:
            root, chain = split_target(assign.target)
            decl = self.rules.variables.get(root)
            if decl is not None:
                self.set_var(decl, chain, assign, scope)
            else:
                self.set_prop(chain[-1][1], assign, scope)

    def set_var(self, decl, chain, assign, scope):
        unit = self.unit(scope)
        emit = ExprEmitter(unit).emit
        key_codes = [emit(part) if kind == "index" else Code(repr(part), STR, atom=True) for kind, part in chain]
        value = emit(assign.value)
        self.prologue(unit)
        keys = [self.held(k) for k in key_codes]
        op = OPS[assign.op]
        kind = value.kind
        allowed = op is None and self.fits(decl, value)
        if allowed:
            v = value.text  # a literal the declaration allows: nothing to check
        else:
            v = self.temp()
            self.emit(f"{v} = {value.text}")
        name = decl.name
        if name not in self.vars:
            self.vars[name] = f"_sv{len(self.vars)}"
        o = self.temp()
        self.emit(f"{o} = V[{name!r}]")
        layout = None
        if len(keys) == 1 and decl.per is not None:
            layout = "tuple" if decl.per == "player" else "dict"
            if layout == "tuple":
                self.guard(keys[0], key_codes[0], "int")
        if op is not None:
            if not keys:
                current = o
            elif layout is not None:
                current = f"{o}[{keys[0]}]"
            else:
                current = f"_read_in({o}, ({''.join(k + ', ' for k in keys)}))"
            self.arith(op, current, v, value.kind)
            kind = None
        if not allowed:
            self.check(decl, v, kind, len(keys))
        if not keys:
            self.emit(f"V[{name!r}] = {v}")
        else:
            t = self.temp()
            if layout == "tuple":
                self.emit(f"{t} = list({o})")
                self.emit(f"{t}[{keys[0]}] = {v}")
                self.emit(f"V[{name!r}] = {t} = tuple({t})")
            elif layout == "dict":
                self.emit(f"{t} = dict({o})")
                self.emit(f"{t}[{keys[0]}] = {v}")
                self.emit(f"V[{name!r}] = {t}")
            else:
                self.emit(f"V[{name!r}] = {t} = _replace_in({o}, ({''.join(k + ', ' for k in keys)}), {v})")
            self.emit(f"_note_write({t}, {o}, {keys[0]})")  # as store.write_var notes it

    @staticmethod
    def fits(decl, value: Code) -> bool:
        """Is `value` an int, text or boolean literal that the declaration's bounds and choices allow?"""
        if not value.atom or value.kind not in _FLAT_KINDS:
            return False
        try:
            x = ast.literal_eval(value.text)
        except (ValueError, SyntaxError):
            return False  # a local, not a literal
        if type(x) is int and ((decl.min is not None and x < decl.min) or (decl.max is not None and x > decl.max)):
            return False
        return decl.choices is None or any(type(c) is type(x) and c == x for c in decl.choices)

    def guard(self, k: str, code: Code, test: str):
        """Refuse a key that is not an int ("int") or not an int from 0 ("index"), once per statement."""
        if (k, test) in self.guarded or (test == "int" and (k, "index") in self.guarded):
            return
        self.guarded.add((k, test))
        kind_test = [] if code.kind == INT else [f"type({k}) is not int"]
        tests = kind_test + ([f"{k} < 0"] if test == "index" else [])
        if tests:
            self.emit(f"if {' or '.join(tests)}:")
            self.emit("    raise Deopt()")

    def arith(self, op: str, current: str, v: str, kind):
        """`v = current op v` by the language's rules (`kind`: v's type, if known)."""
        cur = self.temp()
        self.emit(f"{cur} = {current}")
        test = f"type({cur}) is int" + ("" if kind == INT else f" and type({v}) is int")
        self.emit(f"if {test}:")
        self.emit(f"    {v} = {cur} {op} {v}")
        self.emit(f"    if not -MAX_INT <= {v} <= MAX_INT:")
        self.emit("        raise Deopt()")
        self.emit("else:")
        self.emit(f"    {v} = _calc(ctx, {op!r}, {cur}, {v})")

    def check(self, decl, v: str, kind, used: int):
        """A variable's declared bounds and choices, and the nesting limit, on the value `v`."""
        lo, hi = decl.min, decl.max
        choices = decl.choices
        if choices is not None and any(literal(c) is None or type(c) not in (str, bool, int) for c in choices):
            self.emit(f"{v} = _check_var(ctx, {decl.name!r}, {v}, {used})")
            return
        if kind not in _FLAT_KINDS:
            self.emit(f"if type({v}) is tuple or type({v}) is dict:")
            self.emit(f"    _depth(ctx, {v}, {used})")
        if (lo is not None or hi is not None) and kind in (INT, None):
            pad = ""
            if kind != INT:
                self.emit(f"if type({v}) is int:")
                pad = "    "
            for bound, cmp in ((lo, "<"), (hi, ">")):
                if bound is not None:
                    self.emit(f"{pad}if {v} {cmp} {bound!r}:")
                    self.emit(f"{pad}    {v} = {bound!r}" if decl.bounds == "clamp" else f"{pad}    raise Deopt()")
        if choices is not None:
            tests = []
            for t in (str, int, bool):
                same = [c for c in choices if type(c) is t]
                if same:
                    tests.append(f"(type({v}) is {t.__name__} and {v} in ({''.join(literal(c) + ', ' for c in same)}))")
            ok = " or ".join(tests) or "False"
            self.emit(f"if type({v}) in _CHOOSABLE and not ({ok}):")
            self.emit("    raise Deopt()")

    def set_prop(self, name: str, assign, scope):
        unit = self.unit(scope)
        emit = ExprEmitter(unit).emit
        item = emit(assign.target.obj)
        value = emit(assign.value)
        self.prologue(unit)
        i = self.held(item)
        v = self.temp()
        self.emit(f"{v} = {value.text}")
        op = OPS[assign.op]
        if op is not None:
            self.emit(f"if type({i}) is not Item:")
            self.emit("    raise Deopt()")
            self.arith(op, f"ctx.item_prop({i}, {name!r})", v, value.kind)
        self.emit(f"_set_prop(ctx, {i}, {name!r}, {v}, _u)")
        self.uses.add("props")

    # -- zones -------------------------------------------------------------------------------------
    def zone_key(self, decl, code: Code | None) -> str | None:
        """A zone place's key, tested as zone_get tests it (a player: an int from 0)."""
        if decl.per is None:
            return None
        k = self.held(code)
        if decl.per == "player":
            self.guard(k, code, "index")
        elif (k, "key") not in self.guarded and code.kind not in (INT, STR):
            self.guarded.add((k, "key"))
            self.emit(f"if type({k}) is not str and type({k}) is not int:")
            self.emit("    raise Deopt()")
        return k

    def zone_place(self, node, emit):
        """(declaration, key code) of a zone place `name` or `name[key]`."""
        root, chain = split_target(node)
        decl = self.rules.zones[root]
        return decl, (emit(chain[0][1]) if decl.per is not None else None)

    def put(self, decl, key, items: str, at, face):
        self.zone_update(decl, key, (lambda c: f"{items} + {c}") if at == "top" else (lambda c: f"{c} + {items}"))
        self.emit(f"_faces(ctx, {items}, {face or decl.face!r}, _u)")
        self.uses.add("props")

    def s_move(self, effect, scope):
        a = effect.args
        unit = self.unit(scope)
        emit = ExprEmitter(unit).emit
        dst, dst_key = self.zone_place(a["to"], emit)
        items = emit(a["items"]) if a["items"] is not None else None
        src, src_key = self.zone_place(a["from"], emit) if a["from"] is not None else (None, None)
        count = emit(a["count"]) if a["count"] is not None and items is None else None
        self.prologue(unit)
        d = self.zone_key(dst, dst_key)
        m = self.temp()
        if items is not None:
            self.emit(f"{m} = _items({items.text})")
            if src is None:
                self.emit(f"_take_out(S, {m})")
            else:
                s = self.zone_key(src, src_key)
                self.zone_update(src, s, lambda current: f"_without({current}, {m})")
        else:
            s = self.zone_key(src, src_key)
            n = self.count(count) if count is not None else "1"
            rest = self.temp()

            def taken(current):
                self.emit(f"{rest} = {current}")
                if src.kind == "bag":
                    self.emit(f"S.rng, {m}, {rest} = _bag(S.rng, {rest}, {n})")
                    self.uses.add("rng")
                else:
                    self.emit(f"{m} = {rest}[:{n}]")
                    self.emit(f"{rest} = {rest}[{n}:]")
                return rest
            self.zone_update(src, s, taken)
        self.put(dst, d, m, a["at"], a["face"])

    def zone_update(self, decl, key: str | None, new) -> None:
        """Replace a zone place's contents with the text new(current contents) returns;
        `new` may write statements of its own first."""
        name = decl.name
        if name not in self.zones:
            self.zones[name] = f"_sz{len(self.zones)}"
        if decl.per is None:
            self.emit(f"Z[{name!r}] = {new(f'Z[{name!r}]')}")
            return
        t = self.temp()
        self.emit(f"{t} = {'list' if decl.per == 'player' else 'dict'}(Z[{name!r}])")
        result = new(f"{t}[{key}]")
        self.emit(f"{t}[{key}] = {result}")
        self.emit(f"Z[{name!r}] = {'tuple(' + t + ')' if decl.per == 'player' else t}")

    def s_deal(self, effect, scope):
        a = effect.args
        to = self.rules.zones[a["to"]]
        source = self.rules.zones[split_target(a["from"])[0]]
        if source.name == to.name:  # dealt one at a time into the zone it comes from
            return self.s_reference(effect, scope)
        unit = self.unit(scope)
        emit = ExprEmitter(unit).emit
        src, src_key = self.zone_place(a["from"], emit)
        who = emit(a["players"]) if a["players"] is not None else None
        count = emit(a["count"])
        self.prologue(unit)
        s = self.zone_key(src, src_key)
        players = self.temp()
        self.emit(f"{players} = " + (f"_players(ctx, {who.text})" if who is not None else "range(ctx.player_count)"))
        n = self.count(count)
        if to.name not in self.zones:
            self.zones[to.name] = f"_sz{len(self.zones)}"
        dealt = self.temp()

        def rest(current):
            left = self.temp()
            bag = ", True" if source.kind == "bag" else ""  # each item drawn at random, from S.rng
            self.emit(f"{left}, {dealt} = _deal(ctx, {current}, {players}, {n}, {to.name!r}{bag})")
            return left
        self.zone_update(src, s, rest)
        self.emit(f"_faces(ctx, {dealt}, {a['face'] or to.face!r}, _u)")
        self.uses.add("props")
        if source.kind == "bag":
            self.uses.add("rng")

    def count(self, code: Code) -> str:
        """A `move` or `deal` count: an int, none if it is not positive."""
        n = self.temp()
        self.emit(f"{n} = {code.text}")
        if code.kind != INT:
            self.emit(f"if type({n}) is not int:")
            self.emit("    raise Deopt()")
        self.emit(f"if {n} < 0:")
        self.emit(f"    {n} = 0")
        return n

    def s_shuffle(self, effect, scope):
        unit = self.unit(scope)
        decl, key = self.zone_place(effect.args["zone"], ExprEmitter(unit).emit)
        self.prologue(unit)
        k = self.zone_key(decl, key)
        mixed = self.temp()

        def shuffled(current):
            self.emit(f"S.rng, {mixed} = _shuffled(S.rng, {current})")
            return mixed
        self.zone_update(decl, k, shuffled)
        self.uses.add("rng")

    def s_pass_zones(self, effect, scope):
        name = effect.args["zone"]
        direction = self.value(effect.args["direction"], scope)
        d = self.held(direction)
        if direction.kind != INT:
            self.emit(f"if type({d}) is not int:")
            self.emit("    raise Deopt()")
        if name not in self.zones:
            self.zones[name] = f"_sz{len(self.zones)}"
        old = self.temp()
        self.emit(f"{old} = Z[{name!r}]")
        self.emit(f"Z[{name!r}] = tuple({old}[(_p - {d}) % len({old})] for _p in range(len({old})))")

    def s_flip(self, effect, scope):
        items = self.value(effect.args["items"], scope)
        self.emit(f"_flip(ctx, {items.text}, {effect.args['face']!r}, _u)")
        self.uses.add("props")

    def s_emit(self, effect, scope):
        unit = self.unit(scope)
        emit = ExprEmitter(unit).emit
        payload = [(k, emit(v)) for k, v in effect.args["with"].items()]
        self.prologue(unit)
        values = "".join(f"{k!r}: {c.text if c.kind in _FLAT_KINDS else f'_depth(ctx, {c.text}, 0)'}, "
                         for k, c in payload)
        self.emit(f"_fire_event(ctx, {effect.args['event']!r}, {{{values}}})")
        self.open = True

    def s_end_game(self, effect, scope):
        self.emit("S.over = True")
        self.emit(f"S.end_reason = {(effect.args['reason'] or 'the rules ended the game')!r}")
        self.uses.add("over")

    def s_log(self, effect, scope):
        message = self.value(effect.args["message"], scope)
        self.emit(f"S.log = S.log + (str({message.text}), )")
        self.uses.add("log")
