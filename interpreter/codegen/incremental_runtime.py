"""The run-time half of incremental quantifiers (see incremental.py).

A `Quantifier` remembers, for one `any`/`all` site in one game, the variables'
containers it last saw, each element's result and the keys each element read.
States never change a container in place (a write replaces it), so an entry
that is the same object in the old and the new container holds the same value,
and comparing entries by identity finds every key a change can have touched.
Any state may be asked about, in any order: the comparison is always with the
last one seen, whatever path led from it to this one.
"""
from __future__ import annotations

from ..runtime.context import COST_LIMIT
from ..runtime.store import WRITES
from .runtime import Deopt, index, seq

ALL = object()  # "the whole variable": a read whose key cannot be told
_MISSING = object()
_SITES = object()  # the key, in a game's memo, of its Quantifier objects


def record(reads: list, name: str, container, key):
    """`container[key]`, remembering which key of variable `name` was read."""
    t = type(key)
    if t is int:
        if type(container) is tuple:
            value = container[key]
            reads.append((name, key + len(container) if key < 0 else key))
            return value
    elif t is str and type(container) is dict:
        value = container[key]
        reads.append((name, key))
        return value
    reads.append((name, ALL))
    return index(container, key)


def changed_keys(new, old):
    """The keys whose entries differ between two versions of a variable, or None when
    they differ in shape (then everything is tested again)."""
    t = type(new)
    if t is not type(old) or len(new) != len(old):
        return None
    if t is dict:
        out = []
        get = old.get
        for k, v in new.items():
            if get(k, _MISSING) is not v:
                if k not in old:
                    return None
                out.append(k)
        return out
    if t is tuple:
        return [i for i in range(len(new)) if new[i] is not old[i]]
    return None


