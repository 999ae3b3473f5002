"""Differential play: the same seeded random games run on both back ends, compared
at every step.

The closure interpreter ("reference") defines what a ruleset means; the compiled
back end must behave identically through the public `Game` API.  Each game is
driven by one `random.Random`: at every step the choice index is drawn once and
played on both sides, so the two games stay in lockstep for as long as they
agree.  What is compared, and when:

- every step: the legal moves (mover and text, in order), the decision kind and
  the players to move, `state.key()`, whether the game is over, and (every
  `view_every` steps and at the end) every player's view;
- at the end: the outcome (reason, scores, tie-breaks, ranks, winners);
- from a few states sampled along the game: `Game.playout` on both back ends with
  the same policy seed, against a step-by-step `apply` loop making the same
  choices, and the playout's input state must be left as it was.

With `explicit_chance`, both games stop at every chance point (a flow `chance` step,
a draw inside a step: draw_points.py) and the choice index picks one of its outcomes
like any move; a playout's loop draws them with their probabilities, as Game.playout.

Only the first difference is reported, with everything needed to reproduce it.

    report = compare_backends("nim", players=2, games=20, seed=1)
    assert report.ok, str(report)
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from ..runtime.game import CHANCE, draw_outcome
from ..runtime.loading import load_game

MAX_SHOWN = 400  # characters of a differing value kept in a report


@dataclass
class Mismatch:
    """The first place where the back ends disagree."""
    game: str
    players: int
    options: dict | None
    seed: int  # of the game: `new_state(seed)` and `random.Random(seed)` for the choices
    step: int  # moves played before the difference
    what: str  # what differed ("legal moves", "state", "view of player 1", ...)
    reference: str
    compiled: str
    detail: str = ""  # where inside the value, when it is nested
    history: list = field(default_factory=list)  # the moves played, "player:text"

    def __str__(self) -> str:
        opts = f", options={self.options!r}" if self.options else ""
        lines = [f"{self.game} ({self.players} players{opts}), game seed {self.seed}, step {self.step}: "
                 f"{self.what} differ"]
        if self.detail:
            lines.append(f"  at         {self.detail}")
        lines.append(f"  reference: {self.reference}")
        lines.append(f"  compiled:  {self.compiled}")
        shown = self.history[-30:]
        skipped = len(self.history) - len(shown)
        lines.append(f"  moves ({len(self.history)}):" + (f" ... {skipped} earlier," if skipped else "")
                     + (" " + ", ".join(shown) if shown else " none"))
        lines.append(f"  reproduce: compare_backends({self.game!r}, {self.players}, games=1, seed={self.seed}"
                     f"{opts})")
        return "\n".join(lines)


@dataclass
class DiffReport:
    """What one `compare_backends` run compared, and its first mismatch (if any)."""
    game: str
    players: int
    seed: int
    games: int = 0  # games played
    finished: int = 0  # of which reached the end (the others hit max_moves or stalled)
    moves: int = 0  # steps compared (moves played on both sides)
    views: int = 0  # player views compared
    playouts: int = 0  # playouts compared (each on both back ends and against an apply loop)
    failed_alike: int = 0  # games in which both back ends raised the same rules error
    deopts: int = 0  # evaluations the compiled side handed back to the reference during the run
    seconds: float = 0.0
    mismatch: Mismatch | None = None

    @property
    def ok(self) -> bool:
        return self.mismatch is None

    def __str__(self) -> str:
        head = (f"{self.game} ({self.players} players, seed {self.seed}): {self.games} games "
                f"({self.finished} finished), {self.moves:,} moves, {self.views:,} views, "
                f"{self.playouts} playouts compared")
        if self.failed_alike:
            head += f", {self.failed_alike} failed alike"
        head += f", {self.deopts} deopts, {self.seconds:.1f} s"
        return head + (": no mismatch" if self.ok else "\n" + str(self.mismatch))


class _Differ(Exception):
    """Raised inside a run at the first mismatch; carries its description."""

    def __init__(self, what, reference, compiled, detail=""):
        super().__init__(what)
        self.what, self.reference, self.compiled, self.detail = what, reference, compiled, detail
        self.step = None  # set when it is not the number of moves in the history


def compare_backends(name_or_path, players: int, games: int, seed: int, options: dict | None = None,
                     max_moves: int | None = None, view_every: int = 1, playouts_per_game: int = 2,
                     playout_max_moves: int | None = None, explicit_chance: bool = False) -> DiffReport:
    """Play `games` seeded random games (seeds `seed`, `seed + 1`, ...) on both back ends
    and compare them step by step.  `max_moves` caps each game; `view_every` compares
    the players' views only every k-th step (and at the end) for games whose views are
    costly; `playouts_per_game` states are sampled from each game to compare playouts
    from, each capped at `playout_max_moves` (default: `max_moves`)."""
    ref = load_game(name_or_path, players, options, backend="reference")
    comp = load_game(name_or_path, players, options, backend="compiled")
    ref.explicit_chance = comp.explicit_chance = explicit_chance
    report = DiffReport(ref.name, players, seed)
    module = getattr(comp.rules, "module", None)
    deopts_before = module.deopts if module is not None else 0
    started = time.perf_counter()
    cap = playout_max_moves if playout_max_moves is not None else max_moves
    for i in range(games):
        game_seed = seed + i
        history: list = []
        try:
            _play_one(ref, comp, game_seed, max_moves, max(1, view_every), playouts_per_game, cap,
                      history, report)
        except _Differ as d:
            step = d.step if d.step is not None else len(history)
            report.mismatch = Mismatch(ref.name, players, options, game_seed, step, d.what,
                                       _short(d.reference), _short(d.compiled), d.detail, history)
            break
    module = getattr(comp.rules, "module", None)
    report.deopts = (module.deopts if module is not None else 0) - deopts_before
    report.seconds = time.perf_counter() - started
    return report


def _play_one(ref, comp, seed, max_moves, view_every, playouts, cap, history, report):
    report.games += 1
    try:
        _play_steps(ref, comp, seed, max_moves, view_every, playouts, cap, history, report)
    except _FailedAlike:
        report.failed_alike += 1


def _play_steps(ref, comp, seed, max_moves, view_every, playouts, cap, history, report):
    rnd = random.Random(seed)
    sampler = random.Random(seed * 7919 + 17)  # picks the playout states, apart from the choices
    kept: list = []  # reservoir of (step, reference state, compiled state)
    r_state, c_state = _both(lambda g: g.new_state(seed), ref, comp, "setup (new_state)")
    step = 0
    while True:
        _same_states(*_both(_observe, ref, comp, "reading the state", (r_state, c_state)), r_state, c_state)
        at_end = r_state.over or (max_moves is not None and step >= max_moves)
        r_moves, c_moves = _both(lambda g, s: g.legal_moves(s), ref, comp, "legal moves", (r_state, c_state))
        _same("legal moves", _texts(r_moves), _texts(c_moves))
        if step % view_every == 0 or at_end or not r_moves:
            _same("views", *_both(_views, ref, comp, "views", (r_state, c_state)))
            report.views += ref.player_count
        if at_end or not r_moves:
            break
        if playouts:
            _reservoir(kept, playouts, (step, r_state, c_state), step, sampler)
        k = rnd.randrange(len(r_moves))
        history.append(f"{r_moves[k].player}:{r_moves[k]}")
        try:
            r_state, c_state = _both(lambda g, s, m: g.apply(s, m), ref, comp, f"apply of move {history[-1]}",
                                     (r_state, c_state), (r_moves[k], c_moves[k]))
        except _Differ as d:
            d.step = step  # the failing move is the last in the history, not yet played
            raise
        step += 1
        report.moves += 1
    if r_state.over:
        report.finished += 1
        _same("outcome", *_both(lambda g, s: g.outcome(s), ref, comp, "outcome", (r_state, c_state)))
    for at, r_from, c_from in sorted(kept, key=lambda t: t[0]):
        _compare_playouts(ref, comp, r_from, c_from, seed * 1_000_003 + at, cap, at)
        report.playouts += 1


class _FailedAlike(Exception):
    """Both back ends raised the same error: they agree, and the game cannot go on."""


def _both(call, ref, comp, what, *pairs):
    """call(game, ...) on each back end, each argument given as a (reference, compiled)
    pair; an error on one side only, or different errors, is a mismatch."""
    results = []
    for side, game in enumerate((ref, comp)):
        try:
            results.append(("ok", call(game, *(pair[side] for pair in pairs))))
        except Exception as exc:  # noqa: BLE001 - any failure is compared, not judged here
            results.append(("error", _error_text(exc)))
    (rk, rv), (ck, cv) = results
    if rk == ck == "ok":
        return rv, cv
    if rk == ck == "error" and rv == cv:
        raise _FailedAlike()
    raise _Differ(what, rv if rk == "error" else "no error", cv if ck == "error" else "no error")


def _observe(game, state) -> dict:
    """Everything about a state the API tells, except the views (compared less often)."""
    return {"decision": game.decision_kind(state), "to_move": game.current_players(state),
            "over": game.is_terminal(state), "move_count": state.move_count, "key": state.key()}


def _same_states(r_seen, c_seen, r_state, c_state):
    """Equal observations; when the keys differ, the detail says where the data does."""
    if r_seen == c_seen:
        return
    detail = first_difference(r_seen, c_seen)
    if r_seen["key"] != c_seen["key"]:
        detail = first_difference(r_state.to_data(), c_state.to_data()) or "the states' move logs"
    raise _Differ("states", r_seen, c_seen, detail)


def _views(game, state) -> list:
    return [game.view(state, p) for p in range(game.player_count)]


def _error_text(exc) -> str:
    code = getattr(exc, "code", None)
    span = getattr(exc, "span", None)
    where = f" at {span.file}:{span.line}:{span.col}" if span is not None and getattr(span, "file", None) else ""
    return f"{type(exc).__name__}" + (f"[{code}]" if code else "") + f"{where}: {exc}"


def _texts(moves) -> list:
    return [f"{m.player}:{m}" for m in moves]


def _same(what, a, b):
    if a != b:
        detail = first_difference(a, b)
        raise _Differ(what, a, b, detail)


def _reservoir(kept, size, entry, seen, sampler):
    """Keep a uniform sample of `size` entries of the `seen + 1` offered so far."""
    if len(kept) < size:
        kept.append(entry)
        return
    j = sampler.randrange(seen + 1)
    if j < size:
        kept[j] = entry


def _compare_playouts(ref, comp, r_from, c_from, policy_seed, cap, at):
    """`Game.playout` from the same state on both back ends, and a step-by-step `apply`
    loop with the same choices: the four final states must be one; inputs untouched."""
    where = f"playout from step {at} (policy seed {policy_seed})"
    before = r_from.key(), c_from.key()
    r_end, c_end = _both(lambda g, s: _summary(g.playout(s, rng=random.Random(policy_seed), max_moves=cap)),
                         ref, comp, where, (r_from, c_from))
    _same(f"states before and after a {where} (input changed)", before, (r_from.key(), c_from.key()))
    _same(f"final states of the {where}", r_end, c_end)
    r_loop, c_loop = _both(lambda g, s: _summary(_apply_loop(g, s, random.Random(policy_seed), cap)),
                           ref, comp, f"apply loop of the {where}", (r_from, c_from))
    _same(f"reference playout and its apply loop, {where}", r_end, r_loop)
    _same(f"compiled playout and its apply loop, {where}", c_end, c_loop)


def _apply_loop(game, state, rnd, cap):
    """What `playout`'s default policy does, one public `apply` at a time: a uniform
    choice among the legal moves, drawn with `rnd.randrange`; at a chance point an
    outcome drawn with its probability."""
    played = 0
    while not state.over and (cap is None or played < cap):
        moves = game.legal_moves(state)
        if not moves:
            break
        if game.current_players(state) == (CHANCE,):
            state = game.apply(state, draw_outcome(game.chance_outcomes(state), rnd))
        else:
            state = game.apply(state, moves[rnd.randrange(len(moves))])
        played += 1
    return state


def _summary(state) -> dict:
    return {"key": state.key(), "over": state.over, "moves": state.move_count}


def first_difference(a, b, path: str = "") -> str:
    """Where two nested values first differ, as a path (`vars.heaps[1]: 3 != 4`)."""
    if type(a) is not type(b) and not (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple))):
        return f"{path or 'value'}: {_short(repr(a), 120)} != {_short(repr(b), 120)}"
    if isinstance(a, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                return f"{path}.{k}: only in {'compiled' if k not in a else 'reference'}".lstrip(".")
            if a[k] != b[k]:
                return first_difference(a[k], b[k], f"{path}.{k}".lstrip("."))
        return ""
    if isinstance(a, (list, tuple)):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
        if len(a) != len(b):
            return f"{path or 'list'}: {len(a)} entries != {len(b)}"
        return ""
    if hasattr(a, "__dataclass_fields__"):
        for name in a.__dataclass_fields__:
            x, y = getattr(a, name), getattr(b, name)
            if x != y:
                return first_difference(x, y, f"{path}.{name}".lstrip("."))
        return ""
    return f"{path or 'value'}: {_short(repr(a), 120)} != {_short(repr(b), 120)}" if a != b else ""


def _short(value, limit: int = MAX_SHOWN) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text):,} characters)"
