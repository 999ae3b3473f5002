"""Any ruleset as a PettingZoo environment (`pip install 'meeple[pettingzoo]'`).

    from meeple.adapters.pettingzoo import env, parallel_env
    e = env("treasure-hunter", players=3)        # AEC: one agent acts at a time
    p = parallel_env("goofspiel", players=2)     # parallel: every agent gives an action

Agents are "player_0"... ; an action is an id of the game's action table (encoding.py),
and each observation is {"observation": the view's tensor, "action_mask": 1 for each
legal id}.  At a simultaneous decision the AEC environment asks the players who must
choose one after another; none of them sees another's choice before the rules reveal
it (observations come from views).  The parallel environment asks everyone at every
step: a player who is not to act has one legal id, WAIT (the last one).  Chance is
drawn from the game's own generator, seeded by `reset(seed=...)`.  Rewards come at the
end only: with k winners among n players, n/k - 1 to each winner and -1 to the others
(a draw: 0).
"""
from __future__ import annotations

import functools

import gymnasium
import numpy as np
from pettingzoo import AECEnv, ParallelEnv

from meeple.interpreter.loading import load_game

from .encoding import encoding_for, final_rewards


def env(ruleset: str, players: int | None = None, render_mode: str | None = None, **options) -> "MeepleAEC":
    return MeepleAEC(ruleset, players, render_mode, **options)


def parallel_env(ruleset: str, players: int | None = None, render_mode: str | None = None,
                 **options) -> "MeepleParallel":
    return MeepleParallel(ruleset, players, render_mode, **options)


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
    """What both environments set up alike: the table, the agents, the spaces."""

    def _set_up(self, ruleset, players, render_mode, options, wait: bool):
        self.table = _Table(ruleset, players, options, wait)
        self.game = self.table.game
        self.metadata = {**self.metadata, "name": f"meeple_{self.game.name}"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(self.game.player_count)]
        self.agents = []
        self.state_ = None

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent):
        return self.table.obs_space

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent):
        return self.table.act_space


class MeepleAEC(_Agents, AECEnv):
    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, ruleset: str, players: int | None = None, render_mode: str | None = None, **options):
        AECEnv.__init__(self)
        self._set_up(ruleset, players, render_mode, options, wait=False)

    def reset(self, seed=None, options=None):
        self.state_ = self.game.new_state(seed if seed is not None else 0)
        self.agents = self.possible_agents[:]
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
        legal = self.table.encoding.actions.legal(self.state_, p)
        if action not in legal:
            raise ValueError(f"action {action} is not legal for {agent} now; legal ids: {sorted(legal)[:20]}")
        self.state_ = self.game.apply(self.state_, legal[action])
        self.rewards = {a: 0.0 for a in self.agents}
        if self.state_.over or not self.game.current_players(self.state_):
            for a, r in zip(self.possible_agents, final_rewards(self.game, self.state_)):
                self.rewards[a] = r
            self.terminations = {a: True for a in self.agents}
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

    def __init__(self, ruleset: str, players: int | None = None, render_mode: str | None = None, **options):
        self._set_up(ruleset, players, render_mode, options, wait=True)
        self.wait = self.table.ids - 1

    def reset(self, seed=None, options=None):
        self.state_ = self.game.new_state(seed if seed is not None else 0)
        self.agents = self.possible_agents[:]
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
        for p in movers:
            legal = self.table.encoding.actions.legal(self.state_, p)
            action = actions.get(self.possible_agents[p])
            if action not in legal:
                raise ValueError(f"action {action} is not legal for player_{p} now")
            chosen.append(legal[action])
        for move in chosen:  # all chosen before any is played: nobody reacts to another's choice
            self.state_ = self.game.apply(self.state_, move)
        over = self.state_.over or not self.game.current_players(self.state_)
        rewards = dict(zip(self.possible_agents, final_rewards(self.game, self.state_))) if over else \
            {a: 0.0 for a in self.agents}
        observations = self._observations()
        terminations = {a: over for a in self.agents}
        truncations = {a: False for a in self.agents}
        infos = {a: {} for a in self.agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs a render_mode ('ansi')")
            return None
        return self.game.render(self.state_, 0, width=80)

    def close(self):
        pass
