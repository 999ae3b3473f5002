"""Fuzzing in the suite, kept short: mutated rulesets and random expressions must end
in located diagnostics, a located runtime error or a clean game, never a traceback and
never past the time budget.  `python -m meeple.benchmarks.fuzz_rulesets -n 10000` runs
the long version (figures in benchmarks/README.md)."""
from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from meeple.benchmarks.fuzz_rulesets import check_files, read_files, run_case, within_budget
from meeple.benchmarks.mutations import EXPR_TOKENS, mutate_files

ROOT = Path(__file__).resolve().parent.parent
# Small rulesets, so that a case costs a fraction of a second; the long run mutates all.
SOURCES = [ROOT / "rulesets" / n for n in ("tic-tac-toe", "nim", "goofspiel", "connect-four")] + \
    [ROOT / "examples" / "high-card"] + sorted(p for p in (ROOT / "tests" / "games").iterdir() if p.is_dir())
CLEAN = {"diagnosed", "runtime-error", "played"}
FUZZ = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(source=st.sampled_from(SOURCES), seed=st.integers(0, 2**32 - 1))
def test_a_mutated_ruleset_fails_cleanly_or_plays(source, seed):
    result = run_case(source, seed, max_moves=60, budget=10.0)
    assert result.kind in CLEAN, result.detail


LARGE = [ROOT / "rulesets" / n for n in ("valdora", "zavandor", "treasure-hunter", "freyas-folly")]


@settings(max_examples=16, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(source=st.sampled_from(LARGE), seed=st.integers(0, 2**32 - 1))
def test_a_mutated_rulebook_game_fails_cleanly_or_plays(source, seed):
    # The four rulebook games take a second or two each to validate, so fewer cases here.
    result = run_case(source, seed, max_moves=30, budget=10.0)
    assert result.kind in CLEAN, result.detail


def test_mutations_are_reproducible_from_the_seed():
    files = read_files(SOURCES[0])
    assert mutate_files(files, random.Random(7)) == mutate_files(files, random.Random(7))
    changed = sum(mutate_files(files, random.Random(s)) != files for s in range(20))
    assert changed >= 15  # a few mutations may cancel out or miss; most change the files


_GAME = ('game: {{name: e, players: 2}}\n'
         'define: {{big: {{expr: "range(1000)"}}, f: {{params: [k], expr: "k if k < 1 else f(k - 1) + f(k - 1)"}}}}\n'
         'variables: {{n: {{type: int, initial: 0}}, x: {{type: any, initial: {expr}}}}}\n'
         'flow: [{{loop: [{{turns: "players()", do: [{{choose: [go]}}]}}]}}]\n'
         'actions: {{go: {{effects: ["n += 1", {{set: {effect}}}]}}}}\n'
         'end: [{{when: "n >= 4"}}]\n')
_ATOMS = ["big", "f(3)", "f(30)", "n", "x", "1", "0", "'a'", "[1, 2]", "{'a': 1}", "true", "none", "player"]


@FUZZ
@given(tokens=st.lists(st.sampled_from(EXPR_TOKENS + _ATOMS), min_size=1, max_size=8),
       target=st.sampled_from(["x", "n"]))
def test_a_random_expression_is_refused_or_evaluated_within_limits(tokens, target):
    expr = "".join(tokens)
    text = _GAME.format(expr=json.dumps(expr), effect=json.dumps(f"{target} = {expr}"))
    kind, codes, detail = within_budget(lambda: check_files({"game.yaml": text.encode()}, 0, 8), 10.0)
    assert kind in CLEAN, detail
