"""Gradual static checking of expressions.

The goal is to report, before any game is played, the mistakes that are
certain: an undefined name, a misspelt function or field, `silver + "x"`, a
precondition that is a number.  Whatever cannot be known (type `any`) passes;
the evaluators check it again at run time.  Every diagnostic is collected so
an author sees all of them at once.
"""
from __future__ import annotations

import difflib

from . import expr_ast as A
from .diagnostics import Diagnostic
from .functions import BOARD_FUNCTIONS, FUNCTIONS, NO_CONST, WORD_ARGUMENTS
from .scope import Scope
from .types import ANY, BOOL, INT, NONE, STR, Type, element_type, item_of, list_of, map_of, set_of

_CONST_TYPES = {bool: BOOL, int: INT, str: STR, type(None): NONE}
_PYTHON_SPELLINGS = {"True": "true", "False": "false", "None": "none"}
_ORDERED = {"int", "str", "list", "item", "any"}
_KEY_TYPES = {"str", "int", "any"}  # a bool key would merge with 1 or 0 (functions.map_key)
_ELEMENT_TYPES = _KEY_TYPES  # what a set may hold, for the same reason (dsl/sets.py)
_ITERABLE = {"list", "map", "str", "set", "any"}
# Library functions whose list arguments become sets: their elements must be set elements.
_SET_MAKERS = {"set", "union", "intersection", "difference"}
# What a let would hide, by the kind of the symbol (scope.Symbol.kind), for N311.
_VISIBLE = {"var": "a variable", "player_var": "a variable", "keyed_var": "a variable", "zone": "a zone",
            "player_zone": "a zone", "keyed_zone": "a zone", "define": "a definition", "function": "a definition",
            "param": "a parameter", "const": "a constant", "binding": "a bound name", "local": "a bound name"}


def infer_type(expr: A.Expr, scope: Scope) -> tuple[Type, list[Diagnostic]]:
    checker = _Checker()
    return checker.visit(expr, scope), checker.diags


def expect_type(expr: A.Expr, scope: Scope, expected: Type, what: str, code: str = "T403") -> list[Diagnostic]:
    t, diags = infer_type(expr, scope)
    if not expected.accepts(t) and not (code == "T410" and _empty_place(expected, t)):
        diags.append(Diagnostic(code, f"{what} must be {expected}, found {t}", expr.span))
    return diags


def _empty_place(place: Type, value: Type) -> bool:
    """`none` is the value of an item-typed place that holds no item."""
    return place.name == "item" and value.name == "none"


def check_assignment(assign: A.Assign, scope: Scope) -> list[Diagnostic]:
    """T410: an assigned value of a kind its target can never hold, such as a text into
    an int variable (`winner = 'nobody'`): found now, not when the effect first runs.
    `=` and `+=` need a value of the target's kind (`+=` then adds ints or joins texts
    or lists); `-=` and `*=` an int value.  Only the outer kind is compared (an int, a
    text, a list...): the elements of a list, and `-=`/`*=` on a target that is not an
    int, are left to the run-time checks (R701, R702), as they were before T410.  The
    value's own problems are reported here too; the target's are T408's."""
    if assign.op in ("-=", "*="):
        return expect_type(assign.value, scope, INT, f"the value of '{assign.op}'", "T410")
    target, _ = infer_type(assign.target, scope)
    if assign.op == "+=" and target.name == "set":
        return infer_type(assign.value, scope)[1] + [Diagnostic(
            "T410", "'+=' cannot add to a set: write x = union(x, ...)", assign.span)]
    outer = {"list": list_of(), "map": map_of()}.get(target.name, target)
    return expect_type(assign.value, scope, outer, "the value assigned here", "T410")


def join(a: Type, b: Type) -> Type:
    """The most precise type that both a and b fit, or any."""
    if a == b:
        return a
    if a.name != b.name or "any" in (a.name, b.name):
        return ANY
    if a.name == "list":
        return list_of(join(a.args[0], b.args[0]))
    if a.name == "set":
        return set_of(join(a.args[0], b.args[0]))
    if a.name == "map":
        return map_of(join(a.args[0], b.args[0]), join(a.args[1], b.args[1]))
    if a.name == "item":
        return item_of(a.args[0] if a.args == b.args else None)
    return a


def _close(name: str, candidates) -> tuple[str, ...]:
    return tuple(difflib.get_close_matches(name, sorted(candidates), n=3, cutoff=0.6))


