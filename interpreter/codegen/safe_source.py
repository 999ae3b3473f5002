"""The one place where generated Python is named, commented and run.

A ruleset holds no Python, yet the compiled back end writes Python from it.  What
keeps the ruleset's text out of that code is owned here, and only here:

- **identifiers** are made by `ident(family, name)`, which takes only a checked
  name (dsl/identifiers.py) or a number, and is injective: a family is letters
  (after an optional leading `_`) and digits, never an inner `_`, so the first
  inner `_` of an identifier tells its family from its name;
- **comments** are made by `comment(span, what)`: a position (file number, line,
  column) and a fixed phrase, never a path or a name;
- **user texts** enter only as `repr()` literals (`literal` in emit_expr.py), and
  the module is named by its content digest (`module_filename`);
- **running** is `run(text, filename, namespace)`, the only `compile`/`exec` of the
  package (`code_of` compiles without running, to measure a function): it refuses any text that holds a construct the generator never writes
  (imports, classes, f-strings...), a builtin outside `SAFE_BUILTINS`, a dunder
  name or attribute, an introspection attribute, or a comment that is not of
  `comment`'s form.  So a slip in the generator that let a ruleset's text through
  would be refused here before it could run.

tests/test_safe_source.py checks each rule, and that no other file compiles,
executes or names identifiers by hand.
"""
from __future__ import annotations

import ast
import builtins
import gc
import re
import types

from meeple.dsl.identifiers import is_name

_FAMILY = re.compile(r"_?[A-Za-z]+[0-9]*")
_PHRASE = re.compile(r"[A-Za-z0-9_ ,;:()/.=<>*+\-\[\]`]*")  # no quotes, no backslash: no literal
_COMMENT = re.compile(r"# (?:[0-9]+:[0-9]+:[0-9]+  )?" + _PHRASE.pattern)

# The builtins generated code may name; any other builtin is refused (eval, open, getattr...).
SAFE_BUILTINS = frozenset({
    "abs", "all", "any", "bool", "dict", "divmod", "enumerate", "frozenset", "int", "isinstance", "iter",
    "len", "list", "map", "max", "min", "next", "range", "reversed", "set", "sorted", "str", "sum", "tuple",
    "type", "zip", "id", "None", "True", "False", "Exception", "KeyError", "IndexError", "TypeError",
    "ValueError", "StopIteration",
})
_BUILTINS = frozenset(dir(builtins))
# Attributes that reach a frame, a code object, a generator's frame or an object's class
# machinery: the doors out of any sandbox.  Dunders are refused as a whole.
_INTROSPECTION = re.compile(r"(f|gi|cr|ag|tb|co)_\w+|mro|format|format_map")
# The constructs the generator writes; anything else (import, class, global, with,
# yield, await, f-strings, starred assignment targets of its own...) is refused.
_NODES = frozenset({
    "Module", "FunctionDef", "arguments", "arg", "keyword", "Return", "Delete", "Assign", "AugAssign", "Nonlocal",
    "For", "While", "If", "Raise", "Try", "ExceptHandler", "Expr", "Pass", "Break", "Continue",
    "BoolOp", "NamedExpr", "BinOp", "UnaryOp", "Lambda", "IfExp", "Dict", "Set", "ListComp", "SetComp",
    "DictComp", "GeneratorExp", "Compare", "Call", "Constant", "Attribute", "Subscript", "Starred",
    "Name", "List", "Tuple", "Slice", "comprehension", "Load", "Store", "Del",
    "And", "Or", "Add", "Sub", "Mult", "FloorDiv", "Mod", "Pow", "LShift", "RShift", "BitOr", "BitXor",
    "BitAnd", "Invert", "Not", "UAdd", "USub", "Eq", "NotEq", "Lt", "LtE", "Gt", "GtE", "Is", "IsNot",
    "In", "NotIn",
})


class UnsafeSource(Exception):
    """The generator was about to name, comment or run something it must not.  Never a
    ruleset author's mistake (the loader refuses every name outside the grammar, N310):
    a bug of the generator, stopped before anything ran."""


def ident(family: str, name: str | int, site: int | None = None) -> str:
    """The Python identifier of `name` in `family` (`l_card`, `A_take`, `c12_x` with a site)."""
    if not _FAMILY.fullmatch(family):
        raise UnsafeSource(f"not a family of identifiers: {family!r}")
    if site is not None:
        if type(site) is not int or site < 0:
            raise UnsafeSource(f"not a site number: {site!r}")
        family = f"{family}{site}"
    if type(name) is int:
        if name < 0:
            raise UnsafeSource(f"not a number for an identifier: {name!r}")
    elif not is_name(name):
        raise UnsafeSource(f"not a checked name: {name!r}")
    return f"{family}_{name}"


def comment(span, what: str, files: tuple = ()) -> str:
    """`# 1:33:18  what`: where a function comes from, as the number of its file among
    the ruleset's `files` (1-based; 0 when unknown), its line and column, never a path."""
    if not _PHRASE.fullmatch(what):
        raise UnsafeSource(f"not a fixed phrase: {what!r}")
    if span is None or not getattr(span, "line", 0):
        return f"# {what}"
    number = files.index(span.file) + 1 if span.file in files else 0
    return f"# {number}:{int(span.line)}:{int(span.col)}  {what}"


