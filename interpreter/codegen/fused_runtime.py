"""What the fused tier's generated code calls at run time: memos kept on trial, checked
ints and ranges, walks charged for their length (fused.py puts them in the module's
namespace under `_fz_` names)."""
from __future__ import annotations

from meeple.dsl.functions import MAX_LIST, MAX_RANGE, MAX_STR
from meeple.dsl.sets import MAX_SET
from ..runtime.context import COST_LIMIT
from .kernel import KernelStop
from .runtime import MEMO_TRIAL
from .fused_support import (LIMIT, _EARLY_MISSES_PER_FOUND, _EARLY_TRIAL, _MEMO_SIZE, _MISSING,
                            _NOT_REMEMBERED, _RANDBELOW)
from .fused_support import _WALK_FOUND_PER_MISS  # noqa: F401 (a memo's rule, read with the memos here)


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


def _stop():
    raise KernelStop()


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


def _set_sized(s: frozenset) -> frozenset:
    """A set made by `union` within the language's largest (the loop reports one past it)."""
    if len(s) > MAX_SET:
        raise KernelStop()
    return s


def _nested(value, depth: int, only: frozenset) -> bool:
    """Whether `value` is tuples nested `depth` deep whose innermost elements have the
    types `only` holds: a list of lists (of lists...) variable as the tier holds it."""
    if type(value) is not tuple:
        return False
    if depth == 1:
        return only.issuperset(map(type, value))
    return all(_nested(x, depth - 1, only) for x in value)


def _held(value):
    """A value of a "mixed" list as a key: a list as a tuple, anything else as it is."""
    return tuple(value) if type(value) is list else value


def _no_none(m: dict) -> dict:
    """`m`, a map of texts to texts or lists of them, where none of them is none; else the
    tier stops and the loop, which may hold a none there, goes on."""
    for k, v in m.items():
        if k is None or v is None or (type(v) in (list, tuple) and None in v):
            raise KernelStop()
    return m


def _sure(value):
    """`value`, a text that may be none, where it is not none: the language refuses none
    where only a text will do (`in` a set), so the tier stops there and the loop reports."""
    if value is None:
        raise KernelStop()
    return value