def _hint(found: tuple[str, ...]) -> str:
    return f"; did you mean {' or '.join(repr(f) for f in found)}?" if found else ""


def _fits(t: Type, want) -> bool:
    if want is None:
        return True
    if isinstance(want, tuple):
        return any(w.accepts(t) for w in want)
    return want.accepts(t)


def _describe(want) -> str:
    if isinstance(want, tuple):
        names = [w.name for w in want]
        return ", ".join(names[:-1]) + " or " + names[-1]
    return str(want)


class _Checker:
    def __init__(self):
        self.diags: list[Diagnostic] = []

    def error(self, code: str, message: str, span, notes=(), suggestions=()) -> None:
        self.diags.append(Diagnostic(code, message, span, notes=tuple(notes), suggestions=suggestions))

    def visit(self, node: A.Expr, scope: Scope) -> Type:
        return getattr(self, "v_" + type(node).__name__)(node, scope)

    def want(self, node: A.Expr, scope: Scope, want: Type, what: str) -> Type:
        t = self.visit(node, scope)
        if not want.accepts(t):
            self.error("T401", f"{what} must be {want}, found {t}", node.span)
        return t

    # -- leaves --------------------------------------------------------------------
    def v_Const(self, node, scope):
        return _CONST_TYPES.get(type(node.value), ANY)

    def v_Name(self, node, scope):
        sym = scope.lookup(node.name)
        if sym is not None and sym.kind == "function":
            self.error("T404", f"'{node.name}' is a function: call it, as in {node.name}(...)",
                       node.span)
            return ANY
        if sym is not None:
            return sym.type or ANY
        notes = []
        if node.name in _PYTHON_SPELLINGS:
            notes.append(f"write {_PYTHON_SPELLINGS[node.name]} in lowercase")
        elif node.name in FUNCTIONS:
            notes.append(f"'{node.name}' is a function: call it, as in {node.name}(...)")
        close = _close(node.name, scope.names())
        self.error("N301", f"undefined name '{node.name}'{_hint(close)}", node.span, notes, close)
        return ANY

    # -- collections -----------------------------------------------------------------
    def v_ListLit(self, node, scope):
        t = None
        for item in node.items:
            it = self.visit(item, scope)
            t = it if t is None else join(t, it)
        return list_of(t or ANY)

    def v_MapLit(self, node, scope):
        kt = vt = None
        for key, value in node.entries:
            k = self.visit(key, scope)
            if k.name not in _KEY_TYPES:
                self.error("T401", f"map keys must be str or int, found {k}", key.span)
            v = self.visit(value, scope)
            kt = k if kt is None else join(kt, k)
            vt = v if vt is None else join(vt, v)
        return map_of(kt or ANY, vt or ANY)

    # -- operators -------------------------------------------------------------------
    def v_Unary(self, node, scope):
        if node.op == "not":
            self.want(node.operand, scope, BOOL, "the operand of 'not'")
            return BOOL
        self.want(node.operand, scope, INT, "the operand of unary '-'")
        return INT

    def v_BoolOp(self, node, scope):
        self.want(node.left, scope, BOOL, f"the left operand of '{node.op}'")
        self.want(node.right, scope, BOOL, f"the right operand of '{node.op}'")
        return BOOL

    def v_Cond(self, node, scope):
        self.want(node.test, scope, BOOL, "the condition of 'if ... else'")
        return join(self.visit(node.then, scope), self.visit(node.orelse, scope))

    def v_Binary(self, node, scope):
        lt, rt = self.visit(node.left, scope), self.visit(node.right, scope)
        op = node.op
        if op == "+":
            return self._plus(node, lt, rt)
        if op in ("-", "*", "//", "%", "**"):
            if not (INT.accepts(lt) and INT.accepts(rt)):
                self.error("T401", f"'{op}' needs two ints, found {lt} and {rt}", node.span)
            return INT
        if op in ("==", "!="):
            if not (lt.accepts(rt) or rt.accepts(lt)) and NONE not in (lt, rt):
                self.error("T401", f"comparing {lt} with {rt} is always "
                           f"{'false' if op == '==' else 'true'}", node.span)
            return BOOL
        if op in ("<", "<=", ">", ">="):
            if lt.name not in _ORDERED or rt.name not in _ORDERED or (
                    "any" not in (lt.name, rt.name) and lt.name != rt.name):
                self.error("T401", f"'{op}' cannot order {lt} against {rt}", node.span)
            return BOOL
        self._membership(node, lt, rt)
        return BOOL

    def _plus(self, node, lt, rt):
        if lt.name == "any" or rt.name == "any":
            known = rt if lt.name == "any" else lt
            if known.name in ("int", "str", "list", "any"):
                return list_of(ANY) if known.name == "list" else known
        elif lt.name == rt.name and lt.name in ("int", "str"):
            return lt
        elif lt.name == rt.name == "list":
            return list_of(join(lt.args[0], rt.args[0]))
        notes = ["sets are joined with union(a, b)"] if "set" in (lt.name, rt.name) else []
        self.error("T401", f"'+' needs two ints, two strings or two lists, found {lt} and {rt}",
                   node.span, notes)
        return ANY

    def _membership(self, node, lt, rt):
        if rt.name == "any":
            return
        if rt.name == "str":
            if not STR.accepts(lt):
                self.error("T401", f"'{node.op}' a string needs a string on the left, found {lt}",
                           node.span)
            return
        if rt.name not in ("list", "map", "set"):
            self.error("T401", f"'{node.op}' needs a list, set, map or string on the right, found {rt}",
                       node.span)
            return
        inner = rt.args[0] if rt.args else ANY
        if rt.name == "set" and lt.name not in _ELEMENT_TYPES:
            self.error("T401", f"a set holds ints or texts, so a {lt} is never {node.op} one", node.span)
            return
        if not (inner.accepts(lt) or lt.accepts(inner)):
            self.error("T401", f"a {lt} is never {node.op} a {rt}", node.span)

    # -- access ----------------------------------------------------------------------
    def _check_option(self, obj, name, span, scope) -> Type | None:
        """`options.x` and `options['x']` must name an option the game declares; its type
        is its default's (dsl/options.py), or None when this reads no option by name."""
        if not (isinstance(obj, A.Name) and obj.name == "options" and isinstance(name, str)):
            return None
        sym = scope.lookup("options")
        known = sym.meta.get("keys") if sym is not None else None
        if known is not None and name not in known:
            close = _close(name, set(known))
            self.error("N305", f"the game declares no option '{name}'{_hint(close)}", span,
                       [f"declared options: {', '.join(known) or '(none)'}"], close)
        return sym.meta.get("types", {}).get(name) if sym is not None and sym.kind == "const" else None

    def v_Index(self, node, scope):
        ot, it = self.visit(node.obj, scope), self.visit(node.index, scope)
        if isinstance(node.index, A.Const):
            typed = self._check_option(node.obj, node.index.value, node.index.span, scope)
            if typed is not None:
                return typed
        if ot.name == "list" or ot.name == "str":
            if not INT.accepts(it):
                self.error("T401", f"a {ot.name} position must be int, found {it}", node.index.span)
            return element_type(ot)
        if ot.name == "map":
            if not (ot.args[0].accepts(it) or it.accepts(ot.args[0])):
                self.error("T401", f"this map's keys are {ot.args[0]}, found {it}", node.index.span)
            return ot.args[1]
        if ot.name != "any":
            self.error("T401", f"a value of type {ot} cannot be indexed", node.span)
        return ANY

    def v_Slice(self, node, scope):
        ot = self.visit(node.obj, scope)
        for part in (node.start, node.stop, node.step):
            if part is not None:  # none is a part left out, as in Python
                t = self.visit(part, scope)
                if not _fits(t, (INT, NONE)):
                    self.error("T401", f"a slice's start, end and step must be int, found {t}", part.span)
        if isinstance(node.step, A.Const) and node.step.value == 0 and type(node.step.value) is int:
            self.error("T401", "the step of a slice cannot be 0", node.step.span)
        if ot.name in ("list", "str"):
            return ot
        if ot.name != "any":
            self.error("T401", f"only a list or a text can be sliced, found {ot}", node.span)
        return ANY

    def v_Member(self, node, scope):
        ot = self.visit(node.obj, scope)
        name = node.name
        typed = self._check_option(node.obj, name, node.name_span, scope)
        if typed is not None:
            return typed
        if ot.name == "item":
            if name in ("id", "kind"):
                return STR
            kind = ot.args[0] if ot.args else None
            fields = scope.item_kinds.get(kind) if kind else None
            props = scope.item_props.get(kind, {}) if kind else {}
            if fields is None and not props:
                return ANY
            fields = fields or {}
            if name in fields:
                return fields[name] or ANY
            if name in props:
                return props[name] or ANY
            known = set(fields) | set(props) | {"id", "kind"}
            close = _close(name, known)
            self.error("N303", f"items of kind '{kind}' have no field '{name}'{_hint(close)}",
                       node.name_span, suggestions=close)
            return ANY
        if ot.name == "map":
            if not STR.accepts(ot.args[0]):
                self.error("T401", f"'.{name}' reads a string key, but this map's keys are "
                           f"{ot.args[0]}", node.name_span)
            return ot.args[1]
        if ot.name != "any":
            self.error("T401", f"a value of type {ot} has no fields ('.{name}')", node.span,
                       ["only items and maps have fields; there are no methods"])
        return ANY

    # -- calls and functions ------------------------------------------------------------
    def v_Call(self, node, scope):
        fn = FUNCTIONS.get(node.func)
        sym = scope.lookup(node.func) if fn is None else None
        if sym is not None and sym.kind == "function":
            return self._define_call(node, sym, scope)
        if fn is None:
            notes = []
            if scope.lookup(node.func) is not None:
                notes.append(f"'{node.func}' is a value, not a function")
            close = _close(node.func, FUNCTIONS)
            self.error("N302", f"unknown function '{node.func}'{_hint(close)}", node.func_span, notes, close)
            for arg in node.args:
                if isinstance(arg, A.Lambda):
                    self.visit(arg.body, scope.bind({arg.param: ANY}))
                else:
                    self.visit(arg, scope)
            return ANY
        n = len(node.args)
        if n < fn.min_args or (fn.max_args is not None and n > fn.max_args):
            wanted = (f"{fn.min_args}" if fn.min_args == fn.max_args else
                      f"at least {fn.min_args}" if fn.max_args is None else
                      f"{fn.min_args} to {fn.max_args}")
            self.error("T402", f"{fn.name} takes {wanted} argument{'s' if wanted != '1' else ''}, "
                       f"found {n}", node.span)
        types, consts = [], []
        for i, arg in enumerate(node.args):
            if i in fn.lambdas:
                types.append(self._lambda_arg(fn, i, arg, types, scope))
                consts.append(NO_CONST)
                continue
            t = self.visit(arg, scope)
            want = (fn.params[i] if i < len(fn.params) else fn.params[-1]) if fn.params else None
            if fn.max_args is not None and i >= fn.max_args:
                want = None  # already reported as the wrong number of arguments
            if not _fits(t, want):
                self.error("T401", f"argument {i + 1} of {fn.name} must be {_describe(want)}, "
                           f"found {t}", arg.span)
            types.append(t)
            consts.append(arg.value if isinstance(arg, A.Const) else NO_CONST)
        if fn.name in _SET_MAKERS or fn.name == "join":
            self._flat_elements(fn.name, node.args, types)
        if fn.name in BOARD_FUNCTIONS and consts and isinstance(consts[0], str) \
                and scope.boards is not None and consts[0] not in scope.boards:
            close = _close(consts[0], scope.boards)
            self.error("N307", f"there is no board '{consts[0]}'{_hint(close)}", node.args[0].span,
                       [f"boards: {', '.join(sorted(scope.boards)) or '(none)'}"], close)
        if fn.name == "has_move" and len(node.args) == 2 and scope.actions is not None:
            self._action_names(node.args[1], scope.actions)
        self._check_words(fn.name, node.args, consts)
        if fn.name == "items" and isinstance(consts[:1] and consts[0], str) and scope.item_kinds:
            if consts[0] not in scope.item_kinds:
                close = _close(consts[0], scope.item_kinds)
                self.error("N303", f"there is no item kind '{consts[0]}'{_hint(close)}", node.args[0].span,
                           suggestions=close)
        if len(types) < fn.min_args:
            return ANY
        try:
            return fn.returns(types, consts)
        except (IndexError, AttributeError):
            return ANY

    def _action_names(self, arg, actions):
        """`has_move(p, ['slide', 'jump'])`: each name written out must be an action."""
        names = arg.items if isinstance(arg, A.ListLit) else ()
        for item in names:
            if isinstance(item, A.Const) and isinstance(item.value, str) and item.value not in actions:
                close = _close(item.value, actions)
                self.error("N312", f"there is no action '{item.value}'{_hint(close)}", item.span,
                           [f"actions: {', '.join(sorted(actions)) or '(none)'}"], close)
    def _check_words(self, name, args, consts):
        """A literal text where a function takes one of a fixed set of words (a direction)."""
        for i, value in enumerate(consts):
            words = WORD_ARGUMENTS.get((name, i))
            if words is not None and isinstance(value, str) and value not in words[0]:
                close = _close(value, words[0])
                self.error("N313", f"there is no {words[1]} '{value}'{_hint(close)}", args[i].span,
                           [f"{words[1]}: {', '.join(sorted(words[0]))}"], close)

    def _flat_elements(self, name, args, types):
        """A list made into a set must hold ints or texts (a bool, an item, a list cannot be
        set elements, dsl/sets.py); `join` writes ints and texts only."""
        for arg, t in zip(args[:1] if name == "join" else args, types):
            elem = element_type(t) if t.name in ("list", "set") else ANY
            if elem.name not in _ELEMENT_TYPES:
                what = "join writes texts and numbers" if name == "join" else "a set holds ints or texts"
                self.error("T401", f"{what}, found a list of {elem}", arg.span)

    def _define_call(self, node, sym, scope):
        """A function the ruleset defines (a Symbol of kind 'function')."""
        params = sym.meta.get("params")
        if params is not None and len(params) != len(node.args):
            self.error("T402", f"{node.func} takes {len(params)} argument"
                       f"{'s' if len(params) != 1 else ''}, found {len(node.args)}", node.span)
        for arg in node.args:
            self.visit(arg, scope)
        return sym.meta.get("returns") or ANY

    def _lambda_arg(self, fn, i, arg, types, scope):
        if not isinstance(arg, A.Lambda):
            t = self.visit(arg, scope)
            self.error("T401", f"argument {i + 1} of {fn.name} must be a function, as in "
                       f"x => x.value, found {t}", arg.span)
            return ANY
        param_type = element_type(types[0]) if types else ANY
        body = self.visit(arg.body, scope.bind({arg.param: param_type}))
        if fn.lambda_result is not None and not fn.lambda_result.accepts(body):
            self.error("T401", f"the function given to {fn.name} must return "
                       f"{fn.lambda_result}, found {body}", arg.body.span)
        return ANY

    def v_Lambda(self, node, scope):
        self.error("T404", "a function `x => ...` can only be an argument of filter, sort, "
                   "sort_desc, min_by, max_by, count_if, take_while or drop_while", node.span)
        self.visit(node.body, scope.bind({node.param: ANY}))
        return ANY

    # -- let ---------------------------------------------------------------------------------
    def v_Let(self, node, scope):
        """`let name = value in body`.  The name may not be one already visible here (a
        variable, zone, definition, parameter, loop or comprehension name, another let's):
        a body that reads `hand` should never wonder which hand it is (N311)."""
        value = self.visit(node.value, scope)
        shadowed = scope.lookup(node.name)
        if shadowed is not None:
            what = _VISIBLE.get(shadowed.kind, "a name")
            self.error("N311", f"let '{node.name}' would hide {what} of that name: choose another name",
                       node.name_span)
        return self.visit(node.body, scope.bind({node.name: value}))

    # -- comprehensions -----------------------------------------------------------------
    def _clauses(self, clauses, scope) -> Scope:
        for clause in clauses:
            if isinstance(clause, A.For):
                it = self.visit(clause.iter, scope)
                if it.name not in _ITERABLE:
                    self.error("T401", f"cannot iterate over {it}", clause.iter.span)
                elem = element_type(it)
                if len(clause.names) == 1:
                    scope = scope.bind({clause.names[0]: elem})
                else:
                    part = element_type(elem) if elem.name == "list" else ANY
                    scope = scope.bind({n: part for n in clause.names})
            else:
                self.want(clause.cond, scope, BOOL, "the condition of a comprehension")
        return scope

    def v_ListComp(self, node, scope):
        return list_of(self.visit(node.element, self._clauses(node.clauses, scope)))

    v_Generator = v_ListComp

    def v_MapComp(self, node, scope):
        inner = self._clauses(node.clauses, scope)
        k = self.visit(node.key, inner)
        if k.name not in _KEY_TYPES:
            self.error("T401", f"map keys must be str or int, found {k}", node.key.span)
        return map_of(k, self.visit(node.value, inner))
