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
       ("freyas-folly", 3, 15), ("tests/fixtures/leaks/secret_bet_poker.yaml", 2, 200)]


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


# -- seeding, episode limits, illegal actions, returns ------------------------------------------

def _first_state(e):
    return e.state_.to_data()


def test_reset_without_a_seed_goes_on_with_the_environments_generator():
    """As Gymnasium: reset(seed=s) seeds, and each reset() after it plays the next game
    of that generator; the same seed gives the same sequence of games."""
    e, twin = env("treasure-hunter", 3), env("treasure-hunter", 3)
    games = []
    for environment in (e, twin):
        environment.reset(seed=7)
        seen = [_first_state(environment)]
        for _ in range(2):
            environment.reset()
            seen.append(_first_state(environment))
        games.append(seen)
    assert games[0] == games[1]
    assert games[0][0] != games[0][1] != games[0][2]
    e.reset(seed=7)
    assert _first_state(e) == games[0][0]
    unseeded = env("treasure-hunter", 3)
    unseeded.reset()
    first = _first_state(unseeded)
    unseeded.reset()
    assert _first_state(unseeded) != first


def test_pettingzoo_seed_tests():
    from pettingzoo.test import parallel_seed_test, seed_test
    seed_test(lambda: env("treasure-hunter", 3), num_cycles=30)
    seed_test(lambda: env("goofspiel", 2, cards=5), num_cycles=30)
    parallel_seed_test(lambda: parallel_env("goofspiel", 3, illegal="random"), num_cycles=30)


def test_pettingzoo_max_cycles_test():
    """PettingZoo's own check samples actions without the mask, so the environments are
    made with illegal="random"."""
    import functools
    import types

    from pettingzoo.test import max_cycles_test
    for name, players in [("goofspiel", 2), ("goofspiel", 3), ("treasure-hunter", 2)]:
        module = types.SimpleNamespace(
            env=functools.partial(env, name, players, illegal="random"),
            parallel_env=functools.partial(parallel_env, name, players, illegal="random"))
        max_cycles_test(module)


def test_an_episode_is_truncated_after_max_cycles():
    e = env("valdora", 3, max_cycles=5)
    e.reset(seed=1)
    steps, last = 0, None
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        last = (terminated, truncated, reward)
        e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
        steps += not (terminated or truncated)
    assert steps == 15 and last == (False, True, 0.0) and not e.state_.over
    p = parallel_env("goofspiel", 2, max_cycles=3)
    obs, _ = p.reset(seed=1)
    for step in range(3):
        actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in p.agents}
        obs, rewards, terms, truncs, _ = p.step(actions)
    assert truncs == {"player_0": True, "player_1": True} and not any(terms.values()) and p.agents == []
    unlimited = env("nim", 2)
    assert api_test(unlimited, num_cycles=50, verbose_progress=False) is None and unlimited.max_cycles is None


def test_an_illegal_action_raises_or_is_replaced_by_a_random_legal_one():
    e = env("connect-four")
    e.reset(seed=3)
    with pytest.raises(ValueError, match="not legal"):
        e.step(99)
    lenient = env("tic-tac-toe", illegal="random")
    lenient.reset(seed=3)
    lenient.step(0)
    lenient.step(0)  # taken already: some other free cell is marked instead
    assert lenient.infos["player_1"] == {"illegal_action": 0} and lenient.state_.move_count == 2
    with pytest.raises(ValueError, match="illegal must be one of"):
        env("nim", illegal="ignore")
    with pytest.raises(ValueError, match="max_cycles"):
        env("nim", max_cycles=0)


def test_score_returns_through_pettingzoo():
    """A ruleset whose scores are declared zero-sum pays its scores by default."""
    from pathlib import Path
    poker = str(Path(__file__).resolve().parent / "fixtures" / "leaks" / "secret_bet_poker.yaml")
    e = env(poker)
    totals = {a: 0.0 for a in e.possible_agents}
    e.reset(seed=4)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[-1]))
    assert e.returns == "score" and sorted(totals.values()) in ([-1.0, 1.0], [-2.0, 2.0])
    assert env(poker, returns="win").returns == "win" and env("nim").returns == "win"
