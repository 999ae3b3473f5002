"""Issue 43's targets read off a `meeple bench` run (benchmarks/targets.py)."""
import pytest

from meeple.benchmarks.targets import checks


def _row(game, **ratios):
    return {"game": game, "ratios": ratios}


def test_each_target_is_checked_against_the_figure_it_names():
    rows = [_row("nim", **{"compiled_vs_openspiel_playouts": 0.6, "compiled steps_vs_hand_written_playouts": 0.2,
                           "compiled steps_vs_openspiel_playouts": 0.3}),
            _row("goofspiel", compiled_vs_hand_written_playouts=0.55),
            _row("freyas-folly", compiled_vs_reference_moves=12.0),
            _row("hex", compiled_vs_openspiel_playouts=0.1)]
    found = {(c.target, c.game): (c.measured, c.met) for c in checks(rows)}
    assert found == {
        ("playouts ≥ 0.5× OpenSpiel", "nim"): (0.6, True),
        ("playouts never below 0.25× OpenSpiel", "nim"): (0.6, True),
        ("playouts ≥ 0.5× OpenSpiel", "hex"): (0.1, False),
        ("playouts never below 0.25× OpenSpiel", "hex"): (0.1, False),
        ("step API ≥ 0.3× the hand-written loop", "nim"): (0.2, False),
        ("step API ≥ 0.25× OpenSpiel", "nim"): (0.3, True),
        ("goofspiel playouts ≥ 0.5× the hand-written loop", "goofspiel"): (0.55, True),
        ("freyas-folly ≥ 20× the reference", "freyas-folly"): (12.0, False),
    }


def test_a_target_without_a_figure_is_left_out_and_mcts_counts_the_adapters_rollouts():
    assert checks([_row("hex")]) == []  # no OpenSpiel in this run: nothing claimed
    assert checks([_row("hex", **{"compiled steps_vs_hand_written_playouts": 0.9})]) == []  # not a step game
    (mcts,) = checks([], {"OpenSpiel's rollouts": 100.0, "playout rollouts": 300.0, "OpenSpiel": 1000.0})
    assert mcts.game == "connect-four" and mcts.measured == pytest.approx(0.3) and mcts.met


def test_the_bench_table_ends_with_the_targets(capsys):
    from meeple.benchmarks.playouts import run_bench
    run_bench(["nim"], 0.05)
    out = capsys.readouterr().out
    assert "issue 43's targets in this run" in out and "step API ≥ 0.3× the hand-written loop" in out
    assert "checks met" in out
