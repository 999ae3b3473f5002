"""Any ruleset as a PettingZoo environment (`pip install 'meeple[pettingzoo]'`).

    from meeple.adapters.pettingzoo import env, parallel_env
    e = env("treasure-hunter", players=3)        # AEC: one agent acts at a time
    p = parallel_env("goofspiel", players=2)     # parallel: every agent gives an action

Agents are "player_0"... ; an action is an id of the game's action table (encoding.py),
and each observation is {"observation": the view's tensor, "action_mask": 1 for each
legal id}.  At a simultaneous decision the AEC environment asks the players who must
choose one after another; none of them sees another's choice before the rules reveal
it (observations come from views).  The parallel environment asks everyone at every
step: a player who is not to act has one legal id, WAIT (the last one).

- Seeding, as Gymnasium does it: `reset(seed=s)` seeds the environment's own generator,
  and every `reset()` without a seed draws the next game's seed from it (an environment
  never seeded is seeded from the operating system).  The game's chance comes from the
  state's generator, seeded with that game seed.
- Returns at the end only (encoding.final_returns): `returns="win"` gives n/k - 1 to each
  of k winners among n players and -1 to the others (a draw: 0); `returns="score"` the
  final scores.  The default is "score" when the ruleset declares its scores zero- or
  constant-sum, "win" otherwise.
- `max_cycles` (None: no limit): PettingZoo's episode limit, counted in cycles, one step
  of every agent.  The parallel environment truncates after that many steps, the AEC one
  after `max_cycles` times the number of agents; every agent is then truncated, with
  reward 0.
- `illegal`: what an illegal action does: "raise" (a ValueError, the default), or
  "random": a legal move drawn from the environment's generator is played instead, and
  the agent's info says `{"illegal_action": id}` (for loops that sample without the mask,
  as PettingZoo's own `max_cycles_test` and `parallel_seed_test` do).
"""
from __future__ import annotations

import functools
import random

import gymnasium
import numpy as np
from pettingzoo import AECEnv, ParallelEnv

from meeple.interpreter.runtime.loading import load_game

from .encoding import RETURNS, default_returns, encoding_for, final_returns

ILLEGAL = ("raise", "random")


def env(ruleset: str, players: int | None = None, render_mode: str | None = None, *, max_cycles: int | None = None,
        returns: str | None = None, illegal: str = "raise", **options) -> "MeepleAEC":
    return MeepleAEC(ruleset, players, render_mode, max_cycles=max_cycles, returns=returns, illegal=illegal,
                     **options)


def parallel_env(ruleset: str, players: int | None = None, render_mode: str | None = None, *,
                 max_cycles: int | None = None, returns: str | None = None, illegal: str = "raise",
                 **options) -> "MeepleParallel":
    return MeepleParallel(ruleset, players, render_mode, max_cycles=max_cycles, returns=returns,
                          illegal=illegal, **options)


class _Table:
    """What both environments share: the game, its encoding and its spaces."""

    def __init__(self, ruleset, players, options, wait: bool):
        self.game = load_game(ruleset, players, options)
        self.encoding = encoding_for(self.game)
        self.ids = self.encoding.actions.size + (1 if wait else 0)
        self.obs_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-np.inf, np.inf, (self.encoding.observation.size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.ids,), np.int8)})
        self.act_space = gymnasium.spaces.Discrete(self.ids)

    def observe(self, state, player: int, legal: dict | None) -> dict:
        mask = np.zeros(self.ids, np.int8)
        if legal:
            mask[list(legal)] = 1
        return {"observation": self.encoding.observation.tensor(state, player), "action_mask": mask}


