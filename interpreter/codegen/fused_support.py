"""The fused tier's constants (what it takes, its limits) and the pure helpers its
writers share: types unified, int ranges combined, the nodes of an expression."""
from __future__ import annotations

import random
import re
from meeple.dsl import expr_ast as A
from ..runtime.flowgraph import (ASSIGN, BRANCH, CHANCE, CHECKPOINT, COUNT_DOWN, COUNT_TEST, DECIDE, DROP, END, EXEC,
                         LOOP_BIND, LOOP_STEP, LOOP_TEST, LOOP_ZERO, NOP, PHASE, RESPOND_START, RESTORE,
                         SIM_START)

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
             "directions": "list:str", "edges": "list:str"}  # (the knight's moves, pairs of ints: list:list:int)
# Library functions called through the real implementation each time: name -> result type.
# Library functions of ints alone that read nothing else: name -> how many arguments.
_ARITHMETIC = {"abs": 1, "ceil_div": 2, "clamp": 3}
_CALLED = {"nodes_where": "list:str", "neighbours": "list:str", "clockwise": "list:int",
           "counterclockwise": "list:int", "within": "list:str",
           "row_of": "int", "col_of": "int", "ray": "list:str",  # a grid's geometry
           "has_edge": "bool", "edges_of": "list:str", "ends": "list:str",  # a board's edges (dsl/board_edges.py)
           "step": "str?", "cell": "str?"}  # none off the board
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
    if {a, b} <= {"str", "str?", "none"}:  # a text or none (a step off the board, a missing attribute)
        return "str?"
    if {a, b} == {"item", "none"}:  # an item variable may hold none already
        return "item"
    if a.startswith("list:") and b.startswith("list:"):
        inner = _unify(a[5:], b[5:])
        return None if inner is None else "list:" + inner
    if a.startswith("set:") and b.startswith("set:"):  # `set()`: a set of what it meets
        inner = _unify(a[4:], b[4:])
        return None if inner is None else "set:" + inner
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


_MEMO_SIZE = 100_000


_NOT_REMEMBERED = {}  # the memo of a definition or walk not worth remembering: always empty


# A memo asked a few hundred times that found almost nothing is let go then, not after
# MEMO_TRIAL asks: a definition a game asks for 170 times (docs/compiled.md has one)
# would otherwise make and keep a key at every ask for a dozen games.
_EARLY_TRIAL = 200


_EARLY_MISSES_PER_FOUND = 20


# A board walk's key (the occupied places, as tuples) costs about as much as the walk
# itself (about 1.4 µs on a rulebook game's board), so its memo pays only where most walks recur.
_WALK_FOUND_PER_MISS = 1.0


_WALKS_WITH_LAMBDA = ("count_if", "max_by", "min_by")  # library functions that walk their first argument


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


_CHAIN = 8  # points tested one after another (decisions first); more are split in halves by their ids


_RANDBELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)


def _charged_first(comprehension: str, charge: list) -> str:
    """A comprehension after the test that charges the first list it walks (clauses)."""
    return f"({comprehension} if {charge[0]} else _stop())" if charge else comprehension


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
