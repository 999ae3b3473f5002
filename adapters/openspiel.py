"""Any ruleset as an OpenSpiel game (`pip install 'meeple[openspiel]'`).

    from meeple.adapters.openspiel import load
    game = load("connect-four")                  # a pyspiel.Game
    game = load("goofspiel", players=2, cards=3)  # options as keywords

`register` makes the pyspiel game type and returns its short name, for
`pyspiel.load_game(name, {"players": 3})`: `meeple_<game name>[_<option><value>...]_<digest>`,
the digest being one of the ruleset's content hash, the options' values and the kind of
returns, so two different rulesets (both read from files called game.yaml, or one file
before and after an edit), or one with two choices of options, are two different games.

- Turns: sequential, or simultaneous when any decision of the ruleset is.  At a
  simultaneous decision a player who is not asked has one move, WAIT (the last id).
- Chance: each explicit chance step is a chance node with its outcomes' probabilities,
  and so is each draw an effect makes (a `shuffle` is one draw per item, a deal or move
  out of a bag one per item taken; docs/language.md "shuffle"): `draw(index=i)`, each of
  probability 1/n, read by no player.  The game starts with the setup's draws.
- Information: perfect only when nothing is ever hidden, nobody moves simultaneously
  and no effect draws.
- Returns, at the end only (encoding.final_returns).  `returns="win"`: with k winners
  among n players, each winner gets n/k - 1 and everyone else -1 (a draw: 0 each), a
  zero-sum game.  `returns="score"`: each player's final score, and the game's utility is
  what the ruleset's `scoring: {utility: ...}` declares (zero-sum, constant-sum, or
  general-sum; the name then ends in `_scores`).  The default is "score" for a ruleset
  that declares its scores zero- or constant-sum, "win" otherwise.
- Strings: the observation string is the player's view (JSON); the information-state
  string adds a digest of every earlier view of that player and of every move as they
  read it (draws inside a step, which nobody reads, leave no trace).
- `cut_after` (a game parameter, 0 = never): the game ends after that many OpenSpiel
  moves with returns 0 (a constant-sum game's total shared out), so tests can run
  OpenSpiel's checks on a bounded part of a long game.
- Tensors: encoding.py; serialisation: OpenSpiel's own, the list of actions from
  the start.
"""
from __future__ import annotations

import hashlib
import json
import re

import numpy as np
import pyspiel

from meeple.interpreter import ranks_erased
from meeple.interpreter.runtime.game import Game
from meeple.interpreter.runtime.loading import load_rules
from meeple.interpreter.runtime.outcome import declared_sum

from .encoding import RETURNS, default_returns, encoding_for, final_returns
from .facts import draws_in_secret, has_chance_steps, has_simultaneous, hides_information

MAX_GAME_LENGTH = 100_000  # far above the longest random game of a shipped ruleset
SCORE_BOUND = 1e18  # the language's ints; OpenSpiel wants bounds on the returns of a score game


def game_name(rules, returns: str = "win", **options) -> str:
    """The registered name: readable (the game's own name and its options), and unique to
    what makes the game (a digest of the ruleset's content, the options' exact values and
    the kind of returns), so no other ruleset, and no other choice of options whose
    readable part reads the same (`a-b` and `ab`), can take its place."""
    def word(text) -> str:
        return re.sub(r"[^A-Za-z0-9]+", "_", str(text)).strip("_")
    base = word(rules.ruleset.game.name) or "ruleset"
    extra = "".join(f"_{word(k)}{re.sub(r'[^A-Za-z0-9]+', '', str(v))}" for k, v in sorted(options.items()))
    suffix = "_scores" if returns == "score" else ""
    made_of = repr((rules.ruleset.content_hash, sorted(options.items()), returns)).encode()
    return f"meeple_{base}{extra}_{hashlib.sha256(made_of).hexdigest()[:10]}{suffix}"