class _Agents:
    """What both environments set up alike: the table, the agents, the spaces, the
    generator, the episode limit and what an illegal action does."""

    def _set_up(self, ruleset, players, render_mode, options, wait: bool, max_cycles, returns, illegal):
        self.table = _Table(ruleset, players, options, wait)
        self.game = self.table.game
        returns = returns or default_returns(self.game.rules)
        if returns not in RETURNS:
            raise ValueError(f"returns must be one of {', '.join(RETURNS)}, not {returns!r}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        if max_cycles is not None and (isinstance(max_cycles, bool) or not isinstance(max_cycles, int)
                                       or max_cycles < 1):
            raise ValueError(f"max_cycles must be a whole number of at least 1, or None, not {max_cycles!r}")
        self.returns, self.illegal, self.max_cycles = returns, illegal, max_cycles
        self.metadata = {**self.metadata, "name": f"meeple_{self.game.name}"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(self.game.player_count)]
        self.agents = []
        self.state_ = None
        self._generator: random.Random | None = None
        self.steps = 0  # since the last reset

    def _new_game(self, seed):
        """The next game, as Gymnasium seeds: a seed restarts the generator, no seed goes on with it."""
        if seed is not None:
            self._generator = random.Random(seed)
        elif self._generator is None:
            self._generator = random.Random()
        self.state_ = self.game.new_state(self._generator.randrange(1 << 62))
        self.agents = self.possible_agents[:]
        self.steps = 0

    def _chosen(self, player: int, action, legal: dict):
        """The move an action stands for; an illegal action raises, or (illegal="random")
        is replaced by a legal move drawn from the environment's generator."""
        if action in legal:
            return legal[action], None
        if self.illegal == "raise":
            raise ValueError(f"action {action} is not legal for player_{player} now; legal ids: {sorted(legal)[:20]}")
        ids = sorted(legal)
        return legal[ids[self._generator.randrange(len(ids))]], {"illegal_action": action}

    def _ended(self) -> bool:
        return self.state_.over or not self.game.current_players(self.state_)

    def _rewards(self) -> dict:
        return dict(zip(self.possible_agents, final_returns(self.game, self.state_, self.returns)))

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent):
        return self.table.obs_space

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent):
        return self.table.act_space


class MeepleAEC(_Agents, AECEnv):
    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, ruleset: str, players: int | None = None, render_mode: str | None = None, *,
                 max_cycles: int | None = None, returns: str | None = None, illegal: str = "raise", **options):
        AECEnv.__init__(self)
        self._set_up(ruleset, players, render_mode, options, False, max_cycles, returns, illegal)

    def reset(self, seed=None, options=None):
        self._new_game(seed)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _player(self, agent) -> int:
        return self.possible_agents.index(agent)

    def _select(self):
        movers = self.game.current_players(self.state_)
        if movers:
            self.agent_selection = self.possible_agents[movers[0]]

    def observe(self, agent):
        p = self._player(agent)
        legal = None
        if not self.state_.over and p in self.game.current_players(self.state_):
            legal = self.table.encoding.actions.legal(self.state_, p)
        return self.table.observe(self.state_, p, legal)

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        p = self._player(agent)
        move, note = self._chosen(p, action, self.table.encoding.actions.legal(self.state_, p))
        self.state_ = self.game.apply(self.state_, move)
        self.steps += 1
        self.infos = {a: {} for a in self.agents}
        if note:
            self.infos[agent] = note
        self.rewards = {a: 0.0 for a in self.agents}
        if self._ended():
            self.rewards.update(self._rewards())
            self.terminations = {a: True for a in self.agents}
        elif self.max_cycles is not None and self.steps >= self.max_cycles * len(self.possible_agents):
            self.truncations = {a: True for a in self.agents}
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()
        self._select()
        if self.render_mode == "ansi":
            self.render()

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs a render_mode ('ansi')")
            return None
        viewer = self._player(self.agent_selection) if self.agents else 0
        return self.game.render(self.state_, viewer, width=80)

    def close(self):
        pass


class MeepleParallel(_Agents, ParallelEnv):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, ruleset: str, players: int | None = None, render_mode: str | None = None, *,
                 max_cycles: int | None = None, returns: str | None = None, illegal: str = "raise", **options):
        self._set_up(ruleset, players, render_mode, options, True, max_cycles, returns, illegal)
        self.wait = self.table.ids - 1

    def reset(self, seed=None, options=None):
        self._new_game(seed)
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict:
        movers = self.game.current_players(self.state_)
        out = {}
        for p, agent in enumerate(self.possible_agents):
            legal = self.table.encoding.actions.legal(self.state_, p) if p in movers else {self.wait: None}
            out[agent] = self.table.observe(self.state_, p, legal)
        return out

    def step(self, actions: dict):
        movers = self.game.current_players(self.state_)
        chosen = []
        infos = {a: {} for a in self.agents}
        for p in movers:
            move, note = self._chosen(p, actions.get(self.possible_agents[p]),
                                      self.table.encoding.actions.legal(self.state_, p))
            chosen.append(move)
            if note:
                infos[self.possible_agents[p]] = note
        for move in chosen:  # all chosen before any is played: nobody reacts to another's choice
            self.state_ = self.game.apply(self.state_, move)
        self.steps += 1
        over = self._ended()
        cut = not over and self.max_cycles is not None and self.steps >= self.max_cycles
        rewards = self._rewards() if over else {a: 0.0 for a in self.agents}
        observations = self._observations()
        terminations = {a: over for a in self.agents}
        truncations = {a: cut for a in self.agents}
        if over or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs a render_mode ('ansi')")
            return None
        return self.game.render(self.state_, 0, width=80)

    def close(self):
        pass
