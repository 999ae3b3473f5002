"""A meeple ruleset and OpenSpiel's game of the same name, played side by side with
random moves and compared at every step.

Each game starts both sides afresh; at every step OpenSpiel's state decides what happens
and meeple's must agree:

- the same players to move: one player, several at a simultaneous node, or chance
  (meeple's explicit chance, `Game.explicit_chance = True`, stops at each chance step
  as a move of player -1);
- the same legal moves, as a set of meeple move texts: every OpenSpiel action is
  translated (benchmarks/lockstep_games.py) and must be among meeple's, and meeple may
  offer nothing more; at a chance node the outcomes and their probabilities;
- whether the game is over, and at the end the same returns.

A random legal action (a chance outcome drawn with its probability) is then played on
both sides, OpenSpiel's action and its translation.  The first difference ends the game
and is reported with the step, what differed and the history on both sides.

    python -m meeple.benchmarks.openspiel_lockstep blackjack --games 1000 --backend compiled

prints the games and steps compared, the games with a mismatch, and random playouts per
second of meeple's `Game.playout` beside OpenSpiel's C++ game in the same process (a
C++ loop of uniform random bots, `pyspiel.evaluate_bots`, and a Python loop over its
states).  Exit 1 if any game differed.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from meeple.interpreter import load_game
from meeple.interpreter.runtime.context import RuleError
from meeple.interpreter.runtime.game import CHANCE
from meeple.interpreter.runtime.loading import find_ruleset

from .lockstep_games import GAMES, Lockstep
from .step_runners import draw_chance

PROBABILITY_TOLERANCE = 1e-9
RETURNS_TOLERANCE = 1e-9
SHOWN_MOVES = 12  # of a differing set of moves, how many are printed


@dataclass
class LockstepMismatch:
    """The first place where a meeple game and OpenSpiel's part ways."""
    game: str
    seed: int  # of this game's random choices: random.Random(seed)
    step: int  # actions played on both sides before the difference
    what: str  # "players to move", "legal moves", "chance outcomes", "terminal", "returns", ...
    openspiel: str
    meeple: str
    history: list = field(default_factory=list)  # "player: OpenSpiel's text = meeple's text"

    def __str__(self) -> str:
        lines = [f"{self.game}, seed {self.seed}, step {self.step}: {self.what} differ",
                 f"  OpenSpiel: {self.openspiel}", f"  meeple:    {self.meeple}"]
        if self.history:
            lines.append("  history:   " + "; ".join(self.history))
        return "\n".join(lines)


@dataclass
class LockstepGame:
    """One game played on both sides."""
    steps: int  # steps compared
    mismatch: LockstepMismatch | None
    end_reason: str | None  # meeple's, when the game reached its end


@dataclass
class LockstepReport:
    game: str
    backend: str
    games: int = 0
    steps: int = 0  # steps compared: every action played on both sides, and each final state
    mismatches: int = 0  # games with a difference
    first: LockstepMismatch | None = None
    seconds: float = 0.0
    ends: dict = field(default_factory=dict)  # meeple's end reason -> games that ended so

    @property
    def ok(self) -> bool:
        return self.mismatches == 0

    def __str__(self) -> str:
        text = (f"{self.game} ({self.backend}): {self.games} games, {self.steps} steps compared, "
                f"{self.mismatches} mismatches ({self.seconds:.1f} s)")
        ends = ", ".join(f"{reason}: {n}" for reason, n in sorted(self.ends.items(), key=lambda kv: -kv[1]))
        return text + (f"\n  ends: {ends}" if ends else "") + (f"\nfirst mismatch: {self.first}" if self.first else "")


class _Differs(Exception):
    def __init__(self, what: str, openspiel, meeple):
        super().__init__(what)
        self.what, self.openspiel, self.meeple = what, str(openspiel), str(meeple)


def load_pair(spec: Lockstep, backend: str | None = None):
    """The meeple game, stopping at chance steps, and OpenSpiel's game."""
    import pyspiel
    game = load_game(spec.ruleset, spec.players, spec.options or None, backend=backend)
    game.explicit_chance = True
    return game, pyspiel.load_game(spec.openspiel, spec.params)


def run_lockstep(spec: Lockstep, games: int, seed: int = 0, backend: str | None = None,
                 name: str | None = None) -> LockstepReport:
    """`games` random games, game i choosing with random.Random(seed + i)."""
    game, os_game = load_pair(spec, backend)
    report = LockstepReport(name or spec.ruleset, backend or "reference")
    started = time.perf_counter()
    for i in range(games):
        played = play_lockstep(spec, game, os_game, seed + i, report.game)
        report.games += 1
        report.steps += played.steps
        if played.mismatch is not None:
            report.mismatches += 1
            report.first = report.first or played.mismatch
        elif played.end_reason is not None:
            report.ends[played.end_reason] = report.ends.get(played.end_reason, 0) + 1
    report.seconds = time.perf_counter() - started
    return report