class Quantifier:
    """Charged as the reference's walk is charged, whatever it tested again: the list's
    length, then each element's test up to the first that decides the answer, each test
    at what it charged when it was last made (`costs`)."""
    __slots__ = ("is_any", "keyed", "whole", "elements", "results", "true", "last", "known", "deps",
                 "anchor", "lazy", "diffs", "indexed", "costs")

    def __init__(self, func: str, keyed: tuple, whole: tuple, diffs: list):
        self.is_any = func == "any"
        self.keyed, self.whole = keyed, whole
        self.elements = None  # the list walked when the results were made
        self.results: list = []
        self.costs: list = []  # per element: what its last test charged
        self.true = 0  # how many results are true
        self.last: dict = {}  # variable -> the container the results were made from
        self.known: list = []  # per element: [the keys its last test read, every key it has read]
        self.deps: dict = {}  # variable -> key -> elements whose test has read it
        self.indexed = None  # the list `known` and `deps` were made for
        # The results of the last full evaluation, most often a game's first position:
        # playouts that each start there again are a small change from it, not from the
        # end of the previous playout.
        self.anchor = None
        self.lazy = False  # an element failed when tested out of the reference's order
        self.diffs = diffs  # [new container, {id(old): (old, keys)}]: shared by a game's sites

    def value(self, ctx, elements, test) -> bool:
        if self.lazy:
            return self._plain(ctx, elements, test)
        start, kept = ctx.cost, len(ctx.game.memo)
        try:
            vars_ = ctx.state.vars
            if elements is not self.elements:
                self._full(ctx, elements, test, vars_)
            else:
                dirty = self._dirty(vars_, self.last)
                if (dirty is None or 4 * len(dirty) > len(self.results)) and self.anchor is not None:
                    results, true, last, costs = self.anchor
                    other = self._dirty(vars_, last)
                    if other is not None and (dirty is None or len(other) < len(dirty)):
                        self.results, self.true, self.last, dirty = list(results), true, dict(last), other
                        self.costs = list(costs)
                if dirty is None:
                    self._full(ctx, elements, test, vars_)
                else:
                    for i in dirty:
                        self._test(ctx, i, elements[i], test)
                    last = self.last
                    for n in self.keyed:
                        last[n] = vars_[n]
        except BaseException:
            self.elements = None
            raise
        if len(ctx.game.memo) != kept:
            # A test worked out something the game keeps (a definition's value, a game
            # constant): what it charged this once is more than it will charge again, so
            # every element is tested afresh next time, to know what each test charges.
            self.elements = self.anchor = None
        ctx.cost = start + len(elements) + self._charged()
        if ctx.cost > COST_LIMIT:
            raise Deopt()
        return self.true > 0 if self.is_any else self.true == len(self.results)

    def _charged(self) -> int:
        """What the reference charges for the elements' tests: up to the first decisive one."""
        results, decisive = self.results, self.is_any
        if (self.true > 0) if decisive else (self.true < len(results)):
            return sum(self.costs[:results.index(decisive) + 1])
        return sum(self.costs)

    def _plain(self, ctx, elements, test) -> bool:
        if self.is_any:
            return any(test(ctx, x, []) for x in seq(ctx, elements))
        return all(test(ctx, x, []) for x in seq(ctx, elements))

    def _full(self, ctx, elements, test, vars_) -> None:
        walked = seq(ctx, elements)
        if elements is not self.indexed:  # the index of keys read belongs to one list
            self.known, self.deps, self.indexed = [[None, set()] for _ in walked], {}, elements
        self.elements, self.anchor = None, None
        self.results, self.true, self.costs = [False] * len(walked), 0, [0] * len(walked)
        try:
            for i, x in enumerate(walked):
                self._test(ctx, i, x, test)
        except Exception:
            # The reference stops at the first decisive element; a later one that fails
            # must not make this site fail where the reference would not.
            self.lazy = True
            raise Deopt() from None
        self.elements = elements
        self.last = {n: vars_[n] for n in self.keyed}
        self.anchor = (tuple(self.results), self.true, dict(self.last), tuple(self.costs))

    def _test(self, ctx, i: int, x, test) -> None:
        reads: list = []
        before = ctx.cost
        result = test(ctx, x, reads)
        self.costs[i] = ctx.cost - before
        known = self.known[i]
        if reads != known[0]:  # mostly the keys of its last test: then nothing is new
            known[0] = reads
            for read in reads:
                if read not in known[1]:  # the index only grows: a key read once stays watched
                    known[1].add(read)
                    name, key = read
                    self.deps.setdefault(name, {}).setdefault(key, set()).add(i)
        if result is not self.results[i]:
            self.true += 1 if result is True else -1
            self.results[i] = result

    def _dirty(self, vars_, last: dict):
        """The elements to test again since `last`; None when that would be all of them."""
        for n in self.whole:
            if vars_[n] is not last[n]:
                return None
        dirty: set = set()
        for n in self.keyed:
            new, old = vars_[n], last[n]
            if new is old:
                continue
            keys = self._changed(new, old)
            if keys is None:
                return None
            by_key = self.deps.get(n)
            if by_key:
                every = by_key.get(ALL)
                if every:
                    dirty |= every
                for k in keys:
                    hit = by_key.get(k)
                    if hit:
                        dirty |= hit
        return dirty

    def _changed(self, new, old):
        written = _written_since(new, old)
        if written is not None:
            return written
        diffs = self.diffs
        if diffs[0] is not new:
            diffs[0], diffs[1] = new, {}
        hit = diffs[1].get(id(old))
        if hit is None:
            hit = diffs[1][id(old)] = (old, changed_keys(new, old))  # old kept: its id stays its own
        return hit[1]


def _written_since(new, old, steps: int = 8):
    """The keys written to turn `old` into `new`, if the last writes (store.WRITES) lead
    from one to the other in a few steps; else None."""
    keys = []
    for _ in range(steps):
        entry = WRITES.get(id(new))
        if entry is None:
            return None
        new, key = entry[1], entry[2]
        if type(key) is int and key < 0 and type(new) is tuple:
            key += len(new)
        keys.append(key)
        if new is old:
            return keys
    return None


def incremental_for(sites: dict):
    """The `_inc(ctx, site, elements, test)` a generated module calls."""
    def incremental(ctx, site, elements, test):
        memo = ctx.game.memo
        mine = memo.get(_SITES)
        if mine is None:
            mine = memo[_SITES] = {}
        q = mine.get(site)
        if q is None:
            q = mine[site] = Quantifier(*sites[site], mine.setdefault(_SITES, [None, {}]))
        return q.value(ctx, elements, test)
    return incremental