_UTILITY = {"general": pyspiel.GameType.Utility.GENERAL_SUM, "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
            "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM}


def register(ruleset: str, players: int | None = None, *, returns: str | None = None, **options) -> str:
    """Register `ruleset` (a shipped name or a path) with these options; return its name.
    `returns`: "win" (zero-sum shares of the win) or "score" (each final score, with the
    utility the ruleset declares); by default "score" when the ruleset declares its scores
    zero- or constant-sum, else "win"."""
    rules = load_rules(ruleset)
    returns = returns or default_returns(rules)
    if returns not in RETURNS:
        raise ValueError(f"returns must be one of {', '.join(RETURNS)}, not {returns!r}")
    name = game_name(rules, returns, **options)
    if name in _registered:
        return name
    info = rules.ruleset.game
    default_players = players if players is not None else info.min_players
    probe = Game(rules, default_players, options)  # refuses unknown options and player counts
    utility = rules.ruleset.scoring.utility if returns == "score" and rules.ruleset.scoring else "general"
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"meeple: {info.title or info.name}",
        dynamics=(pyspiel.GameType.Dynamics.SIMULTANEOUS if has_simultaneous(probe)
                  else pyspiel.GameType.Dynamics.SEQUENTIAL),
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
                     if has_chance_steps(probe) or draws_in_secret(probe)
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if hides_information(probe)
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM if returns == "win" else _UTILITY[utility],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": default_players, "max_game_length": MAX_GAME_LENGTH, "cut_after": 0})

    # A class of its own, at module level under its game's name: pickling a game (as
    # OpenSpiel's serialisation test does) finds its class by that name.  It keeps the
    # rules it was registered with, so a file changed since is never read in its place.
    cls = type(name, (MeepleGame,), {"__module__": __name__, "__qualname__": name, "game_type": game_type,
                                     "rules": rules, "options": dict(options), "returns_kind": returns})
    globals()[name] = cls
    pyspiel.register_game(game_type, cls)
    _registered[name] = game_type
    return name


def load(ruleset: str, players: int | None = None, *, returns: str | None = None, **options):
    """The pyspiel game of `ruleset` (registered on first use), for `players` players or
    the ruleset's fewest (asked for by number: the registered default is the count it was
    first registered with)."""
    name = register(ruleset, players, returns=returns, **options)
    count = players if players is not None else _registered[name].min_num_players
    return pyspiel.load_game(name, {"players": count})


_registered: dict = {}


class MeepleGame(pyspiel.Game):
    game_type = rules = options = None  # set on each registered game's own class
    returns_kind = "win"  # or "score": the final scores, with the ruleset's declared utility

    def __init__(self, params=None):
        setup = self._setup(params or {})
        n, actions = setup.meeple.player_count, setup.encoding.actions
        super().__init__(self.game_type, pyspiel.GameInfo(
            num_distinct_actions=actions.size + (1 if setup.simultaneous else 0),
            max_chance_outcomes=actions.chance_size,
            num_players=n, max_game_length=setup.max_game_length, **_utility_bounds(setup, n)), setup.params)

    @classmethod
    def _setup(cls, params: dict) -> "_Setup":
        spec = cls.game_type.parameter_specification
        params = {k: params.get(k, spec[k]) for k in spec}
        key = (cls.game_type.short_name, tuple(sorted(params.items())))
        if key not in _setups:
            _setups[key] = _Setup(cls.game_type.short_name, cls.rules, cls.options, params, cls.returns_kind)
        return _setups[key]

    # An unpickled game is made without __init__ (OpenSpiel's own __setstate__), so what
    # a game holds is looked up from its parameters rather than kept on it.
    @property
    def setup(self) -> "_Setup":
        return self._setup(self.get_parameters())

    meeple = property(lambda self: self.setup.meeple)
    encoding = property(lambda self: self.setup.encoding)
    simultaneous = property(lambda self: self.setup.simultaneous)
    wait = property(lambda self: self.setup.encoding.actions.size)  # a player not asked, at a simultaneous decision

    def new_initial_state(self):
        return MeepleState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return MeepleObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


def _utility_bounds(setup, n: int) -> dict:
    """What OpenSpiel is told of the returns: win shares lie in -1..n-1 and add up to 0;
    scores have the language's bounds, and add up to what the ruleset declares (nothing
    for a general-sum game)."""
    if setup.returns == "win":
        return {"min_utility": -1.0, "max_utility": float(n - 1), "utility_sum": 0.0}
    total = declared_sum(setup.meeple.rules.ruleset.scoring)
    return {"min_utility": -SCORE_BOUND, "max_utility": SCORE_BOUND,
            "utility_sum": None if total is None else float(total)}


class _Setup:
    """One game's meeple side: the Game (stopping at chance steps) and its encoding."""

    def __init__(self, name, rules, options, params, returns: str):
        self.name, self.params, self.returns = name, params, returns
        self.meeple = Game(rules, int(params["players"]), options)
        self.meeple.explicit_chance = True
        self.encoding = encoding_for(self.meeple)
        self.simultaneous = has_simultaneous(self.meeple)
        self.max_game_length = int(params["max_game_length"])
        self.cut_after = int(params["cut_after"])
        self._views: dict = {}  # (packed state, player) -> view text: searches meet positions again

    def view_text(self, state, player) -> str:
        key = (self.meeple.pack(state), player)
        text = self._views.get(key)
        if text is None:
            if len(self._views) > 200_000:
                self._views.clear()
            # Ranks are drawn afresh per history (knowledge.py): erased, twins share a string.
            text = self._views[key] = json.dumps(ranks_erased(self.meeple.view(state, player)), sort_keys=True,
                                                 separators=(",", ":"), default=str)
        return text


_setups: dict = {}


class MeepleState(pyspiel.State):
    def __init__(self, game: MeepleGame):
        super().__init__(game)
        self._at = _Position(game)

    # OpenSpiel clones a Python state by deep-copying its attributes; a position shares
    # everything it holds (meeple states are never changed once made).
    _game = property(lambda self: self._at.game)
    _meeple = property(lambda self: self._at.game.meeple)
    _table = property(lambda self: self._at.game.encoding.actions)
    _state = property(lambda self: self._at.state)

    # -- whose turn ------------------------------------------------------------------------
    def current_player(self):
        at = self._at
        s = at.state
        if at.player_of is s:  # asked again of the same meeple state (a search asks often)
            return at.player
        if self.is_terminal():
            player = pyspiel.PlayerId.TERMINAL
        else:
            kind = self._meeple.decision_kind(s)
            player = pyspiel.PlayerId.CHANCE if kind == "chance" else \
                pyspiel.PlayerId.SIMULTANEOUS if kind == "simultaneous" else self._meeple.current_players(s)[0]
        at.player_of, at.player = s, player
        return player

    def _legal_actions(self, player):
        s = self._state
        if self.is_terminal():
            return []
        if self._meeple.decision_kind(s) == "simultaneous":
            if player not in s.pending:
                return [self._game.encoding.actions.size]
            return sorted(self._table.legal(s, player))
        if player not in self._meeple.current_players(s):
            return []
        return sorted(self._legal_ids(s, player))

    def _legal_ids(self, s, player) -> dict:
        """id -> move of `player` at meeple state `s`, kept for the position's last state
        and player: a search asks for the legal actions and then applies one of them, and a
        meeple state is never changed in place, so the same object has the same moves."""
        at = self._at
        if at.ids_of is s and at.ids_player == player:
            return at.ids
        ids = self._table.legal(s, player)
        at.ids_of, at.ids_player, at.ids = s, player, ids
        return ids

    def chance_outcomes(self):
        ids = {m: i for i, m in self._table.chance_ids(self._state).items()}
        return sorted((ids[m], float(p)) for m, p in self._meeple.chance_outcomes(self._state))

    # -- moves -------------------------------------------------------------------------------
    def _apply_action(self, action):
        s = self._state
        legal = self._table.chance_ids(s) if self._meeple.decision_kind(s) == "chance" else \
            self._legal_ids(s, self._meeple.current_players(s)[0])
        self._step([legal[action]])

    def _apply_actions(self, actions):
        s = self._state
        moves = []
        for player in s.pending:
            moves.append(self._table.legal(s, player)[actions[player]])
        self._step(moves)

    def _step(self, moves):
        at = self._at
        s = at.state
        for move in moves:
            at.trail = _Step(at.trail, s, move)
            s = self._meeple.apply(s, move)
        at.state = s

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return self._table.describe_chance(action, self._state)
        if action == self._game.encoding.actions.size and self._game.simultaneous:
            return "wait"
        return self._table.describe(action, self._state, player)

    # -- results -------------------------------------------------------------------------------
    def is_terminal(self):
        cut = self._game.cut_after
        return self._state.over or (cut > 0 and self.move_number() >= cut)

    def returns(self):
        return returns_at(self._game, self._state, cut=self.is_terminal())

    def __str__(self):
        digest = hashlib.sha1(repr(self._meeple.pack(self._state)).encode()).hexdigest()[:16]
        return f"{self._meeple.name} after {self._state.move_count} moves, position {digest}"

    # -- what a player knows -------------------------------------------------------------------
    def observation_text(self, player) -> str:
        return self._game.view_text(self._state, player)

    def information_text(self, player) -> str:
        """The player's view now, then one digest of every view they had before and of
        every move as they read it (Game.move_text: another's secret choice, a draw they
        do not see, a choice made at once with theirs are `?`), chained step by step: two
        histories they cannot tell apart give the same text, and a move they saw played
        is remembered."""
        return self.observation_text(player) + "\nhistory " + _recall(self._game, self._at.trail, player)


def returns_at(setup, state, cut: bool) -> list:
    """The returns at meeple state `state`: the final ones where the game is over; where
    it was cut short (`cut`, cut_after reached) nobody wins, and a constant-sum game's
    total is shared out; 0 each before the end."""
    n = setup.meeple.player_count
    if state.over:
        return final_returns(setup.meeple, state, setup.returns)
    if cut:
        total = declared_sum(setup.meeple.rules.ruleset.scoring) if setup.returns == "score" else None
        return [float(total or 0) / n] * n
    return [0.0] * n


class _Step:
    """One step of a trail: the state before it, the move, and the step before.  Each
    keeps, once worked out, each player's digest of the history up to it."""

    __slots__ = ("before", "state", "move", "recall")

    def __init__(self, before, state, move):
        self.before, self.state, self.move, self.recall = before, state, move, {}


def _recall(setup, step, player) -> str:
    meeple = setup.meeple
    todo = []
    while step is not None and player not in step.recall:
        todo.append(step)
        step = step.before
    head = "" if step is None else step.recall[player]
    for step in reversed(todo):
        if step.state.drawing is not None:  # a draw inside a step: nobody reads it, not even how many
            step.recall[player] = head
            continue
        view = setup.view_text(step.state, player)
        move = ranks_erased(meeple.move_text(step.state, step.move, player))  # what player saw of it
        head = step.recall[player] = _digest(head + view + move)
    return head


class _Position:
    """Where one OpenSpiel state stands: the meeple state, and the trail of steps (_Step)
    for the information states.  Every position starts from seed 0: with chance explicit
    the generator draws nothing, it only keys hidden items' ranks (knowledge.py), and
    the chance outcomes are folded into it as they are chosen (draws.mixed)."""

    def __init__(self, game: MeepleGame):
        self.game = game.setup
        self.state = game.meeple.new_state(0)
        self.trail = None
        self.player_of = self.player = None  # the meeple state whose current player is `player`
        self.ids_of = self.ids_player = self.ids = None  # the meeple state and player whose moves `ids` number

    def __deepcopy__(self, memo):
        twin = _Position.__new__(_Position)
        twin.game, twin.state, twin.trail = self.game, self.state, self.trail
        twin.player_of, twin.player = self.player_of, self.player
        twin.ids_of, twin.ids_player, twin.ids = self.ids_of, self.ids_player, self.ids
        return twin

    def __reduce__(self):
        """OpenSpiel serialises a Python state by pickling its attributes: a position
        travels as its game's name and parameters and each move as its place among the
        legal moves, and is replayed from them."""
        meeple = self.game.meeple
        steps = []
        step = self.trail
        while step is not None:
            steps.append(meeple.legal_moves(step.state).index(step.move))
            step = step.before
        steps.reverse()
        return (_replay, (self.game.name, self.game.params, steps))


def _replay(name, params, steps) -> _Position:
    setup = globals()[name]._setup(params)
    at = _Position.__new__(_Position)
    at.game, at.trail, at.player_of, at.player = setup, None, None, None
    at.ids_of = at.ids_player = at.ids = None
    at.state = setup.meeple.new_state(0)
    for i in steps:
        move = setup.meeple.legal_moves(at.state)[i]
        at.trail = _Step(at.trail, at.state, move)
        at.state = setup.meeple.apply(at.state, move)
    return at


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:12]


class MeepleObserver:
    """OpenSpiel's Python observer: the tensor (encoding.py) and the strings."""

    def __init__(self, game: MeepleGame, iig_obs_type):
        self.layout = game.encoding.observation
        self.iig_obs_type = iig_obs_type
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor.fill(0)
        if state._state is not None:
            self.layout.fill(state._meeple.view(state._state, player), self.tensor)

    def string_from(self, state, player):
        if self.iig_obs_type.perfect_recall:
            return state.information_text(player)
        return state.observation_text(player)