def play_lockstep(spec: Lockstep, game, os_game, seed: int, name: str = "") -> LockstepGame:
    """One random game on both sides, up to its end or the first difference."""
    side = _Sides(spec, game, os_game, seed)
    try:
        side.m = game.new_state(seed)  # in here: a ruleset may fail on its way to the first decision
        while side.step_compared():
            pass
        return LockstepGame(side.steps, None, side.m.end_reason)
    except _Differs as d:
        what, theirs, ours = d.what, d.openspiel, d.meeple
    except RuleError as exc:  # the ruleset failed where OpenSpiel went on: a difference too
        what, theirs, ours = "rule errors", "none", f"{exc.code}: {exc.message}"
    return LockstepGame(side.steps, LockstepMismatch(name or spec.ruleset, seed, side.played, what, theirs, ours,
                                                     side.history), None)


class _Sides:
    """The two games of one lockstep run, advanced together one step at a time."""

    def __init__(self, spec: Lockstep, game, os_game, seed: int):
        self.spec, self.game = spec, game
        self.rnd = random.Random(seed)
        self.os = os_game.new_initial_state()
        self.m = None  # meeple's state, once started
        self.history: list = []
        self.played = 0
        self.steps = 0

    def step_compared(self) -> bool:
        """Compare this step and play it; False once both games are over."""
        self.steps += 1
        over = self.os.is_terminal()
        _same("terminal", over, self.game.is_terminal(self.m))
        if over:
            self._compare_returns()
            return False
        if self.os.is_chance_node():
            self._chance_step()
        elif self.os.is_simultaneous_node():
            self._simultaneous_step()
        else:
            self._turn_step(self.os.current_player())
        self.played += 1
        return True

    # -- the kinds of node ---------------------------------------------------------------------
    def _turn_step(self, player: int) -> None:
        _same("players to move", (player,), self.game.current_players(self.m))
        translated = self._translated(player, self.os.legal_actions())
        moves = self._meeple_moves(player)
        _same_moves(translated, moves)
        action = self.rnd.choice(self.os.legal_actions())
        self._note(player, action, translated)
        self.m = self.game.apply(self.m, moves[translated[action]])
        self.os.apply_action(action)

    def _chance_step(self) -> None:
        _same("players to move", (CHANCE,), self.game.current_players(self.m))
        outcomes = self.os.chance_outcomes()
        translated = self._translated(CHANCE, [a for a, _ in outcomes])
        theirs = {translated[a]: p for a, p in outcomes}
        ours = {str(move): (move, float(p)) for move, p in self.game.chance_outcomes(self.m)}
        _same_moves(translated, ours, "chance outcomes")
        for text, p in theirs.items():
            if abs(p - ours[text][1]) > PROBABILITY_TOLERANCE:
                raise _Differs(f"probabilities of {text}", p, ours[text][1])
        action = draw_chance(outcomes, self.rnd)
        self._note(CHANCE, action, translated)
        self.m = self.game.apply(self.m, ours[translated[action]][0])
        self.os.apply_action(action)

    def _simultaneous_step(self) -> None:
        """Every player with a legal action chooses; meeple takes the moves one at a time,
        in player order, OpenSpiel as one joint action."""
        movers = tuple(p for p in range(self.os.num_players()) if self.os.legal_actions(p))
        _same("players to move", movers, tuple(sorted(self.game.current_players(self.m))))
        joint = [0] * self.os.num_players()
        chosen = []
        for p in movers:
            translated = self._translated(p, self.os.legal_actions(p))
            moves = self._meeple_moves(p)
            _same_moves(translated, moves)
            joint[p] = self.rnd.choice(self.os.legal_actions(p))
            chosen.append((p, moves[translated[joint[p]]]))
            self._note(p, joint[p], translated)
        for p, move in chosen:
            if p not in self.game.current_players(self.m):
                raise _Differs(f"players to move in the simultaneous step (player {p} still to move)", movers,
                               self.game.current_players(self.m))
            self.m = self.game.apply(self.m, move)
        self.os.apply_actions(joint)

    def _compare_returns(self) -> None:
        ours = tuple(float(x) for x in self.spec.returns(self.game.outcome(self.m)))
        theirs = tuple(self.os.returns())
        if len(ours) != len(theirs) or any(abs(a - b) > RETURNS_TOLERANCE for a, b in zip(ours, theirs)):
            raise _Differs("returns", theirs, ours)

    # -- texts ---------------------------------------------------------------------------------
    def _translated(self, player: int, actions) -> dict:
        """action -> meeple move text; two actions read as one text is a translation error."""
        out = {a: self.spec.move_text(self.os, player, a) for a in actions}
        if len(set(out.values())) != len(out):
            raise _Differs("translations (two OpenSpiel actions read as one meeple move)", sorted(out),
                           sorted(out.values()))
        return out

    def _meeple_moves(self, player: int) -> dict:
        return {str(m): m for m in self.game.legal_moves(self.m, player)}

    def _note(self, player: int, action: int, translated: dict) -> None:
        who = "chance" if player == CHANCE else f"p{player}"
        self.history.append(f"{who}: {self.os.action_to_string(player, action)} = {translated[action]}")


