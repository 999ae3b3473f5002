"""What the tests of the flow idioms of issue 42 share (test_flow_again.py,
test_flow_turns_until.py, test_conditional_pass.py): a one-file ruleset loaded on a
back end, moves played by whoever is to move, the located errors of a ruleset that
must not load, the lockstep of the two back ends, and the check that both playout
tiers of the compiled back end end where the move-by-move loop ends."""
from __future__ import annotations

import pytest

from meeple.dsl.diagnostics import RulesetError
from meeple.interpreter import load_game
from meeple.interpreter.analysis.differential import compare_backends

from ruleset_support import write_ruleset
from test_kernel import _same_playouts

BACKENDS = ["reference", "compiled"]


def game_of(tmp_path, text: str, backend: str, name: str, players: int):
    return load_game(write_ruleset(tmp_path, text, name), players, backend=backend)


def play(game, moves, state=None):
    """Play `moves` (texts, each by whoever is to move): the state, and who moved in order."""
    state, movers = state or game.new_state(0), []
    for text in moves:
        movers.append(game.current_players(state)[0])
        state = game.apply(state, text)
    return state, movers


def codes_and_places(tmp_path, text: str) -> list[tuple[str, int, int]]:
    """(code, line, column) of each error of a ruleset that must not load."""
    with pytest.raises(RulesetError) as err:
        load_game(write_ruleset(tmp_path, text, "bad"))
    return [(d.code, d.span.line, d.span.col) for d in err.value.errors]


def check_both_playout_tiers(tmp_path, monkeypatch, text: str, name: str, players: int, seeds=range(12)):
    """The fused tier, then the kernel alone, play the same playouts as the loop, and
    never hand one back to it."""
    game = game_of(tmp_path, text, "compiled", name, players)
    assert game.rules.playout_tier() == "fused"
    _same_playouts(game, seeds=seeds)
    assert game.kernel_fallbacks == 0
    from meeple.interpreter.codegen import backend
    monkeypatch.setattr(backend, "build_fused", lambda *a, **k: None)
    game = game_of(tmp_path, text, "compiled", name + "-kernel", players)  # a file of its own: rules are kept per file
    assert game.rules.playout_tier() == "kernel"
    _same_playouts(game, seeds=seeds)
    assert game.kernel_fallbacks == 0


def check_lockstep(tmp_path, text: str, name: str, players: int, seed: int):
    """Both back ends play the same seeded games and agree at every step."""
    report = compare_backends(write_ruleset(tmp_path, text, name), players, games=6, seed=seed)
    assert report.ok, str(report)
    assert report.moves > 0 and report.playouts > 0 and report.deopts == 0
