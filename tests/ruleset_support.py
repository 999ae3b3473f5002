"""What every rulebook transcription is tested for, shared by the per-game test files.

Random play is the same policy as `meeple simulate` and the CLI's random bot: a uniform
choice among all legal moves from a generator seeded with the game's seed.  Each game must
end by the ruleset's own end rules (there is no turn cap in any ruleset), never reach a state
without legal moves, and keep every declared invariant after every move.
"""
from __future__ import annotations

import random

from meeple.interpreter import load_game, load_rules
from meeple.interpreter.analysis.conformance import conformance_report


def play_random_game(game, seed: int, move_cap: int):
    """Play one seeded random game to its end, checking invariants after every move.

    `move_cap` is a safety net for the test itself, far above the real lengths: reaching it
    fails the test, it never ends a game."""
    rnd = random.Random(seed)
    state = game.new_state(seed)
    assert game.invariant_failures(state) == [], f"seed {seed}: invariants broken by set-up"
    moves = 0
    while not game.is_terminal(state):
        assert moves < move_cap, f"seed {seed}: no end after {move_cap} moves"
        legal = game.legal_moves(state)
        assert legal, f"seed {seed}: no legal move in phase {state.phase}"
        state = game.apply(state, legal[rnd.randrange(len(legal))])
        moves += 1
        failures = game.invariant_failures(state)
        assert failures == [], f"seed {seed}, move {moves}: {[str(f) for f in failures]}"
    return state


def random_states(game, seed: int, steps: int):
    """(move number, state) along one seeded random game, for at most `steps` moves or
    to its end: the walk the tests that look at every step's state share."""
    rnd = random.Random(seed)
    state = game.new_state(seed)
    for step in range(steps + 1):
        yield step, state
        if state.over or step == steps:
            return
        legal = game.legal_moves(state)
        state = game.apply(state, legal[rnd.randrange(len(legal))])


def check_random_games(name: str, players: int, seeds, move_cap: int, options=None):
    """Random games for each seed; returns their outcomes for game-specific checks."""
    game = load_game(name, players, options or {})
    outcomes = []
    for seed in seeds:
        state = play_random_game(game, seed, move_cap)
        outcome = game.outcome(state)
        assert outcome.winners and len(outcome.scores) == players, f"seed {seed}: {outcome}"
        outcomes.append((state, outcome))
    return outcomes


def check_conformance_complete(name: str):
    report = conformance_report(load_rules(name).ruleset)
    assert report["gaps"] == [] and report["unknown_citations"] == [], report
    assert report["complete"], report


def write_ruleset(tmp_path, text: str, name: str) -> str:
    """A one-file ruleset written for a test; its path, as load_game takes it."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def every_configuration():
    """(ruleset, player count) for every shipped ruleset, the example and the test games,
    at every player count each supports: what the back-end comparisons run over."""
    import pytest
    from pathlib import Path
    from meeple.interpreter import list_rulesets
    root = Path(__file__).resolve().parent.parent
    names = list_rulesets() + [str(p) for p in sorted((root / "examples").iterdir()) if p.is_dir()] + \
        [str(p) for p in sorted((root / "tests" / "games").iterdir()) if p.is_dir()]
    for name in names:
        info = load_rules(name).ruleset.game
        for players in range(info.min_players, info.max_players + 1):
            yield pytest.param(name, players, id=f"{Path(name).name}-{players}p")


def playout_errors(path: str, seed: int) -> dict:
    """backend -> (code, span, the policy generator's state) of the error a seeded random
    playout of the ruleset at `path` stops with; and 'fallbacks': how often the compiled
    back end's fast playout handed back to the loop on a second game."""
    from meeple.interpreter.runtime.context import RuleError
    errors = {}
    for backend in ("reference", "compiled"):
        game = load_game(path, backend=backend)
        rng = random.Random(seed)
        try:
            game.playout(game.new_state(0), rng=rng)
        except RuleError as exc:
            errors[backend] = (exc.code, exc.span, rng.getstate())
    compiled = load_game(path, backend="compiled")
    try:
        compiled.playout(compiled.new_state(0), rng=random.Random(seed))
    except RuleError:
        pass
    errors["fallbacks"] = compiled.kernel_fallbacks
    return errors


# Outside the fused tier four times over (tests/test_fused.py, `meeple compile`): a map of
# lists, a list of lists, an action whose follow-up steps must be possible
# (`then_required`) that has a cost, and who decides at a simultaneous step read from a
# variable.
FOUR_REASONS = """
game: {name: four-reasons, players: 2}
variables:
  stock: {per: player, type: "map[str, list[int]]", initial: "{'a': [1]}"}
  names: {per: player, type: "list[list[bool]]", initial: "[]"}
  coins: {per: player, type: int, initial: 3, min: 0}
  first: {type: int, initial: 0}
flow:
  - loop:
      - choose: [buy]
      - simultaneous: [rest]
        players: "[first]"
    while: "coins[0] + coins[1] > 0"
actions:
  buy:
    rule: "buy"
    cost: {"coins[player]": 1}
    effects: []
    then_required: true
    then:
      - choose: [rest]
  rest:
    rule: "rest"
    effects: []
"""


def diagnostics_at(tmp_path, text: str) -> list[tuple]:
    """(code, line, the text the diagnostic points at, severity) of every diagnostic of a
    one-file ruleset (read, then checked), sorted: what tests of located errors compare."""
    import textwrap
    from meeple.dsl.load import check_ruleset, read_ruleset
    path = tmp_path / "game.yaml"
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    rs, diags = read_ruleset(path)
    if rs is not None:
        diags += check_ruleset(rs)
    lines = path.read_text(encoding="utf-8").split("\n")
    out = []
    for d in diags:
        line = lines[d.span.line - 1]
        end = d.span.end_col if d.span.end_line == d.span.line else len(line) + 1
        out.append((d.code, d.span.line, line[d.span.col - 1:end - 1], d.severity))
    return sorted(out)