def _same(what: str, openspiel, meeple) -> None:
    if _plain(openspiel) != _plain(meeple):
        raise _Differs(what, openspiel, meeple)


def _plain(value):
    return tuple(value) if isinstance(value, (list, tuple)) else value


def _same_moves(translated: dict, meeple: dict, what: str = "legal moves") -> None:
    theirs = set(translated.values())
    if theirs != set(meeple):
        only_os = sorted(theirs - set(meeple))[:SHOWN_MOVES]
        only_m = sorted(set(meeple) - theirs)[:SHOWN_MOVES]
        raise _Differs(what, f"also {only_os}", f"also {only_m}")


# -- speed ---------------------------------------------------------------------------------------

def playouts_per_second(spec: Lockstep, seconds: float, backend: str | None = None) -> dict:
    """Random games per second, each side timed alone for about `seconds`: meeple's
    `Game.playout` (chance drawn by the game itself, as in play), OpenSpiel's game played
    by uniform random bots in C++ (`evaluate_bots`), and a Python loop over its states."""
    import pyspiel
    game = load_game(spec.ruleset, spec.players, spec.options or None, backend=backend)
    os_game = pyspiel.load_game(spec.openspiel, spec.params)

    def meeple(i):
        game.playout(game.new_state(i), rng=random.Random(i))

    def cpp(i):
        bots = [pyspiel.make_uniform_random_bot(p, i) for p in range(os_game.num_players())]
        pyspiel.evaluate_bots(os_game.new_initial_state(), bots, i)

    def python_loop(i):
        rnd, state = random.Random(i), os_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(draw_chance(state.chance_outcomes(), rnd))
            elif state.is_simultaneous_node():
                state.apply_actions([rnd.choice(state.legal_actions(p) or [0])
                                     for p in range(os_game.num_players())])
            else:
                state.apply_action(rnd.choice(state.legal_actions()))

    return {"meeple": _rate(meeple, seconds), "openspiel_cpp": _rate(cpp, seconds),
            "openspiel_python_loop": _rate(python_loop, seconds)}


def _rate(play, seconds: float) -> float:
    play(0)  # compiled code, caches: not timed
    n, started = 0, time.perf_counter()
    while True:
        play(n + 1)
        n += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return n / elapsed


def yaml_lines(ruleset: str) -> tuple[int, int]:
    """Lines of the ruleset's YAML (scenarios left out): all, and those that are neither
    blank nor comments."""
    root = find_ruleset(ruleset)
    files = [root] if root.is_file() else sorted(root.glob("*.yaml")) + sorted(root.glob("*.yml"))
    lines = [line for f in files for line in Path(f).read_text(encoding="utf-8").splitlines()]
    return len(lines), sum(1 for line in lines if line.strip() and not line.strip().startswith("#"))


# -- command line --------------------------------------------------------------------------------

def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m meeple.benchmarks.openspiel_lockstep",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("games_to_run", nargs="+", metavar="GAME", choices=sorted(GAMES),
                        help="an entry of benchmarks/lockstep_games.py")
    parser.add_argument("--games", "-n", type=int, default=1000, help="random games per game (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="game i chooses with random.Random(seed + i)")
    parser.add_argument("--backend", choices=("reference", "compiled"), default="reference")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="time each side's random playouts this long (0: no timing)")
    parser.add_argument("--json", action="store_true", help="one JSON object per game on stdout")
    args = parser.parse_args(argv)
    failed = False
    for name in args.games_to_run:
        spec = GAMES[name]
        report = run_lockstep(spec, args.games, args.seed, args.backend, name)
        failed |= not report.ok
        rates = playouts_per_second(spec, args.seconds, args.backend) if args.seconds > 0 else {}
        lines, code = yaml_lines(spec.ruleset)
        if args.json:
            row = {k: v for k, v in asdict(report).items() if k != "first"}  # ends included
            row.update(first=str(report.first) if report.first else None, yaml_lines=lines, yaml_code_lines=code,
                       playouts_per_second=rates, openspiel=spec.openspiel, params=spec.params)
            print(json.dumps(row))
            continue
        print(report)
        print(f"  YAML: {lines} lines ({code} without blanks and comments)")
        if rates:
            print(f"  random playouts/s: meeple {rates['meeple']:.0f}, OpenSpiel C++ {rates['openspiel_cpp']:.0f} "
                  f"(Python loop {rates['openspiel_python_loop']:.0f}); meeple / C++ = "
                  f"{rates['meeple'] / rates['openspiel_cpp']:.3f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
