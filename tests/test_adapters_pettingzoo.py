"""Every ruleset as a PettingZoo environment (adapters/pettingzoo.py), checked by PettingZoo."""
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

from meeple.adapters.pettingzoo import env, parallel_env

# (ruleset, players, cycles of PettingZoo's test): the rulebook games are long, so their
# test covers the first moves; the small games are played to their end.
AEC = [("tic-tac-toe", 2, 200), ("connect-four", 2, 200), ("nim", 2, 200), ("goofspiel", 3, 200),
       ("examples/high-card", 2, 200), ("treasure-hunter", 3, 20), ("zavandor", 2, 20), ("valdora", 3, 15),
       ("freyas-folly", 3, 15)]


@pytest.fixture(autouse=True)
def _quiet():
    # PettingZoo advises Box observations; ours are dicts with the action mask, as it documents.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("name,players,cycles", AEC)
def test_pettingzoo_api(name, players, cycles):
    api_test(env(name, players), num_cycles=cycles, verbose_progress=False)


@pytest.mark.parametrize("name,players,cycles", [("goofspiel", 2, 200), ("treasure-hunter", 3, 20)])
def test_pettingzoo_parallel_api(name, players, cycles):
    parallel_api_test(parallel_env(name, players), num_cycles=cycles)


def test_an_aec_loop_with_masks_plays_treasure_hunter_to_its_end():
    e = env("treasure-hunter", players=3)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    totals = {a: 0.0 for a in e.possible_agents}
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)
        steps += 1
    assert steps > 100 and sum(totals.values()) == 0 and max(totals.values()) > 0


def test_the_parallel_env_asks_only_the_players_to_move():
    p = parallel_env("goofspiel", players=2, cards=3)
    obs, _ = p.reset(seed=1)
    for agent in p.agents:  # both bid at once
        assert obs[agent]["action_mask"][:-1].sum() == 3 and obs[agent]["action_mask"][-1] == 0
    actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in p.agents}
    obs, rewards, terms, _, _ = p.step(actions)
    assert not any(terms.values())
    assert all(obs[a]["action_mask"][:-1].sum() == 2 for a in p.agents)
