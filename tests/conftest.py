"""The suite's order: the longest files first.

Run with `pytest -n` (CI: two workers), each worker takes tests in the order collected.
Collected by name, the whole games in Chromium and the long random games came last, and one
worker played them for minutes while the other had nothing left to do.  Started first, they
run beside the many short tests instead.  Only the order changes: every test still runs,
and the tests of a file keep their order among themselves."""
from __future__ import annotations

# Each of these takes a minute or more of one worker (pytest --durations).
LONGEST_FIRST = ("test_web_whole_games.py", "test_leaks.py", "test_valdora.py", "test_properties.py",
                 "test_adapters_whole_games.py", "test_simulation_ray.py", "test_freyas_folly.py",
                 "test_backend_differential.py", "test_lsp_server.py")


def pytest_collection_modifyitems(session, config, items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # a stable sort