def note(text: str) -> str:
    """A comment line of the text `meeple compile` prints and nothing runs (why the fused
    tier does not take a ruleset): any words, but on one line, so it stays a comment."""
    if not text.isprintable():
        raise UnsafeSource(f"a note that is not one printable line: {text!r}")
    return f"# {text}"


def module_filename(digest: str) -> str:
    """The name tracebacks show for a module: its content digest, nothing of the ruleset."""
    if not re.fullmatch(r"[0-9a-f]{1,64}", digest):
        raise UnsafeSource(f"not a digest: {digest!r}")
    return f"<meeple {digest}>"


def check(text: str) -> ast.Module:
    """Refuse generated text holding anything the generator never writes (see the module);
    its syntax tree, to compile, when it holds nothing else."""
    collecting = gc.isenabled()
    gc.disable()  # a large playout's tree is 100,000 objects: collections while making it doubled the time
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError) as exc:  # ValueError: a NUL character
        raise UnsafeSource(f"generated text that is not Python: {exc}") from None
    finally:
        if collecting:
            gc.enable()
    literals: dict = {}  # line number -> [(first byte, end byte)] of the string literals on it
    for node in _walk(tree):
        kind = type(node).__name__
        if kind not in _NODES:
            raise UnsafeSource(f"a construct the generator never writes: {kind} at line {node.lineno}")
        if kind == "Name":
            _check_name(node.id, node)
        elif kind == "Attribute":
            if node.attr.startswith("__") or _INTROSPECTION.fullmatch(node.attr):
                raise UnsafeSource(f"the attribute {node.attr!r} at line {node.lineno}")
        elif kind == "Constant":
            if type(node.value) is str:
                for n in range(node.lineno, node.end_lineno + 1):
                    literals.setdefault(n, []).append((node.col_offset if n == node.lineno else 0,
                                                       node.end_col_offset if n == node.end_lineno else None))
            elif type(node.value) not in (int, float, bool, type(None)):
                raise UnsafeSource(f"a constant of type {type(node.value).__name__} at line {node.lineno}")
        elif kind in ("FunctionDef", "arg", "keyword"):
            name = node.name if kind == "FunctionDef" else node.arg
            if name is not None:
                _check_name(name, node)
    for line, found in _comments(text, literals):
        if not _COMMENT.fullmatch(found):
            raise UnsafeSource(f"a comment not of comment()'s form at line {line}")
    return tree


def _walk(tree):
    """Every node of the tree, as ast.walk gives them, in half its time."""
    todo = [tree]
    pop, add, node_type = todo.pop, todo.append, ast.AST
    while todo:
        node = pop()
        yield node
        for field in node._fields:
            value = getattr(node, field, None)
            if type(value) is list:
                for x in value:
                    if isinstance(x, node_type):
                        add(x)
            elif isinstance(value, node_type):
                add(value)


def _comments(text: str, literals: dict):
    """(line number, text) of each comment: in text that parses, a `#` outside every string
    literal starts one (the syntax tree knows where the literals are; the tokenizer, which
    would say the same, takes ten times as long on a large playout)."""
    for n, line in enumerate(text.split("\n"), 1):
        if "#" not in line:
            continue
        raw = line.encode()  # the tree's columns count UTF-8 bytes
        spans = literals.get(n, ())
        at = raw.find(b"#")
        while at != -1:
            if not any(first <= at and (end is None or at < end) for first, end in spans):
                yield n, raw[at:].decode().rstrip("\r")
                break
            at = raw.find(b"#", at + 1)


def _check_name(name: str, node) -> None:
    if name.startswith("__"):
        raise UnsafeSource(f"the name {name!r} at line {getattr(node, 'lineno', '?')}")
    if name in _BUILTINS and name not in SAFE_BUILTINS:
        raise UnsafeSource(f"the builtin {name!r} at line {getattr(node, 'lineno', '?')}")


def check_namespace(ns: dict) -> None:
    """Generated code reaches only what its namespace holds: never a module."""
    for key, value in ns.items():
        if isinstance(value, types.ModuleType):
            raise UnsafeSource(f"a module in the generated code's namespace: {key}")


def code_of(text: str, name: str) -> types.CodeType:
    """The code object of function `name` defined in `text`, compiled and never run
    (frame_room.py measures its frame; what it pads is then `run`, and checked there)."""
    module = compile(text, "<meeple measure>", "exec", dont_inherit=True)
    return next(c for c in module.co_consts if isinstance(c, types.CodeType) and c.co_name == name)


_SAFE_BUILTINS_DICT = {name: getattr(builtins, name) for name in SAFE_BUILTINS}


def run(text: str, filename: str, ns: dict) -> None:
    """Check `text`, then compile it and run it in `ns` (its functions land there), whose
    builtins are only SAFE_BUILTINS: a second wall behind `check`."""
    tree = check(text)
    ns.setdefault("__builtins__", _SAFE_BUILTINS_DICT)
    code = compile(tree, filename, "exec", dont_inherit=True)
    exec(code, ns)  # noqa: S102 - checked above; every name and comment made in this module
